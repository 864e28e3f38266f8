// simt/program.h — plain CUDA device code in the compact, flat form the SIMT interpreter runs (no LLVM types):
// per kernel, numbered registers, instructions with operand slots, blocks as instruction ranges, branches with
// their reconvergence points and phi copies, memory regions, the source line of each instruction.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rl::simt {

// A register's type. Integers are held zero-extended to 64 bits, f32 in the low 32 bits, pointers as below.
enum class Type : uint8_t { I1, I8, I16, I32, I64, F32, F64, Ptr };

constexpr uint32_t type_bytes(Type t) {
    switch (t) {
        case Type::I1: case Type::I8: return 1;
        case Type::I16: return 2;
        case Type::I32: case Type::F32: return 4;
        default: return 8;
    }
}
const char* type_name(Type t);  // as C spells it: "float", "int", "long long", ...

// The reduction operators an instruction can combine with: the numbering of rl_combine_op (host_abi.h).
enum Combine : uint8_t { kCombineSum = 0, kCombineMax = 1, kCombineMin = 2, kCombineProd = 3, kNoCombine = 0xff };

enum class Opcode : uint8_t {
    Copy,  // dst = a with its history (bitcast, addrspacecast, freeze, extractvalue of a pair)
    // integers of `type` (results masked to its width)
    Add, Sub, Mul, UDiv, SDiv, URem, SRem, Shl, LShr, AShr, And, Or, Xor,
    // floating point of `type`
    FAdd, FSub, FMul, FDiv, FRem, FNeg, FAbs, FSqrt,
    // max and min in any spelling: llvm.maxnum (fmaxf), llvm.smax, ..., and select(cmp a b) a b (MaxSelect)
    FMax, FMin, SMax, SMin, UMax, UMin, MaxSelect, MinSelect,
    // The branch form `if (x > s[t]) s[t] = x;`, at the start of the guarded block: dst = the value to store in place
    // of b (x): a combine of a (the slot's loaded value) and b when b >= a (<= for BranchMin) and both carry data,
    // else b as it is (another way into the block, a constant: a plain store, no combine).
    BranchMax, BranchMin,
    // `v = c ? v + y : v` as LLVM rewrites it, v + select(c, y, 0) with the operator's neutral value: dst = the
    // combine aux (Add, FAdd, ..., UMin) of a and b where c == imm, a elsewhere
    MaskedCombine,
    ICmp, FCmp,  // aux = predicate (Pred), type = the operands' type; dst is an I1
    Select,      // dst = a ? b : c; d: the max or min select on the same compare (an argmax's index: under --op
                 // argmax dst takes d's history, the bits stay the select's)
    // casts: type = the destination, aux = the source Type
    ZExt, SExt, Trunc, FPToSI, FPToUI, SIToFP, UIToFP, FPExt, FPTrunc,
    PtrAdd,    // dst = a + imm (bytes)
    PtrIndex,  // dst = a + (b sign-extended from its width, aux = its Type) * imm
    Alloca,    // dst = this thread's local array imm (Kernel::locals)
    SReg,      // dst = special register aux (SpecialReg)
    Load,      // dst = *a (type = the access); aux 1: volatile
    Store,     // *a = b (type = the access); d: the value stored beside an index under the branch form (BranchMax's
               // dst): under --op argmax an index store takes its history
    Atomic,    // dst = old *a; *a = rmw aux (AtomicOp) of old and b
    CmpXchg,   // dst = old *a, d = whether it swapped; *a = old == b ? c : old
    Shuffle,   // dst = __shfl_*_sync: aux = ShuffleKind, a = mask, b = value, c = delta/lane/lane mask, d = packed width
    Vote,      // aux = VoteKind: a = mask, b = predicate
    ActiveMask,
    Barrier,   // __syncthreads: aux = BarrierKind; a = the predicate of the _count/_and/_or forms
    WarpSync,  // __syncwarp(a)
    Fence,     // __threadfence (device or system scope)
    Trap,      // a failed assert() or __trap(): imm = index into Kernel::messages
    Nop,       // printf and other calls that change nothing the lab follows
    Br,        // imm = index into Kernel::branches (to[0])
    CondBr,    // a = condition; imm = index into Kernel::branches (to[0] when true, to[1] when false)
    Ret,
};

enum class Pred : uint8_t {
    // integer
    Eq, Ne, Ugt, Uge, Ult, Ule, Sgt, Sge, Slt, Sle,
    // floating point (ordered: false when either is NaN; unordered: true)
    False, Oeq, Ogt, Oge, Olt, Ole, One, Ord, Uno, Ueq, Fugt, Fuge, Fult, Fule, Une, True,
};

enum class SpecialReg : uint8_t { TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
                                  LaneId, WarpSize, LanemaskLt, LanemaskLe, LanemaskEq, LanemaskGe, LanemaskGt };

enum class AtomicOp : uint8_t { Add, FAdd, Sub, And, Or, Xor, Max, Min, UMax, UMin, Xchg, Inc, Dec };

// The numbering of rl_shuffle_kind (host_abi.h).
enum class ShuffleKind : uint8_t { Down = 0, Up = 1, Xor = 2, Idx = 3 };

enum class VoteKind : uint8_t { Ballot, Any, All, Uni };
enum class BarrierKind : uint8_t { Plain, And, Or, Count };

constexpr uint32_t kNoReg = 0xffffffffu;
constexpr uint32_t kNoPc = 0xffffffffu;

struct Inst {
    Opcode op = Opcode::Nop;
    Type type = Type::I32;
    uint8_t aux = 0;
    uint8_t combine = kNoCombine;  // the operator this instruction combines with when an operand carries data
    uint32_t line = 0;             // the student's source line (0: none known)
    uint32_t dst = kNoReg;
    uint32_t a = kNoReg, b = kNoReg, c = kNoReg, d = kNoReg;
    int64_t imm = 0;
};

// A phi node's value on one edge: copied (all of an edge's copies at once) when a lane takes that edge.
struct Copy {
    uint32_t dst, src;
};
struct Edge {
    uint32_t target = kNoPc;  // the first instruction of the target block
    uint32_t first_copy = 0, copies = 0;
};
constexpr uint8_t kNoSide = 0xff;
struct Branch {
    Edge to[2];
    uint32_t reconverge = kNoPc;  // the immediate post-dominator's first instruction (kNoPc: the lanes only exit)
    // The side (0, 1) whose threads pass a __syncthreads() that the other side can reach before the two rejoin:
    // a thread that takes it skips that barrier alive when it lives on after the rejoin point, or does anything
    // before it exits (skip_exits: the rejoin point only returns, as after `if (i >= n) return;`, whose threads
    // exit). kNoSide: neither (no barrier, or one on each side).
    uint8_t skips = kNoSide;
    bool skip_exits = false;
};

struct Block {
    std::string name;
    uint32_t first = 0, count = 0;  // instructions [first, first + count)
};

// Where a pointer can point. A pointer is region << 40 plus a signed byte offset (make_pointer), in every
// address space alike, so an addrspacecast changes nothing and a generic pointer knows its memory.
enum class Space : uint8_t { None, Param, Global, Shared, Local };
struct Region {
    Space space = Space::None;
    std::string name;          // as the student wrote it
    uint64_t bytes = 0;        // 0 for a pointer parameter and the dynamic shared array: set at launch
    Type element = Type::I8;   // the scalar element type (arrays of arrays peeled)
    bool dynamic = false;      // the extern __shared__ array
    bool read_only = false;    // __constant__
    uint32_t param = 0;        // Param: which parameter
    std::vector<uint8_t> init; // Global: the initial bytes
};

constexpr int kOffsetBits = 40;
constexpr uint64_t make_pointer(uint32_t region, int64_t offset) {
    return (uint64_t(region) << kOffsetBits) + uint64_t(offset);
}
constexpr uint32_t pointer_region(uint64_t p) { return uint32_t((p + (1ull << (kOffsetBits - 1))) >> kOffsetBits); }
constexpr int64_t pointer_offset(uint64_t p) { return int64_t(p - (uint64_t(pointer_region(p)) << kOffsetBits)); }

struct Param {
    std::string name;
    Type type = Type::I32;
    bool pointer = false;
    Type element = Type::I8;  // a pointer's pointee (scalar)
    bool is_const = false;    // const T* (readonly)
    uint32_t reg = kNoReg;
};

struct Constant {
    uint32_t reg;
    uint64_t bits;
    bool undefined;  // undef or poison
};

struct Kernel {
    std::string name;       // demangled without parameters: reduce6<256u>
    std::string signature;  // demangled in full
    std::string symbol;     // as compiled
    uint32_t line = 0;      // of the definition
    std::vector<Param> params;
    bool has_element = false;  // the first pointer parameter points to float, double or int
    Type element = Type::F32;
    std::vector<Inst> code;
    std::vector<Block> blocks;  // blocks[0] is the entry
    std::vector<Branch> branches;
    std::vector<Copy> copies;
    uint32_t values = 0;              // registers [0, values) hold instruction results and parameters
    uint32_t registers = 0;           // [values, registers) hold constants
    std::vector<Constant> constants;  // the constant registers' contents
    // Regions [0, locals_first): region 0 is null, then the parameters, __device__ variables, shared arrays.
    // The kernel's local arrays (allocas) are templates [locals_first, regions.size()): every thread has its own.
    std::vector<Region> regions;
    uint32_t locals_first = 0;
    std::vector<std::string> messages;  // Trap texts
    bool ticket_counter = false;        // an atomic on a __device__ variable (the last-block pattern's counter)
};

struct Module {
    std::string file;
    std::vector<Kernel> kernels;  // in the order the file defines them
};

// Reads the bitcode (or textual IR) clang made of `file`, inlines every device function into the kernels and
// decodes each kernel. Throws rl::Error: "FILE:LINE: WHAT is not supported by the lab's CUDA emulator".
Module decode(const std::string& bitcode, const std::string& file);

// The kernel named `name` (as Kernel::name, or its name without template arguments when that is unique), or the
// file's only kernel when name is empty. Throws rl::Error naming the kernels there are.
const Kernel& pick_kernel(const Module& m, const std::string& name);

}  // namespace rl::simt
