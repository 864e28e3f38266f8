// simt/execute.cpp — one warp in lock step: a switch over decoded instructions, each run for the warp's active
// lanes (struct of arrays over 32 lanes); the reconvergence stack at branches; combines that record.
#include <cmath>
#include <cstring>
#include <limits>
#include "simt/launch.h"
#include "simt/values.h"

namespace rl::simt {
namespace {

constexpr uint64_t width_mask(Type t) {
    switch (t) {
        case Type::I1: return 1;
        case Type::I8: return 0xff;
        case Type::I16: return 0xffff;
        case Type::I32: case Type::F32: return 0xffffffffu;
        default: return ~0ull;
    }
}
constexpr int64_t sext(uint64_t v, Type t) {
    const int bits = t == Type::I1 ? 1 : int(type_bytes(t)) * 8;
    return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits);
}
inline float f32(uint64_t b) {
    const uint32_t u = uint32_t(b);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline double f64(uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}
inline uint64_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline uint64_t bits_of(double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}
inline double as_double(uint64_t b, Type t) { return t == Type::F32 ? double(f32(b)) : f64(b); }

bool icmp(Pred p, Type t, uint64_t a, uint64_t b) {
    switch (p) {
        case Pred::Eq: return a == b;
        case Pred::Ne: return a != b;
        case Pred::Ugt: return a > b;
        case Pred::Uge: return a >= b;
        case Pred::Ult: return a < b;
        case Pred::Ule: return a <= b;
        case Pred::Sgt: return sext(a, t) > sext(b, t);
        case Pred::Sge: return sext(a, t) >= sext(b, t);
        case Pred::Slt: return sext(a, t) < sext(b, t);
        default: return sext(a, t) <= sext(b, t);
    }
}
bool fcmp(Pred p, double a, double b) {
    const bool uno = std::isnan(a) || std::isnan(b);
    switch (p) {
        case Pred::False: return false;
        case Pred::Oeq: return !uno && a == b;
        case Pred::Ogt: return !uno && a > b;
        case Pred::Oge: return !uno && a >= b;
        case Pred::Olt: return !uno && a < b;
        case Pred::Ole: return !uno && a <= b;
        case Pred::One: return !uno && a != b;
        case Pred::Ord: return !uno;
        case Pred::Uno: return uno;
        case Pred::Ueq: return uno || a == b;
        case Pred::Fugt: return uno || a > b;
        case Pred::Fuge: return uno || a >= b;
        case Pred::Fult: return uno || a < b;
        case Pred::Fule: return uno || a <= b;
        case Pred::Une: return uno || a != b;
        default: return true;
    }
}

template <class To> uint64_t float_to_int(double d, Type t) {
    if (std::isnan(d)) return 0;
    const double lo = double(std::numeric_limits<To>::lowest()), hi = double(std::numeric_limits<To>::max());
    const To v = d <= lo ? std::numeric_limits<To>::lowest() : d >= hi ? std::numeric_limits<To>::max() : To(d);
    return uint64_t(v) & width_mask(t);
}

// The value of a combinable instruction computed as the hardware does (no record: no operand carries data).
uint64_t combinable_value(const Inst& in, uint64_t a, uint64_t b, uint64_t c) {
    const Type t = in.type;
    switch (in.op) {
        case Opcode::Add: return (a + b) & width_mask(t);
        case Opcode::Mul: return (a * b) & width_mask(t);
        case Opcode::FAdd: return t == Type::F32 ? bits_of(f32(a) + f32(b)) : bits_of(f64(a) + f64(b));
        case Opcode::FMul: return t == Type::F32 ? bits_of(f32(a) * f32(b)) : bits_of(f64(a) * f64(b));
        case Opcode::FMax: return t == Type::F32 ? bits_of(std::fmax(f32(a), f32(b))) : bits_of(std::fmax(f64(a), f64(b)));
        case Opcode::FMin: return t == Type::F32 ? bits_of(std::fmin(f32(a), f32(b))) : bits_of(std::fmin(f64(a), f64(b)));
        case Opcode::SMax: return sext(a, t) >= sext(b, t) ? a : b;
        case Opcode::SMin: return sext(a, t) <= sext(b, t) ? a : b;
        case Opcode::UMax: return a >= b ? a : b;
        case Opcode::UMin: return a <= b ? a : b;
        default: return (c & 1) == uint64_t(in.imm) ? a : b;  // MaxSelect, MinSelect: the select as written
    }
}

}  // namespace

// The top of the stack, ready to run: finished entries popped, a parked entry's unstarted sibling brought up
// (so that both sides of a branch reach their __syncthreads()). False: the warp waits at a barrier, or is done.
bool Launch::settle(Warp& w) {
    while (!w.stack.empty()) {
        Entry& top = w.stack.back();
        if ((top.mask & ~w.exited) == 0 || (top.pc == top.rpc && top.rpc != kNoPc)) {
            w.stack.pop_back();
            continue;
        }
        if (top.pc == kNoPc) fail("the lab's emulator lost track of where threads " + std::to_string(w.index * 32) + "-" +
                                  std::to_string(w.index * 32 + 31) + " of block " + std::to_string(block_) + " rejoin");
        if (!top.parked) return true;
        if (w.stack.size() >= 2) {
            Entry& below = w.stack[w.stack.size() - 2];
            if (!below.parked && below.rpc == top.rpc && below.pc != top.rpc && (below.mask & ~w.exited)) {
                std::swap(top, below);
                continue;
            }
        }
        return false;
    }
    return false;
}

void Launch::copy_edge(Warp& w, const Edge& e, uint32_t mask) {
    for (uint32_t k = e.first_copy; k < e.first_copy + e.copies; ++k) {
        const Copy& c = k_.copies[k];
        const size_t d = size_t(c.dst) * 32, s = size_t(c.src) * 32;
        each_lane(mask, [&](uint32_t l) {
            w.bits[d + l] = w.bits[s + l];
            w.hist[d + l] = w.hist[s + l];
            w.flags[d + l] = w.flags[s + l];
        });
    }
}

// Pre-Volta SIMT: a divergent branch runs the taken side, then the other, and the two rejoin at the branch's
// immediate post-dominator (the entry that waits there is the branching one, or the one below when that is
// already where this entry rejoins).
void Launch::branch(Warp& w, const Inst& in, uint32_t mask) {
    const Branch& br = k_.branches[size_t(in.imm)];
    Entry& e = w.stack.back();
    if (in.op == Opcode::Br) {
        copy_edge(w, br.to[0], mask);
        e.pc = br.to[0].target;
        return;
    }
    uint32_t taken = 0;
    const size_t cond = size_t(in.a) * 32;
    each_lane(mask, [&](uint32_t l) { taken |= uint32_t(w.bits[cond + l] & 1) << l; });
    const uint32_t not_taken = mask & ~taken;
    if (br.skips != kNoSide)  // these threads pass the barrier the other side holds: the next one they would reach
        each_lane(br.skips == 0 ? taken : not_taken, [&](uint32_t l) {
            ThreadState& t = threads_[tid_of(w, l)];
            if (!br.skip_exits) t.skip();
            else if (t.exit_skip == kNone) t.exit_skip = t.seq;  // skipped alive only if it records before it exits
        });
    if (taken) copy_edge(w, br.to[0], taken);
    if (not_taken) copy_edge(w, br.to[1], not_taken);
    if (!not_taken || !taken) {
        e.pc = br.to[taken ? 0 : 1].target;
        return;
    }
    const uint32_t r = br.reconverge;
    if (e.rpc == r && r != kNoPc) {
        w.stack.pop_back();
    } else {
        e.pc = r;
        e.mask = mask;
    }
    if (br.to[1].target != r) w.stack.push_back({br.to[1].target, not_taken, r});
    if (br.to[0].target != r) w.stack.push_back({br.to[0].target, taken, r});
}

void Launch::combine(Warp& w, const Inst& in, uint32_t mask) {
    const DType type = in_.type;
    each_lane(mask, [&](uint32_t l) {
        Val a = value(w, in.a, l), b = value(w, in.b, l);
        if (a.hist == kNone && b.hist == kNone) {
            const uint64_t c = in.c == kNoReg ? 0 : w.bits[size_t(in.c) * 32 + l];
            set(w, in.dst, l, {combinable_value(in, a.bits, b.bits, c), kNone, uint8_t((a.flags | b.flags) & kUndefined)});
            return;
        }
        if (a.hist == kNone) a = fill(w, in.a, l, in.line);
        if (in.b == in.a) b = a;  // v + v: one fill
        if (b.hist == kNone) b = fill(w, in.b, l, in.line);
        const uint32_t tid = tid_of(w, l);
        used(in.combine);
        left_to_right(a.hist, b.hist, tid);
        const uint64_t v = combine_bits(type, in_.op, in.combine, a.bits, b.bits);
        const uint8_t fl = combined_flags(a.flags, b.flags);
        set(w, in.dst, l, {v, record(EventKind::Combine, fl, 0, 0, a.hist, b.hist, v, in.line, tid), fl});
    });
}

// An operation that combines when an operand carries data, and otherwise computes as the hardware does.
void Launch::combinable(Warp& w, const Inst& in, uint32_t mask) {
    const size_t A = size_t(in.a) * 32, B = size_t(in.b) * 32, D = size_t(in.dst) * 32;
    bool history = false;
    each_lane(mask, [&](uint32_t l) { history = history || w.hist[A + l] != kNone || w.hist[B + l] != kNone; });
    if (in.combine != kNoCombine && history) {
        combine(w, in, mask);
        return;
    }
    const bool select = in.op == Opcode::MaxSelect || in.op == Opcode::MinSelect;
    each_lane(mask, [&](uint32_t l) {
        if (select) {  // the select as written, history and all
            const size_t src = ((w.bits[size_t(in.c) * 32 + l] & 1) == uint64_t(in.imm) ? A : B) + l;
            w.bits[D + l] = w.bits[src];
            w.hist[D + l] = w.hist[src];
            w.flags[D + l] = w.flags[src];
            return;
        }
        w.bits[D + l] = combinable_value(in, w.bits[A + l], w.bits[B + l], 0);
        w.hist[D + l] = kNone;
        w.flags[D + l] = uint8_t((w.flags[A + l] | w.flags[B + l]) & kUndefined);
    });
}

// The branch form `if (x > s[t]) s[t] = x;` (BranchMax; BranchMin for <): the value the block stores is a combine of
// the slot's loaded value (a) and x (b) when x is the greater (the smaller) and both carry data; otherwise (another
// way into the block that stores a smaller x, a value without history) x itself, as the kernel stores it. So a
// combine is recorded exactly where the stored value is the operator's result of the two.
void Launch::branch_combine(Warp& w, const Inst& in, uint32_t mask) {
    const Type t = in.type;
    each_lane(mask, [&](uint32_t l) {
        const Val a = value(w, in.a, l), b = value(w, in.b, l);
        bool ordered;
        if (t == Type::F32 || t == Type::F64) {
            const double x = as_double(b.bits, t), y = as_double(a.bits, t);
            ordered = in.op == Opcode::BranchMax ? x >= y : x <= y;  // false for a NaN
        } else {
            const int64_t x = sext(b.bits, t), y = sext(a.bits, t);
            ordered = in.op == Opcode::BranchMax ? x >= y : x <= y;
        }
        const bool data = a.hist != kNone && b.hist != kNone && !((a.flags | b.flags) & kUndefined);
        if (!ordered || !data || in.combine == kNoCombine) {
            set(w, in.dst, l, b);
            return;
        }
        const uint32_t tid = tid_of(w, l);
        used(in.combine);
        left_to_right(a.hist, b.hist, tid);
        const uint64_t v = combine_bits(in_.type, in_.op, in.combine, a.bits, b.bits);
        const uint8_t fl = combined_flags(a.flags, b.flags);
        set(w, in.dst, l, {v, record(EventKind::Combine, fl, 0, 0, a.hist, b.hist, v, in.line, tid), fl});
    });
}

uint64_t Launch::index_pair(uint32_t hist, uint64_t index_bits) {
    uint64_t value = pack_value(lowest_value<float>());
    if (hist != kNone && hist >= in_.record_base) value = at(hist).value & 0xffffffffu;
    return (value & 0xffffffffu) | (uint64_t(uint32_t(index_bits)) << 32);
}

bool Launch::run_warp(Warp& w) {
    bool ran = false;
    while (settle(w)) {
        Entry& e = w.stack.back();
        const uint32_t mask = e.mask & ~w.exited;
        uint32_t pc = e.pc;
        ran = true;
        for (;;) {
            const Inst& in = k_.code[pc];
            ++out_.instructions;
            const size_t D = size_t(in.dst) * 32, A = size_t(in.a) * 32, B = size_t(in.b) * 32;
            uint64_t* dbits = w.bits + D;
            uint32_t* dhist = w.hist + D;
            uint8_t* dflags = w.flags + D;
            const uint64_t* abits = w.bits + A;
            const uint64_t* bbits = w.bits + B;
            // A result computed from a and b alone: no history; undefined when an operand is.
            auto alu2 = [&](auto fn) {
                each_lane(mask, [&](uint32_t l) {
                    dbits[l] = fn(abits[l], bbits[l]);
                    dhist[l] = kNone;
                    dflags[l] = uint8_t((w.flags[A + l] | w.flags[B + l]) & kUndefined);
                });
            };
            auto alu1 = [&](auto fn) {
                each_lane(mask, [&](uint32_t l) {
                    dbits[l] = fn(abits[l]);
                    dhist[l] = kNone;
                    dflags[l] = uint8_t(w.flags[A + l] & kUndefined);
                });
            };
            // A conversion loses the value's history: one that carries data is not followed (one line instead).
            auto convert = [&](auto fn) {
                each_lane(mask, [&](uint32_t l) {
                    if (w.hist[A + l] != kNone)
                        fail(who(tid_of(w, l), in.line) + " converts a value computed from the input to " + type_name(in.type) +
                             ": the lab's emulator follows values of the kernel's element type (" + type_name(k_.element) +
                             ") only, so combine in " + type_name(k_.element));
                });
                alu1(fn);
            };
            const Type t = in.type;
            const uint64_t m = width_mask(t);
            switch (in.op) {
                case Opcode::Copy:
                    each_lane(mask, [&](uint32_t l) {
                        dbits[l] = abits[l];
                        dhist[l] = w.hist[A + l];
                        dflags[l] = w.flags[A + l];
                    });
                    break;
                case Opcode::Add: case Opcode::Mul: case Opcode::FAdd: case Opcode::FMul: case Opcode::FMax: case Opcode::FMin:
                case Opcode::SMax: case Opcode::SMin: case Opcode::UMax: case Opcode::UMin: case Opcode::MaxSelect: case Opcode::MinSelect:
                    combinable(w, in, mask);
                    break;
                case Opcode::BranchMax: case Opcode::BranchMin: branch_combine(w, in, mask); break;
                case Opcode::MaskedCombine: {
                    uint32_t on = 0;
                    const uint64_t* cbits = w.bits + size_t(in.c) * 32;
                    each_lane(mask, [&](uint32_t l) { on |= uint32_t((cbits[l] & 1) == uint64_t(in.imm)) << l; });
                    Inst op = in;
                    op.op = Opcode(in.aux);
                    op.c = kNoReg;
                    if (on) combinable(w, op, on);
                    each_lane(mask & ~on, [&](uint32_t l) {
                        dbits[l] = abits[l];
                        dhist[l] = w.hist[A + l];
                        dflags[l] = w.flags[A + l];
                    });
                    break;
                }
                case Opcode::Sub: alu2([&](uint64_t a, uint64_t b) { return (a - b) & m; }); break;
                case Opcode::UDiv: case Opcode::SDiv: case Opcode::URem: case Opcode::SRem:
                    each_lane(mask, [&](uint32_t l) {
                        if ((bbits[l] & m) == 0) fail(who(tid_of(w, l), in.line) + " divides by zero");
                    });
                    alu2([&](uint64_t a, uint64_t b) -> uint64_t {
                        const int64_t sa = sext(a, t), sb = sext(b, t);
                        const bool overflow = sb == -1 && sa == std::numeric_limits<int64_t>::min();
                        switch (in.op) {
                            case Opcode::UDiv: return (a / b) & m;
                            case Opcode::URem: return (a % b) & m;
                            case Opcode::SDiv: return overflow ? a : uint64_t(sa / sb) & m;
                            default: return overflow ? 0 : uint64_t(sa % sb) & m;
                        }
                    });
                    break;
                case Opcode::Shl: alu2([&](uint64_t a, uint64_t b) { return b >= 64 ? 0 : (a << b) & m; }); break;
                case Opcode::LShr: alu2([&](uint64_t a, uint64_t b) { return b >= 64 ? 0 : a >> b; }); break;
                case Opcode::AShr:
                    alu2([&](uint64_t a, uint64_t b) { return uint64_t(sext(a, t) >> (b >= 63 ? 63 : b)) & m; });
                    break;
                case Opcode::And: alu2([](uint64_t a, uint64_t b) { return a & b; }); break;
                case Opcode::Or: alu2([](uint64_t a, uint64_t b) { return a | b; }); break;
                case Opcode::Xor: alu2([](uint64_t a, uint64_t b) { return a ^ b; }); break;
                case Opcode::FSub:
                    if (t == Type::F32) alu2([](uint64_t a, uint64_t b) { return bits_of(f32(a) - f32(b)); });
                    else alu2([](uint64_t a, uint64_t b) { return bits_of(f64(a) - f64(b)); });
                    break;
                case Opcode::FDiv:
                    if (t == Type::F32) alu2([](uint64_t a, uint64_t b) { return bits_of(f32(a) / f32(b)); });
                    else alu2([](uint64_t a, uint64_t b) { return bits_of(f64(a) / f64(b)); });
                    break;
                case Opcode::FRem:
                    if (t == Type::F32) alu2([](uint64_t a, uint64_t b) { return bits_of(std::fmod(f32(a), f32(b))); });
                    else alu2([](uint64_t a, uint64_t b) { return bits_of(std::fmod(f64(a), f64(b))); });
                    break;
                case Opcode::FNeg: alu1([&](uint64_t a) { return t == Type::F32 ? a ^ 0x80000000u : a ^ (1ull << 63); }); break;
                case Opcode::FAbs: alu1([&](uint64_t a) { return t == Type::F32 ? a & 0x7fffffffu : a & ~(1ull << 63); }); break;
                case Opcode::FSqrt:
                    if (t == Type::F32) alu1([](uint64_t a) { return bits_of(std::sqrt(f32(a))); });
                    else alu1([](uint64_t a) { return bits_of(std::sqrt(f64(a))); });
                    break;
                case Opcode::ICmp:
                    alu2([&](uint64_t a, uint64_t b) -> uint64_t { return icmp(Pred(in.aux), t, a, b); });
                    break;
                case Opcode::FCmp:
                    alu2([&](uint64_t a, uint64_t b) -> uint64_t {
                        return fcmp(Pred(in.aux), as_double(a, t), as_double(b, t));
                    });
                    break;
                case Opcode::Select: {
                    const size_t C = size_t(in.c) * 32;
                    each_lane(mask, [&](uint32_t l) {
                        const size_t src = ((abits[l] & 1) ? B : C) + l;
                        dbits[l] = w.bits[src];
                        dhist[l] = w.hist[src];
                        dflags[l] = uint8_t(w.flags[src] | (w.flags[A + l] & kUndefined));
                    });
                    // An argmax's index (`bi = v > best ? i : bi`) follows its value: it takes the history of the max
                    // select on the same compare, the combine that covers both arms, whichever arm the kernel kept.
                    if (in.d != kNoReg && in_.op == rl::Op::ArgMax) {
                        const size_t V = size_t(in.d) * 32;
                        each_lane(mask, [&](uint32_t l) {
                            if (w.hist[V + l] != kNone) dhist[l] = w.hist[V + l];
                        });
                    }
                    break;
                }
                case Opcode::ZExt: convert([&](uint64_t a) { return a & m; }); break;
                case Opcode::SExt: convert([&](uint64_t a) { return uint64_t(sext(a, Type(in.aux))) & m; }); break;
                case Opcode::Trunc: convert([&](uint64_t a) { return a & m; }); break;
                case Opcode::FPToSI:
                    convert([&](uint64_t a) {
                        const double d = as_double(a, Type(in.aux));
                        return t == Type::I64 ? float_to_int<int64_t>(d, t) : t == Type::I32 ? float_to_int<int32_t>(d, t)
                               : t == Type::I16 ? float_to_int<int16_t>(d, t) : float_to_int<int8_t>(d, t);
                    });
                    break;
                case Opcode::FPToUI:
                    convert([&](uint64_t a) {
                        const double d = as_double(a, Type(in.aux));
                        return t == Type::I64 ? float_to_int<uint64_t>(d, t) : t == Type::I32 ? float_to_int<uint32_t>(d, t)
                               : t == Type::I16 ? float_to_int<uint16_t>(d, t) : float_to_int<uint8_t>(d, t);
                    });
                    break;
                case Opcode::SIToFP:
                    convert([&](uint64_t a) {
                        const int64_t v = sext(a, Type(in.aux));
                        return t == Type::F32 ? bits_of(float(v)) : bits_of(double(v));
                    });
                    break;
                case Opcode::UIToFP:
                    convert([&](uint64_t a) { return t == Type::F32 ? bits_of(float(a)) : bits_of(double(a)); });
                    break;
                case Opcode::FPExt: convert([](uint64_t a) { return bits_of(double(f32(a))); }); break;
                case Opcode::FPTrunc: convert([](uint64_t a) { return bits_of(float(f64(a))); }); break;
                case Opcode::PtrAdd: alu1([&](uint64_t a) { return a + uint64_t(in.imm); }); break;
                case Opcode::PtrIndex:
                    alu2([&](uint64_t a, uint64_t b) { return a + uint64_t(sext(b, Type(in.aux))) * uint64_t(in.imm); });
                    break;
                case Opcode::Alloca: {
                    const uint32_t locals = uint32_t(k_.regions.size()) - k_.locals_first;
                    each_lane(mask, [&](uint32_t l) {
                        const uint32_t region = uint32_t(k_.regions.size()) + tid_of(w, l) * locals + uint32_t(in.imm);
                        dbits[l] = make_pointer(region, 0);
                        dhist[l] = kNone;
                        dflags[l] = 0;
                    });
                    break;
                }
                case Opcode::SReg:
                    each_lane(mask, [&](uint32_t l) {
                        const uint32_t tid = tid_of(w, l);
                        uint64_t v = 0;
                        switch (SpecialReg(in.aux)) {
                            case SpecialReg::TidX: v = tid; break;
                            case SpecialReg::NtidX: v = in_.block; break;
                            case SpecialReg::CtaidX: v = block_; break;
                            case SpecialReg::NctaidX: v = in_.grid; break;
                            case SpecialReg::NtidY: case SpecialReg::NtidZ: case SpecialReg::NctaidY: case SpecialReg::NctaidZ: v = 1; break;
                            case SpecialReg::LaneId: v = l; break;
                            case SpecialReg::WarpSize: v = 32; break;
                            case SpecialReg::LanemaskLt: v = (1ull << l) - 1; break;
                            case SpecialReg::LanemaskLe: v = (2ull << l) - 1; break;
                            case SpecialReg::LanemaskEq: v = 1ull << l; break;
                            case SpecialReg::LanemaskGe: v = ~((1ull << l) - 1); break;
                            case SpecialReg::LanemaskGt: v = ~((2ull << l) - 1); break;
                            default: v = 0; break;  // .y and .z of a one-dimensional launch
                        }
                        dbits[l] = v & 0xffffffffu;
                        dhist[l] = kNone;
                        dflags[l] = 0;
                    });
                    break;
                case Opcode::Nop:
                    if (in.dst != kNoReg)
                        each_lane(mask, [&](uint32_t l) {
                            dbits[l] = 0;
                            dhist[l] = kNone;
                            dflags[l] = 0;
                        });
                    break;
                case Opcode::ActiveMask:
                    each_lane(mask, [&](uint32_t l) {
                        dbits[l] = mask;
                        dhist[l] = kNone;
                        dflags[l] = 0;
                    });
                    break;
                case Opcode::Vote: vote(w, in, mask); break;
                // Memory other warps see, shuffles, fences and __syncwarp end the warp's turn (round robin).
                case Opcode::Load: case Opcode::Store: case Opcode::Atomic: case Opcode::CmpXchg: {
                    const bool seen = in.op == Opcode::Load    ? load(w, in, mask)
                                      : in.op == Opcode::Store ? store(w, in, mask)
                                      : in.op == Opcode::Atomic ? atomic(w, in, mask)
                                                            : cmpxchg(w, in, mask);
                    if (!seen) break;
                    e.pc = pc + 1;
                    return true;
                }
                case Opcode::Shuffle: shuffle(w, in, mask); e.pc = pc + 1; return true;
                case Opcode::WarpSync: warp_sync(w, in, mask); e.pc = pc + 1; return true;
                case Opcode::Fence: fence(w, in, mask); e.pc = pc + 1; return true;
                case Opcode::Barrier:
                    arrive(w, in, mask);
                    e.pc = pc + 1;
                    e.parked = true;
                    e.line = in.line;
                    return true;
                case Opcode::Trap: fail(who(tid_of(w, uint32_t(__builtin_ctz(mask))), in.line) + ": " + k_.messages[size_t(in.imm)]);
                case Opcode::Br: case Opcode::CondBr:
                    e.pc = pc;
                    branch(w, in, mask);
                    goto settled;
                case Opcode::Ret:
                    each_lane(mask, [&](uint32_t l) {
                        ThreadState& th = threads_[tid_of(w, l)];
                        th.exit_line = in.line;
                        if (th.exit_skip != kNone && th.seq > th.exit_skip) th.skip();
                    });
                    w.exited |= mask;
                    w.stack.pop_back();
                    goto settled;
            }
            ++pc;
        }
    settled:;
    }
    return ran;
}

}  // namespace rl::simt
