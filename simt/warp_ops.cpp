// simt/warp_ops.cpp — what a warp does together: shuffles (Shuffle records, sources as PTX's shfl.sync picks
// them), votes, arrival at __syncthreads() (Barrier), __syncwarp (WarpSync) and __threadfence (Fence).
#include <algorithm>
#include "simt/launch.h"

namespace rl::simt {
namespace {

const char* shuffle_name(ShuffleKind kind) {
    switch (kind) {
        case ShuffleKind::Up: return "__shfl_up_sync";
        case ShuffleKind::Xor: return "__shfl_xor_sync";
        case ShuffleKind::Idx: return "__shfl_sync";
        default: return "__shfl_down_sync";
    }
}

}  // namespace

// The group numbers of one execution of a shuffle or __syncwarp by the lanes of `mask` (the Stepper puts a group on
// one step): each lane's k-th, as the fiber runtime numbers them. A warp whose paths went apart at a barrier runs
// each path's calls on its own, so there every execution is a group of its own, numbered past all before it.
uint32_t Launch::warp_group(const Warp& w, uint32_t mask, uint32_t ThreadState::*count, std::vector<uint32_t>& past) {
    if (!apart_[w.index]) return kNone;
    uint32_t g = past[w.index];
    each_lane(mask, [&](uint32_t l) { g = std::max(g, threads_[tid_of(w, l)].*count); });
    each_lane(mask, [&](uint32_t l) { threads_[tid_of(w, l)].*count = g; });
    return g;
}
uint32_t Launch::lane_group(uint32_t together, uint32_t& count, uint32_t& past) {
    const uint32_t g = together == kNone ? count : together;
    count = g + 1;
    past = std::max(past, g + 1);
    return g;
}

// The lanes executing this instruction are the ones that take part: a source lane outside them (another path of
// a divergent branch, exited, never launched) gives an undefined value. Values of the kernel's element type
// that carry no history become fills in their own lane first, so that each shuffle names its source's record.
void Launch::shuffle(Warp& w, const Inst& in, uint32_t mask) {
    const ShuffleKind kind = ShuffleKind(in.aux);
    const bool data = element_typed(in);
    const uint32_t together = warp_group(w, mask, &ThreadState::shuffles, past_shuffles_);
    Val source[32];
    each_lane(mask, [&](uint32_t l) {
        source[l] = value(w, in.b, l);
        if (data && source[l].hist == kNone) source[l] = fill(w, in.b, l, in.line);
    });
    Val result[32];
    each_lane(mask, [&](uint32_t l) {
        const uint32_t tid = tid_of(w, l);
        const uint32_t lane_mask = uint32_t(w.bits[size_t(in.a) * 32 + l]);
        // 64-bit lane arithmetic: a delta of any int (a student's bug) must not overflow
        const int64_t arg = int32_t(uint32_t(w.bits[size_t(in.c) * 32 + l]));
        const int64_t wd = 32 - int64_t((w.bits[size_t(in.d) * 32 + l] >> 8) & 0x1f);
        if (wd & (wd - 1))
            fail(who(tid, in.line) + ": " + shuffle_name(kind) + "'s width is " + std::to_string(wd) +
                 " (allowed: a power of two 1..32)");
        const int64_t lane = l, seg = lane & ~(wd - 1);
        int64_t src = lane, recorded = lane;
        switch (kind) {
            case ShuffleKind::Down:
                recorded = lane + arg;
                src = (lane - seg) + arg < wd ? recorded : lane;
                break;
            case ShuffleKind::Up: src = recorded = (lane - seg) - arg >= 0 ? lane - arg : lane; break;
            case ShuffleKind::Xor:
                // PTX's bfly: a partner in an earlier segment is read, one past this segment's end is not.
                recorded = lane ^ arg;
                src = recorded < seg + wd ? recorded : lane;
                break;
            default: src = recorded = seg + (arg & (wd - 1)); break;
        }
        Val got;
        if (src == lane) got = source[l];
        else if (src >= 0 && src < 32 && (mask >> src & 1u)) got = source[src];
        else got = {poison_, kNone, kUndefined};
        const uint32_t rec = recorded < 0 ? 0u : uint32_t(std::min<int64_t>(recorded, 255));
        const uint32_t ev = record(EventKind::Shuffle, got.flags, uint32_t(arg & 0xff) | rec << 8, lane_mask, got.hist, kNone,
                                   got.bits, in.line, tid);
        at(ev).group = lane_group(together, threads_[tid].shuffles, past_shuffles_[w.index]);
        result[l] = {got.bits, ev, got.flags};
    });
    each_lane(mask, [&](uint32_t l) { set(w, in.dst, l, result[l]); });
}

void Launch::vote(Warp& w, const Inst& in, uint32_t mask) {
    uint32_t yes = 0;
    each_lane(mask, [&](uint32_t l) { yes |= uint32_t(w.bits[size_t(in.b) * 32 + l] & 1) << l; });
    each_lane(mask, [&](uint32_t l) {
        const uint32_t named = uint32_t(w.bits[size_t(in.a) * 32 + l]) & mask;
        const uint32_t ballot = yes & named;
        uint64_t v = ballot;
        switch (VoteKind(in.aux)) {
            case VoteKind::Any: v = ballot != 0; break;
            case VoteKind::All: v = ballot == named; break;
            case VoteKind::Uni: v = ballot == 0 || ballot == named; break;
            default: break;
        }
        set(w, in.dst, l, {v, kNone, 0});
    });
}

void Launch::arrive(Warp& w, const Inst& in, uint32_t mask) {
    // The lanes arriving together (one warp, one line) at the same barrier of their count are one record, as they are
    // one event (kWarpArrival, core/student_record.h): aux = those lanes, under the lowest of them. Every lane still
    // takes its place in its own program order (a gap in its seq, where the assembly gives it its arrival): the record
    // costs 80 bytes once a warp instead of once a lane, and a barrier is most of a reduction's records.
    uint32_t counts[32], lanes[32], distinct = 0;
    each_lane(mask, [&](uint32_t l) {
        const uint32_t k = threads_[tid_of(w, l)].barriers;
        const uint32_t d = uint32_t(std::find(counts, counts + distinct, k) - counts);
        if (d == distinct) counts[distinct] = k, lanes[distinct++] = 0;
        lanes[d] |= 1u << l;
    });
    for (uint32_t d = 0; d < distinct; ++d) {
        const uint32_t k = counts[d];
        const uint32_t ev = record(EventKind::Barrier, 0, in.line, lanes[d], kNone, kNone, identity_, in.line,
                                   tid_of(w, uint32_t(__builtin_ctz(lanes[d]))));
        at(ev).group = k;
        at(ev).pad0 = kWarpArrival;
        if (reached_.empty() || reached_.back() < k)
            reached_.push_back(k);
        else if (auto it = std::lower_bound(reached_.begin(), reached_.end(), k); *it != k)
            reached_.insert(it, k);
        each_lane(lanes[d] & (lanes[d] - 1), [&](uint32_t l) { take_seq(tid_of(w, l), in.line); });
    }
    each_lane(mask, [&](uint32_t l) {
        ThreadState& t = threads_[tid_of(w, l)];
        ++t.barriers;
        if (BarrierKind(in.aux) != BarrierKind::Plain) t.predicate = w.bits[size_t(in.a) * 32 + l] != 0;
    });
}

void Launch::warp_sync(Warp& w, const Inst& in, uint32_t mask) {
    const uint32_t together = warp_group(w, mask, &ThreadState::warpsyncs, past_warpsyncs_);
    each_lane(mask, [&](uint32_t l) {
        const uint32_t tid = tid_of(w, l);
        const uint32_t named = uint32_t(w.bits[size_t(in.a) * 32 + l]);
        const uint32_t ev = record(EventKind::WarpSync, 0, 0, named, kNone, kNone, identity_, in.line, tid);
        at(ev).group = lane_group(together, threads_[tid].warpsyncs, past_warpsyncs_[w.index]);
    });
}

void Launch::fence(Warp& w, const Inst& in, uint32_t mask) {
    each_lane(mask, [&](uint32_t l) { record(EventKind::Fence, 0, 0, 0, kNone, kNone, identity_, in.line, tid_of(w, l)); });
}

}  // namespace rl::simt
