// simt/records.cpp — the interpreter's records: the step budget, identity fills of values without history,
// the left-to-right order of a combine's operands, the operators used, one-line kernel errors.
#include <string>
#include "core/limits.h"
#include "simt/launch.h"
#include "simt/values.h"

namespace rl::simt {

// Events of the run once the next record is made: the records of earlier launches and this one's, plus the next,
// less those that merge into another's event.
uint64_t Launch::events_with_next() const {
    return uint64_t(in_.record_base) - in_.merged_before + (out_.records.size() - first_) + 1 - out_.merged;
}

std::string Launch::who(uint32_t tid, uint32_t line) const {
    return "thread " + std::to_string(tid) + " of block " + std::to_string(block_) +
           (in_.scope.empty() ? "" : " (" + in_.scope + ")") + " on line " + std::to_string(line);
}

void Launch::fail(const std::string& message) {
    if (out_.error.empty()) out_.error = message;
    throw Stop{};
}

// A lane whose arrival at a barrier its warp's record stands for takes its place here too (warp_ops.cpp, arrive).
uint32_t Launch::take_seq(uint32_t tid, uint32_t line) {
    ThreadState& t = threads_[tid];
    if (t.seq >= limits::kStudentThreadEvents)
        fail(who(tid, line) + " records its " + std::to_string(limits::kStudentThreadEvents) +
             "th event: the step budget stops it (an endless loop?)");
    return t.seq++;
}

uint32_t Launch::record(EventKind kind, uint8_t flags, uint32_t detail, uint32_t aux, uint32_t dep0, uint32_t dep1,
                        uint64_t value, uint32_t line, uint32_t tid) {
    const uint32_t seq = take_seq(tid, line);
    // The trace limit counts events: a warp's lanes arriving together at a barrier are one record and one event; a
    // split warp's paths arriving apart are records of their own, merged by the assembly (out_.merged: none counted
    // so, the count can only be high).
    if (events_with_next() > limits::kTraceEvents)
        fail("the kernel makes more than " + std::to_string(limits::kTraceEvents) +
             " events (the trace limit, docs/limits.md; a warp's arrival at a __syncthreads() is one event): use a "
             "smaller n or grid");
    StudentRecord& r = out_.records.emplace_back();
    r.kind = kind;
    r.flags = flags;
    r.launch = in_.launch;
    r.thread = uint16_t(tid);
    r.line = uint16_t(line > 0xffff ? 0xffff : line);
    r.block = block_;
    r.seq = seq;
    r.detail = detail;
    r.aux = aux;
    r.dep[0] = dep0;
    r.dep[1] = dep1;
    r.value = value;
    return in_.record_base + uint32_t(out_.records.size() - first_ - 1);
}

// A value without history where the reduction takes one (a combine's operand, a store, a shuffle): the constant
// or index it holds becomes an IdentityFill, as `float sum = 0` does in the lab's dialect, and the register
// carries that fill from now on. An undefined one (an uninitialised variable) is a fill flagged undefined.
Val Launch::fill(Warp& w, uint32_t reg, uint32_t lane, uint32_t line) {
    Val v = value(w, reg, lane);
    const uint32_t tid = tid_of(w, lane);
    if (v.flags & kUndefined) {
        v = {poison_, kNone, kUndefined};
    } else {
        if (in_.op == rl::Op::Witness) v.bits = identity_;  // a constant covers no element
        if (in_.op == rl::Op::ArgMax) v.bits = (v.bits & 0xffffffffu) | (0xffffffffull << 32);  // (the constant, no element)
        v.flags = v.bits == identity_ ? kIdentity : 0;
    }
    v.hist = record(EventKind::IdentityFill, v.flags, 0, 0, kNone, kNone, v.bits, line, tid);
    if (is_value_register(reg)) set(w, reg, lane, v);
    return v;
}

namespace {
bool leaf(const StudentRecord& r) {
    return r.kind == EventKind::Load || r.kind == EventKind::SharedLoad || r.kind == EventKind::PartialLoad ||
           r.kind == EventKind::IdentityFill;
}
}  // namespace

// Operands in left-to-right order whatever the compiler did: clang loads `s[i] += s[j]`'s right side first. When
// the two operands are this thread's last two records, leaf values made right to left, they swap places in the
// thread's program order (as the fiber runtime does, so both give the same records).
void Launch::left_to_right(uint32_t a, uint32_t b, uint32_t tid) {
    if (a == kNone || b == kNone || a <= b || b < in_.record_base) return;
    StudentRecord &ra = at(a), &rb = at(b);
    if (ra.block != block_ || rb.block != block_ || ra.thread != tid || rb.thread != tid) return;
    if (ra.seq != rb.seq + 1 || ra.seq + 1 != threads_[tid].seq || !leaf(ra) || !leaf(rb)) return;
    std::swap(ra.seq, rb.seq);
}

void Launch::used(uint8_t combine) {
    if (out_.first_op < 0) out_.first_op = combine;
    out_.ops_used |= 1u << combine;
}

}  // namespace rl::simt
