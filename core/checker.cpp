// core/checker.cpp — the trace checker (first rules: the values lanes start from).
#include "core/checker.h"

#include <string>

namespace rl {
namespace {

// The packed identity of the trace's operator and type.
uint64_t identity_of(Op op, DType type) {
    auto bits = [&](auto acc) -> uint64_t {
        using A = decltype(acc);
        switch (op) {
            case Op::Sum: return pack_value(SumOp<A>::identity());
            case Op::Max: return pack_value(MaxOp<A>::identity());
            case Op::Min: return pack_value(MinOp<A>::identity());
            case Op::Prod: return pack_value(ProdOp<A>::identity());
            case Op::Witness: return pack_value(WitnessOp::identity());
            case Op::ArgMax: return pack_value(ArgMaxOp<float>::identity());
            case Op::SumCount: return pack_value(SumCountOp<float>::identity());
        }
        return 0;
    };
    switch (type) {
        case DType::F64: return bits(double{});
        case DType::I32: return bits(int32_t{});
        default: return bits(float{});
    }
}

}  // namespace

std::vector<Hazard> check_trace(const Trace& t) {
    std::vector<Hazard> out;
    const uint64_t identity = identity_of(t.schedule.op, t.schedule.type);
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.kind != EventKind::IdentityFill) continue;
        if (e.flags & kUndefined)
            out.push_back({HazardKind::UninitialisedTail, i, e.block, e.warp(), 1u << e.lane(),
                           "thread " + std::to_string(e.thread) + " has no element and its register was never set"});
        else if (e.value != identity)
            out.push_back({HazardKind::WrongIdentity, i, e.block, e.warp(), 1u << e.lane(),
                           "thread " + std::to_string(e.thread) + " has no element and starts from a value that is not the identity"});
    }
    return out;
}

void attach_checked_hazards(Trace& t) {
    for (Event& e : t.events) e.flags &= uint8_t(~kHazard);
    t.hazards = check_trace(t);
    for (const Hazard& h : t.hazards) t.events[h.event].flags |= kHazard;
}

}  // namespace rl
