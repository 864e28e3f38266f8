// simt/memory.cpp — the interpreter's loads, stores and atomics: the run's global buffers (the input's elements as
// Load, others as PartialLoad, BlockPartial, Atomic, each with its buffer's id), shared arrays of the kernel's elements
// (SharedLoad, SharedStore), a counter (Ticket), and plain memory that records nothing (local arrays, other shared and
// __device__ variables, a buffer's bytes accessed at another size than an element's).
#include <cmath>
#include <cstring>
#include "simt/launch.h"
#include "simt/values.h"

namespace rl::simt {
namespace {

uint32_t saturate_index(int64_t i) { return i < 0 || i > 0xfffffffell ? 0xffffffffu : uint32_t(i); }

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

std::string array_words(const RegionState& r) {
    if (r.memory == Memory::Buffer) return "the buffer " + r.name;
    switch (r.space) {
        case Space::Local: return "a local array";
        case Space::Global: return "the __device__ variable " + r.name;
        default: return "the shared array " + r.name;
    }
}

uint64_t atomic_result(AtomicOp op, Type t, uint64_t old, uint64_t v) {
    const uint64_t m = type_bytes(t) == 8 ? ~0ull : type_bytes(t) == 4 ? 0xffffffffull : (1ull << (8 * type_bytes(t))) - 1;
    auto s = [&](uint64_t x) { return type_bytes(t) == 8 ? int64_t(x) : int64_t(int32_t(uint32_t(x))); };
    switch (op) {
        case AtomicOp::Add: return (old + v) & m;
        case AtomicOp::FAdd: {
            if (t == Type::F64) {
                double a, b;
                std::memcpy(&a, &old, 8);
                std::memcpy(&b, &v, 8);
                a += b;
                uint64_t r;
                std::memcpy(&r, &a, 8);
                return r;
            }
            float a, b;
            const uint32_t ua = uint32_t(old), ub = uint32_t(v);
            std::memcpy(&a, &ua, 4);
            std::memcpy(&b, &ub, 4);
            a += b;
            uint32_t r;
            std::memcpy(&r, &a, 4);
            return r;
        }
        case AtomicOp::Sub: return (old - v) & m;
        case AtomicOp::And: return old & v;
        case AtomicOp::Or: return old | v;
        case AtomicOp::Xor: return old ^ v;
        case AtomicOp::Max: return s(old) >= s(v) ? old : v;
        case AtomicOp::Min: return s(old) <= s(v) ? old : v;
        case AtomicOp::UMax: return old >= v ? old : v;
        case AtomicOp::UMin: return old <= v ? old : v;
        case AtomicOp::Xchg: return v;
        case AtomicOp::Inc: return old >= v ? 0 : (old + 1) & m;
        default: return old == 0 || old > v ? v : old - 1;  // Dec
    }
}

}  // namespace

void Launch::resolve(uint64_t pointer, uint32_t tid, const Inst& in, Place& at) {
    const uint32_t region = pointer_region(pointer);
    at.offset = pointer_offset(pointer);
    if (region < regions_.size()) {
        at.region = &regions_[region];
    } else {
        const uint32_t first = uint32_t(k_.regions.size()), locals = first - k_.locals_first;
        const uint32_t index = region - first, thread = locals ? index / locals : 0;
        if (region < first || locals == 0 || thread >= in_.block) {
            at.region = &regions_[0];
        } else {
            const Region& r = k_.regions[k_.locals_first + index % locals];
            at.local.memory = Memory::Plain;
            at.local.space = Space::Local;
            at.local.arena = kLocalArena;
            at.local.bytes = r.bytes;
            at.local.element_bytes = type_bytes(r.element);
            at.local.base = thread * frame_bytes_ + local_offset_[index % locals];
            at.region = &at.local;
        }
    }
    if (at.region->memory == Memory::Invalid)
        fail(who(tid, in.line) + " uses a pointer that points into no array (null, or past every array the kernel has)");
}

int64_t Launch::element_index(const Place& at, const Inst& in, uint32_t tid, const char* what) {
    const RegionState& r = *at.region;
    const uint32_t size = type_bytes(in.type);
    if (size == r.element_bytes && at.offset % int64_t(size) == 0) return floor_div(at.offset, int64_t(size));
    const std::string array = r.memory == Memory::Buffer ? r.name : array_words(r);
    if (size != r.element_bytes)
        fail(who(tid, in.line) + " " + what + " " + array + " " + std::to_string(size) + " bytes at a time, and its elements are " +
             std::to_string(r.element_bytes) + " bytes (the lab follows one element per access)");
    fail(who(tid, in.line) + " " + what + " " + array + " at a misaligned address (byte " + std::to_string(at.offset) + ")");
}

// What element granule g of a buffer holds: the register stored with history, else its bytes (an undefined value
// reads as poison, as an unwritten shared slot does).
Val Launch::buffer_value(const GlobalBuffer& b, uint64_t g, uint32_t size) const {
    Val v{0, b.mem.hist[g], b.mem.flags[g]};
    if (v.hist != kNone) {
        v.bits = b.mem.value[g];
    } else if (v.flags & kUndefined) {
        v.bits = poison_;
    } else {
        for (uint32_t k = 0; k < size; ++k) v.bits |= uint64_t(b.mem.bytes[g * 4 + k]) << (8 * k);
    }
    return v;
}

// The element an access of a buffer names, or -1 when it lies outside the buffer (a store there, must_fit, is a
// kernel error; a load reads an undefined value that the checker reports).
int64_t Launch::buffer_element(const Place& at, const Inst& in, uint32_t tid, const char* what, bool must_fit) {
    const int64_t i = element_index(at, in, tid, what);
    const RegionState& r = *at.region;
    const int64_t elements = int64_t(r.bytes / r.element_bytes);
    if (i >= 0 && i < elements) return i;
    if (must_fit)
        fail("out of range: " + who(tid, in.line) + " " + what + " " + r.name + "[" + std::to_string(i) + "], and " + r.name + " has " +
             std::to_string(elements) + " elements (0.." + std::to_string(elements - 1) + ")");
    return -1;
}

Val Launch::load_buffer(const Place& at, const Inst& in, uint32_t tid) {
    const RegionState& r = *at.region;
    const GlobalBuffer& b = *r.buffer;
    ThreadState& t = threads_[tid];
    const int64_t offset_index = element_index(at, in, tid, "reads");
    const int64_t i = buffer_element(at, in, tid, "reads", false);
    const uint64_t g = i < 0 ? 0 : uint64_t(i) * r.element_bytes / 4;
    Val v;
    uint32_t ev;
    if (b.input && (i < 0 || b.mem.hist[g] == kNone)) {
        // An element of the input no launch overwrote: a Load of in[i]; outside the input an undefined one.
        if (i < 0 || uint64_t(i) >= b.input_elements) {
            v = {poison_, kNone, kUndefined};
            ev = record(EventKind::Load, kUndefined, t.loads++, saturate_index(offset_index), kNone, kNone, poison_, in.line, tid);
        } else {
            v = buffer_value(b, g, r.element_bytes);
            if (in_.op == rl::Op::Witness) v.bits = pack_value(WitnessValue{uint32_t(i), uint32_t(i)});
            if (in_.op == rl::Op::ArgMax) v.bits = (v.bits & 0xffffffffu) | (uint64_t(uint32_t(i)) << 32);  // (in[i], i)
            v.flags = 0;
            ev = record(EventKind::Load, 0, t.loads++, uint32_t(i), kNone, kNone, v.bits, in.line, tid);
        }
    } else if (i < 0) {
        v = {poison_, kNone, kUndefined};
        ev = record(EventKind::PartialLoad, kUndefined, t.partial_loads++, saturate_index(offset_index), kNone, kNone, poison_, in.line, tid);
        this->at(ev).pad0 |= kOutsideBufferPad;
    } else {
        v = buffer_value(b, g, r.element_bytes);
        // Under --op argmax an element no launch wrote (tmp's -FLT_MAX) is a value of no element.
        if (in_.op == rl::Op::ArgMax && v.hist == kNone && in.type == k_.element) v.bits = (v.bits & 0xffffffffu) | (0xffffffffull << 32);
        ev = record(EventKind::PartialLoad, v.flags, t.partial_loads++, uint32_t(i), v.hist, kNone, v.bits, in.line, tid);
    }
    this->at(ev).pad0 |= buffer_pad(r.buffer_id);
    v.hist = ev;
    // Under --op argmax an int (an index) holds the pair (value, index) as its record's value; the kernel reads its int.
    if (in_.op == rl::Op::ArgMax && in.type != k_.element && i >= 0) {
        uint32_t bits = 0;
        std::memcpy(&bits, &b.mem.bytes[uint64_t(i) * r.element_bytes], 4);
        v.bits = bits;
    }
    return v;
}

void Launch::store_buffer(const Place& at, const Inst& in, uint32_t tid, Val v, uint64_t memory_bits) {
    const RegionState& r = *at.region;
    const int64_t i = buffer_element(at, in, tid, "writes", true);
    const uint32_t ev = record(EventKind::BlockPartial, v.flags, 0, uint32_t(i), v.hist, kNone, v.bits, in.line, tid);
    this->at(ev).pad0 |= buffer_pad(r.buffer_id);
    Granules& m = r.buffer->mem;
    const uint64_t first = uint64_t(i) * r.element_bytes;
    for (uint32_t k = 0; k < r.element_bytes; ++k) m.bytes[first + k] = uint8_t(memory_bits >> (8 * k));
    for (uint64_t g = first / 4; g < (first + r.element_bytes + 3) / 4; ++g) {
        m.hist[g] = ev;
        m.flags[g] = v.flags;
        m.value[g] = v.bits;
    }
}

uint8_t* Launch::plain_bytes(const Place& at, const Inst& in, uint32_t tid, uint32_t size, const char* what) {
    const RegionState& r = *at.region;
    if (at.offset < 0 || uint64_t(at.offset) + size > r.bytes) {
        const int64_t e = int64_t(r.element_bytes);
        const int64_t elements = int64_t(r.bytes) / e;
        fail("out of range: " + who(tid, in.line) + " " + what + " " + array_words(r) + " of " + std::to_string(elements) +
             " elements at index " + std::to_string(floor_div(at.offset, e)) + " (allowed 0.." + std::to_string(elements - 1) + ")");
    }
    return store_of(r).bytes.data() + r.base + uint64_t(at.offset);
}

Val Launch::read_plain(const Place& at, const Inst& in, uint32_t tid, uint32_t size) {
    const uint8_t* p = plain_bytes(at, in, tid, size, "reads");
    const ArenaState& a = store_of(*at.region);
    const uint64_t pos = at.region->base + uint64_t(at.offset), g = pos / 4;
    Val v{0, a.hist[g], a.flags[g]};
    if (size >= 4 && pos % 4 == 0 && v.hist != kNone) {
        v.bits = a.value[g];
    } else {
        for (uint32_t k = 0; k < size; ++k) v.bits |= uint64_t(p[k]) << (8 * k);
    }
    return v;
}

void Launch::write_plain(const Place& at, const Inst& in, uint32_t tid, uint32_t size, Val v) {
    if (at.region->read_only) fail(who(tid, in.line) + " writes to the __constant__ variable " + at.region->name);
    uint8_t* p = plain_bytes(at, in, tid, size, "writes");
    ArenaState& a = store_of(*at.region);
    const uint64_t pos = at.region->base + uint64_t(at.offset);
    for (uint32_t k = 0; k < size; ++k) p[k] = uint8_t(v.bits >> (8 * k));
    for (uint64_t g = pos / 4; g <= (pos + size - 1) / 4; ++g) {
        a.hist[g] = v.hist;
        a.flags[g] = v.flags;
    }
    a.value[pos / 4] = v.bits;
}

bool Launch::load(Warp& w, const Inst& in, uint32_t mask) {
    bool seen = false;
    Place at;
    each_lane(mask, [&](uint32_t l) {
        const uint32_t tid = tid_of(w, l);
        resolve(w.bits[size_t(in.a) * 32 + l], tid, in, at);
        Val v;
        switch (at.region->memory) {
            case Memory::Buffer:
                v = type_bytes(in.type) == at.region->element_bytes ? load_buffer(at, in, tid) : read_plain(at, in, tid, type_bytes(in.type));
                seen = true;
                break;
            case Memory::Shared: {
                const int64_t i = element_index(at, in, tid, "reads");
                const int64_t slots = int64_t(at.region->bytes / at.region->element_bytes);
                if (i < 0 || i >= slots)
                    fail("out of range: " + who(tid, in.line) + " indexes a shared array of " + std::to_string(slots) + " slots with " +
                         std::to_string(i) + " (allowed 0.." + std::to_string(slots - 1) + ")");
                const uint32_t slot = at.region->slot_base + uint32_t(i);
                const Slot& s = shared_[slot];
                if (s.writer == kNone)
                    v = {poison_, record(EventKind::SharedLoad, kUndefined, slot, 0, kNone, kNone, poison_, in.line, tid), kUndefined};
                else
                    v = {s.bits, record(EventKind::SharedLoad, s.flags, slot, 0, s.writer, kNone, s.bits, in.line, tid), s.flags};
                seen = true;
                break;
            }
            default:
                v = read_plain(at, in, tid, type_bytes(in.type));
                seen = seen || at.region->space != Space::Local;
                break;
        }
        set(w, in.dst, l, v);
    });
    return seen;
}

bool Launch::store(Warp& w, const Inst& in, uint32_t mask) {
    bool seen = false;
    Place at;
    each_lane(mask, [&](uint32_t l) {
        const uint32_t tid = tid_of(w, l);
        resolve(w.bits[size_t(in.a) * 32 + l], tid, in, at);
        switch (at.region->memory) {
            case Memory::Buffer: {
                if (type_bytes(in.type) != at.region->element_bytes) {
                    write_plain(at, in, tid, type_bytes(in.type), {value(w, in.b, l).bits, kNone, 0});
                    seen = true;
                    break;
                }
                Val v = value(w, in.b, l);
                if (in_.op == rl::Op::ArgMax && in.type != k_.element) {
                    // An index: its record holds (its value's element, the int), the buffer the kernel's int.
                    const uint32_t hist = followed(w, in, l, v.hist);
                    const uint64_t pair = index_pair(hist, v.bits);
                    Val p{pair, hist, uint8_t(v.flags & kUndefined)};
                    if (hist == kNone) {
                        if (pair == identity_) p.flags |= kIdentity;
                        p.hist = record(EventKind::IdentityFill, p.flags, 0, 0, kNone, kNone, pair, in.line, tid);
                    }
                    store_buffer(at, in, tid, p, v.bits);
                    seen = true;
                    break;
                }
                if (v.hist == kNone) v = fill(w, in.b, l, in.line);
                store_buffer(at, in, tid, v, v.bits);
                seen = true;
                break;
            }
            case Memory::Shared: {
                const int64_t i = element_index(at, in, tid, "writes");
                const int64_t slots = int64_t(at.region->bytes / at.region->element_bytes);
                if (i < 0 || i >= slots)
                    fail("out of range: " + who(tid, in.line) + " indexes a shared array of " + std::to_string(slots) + " slots with " +
                         std::to_string(i) + " (allowed 0.." + std::to_string(slots - 1) + ")");
                const uint32_t slot = at.region->slot_base + uint32_t(i);
                Val v = value(w, in.b, l);
                if (v.hist == kNone) v = fill(w, in.b, l, in.line);
                const uint32_t ev = record(EventKind::SharedStore, v.flags, slot, 0, v.hist, kNone, v.bits, in.line, tid);
                shared_[slot] = {v.bits, v.flags, ev};
                seen = true;
                break;
            }
            default: {
                Val v = value(w, in.b, l);
                v.hist = followed(w, in, l, v.hist);
                write_plain(at, in, tid, type_bytes(in.type), v);
                seen = seen || at.region->space != Space::Local;
                break;
            }
        }
    });
    return seen;
}

// Under --op argmax an index stored beside the branch form's value (Inst::d) takes that value's history: the index
// follows its value into memory.
uint32_t Launch::followed(const Warp& w, const Inst& in, uint32_t lane, uint32_t own) const {
    if (in_.op != rl::Op::ArgMax || in.d == kNoReg) return own;
    const uint32_t h = w.hist[size_t(in.d) * 32 + lane];
    return h != kNone ? h : own;
}

bool Launch::atomic(Warp& w, const Inst& in, uint32_t mask) {
    bool seen = false;
    Place at;
    const AtomicOp op = AtomicOp(in.aux);
    each_lane(mask, [&](uint32_t l) {
        const uint32_t tid = tid_of(w, l);
        resolve(w.bits[size_t(in.a) * 32 + l], tid, in, at);
        // An atomicAdd, atomicMax or atomicMin of the kernel's elements on a buffer is a combine the lab follows; any
        // other atomic on a buffer (a counter) works on its bytes, as on plain memory.
        const bool tracked = at.region->memory == Memory::Buffer && in.combine != kNoCombine &&
                             type_bytes(in.type) == at.region->element_bytes;
        switch (tracked || at.region->memory != Memory::Buffer ? at.region->memory : Memory::Plain) {
            case Memory::Shared:
                fail(who(tid, in.line) + " applies an atomic to the shared array " + at.region->name +
                     ": the lab follows shared arrays of the kernel's elements through loads and stores only");
            case Memory::Buffer: {
                const RegionState& r = *at.region;
                const int64_t i = buffer_element(at, in, tid, "applies an atomic to", true);
                Val v = value(w, in.b, l);
                if (v.hist == kNone) v = fill(w, in.b, l, in.line);
                used(in.combine);
                Granules& m = r.buffer->mem;
                const uint64_t first = uint64_t(i) * r.element_bytes;
                const Val old = buffer_value(*r.buffer, first / 4, r.element_bytes);
                const uint64_t now = combine_bits(in_.type, in_.op, in.combine, old.bits, v.bits);
                const uint8_t fl = uint8_t(v.flags | (old.flags & kTaintFlags));
                // The chain (dep[0]) and the position (aux) come from atomic_old in the assembly, as on the GPU.
                const uint32_t ev = record(EventKind::Atomic, fl, uint32_t(i), 0, kNone, v.hist, now, in.line, tid);
                this->at(ev).atomic_old = old.bits;
                this->at(ev).pad0 |= buffer_pad(r.buffer_id);
                for (uint32_t k = 0; k < r.element_bytes; ++k) m.bytes[first + k] = uint8_t(now >> (8 * k));
                for (uint64_t g = first / 4; g < (first + r.element_bytes + 3) / 4; ++g) {
                    m.hist[g] = ev;
                    m.flags[g] = fl;
                    m.value[g] = now;
                }
                if (in.dst != kNoReg) set(w, in.dst, l, {old.bits, kNone, uint8_t(old.flags & kUndefined)});
                seen = true;
                break;
            }
            default: {
                const uint32_t size = type_bytes(in.type);
                const Val old = read_plain(at, in, tid, size);
                const uint64_t now = atomic_result(op, in.type, old.bits, w.bits[size_t(in.b) * 32 + l]);
                write_plain(at, in, tid, size, {now, kNone, 0});
                // atomicAdd(&counter, 1) or atomicInc on a __device__ variable or a buffer: the last-block pattern's ticket.
                if ((at.region->space == Space::Global || at.region->memory == Memory::Buffer) && size == 4 && (op == AtomicOp::Add || op == AtomicOp::Inc)) {
                    const uint32_t ev = record(EventKind::Ticket, 0, 0, uint32_t(old.bits), kNone, kNone, identity_, in.line, tid);
                    this->at(ev).atomic_old = uint32_t(old.bits);
                }
                if (in.dst != kNoReg) set(w, in.dst, l, {old.bits, kNone, uint8_t(old.flags & kUndefined)});
                seen = seen || at.region->space != Space::Local;
                break;
            }
        }
    });
    return seen;
}

bool Launch::cmpxchg(Warp& w, const Inst& in, uint32_t mask) {
    bool seen = false;
    Place at;
    each_lane(mask, [&](uint32_t l) {
        const uint32_t tid = tid_of(w, l);
        resolve(w.bits[size_t(in.a) * 32 + l], tid, in, at);
        const bool element = at.region->memory == Memory::Buffer && type_bytes(in.type) == at.region->element_bytes;
        if (at.region->memory != Memory::Plain && (at.region->memory != Memory::Buffer || element))
            fail(who(tid, in.line) + " applies atomicCAS to " +
                 (at.region->memory == Memory::Buffer ? at.region->name : "the shared array " + at.region->name) +
                 ": the lab follows the kernel's elements through atomicAdd, atomicMax and atomicMin only");
        const uint32_t size = type_bytes(in.type);
        const Val old = read_plain(at, in, tid, size);
        const bool swap = old.bits == w.bits[size_t(in.b) * 32 + l];
        if (swap) write_plain(at, in, tid, size, {w.bits[size_t(in.c) * 32 + l], kNone, 0});
        set(w, in.dst, l, {old.bits, kNone, uint8_t(old.flags & kUndefined)});
        set(w, in.d, l, {swap ? 1u : 0u, kNone, 0});
        seen = seen || at.region->space != Space::Local;
    });
    return seen;
}

}  // namespace rl::simt
