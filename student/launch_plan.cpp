// student/launch_plan.cpp — the launches of a student's kernel and the records made ready for assembly.
#include "student/launch_plan.h"
#include <algorithm>
#include <numeric>
#include "core/student_trace.h"
#include "core/error.h"
#include "core/input.h"
#include "core/phase_clock.h"
#include "rlab/detail/host_abi.h"
#include "rlab/detail/record_flags.h"

namespace rl::student {

Op op_of(int combine) {
    switch (combine) {
        case RL_COMBINE_MAX: return Op::Max;
        case RL_COMBINE_MIN: return Op::Min;
        case RL_COMBINE_PROD: return Op::Prod;
        default: return Op::Sum;
    }
}

namespace {

template <class A> uint64_t identity_as(Op op) {
    switch (op) {
        case Op::Max: return pack_value(MaxOp<A>::identity());
        case Op::Min: return pack_value(MinOp<A>::identity());
        case Op::Prod: return pack_value(ProdOp<A>::identity());
        default: return pack_value(SumOp<A>::identity());
    }
}

// How the kernel writes each operator (rl_combine_op's bits in LaunchOutput::ops_used).
std::string written(uint32_t ops) {
    static const std::pair<int, const char*> names[] = {{RL_COMBINE_SUM, "+"}, {RL_COMBINE_PROD, "*"},
                                                        {RL_COMBINE_MAX, "max(a, b)"}, {RL_COMBINE_MIN, "min(a, b)"}};
    std::string s;
    for (const auto& [op, name] : names)
        if (ops >> op & 1u) s += (s.empty() ? "" : " and ") + std::string(name);
    return s;
}
int combine_code(Op op) {
    return op == Op::Max ? RL_COMBINE_MAX : op == Op::Min ? RL_COMBINE_MIN : op == Op::Prod ? RL_COMBINE_PROD : RL_COMBINE_SUM;
}

}  // namespace

// A reduction has one operator: the one --op names, else the kernel's first. A kernel that combines (or applies an
// atomic) with another cannot compute it, and its "wrong result" would only confuse: one line instead, naming both.
// --op witness merges element ranges whatever the kernel combines with, so it takes any kernel.
std::string operator_mismatch(Op run_op, bool op_given, uint32_t used) {
    if (run_op == Op::Witness) return {};
    const int own = combine_code(run_op);
    if (!(used & ~(1u << own))) return {};
    if (op_given)
        return "--op " + std::string(to_string(run_op)) + ": the kernel combines with " + written(used) +
               ", so it cannot compute " + std::string(to_string(run_op)) + ": run it with the kernel's operator (leave --op " +
               "out: the lab takes it from the kernel), or write " + written(1u << own) + " in the kernel";
    return "the kernel combines with " + written(used) + ": a reduction has one operator (the result is checked " +
           "against one), so write every combine and atomic with the same one";
}

uint64_t identity_bits(DType type, Op op) {
    if (op == Op::Witness) return pack_value(WitnessOp::identity());
    switch (type) {
        case DType::F64: return identity_as<double>(op);
        case DType::I32: return identity_as<int32_t>(op);
        default: return identity_as<float>(op);
    }
}

namespace {

bool retracted(const StudentRecord& r) { return (r.flags & RL_RETRACTED_RECORD) != 0; }

// A thread's kept records renumbered in program order: seq, a Load's or PartialLoad's k, and an operand that names no
// record dropped. A lane's arrival at a barrier that its warp's record stands for (kWarpArrival, core/student_record.h)
// is a gap in its seq, where the assembly gives it that arrival: it keeps its place, one for each such arrival of the
// lane (`virtuals`); every other gap (a retracted record's) closes.
struct ThreadCount {
    uint32_t seq = 0, loads = 0, partial_loads = 0;
    int64_t last_seq = -1;  // the seq the thread's previous record had (kept or dropped)
    uint32_t virtuals = 0;  // its arrivals recorded by a lower lane, not yet given their place
};
void renumber(StudentRecord& r, ThreadCount& c, size_t count) {
    const int64_t gap = int64_t(r.seq) - c.last_seq - 1;
    c.last_seq = r.seq;
    if (gap > 0) {
        const uint32_t keep = uint32_t(std::min<int64_t>(gap, c.virtuals));
        c.seq += keep;
        c.virtuals -= keep;
    }
    r.seq = c.seq++;
    if (r.kind == EventKind::Load) r.detail = c.loads++;
    if (r.kind == EventKind::PartialLoad) r.detail = c.partial_loads++;
    for (uint32_t& d : r.dep)
        if (d != kNoEvent && d >= count) d = kNoEvent;  // names no record
}

// Per thread of one block: the arrivals its warp's records stand for (the lanes of aux but the record's own).
void count_virtuals(const std::vector<StudentRecord>& records, const uint32_t* order, size_t count, std::vector<uint32_t>& out) {
    std::fill(out.begin(), out.end(), 0u);
    for (size_t k = 0; k < count; ++k) {
        const StudentRecord& r = records[order[k]];
        if (r.kind != EventKind::Barrier || !(r.pad0 & kWarpArrival)) continue;
        const uint32_t warp = r.thread / 32u * 32u;
        for (uint32_t lanes = r.aux & ~(1u << (r.thread % 32u)); lanes; lanes &= lanes - 1) {
            const uint32_t t = warp + uint32_t(__builtin_ctz(lanes));
            if (t >= out.size()) out.resize(size_t(t) + 1, 0u);
            ++out[t];
        }
    }
}

}  // namespace

std::vector<uint32_t> compact_records(std::vector<StudentRecord>& records, size_t first) {
    // Program order of each thread (the GPU may hand records in another order): by block, thread, seq; a block at a
    // time while its records are in the cache (core/student_trace.h).
    size_t dropped = 0;
    std::vector<uint32_t> virtuals;
    for_each_block_by_thread(records, first, [&](const uint32_t* order, size_t count, bool all) {
        if (all) dropped = 0;  // (renumbering a record again gives it the same numbers)
        for (size_t b = 0; b < count;) {  // block by block (one call holds one, or all of them)
            const StudentRecord& head = records[order[b]];
            size_t e = b;
            while (e < count && records[order[e]].launch == head.launch && records[order[e]].block == head.block) ++e;
            count_virtuals(records, order + b, e - b, virtuals);
            ThreadCount c;
            const StudentRecord* prev = nullptr;
            for (size_t k = b; k < e; ++k) {
                StudentRecord& r = records[order[k]];
                if (!prev || r.thread != prev->thread) c = {}, c.virtuals = r.thread < virtuals.size() ? virtuals[r.thread] : 0;
                prev = &r;
                if (retracted(r)) {
                    ++dropped;
                    c.last_seq = r.seq;
                    continue;
                }
                renumber(r, c, records.size());
            }
            b = e;
        }
    });
    if (!dropped) return {};  // every index stays
    // The kept records move down over the dropped ones.
    std::vector<uint32_t> map(records.size(), kNoEvent);
    for (size_t i = 0; i < first; ++i) map[i] = uint32_t(i);
    size_t kept = first;
    for (size_t i = first; i < records.size(); ++i)
        if (!retracted(records[i])) map[i] = uint32_t(kept++);
    for (size_t i = first; i < records.size(); ++i) {
        if (map[i] == kNoEvent) continue;
        StudentRecord r = records[i];
        for (uint32_t& d : r.dep)
            if (d != kNoEvent) d = map[d];  // in range (above); a dropped record's users lose it
        records[map[i]] = r;  // map[i] <= i: what it overwrites was read already
    }
    records.resize(kept);
    return map;
}

PlanOutcome run_launches(KernelBackend& backend, Schedule schedule, bool op_given, Backend which,
                         const std::string& kernel_file, const std::function<void()>& launches_done) {
    schedule.type = backend.element();
    schedule.items = 1;
    if (op_given && schedule.op != Op::Sum && schedule.op != Op::Max && schedule.op != Op::Min && schedule.op != Op::Prod &&
        schedule.op != Op::Witness)
        throw Error("--op " + std::string(to_string(schedule.op)) +
                    ": a student's kernel runs sum, max, min, prod, or witness (element ranges, to check the order)");
    if (!op_given) schedule.op = Op::Sum;
    if (std::string why = validate(schedule); !why.empty()) throw Error(why);
    if (schedule.n > 0x7fffffffull)
        throw Error("--n " + std::to_string(schedule.n) + ": the kernel's n is an int, so at most 2147483647 elements");
    schedule.grid = schedule.grid_size();
    const InputData input = make_input(schedule);
    phase::mark("input");

    PlanOutcome outcome;
    LaunchInput first;
    LaunchOutput out;
    for (int attempt = 0; attempt < 2; ++attempt) {
        first = LaunchInput{};
        first.grid = schedule.grid;
        first.block = schedule.block;
        first.n = int(schedule.n);
        first.op = schedule.op;
        first.type = schedule.type;
        first.input = &input;
        first.out.assign(schedule.grid, SlotState{identity_bits(schedule.type, schedule.op), kIdentity, kNoEvent});
        out = backend.launch(first);
        if (!out.error.empty()) {
            outcome.error = out.error;
            return outcome;
        }
        // The operator the kernel combines with decides rl::identity<T>() and out's start: run again with it.
        if (op_given || out.first_op < 0 || op_of(out.first_op) == schedule.op) break;
        schedule.op = op_of(out.first_op);
    }
    phase::mark("launch 0");
    if (std::string why = operator_mismatch(schedule.op, op_given, out.ops_used); !why.empty()) throw Error(why);
    std::vector<StudentRecord> records = std::move(out.records);
    std::vector<uint32_t> map = compact_records(records, 0);  // empty: every index stayed
    phase::mark("compact records");
    std::vector<SlotState> slots = out.out;
    for (SlotState& s : slots)
        if (s.writer != kNoEvent && !map.empty()) s.writer = map[s.writer];

    bool partials_beyond_0 = false, atomics = false;
    for (const StudentRecord& r : records) {
        partials_beyond_0 |= r.kind == EventKind::BlockPartial && r.aux != 0;
        atomics |= r.kind == EventKind::Atomic || r.kind == EventKind::Ticket;
    }
    const bool second = partials_beyond_0 && !atomics;
    if (second) {
        LaunchInput next;
        next.launch = 1;
        next.grid = 1;
        next.block = schedule.block;
        next.n = int(schedule.grid);
        next.op = schedule.op;
        next.type = schedule.type;
        next.input = &input;
        next.partials = slots;
        next.out = slots;
        next.record_base = uint32_t(records.size());
        LaunchOutput o2 = backend.launch(next);
        phase::mark("launch 1");
        if (!o2.error.empty()) {
            outcome.error = o2.error;
            return outcome;
        }
        if (std::string why = operator_mismatch(schedule.op, op_given, out.ops_used | o2.ops_used); !why.empty())
            throw Error(why);
        const size_t base = records.size();
        records.insert(records.end(), o2.records.begin(), o2.records.end());
        map = compact_records(records, base);
        phase::mark("compact records");
        slots = o2.out;
        for (SlotState& s : slots)
            if (s.writer != kNoEvent && !map.empty()) s.writer = map[s.writer];
    }
    if (launches_done) launches_done();
    // Stores stay BlockPartial: the assembly names the FinalStore (the last launch's store whose value out[0] holds).
    StudentRun run;
    run.schedule = schedule;
    run.backend = which;
    run.device = backend.device();
    run.kernel_file = kernel_file;
    run.out_identity = identity_bits(schedule.type, schedule.op);
    run.final_out0 = slots.empty() ? run.out_identity : slots[0].bits;
    run.second_launch = second;
    try {
        outcome.trace = trace_from_student_records(run, std::move(records), input);
    } catch (const Error& e) {
        outcome.error = std::string("the kernel's records do not make a trace: ") + e.what();
        outcome.assembly_failed = true;
        return outcome;
    }
    outcome.ok = true;
    return outcome;
}

}  // namespace rl::student
