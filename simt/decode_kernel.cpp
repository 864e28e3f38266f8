// simt/decode_kernel.cpp — one kernel's LLVM IR (calls inlined) into the flat form: registers, instructions with
// operand slots, phi nodes as copies on edges, branches with their reconvergence points, memory regions.
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Operator.h>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include "simt/decode_internal.h"

namespace rl::simt::detail {
namespace {

constexpr uint32_t kConstTag = 0x80000000u;  // an operand naming constant k before constants get their registers
constexpr uint32_t kMaxRegisters = 1u << 20;
constexpr uint64_t kMaxExpandedBytes = 1024;  // memcpy / memset of a constant size up to this many bytes

uint64_t mask_to(Type t, uint64_t bits) {
    switch (t) {
        case Type::I1: return bits & 1;
        case Type::I8: return bits & 0xff;
        case Type::I16: return bits & 0xffff;
        case Type::I32: case Type::F32: return bits & 0xffffffffu;
        default: return bits;
    }
}

// The name a student wrote: blockReduceSum(float)::shared is `shared`.
std::string source_name(const std::string& symbol) {
    std::string s = llvm::demangle(symbol);
    const size_t colons = s.rfind("::");
    return colons == std::string::npos ? s : s.substr(colons + 2);
}

// Whether each parameter is `const T*`, from the demangled signature: reduce(float const*, float*, int).
std::vector<bool> const_params(const std::string& symbol, size_t count) {
    std::vector<bool> out(count, false);
    const std::string s = llvm::demangle(symbol);
    const size_t open = s.find('(');
    if (open == std::string::npos) return out;
    int depth = 0;
    size_t k = 0, start = open + 1;
    for (size_t i = open + 1; i < s.size() && k < count; ++i) {
        const char ch = s[i];
        if (ch == '<' || ch == '(') ++depth;
        if ((ch == '>' || ch == ')') && depth > 0) { --depth; continue; }
        if ((ch == ',' && depth == 0) || (ch == ')' && depth == 0)) {
            const std::string p = s.substr(start, i - start);
            const size_t star = p.rfind('*'), c = p.find("const");
            out[k++] = star != std::string::npos && c != std::string::npos && c < star;
            start = i + 1;
        }
    }
    return out;
}

struct ConstValue {
    Type type;
    uint64_t bits;
    bool undefined;
};

class KernelDecoder {
public:
    KernelDecoder(llvm::Function& f, const ModuleContext& ctx)
        : f_(f), ctx_(ctx), dl_(f.getParent()->getDataLayout()), pdt_(f) {}

    Kernel run() {
        if (const llvm::DISubprogram* sp = f_.getSubprogram()) k_.line = sp->getLine();
        line_ = last_line_ = k_.line;
        number_values();
        make_regions();
        find_wide_shuffles();
        find_masked_combines();
        find_branch_combines();
        for (llvm::BasicBlock& bb : f_) {
            Block b;
            b.name = bb.hasName() ? bb.getName().str() : "";
            b.first = uint32_t(k_.code.size());
            block_pc_[&bb] = b.first;
            if (auto it = branch_combine_.find(&bb); it != branch_combine_.end()) emit_branch_combine(it->second);
            for (llvm::Instruction& i : bb) decode(i);
            b.count = uint32_t(k_.code.size()) - b.first;
            k_.blocks.push_back(b);
        }
        resolve_targets();
        place_constants();
        mark_combines();
        mark_barrier_skips();
        return std::move(k_);
    }

private:
    llvm::Function& f_;
    const ModuleContext& ctx_;
    const llvm::DataLayout& dl_;
    llvm::PostDominatorTree pdt_;
    Kernel k_;
    uint32_t line_ = 0, last_line_ = 0;
    std::map<const llvm::Value*, uint32_t> reg_;
    std::map<const llvm::Value*, uint32_t> swapped_;  // cmpxchg: the register of its success flag
    std::map<std::tuple<Type, uint64_t, bool>, uint32_t> const_index_;
    std::map<const llvm::GlobalVariable*, uint32_t> global_region_;
    std::map<const llvm::AllocaInst*, uint32_t> local_index_;
    std::map<const llvm::BasicBlock*, uint32_t> block_pc_;
    // A 64-bit shuffle as CUDA writes it, two 32-bit shuffles of a value's halves joined again: one shuffle of the
    // whole value (so that a double keeps its history), at the first half's place; the rest of the pattern is skipped.
    struct WideShuffle {
        const llvm::Value* value;   // the 64-bit value shuffled
        const llvm::Value* result;  // the join: or(shl(zext(high), 32), zext(low))
    };
    std::map<const llvm::Instruction*, WideShuffle> wide_;
    // A combine whose operand is select(c, y, neutral): the lanes where c picks the neutral value do not combine.
    struct Masked {
        const llvm::Value* cond;
        const llvm::Value* value;
        bool when_true;  // c true picks `value`
        const llvm::Instruction* select;
    };
    std::set<const llvm::Instruction*> skip_;
    // The branch form of a max or min: `if (x > s[t]) s[t] = x;` compiles to a compare of x with a load of the slot,
    // a conditional branch to a block that stores x over that slot. At the start of that block a BranchMax (BranchMin)
    // makes the value stored; the block's other stores (an argmax's index beside it) name it in their d.
    struct BranchCombine {
        const llvm::StoreInst* store;
        const llvm::Value* value;  // x, the value stored
        const llvm::Value* slot;   // the load of the slot stored over
        bool max;
        uint32_t reg = kNoReg;     // the register BranchMax writes
    };
    std::map<const llvm::BasicBlock*, BranchCombine> branch_combine_;
    // An argmax's index select emitted after the max select on the same compare (its history comes from it).
    std::map<const llvm::Instruction*, std::vector<const llvm::SelectInst*>> deferred_selects_;
    struct PendingTarget {
        uint32_t branch;
        int slot;  // 0, 1: an edge's target; 2: the reconvergence point
        const llvm::BasicBlock* block;
    };
    std::vector<PendingTarget> pending_;

    [[noreturn]] void fail(const std::string& what) const { unsupported(ctx_.file, line_, what); }
    Type type_of(const llvm::Type* t) const { return scalar_type(t, ctx_.file, line_); }
    uint32_t temp() { return k_.values++; }

    Inst& emit(Opcode op, Type t) {
        Inst in;
        in.op = op;
        in.type = t;
        in.line = line_;
        k_.code.push_back(in);
        return k_.code.back();
    }

    // ---- registers and constants -------------------------------------------------------------------------
    void number_values() {
        const std::vector<bool> is_const = const_params(f_.getName().str(), f_.arg_size());
        for (llvm::Argument& arg : f_.args()) {
            Param p;
            p.type = type_of(arg.getType());
            p.pointer = p.type == Type::Ptr;
            p.is_const = is_const[arg.getArgNo()];
            if (p.pointer) {
                auto* pt = llvm::cast<llvm::PointerType>(arg.getType());
                if (!pt->isOpaque()) p.element = element_of(pt->getNonOpaquePointerElementType());
            }
            p.name = arg.hasName() ? arg.getName().str() : "";
            p.reg = reg_[&arg] = k_.values++;
            k_.params.push_back(p);
        }
        for (const Param& p : k_.params)
            if (p.pointer) {
                k_.has_element = p.element == Type::F32 || p.element == Type::F64 || p.element == Type::I32;
                k_.element = p.element;
                break;
            }
        for (llvm::BasicBlock& bb : f_)
            for (llvm::Instruction& i : bb)
                if (!i.getType()->isVoidTy()) reg_[&i] = k_.values++;
    }

    uint32_t reg(const llvm::Value* v) const { return reg_.at(v); }

    uint32_t operand(const llvm::Value* v) {
        if (auto it = reg_.find(v); it != reg_.end()) return it->second;
        if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) return constant(eval(c));
        fail("this operand");
    }

    uint32_t constant(ConstValue c) {
        c.bits = mask_to(c.type, c.bits);
        auto [it, fresh] = const_index_.try_emplace({c.type, c.bits, c.undefined}, uint32_t(k_.constants.size()));
        if (fresh) k_.constants.push_back({0, c.bits, c.undefined});
        return kConstTag | it->second;
    }

    ConstValue eval(const llvm::Constant* c) {
        const Type t = type_of(c->getType());
        if (llvm::isa<llvm::UndefValue>(c)) return {t, 0, true};  // undef and poison
        if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) return {t, ci->getValue().getZExtValue(), false};
        if (auto* cf = llvm::dyn_cast<llvm::ConstantFP>(c))
            return {t, cf->getValueAPF().bitcastToAPInt().getZExtValue(), false};
        if (llvm::isa<llvm::ConstantPointerNull>(c)) return {t, 0, false};
        if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(c)) return {t, make_pointer(global_region(gv), 0), false};
        if (llvm::isa<llvm::Function>(c)) fail("a pointer to a function");
        if (auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(c)) {
            switch (ce->getOpcode()) {
                case llvm::Instruction::BitCast:
                case llvm::Instruction::AddrSpaceCast:
                case llvm::Instruction::IntToPtr:
                case llvm::Instruction::PtrToInt: {
                    ConstValue v = eval(ce->getOperand(0));
                    return {t, mask_to(t, v.bits), v.undefined};
                }
                case llvm::Instruction::GetElementPtr: {
                    auto* gep = llvm::cast<llvm::GEPOperator>(ce);
                    llvm::APInt offset(64, 0);
                    if (!gep->accumulateConstantOffset(dl_, offset)) break;
                    ConstValue base = eval(llvm::cast<llvm::Constant>(gep->getPointerOperand()));
                    return {t, base.bits + uint64_t(offset.getSExtValue()), base.undefined};
                }
                default:
                    if (llvm::Constant* folded = llvm::ConstantFoldConstant(ce, dl_); folded && folded != ce) return eval(folded);
                    break;
            }
        }
        fail("this constant expression");
    }

    // ---- memory regions ----------------------------------------------------------------------------------
    Type element_of(llvm::Type* t) const {
        while (t->isArrayTy()) t = t->getArrayElementType();
        if (t->isFloatTy()) return Type::F32;
        if (t->isDoubleTy()) return Type::F64;
        if (t->isPointerTy()) return Type::Ptr;
        if (t->isIntegerTy(1) || t->isIntegerTy(8)) return Type::I8;
        if (t->isIntegerTy(16)) return Type::I16;
        if (t->isIntegerTy(32)) return Type::I32;
        if (t->isIntegerTy(64)) return Type::I64;
        return Type::I8;  // a struct: bytes, as plain memory
    }

    static void collect_globals(const llvm::Value* v, std::vector<const llvm::GlobalVariable*>& out) {
        if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(v)) {
            if (std::find(out.begin(), out.end(), gv) == out.end()) out.push_back(gv);
            return;
        }
        if (auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(v))
            for (const llvm::Use& u : ce->operands()) collect_globals(u.get(), out);
    }

    std::vector<uint8_t> initial_bytes(const llvm::GlobalVariable* gv) {
        std::vector<uint8_t> bytes(dl_.getTypeAllocSize(gv->getValueType()).getFixedSize(), 0);
        if (gv->hasInitializer()) write_constant(gv->getInitializer(), bytes, 0);
        return bytes;
    }
    void write_constant(const llvm::Constant* c, std::vector<uint8_t>& bytes, uint64_t at) {
        if (llvm::isa<llvm::UndefValue>(c) || c->isNullValue()) return;
        if (auto* seq = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
            const llvm::StringRef raw = seq->getRawDataValues();
            std::copy(raw.begin(), raw.end(), bytes.begin() + std::ptrdiff_t(at));
            return;
        }
        if (auto* st = llvm::dyn_cast<llvm::ConstantStruct>(c)) {
            const llvm::StructLayout* layout = dl_.getStructLayout(st->getType());
            for (unsigned k = 0; k < st->getNumOperands(); ++k)
                write_constant(st->getOperand(k), bytes, at + layout->getElementOffset(k));
            return;
        }
        if (auto* arr = llvm::dyn_cast<llvm::ConstantArray>(c)) {
            const uint64_t size = dl_.getTypeAllocSize(arr->getType()->getElementType()).getFixedSize();
            for (unsigned k = 0; k < arr->getNumOperands(); ++k) write_constant(arr->getOperand(k), bytes, at + k * size);
            return;
        }
        if (c->getType()->isIntegerTy() || c->getType()->isFloatingPointTy()) {
            const ConstValue v = eval(c);
            for (uint32_t k = 0; k < type_bytes(v.type); ++k) bytes[at + k] = uint8_t(v.bits >> (8 * k));
            return;
        }
        fail("the initial value of a __device__ variable that holds a pointer");
    }

    // Region 0 is null; then the parameters, __device__ / __constant__ variables, static shared arrays in
    // declaration order, the dynamic shared array, and the local arrays.
    void make_regions() {
        k_.regions.push_back(Region{});
        for (const Param& p : k_.params) {
            Region r;
            r.space = Space::Param;
            r.param = uint32_t(&p - k_.params.data());
            r.element = p.element;
            r.read_only = p.is_const;
            k_.regions.push_back(r);
        }
        std::vector<const llvm::GlobalVariable*> used;
        for (llvm::BasicBlock& bb : f_)
            for (llvm::Instruction& i : bb)
                for (const llvm::Use& u : i.operands()) collect_globals(u.get(), used);
        std::vector<const llvm::GlobalVariable*> ordered;
        for (const llvm::GlobalVariable& gv : f_.getParent()->globals())
            if (std::find(used.begin(), used.end(), &gv) != used.end()) ordered.push_back(&gv);
        for (int pass = 0; pass < 3; ++pass)
            for (const llvm::GlobalVariable* gv : ordered) {
                const bool shared = gv->getAddressSpace() == 3;
                const bool dynamic = shared && dl_.getTypeAllocSize(gv->getValueType()).getFixedSize() == 0;
                if ((pass == 0) != !shared || (pass == 1 && dynamic) || (pass == 2 && !dynamic)) continue;
                add_global_region(gv, shared, dynamic);
            }
        k_.locals_first = uint32_t(k_.regions.size());
        for (llvm::Instruction& i : f_.getEntryBlock())
            if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) add_local(*a);
    }

    void add_global_region(const llvm::GlobalVariable* gv, bool shared, bool dynamic) {
        if (dynamic) {  // every extern __shared__ array starts at the same address: one region
            for (const auto& [other, index] : global_region_)
                if (k_.regions[index].dynamic) {
                    global_region_[gv] = index;
                    return;
                }
        }
        Region r;
        r.space = shared ? Space::Shared : Space::Global;
        r.name = source_name(gv->getName().str());
        r.element = element_of(gv->getValueType());
        r.dynamic = dynamic;
        if (!shared) {
            r.init = initial_bytes(gv);
            r.read_only = gv->getAddressSpace() == 4 || gv->isConstant();
        }
        r.bytes = dl_.getTypeAllocSize(gv->getValueType()).getFixedSize();
        global_region_[gv] = uint32_t(k_.regions.size());
        k_.regions.push_back(std::move(r));
    }

    uint32_t global_region(const llvm::GlobalVariable* gv) {
        auto it = global_region_.find(gv);
        if (it == global_region_.end()) fail("the global variable " + source_name(gv->getName().str()));
        return it->second;
    }

    void add_local(const llvm::AllocaInst& a) {
        auto* count = llvm::dyn_cast<llvm::ConstantInt>(a.getArraySize());
        if (!count) {
            line_ = student_line(a, ctx_.main_file);
            fail("a local array whose size is known only at run time");
        }
        Region r;
        r.space = Space::Local;
        r.element = element_of(a.getAllocatedType());
        r.bytes = dl_.getTypeAllocSize(a.getAllocatedType()).getFixedSize() * count->getZExtValue();
        local_index_[&a] = uint32_t(k_.regions.size()) - k_.locals_first;
        k_.regions.push_back(r);
    }

    // ---- instructions ------------------------------------------------------------------------------------
    void decode(llvm::Instruction& i) {
        if (llvm::isa<llvm::PHINode>(i) || skip_.count(&i)) return;  // phis: copied on the edges into this block
        line_ = student_line(i, ctx_.main_file);
        if (line_ == 0) line_ = last_line_;
        last_line_ = line_;
        using I = llvm::Instruction;
        switch (i.getOpcode()) {
            case I::Add: binary(i, Opcode::Add); break;
            case I::Sub: binary(i, Opcode::Sub); break;
            case I::Mul: binary(i, Opcode::Mul); break;
            case I::UDiv: binary(i, Opcode::UDiv); break;
            case I::SDiv: binary(i, Opcode::SDiv); break;
            case I::URem: binary(i, Opcode::URem); break;
            case I::SRem: binary(i, Opcode::SRem); break;
            case I::Shl: binary(i, Opcode::Shl); break;
            case I::LShr: binary(i, Opcode::LShr); break;
            case I::AShr: binary(i, Opcode::AShr); break;
            case I::And: binary(i, Opcode::And); break;
            case I::Or: binary(i, Opcode::Or); break;
            case I::Xor: binary(i, Opcode::Xor); break;
            case I::FAdd: binary(i, Opcode::FAdd); break;
            case I::FSub: binary(i, Opcode::FSub); break;
            case I::FMul: binary(i, Opcode::FMul); break;
            case I::FDiv: binary(i, Opcode::FDiv); break;
            case I::FRem: binary(i, Opcode::FRem); break;
            case I::FNeg: unary(i, Opcode::FNeg); break;
            case I::ICmp: case I::FCmp: compare(llvm::cast<llvm::CmpInst>(i)); break;
            case I::Select: select(llvm::cast<llvm::SelectInst>(i)); break;
            case I::ZExt: cast(i, Opcode::ZExt); break;
            case I::SExt: cast(i, Opcode::SExt); break;
            case I::Trunc: cast(i, Opcode::Trunc); break;
            case I::FPToSI: cast(i, Opcode::FPToSI); break;
            case I::FPToUI: cast(i, Opcode::FPToUI); break;
            case I::SIToFP: cast(i, Opcode::SIToFP); break;
            case I::UIToFP: cast(i, Opcode::UIToFP); break;
            case I::FPExt: cast(i, Opcode::FPExt); break;
            case I::FPTrunc: cast(i, Opcode::FPTrunc); break;
            case I::BitCast: case I::AddrSpaceCast: case I::Freeze: unary(i, Opcode::Copy); break;
            case I::PtrToInt: case I::IntToPtr:
                if (type_bytes(type_of(i.getType())) == 8 && type_bytes(type_of(i.getOperand(0)->getType())) == 8)
                    unary(i, Opcode::Copy);
                else
                    cast(i, type_bytes(type_of(i.getType())) < 8 ? Opcode::Trunc : Opcode::ZExt);
                break;
            case I::GetElementPtr: gep(llvm::cast<llvm::GetElementPtrInst>(i)); break;
            case I::Load: load(llvm::cast<llvm::LoadInst>(i)); break;
            case I::Store: store(llvm::cast<llvm::StoreInst>(i)); break;
            case I::AtomicRMW: atomic_rmw(llvm::cast<llvm::AtomicRMWInst>(i)); break;
            case I::AtomicCmpXchg: cmpxchg(llvm::cast<llvm::AtomicCmpXchgInst>(i)); break;
            case I::Fence: fence(llvm::cast<llvm::FenceInst>(i)); break;
            case I::Alloca: alloca_(llvm::cast<llvm::AllocaInst>(i)); break;
            case I::ExtractValue: extract(llvm::cast<llvm::ExtractValueInst>(i)); break;
            case I::Call: call(llvm::cast<llvm::CallInst>(i)); break;
            case I::Br: branch(llvm::cast<llvm::BranchInst>(i)); break;
            case I::Switch: switch_(llvm::cast<llvm::SwitchInst>(i)); break;
            case I::Ret: emit(Opcode::Ret, Type::I32); break;
            case I::Unreachable: trap("the kernel reached code the compiler proved unreachable (undefined behaviour)"); break;
            default: fail(std::string("the instruction `") + i.getOpcodeName() + "`");
        }
    }

    void binary(llvm::Instruction& i, Opcode op) {
        const llvm::Value *left = i.getOperand(0), *right = i.getOperand(1);
        if ((op == Opcode::Add || op == Opcode::Mul) && written_after(left, right)) std::swap(left, right);
        combinable(i, op, left, right);
    }

    // An operation that may combine: as written, or masked when an operand is select(c, y, neutral).
    void combinable(const llvm::Instruction& i, Opcode op, const llvm::Value* left, const llvm::Value* right) {
        std::optional<Masked> m = masked(right, op);
        if (!m && right && (m = masked(left, op))) left = right;
        if (m) {
            const uint32_t a = operand(left), b = operand(m->value), c = operand(m->cond);
            Inst& in = emit(Opcode::MaskedCombine, type_of(i.getType()));
            in.aux = uint8_t(op);
            in.dst = reg(&i);
            in.a = a;
            in.b = b;
            in.c = c;
            in.imm = m->when_true ? 1 : 0;
            return;
        }
        const uint32_t a = operand(left), b = right ? operand(right) : kNoReg;
        Inst& in = emit(op, type_of(i.getType()));
        in.dst = reg(&i);
        in.a = a;
        in.b = b;
    }

    // The value that leaves x unchanged under op: x + 0, x * 1, max(x, lowest) ...
    static bool neutral(const llvm::Value* v, Opcode op) {
        if (auto* f = llvm::dyn_cast<llvm::ConstantFP>(v)) {
            const llvm::APFloat& x = f->getValueAPF();
            switch (op) {
                case Opcode::FAdd: return x.isZero();
                case Opcode::FMul: return x.isExactlyValue(1.0);
                case Opcode::FMax: return x.isNaN() || (x.isInfinity() && x.isNegative());
                case Opcode::FMin: return x.isNaN() || (x.isInfinity() && !x.isNegative());
                default: return false;
            }
        }
        if (auto* n = llvm::dyn_cast<llvm::ConstantInt>(v)) {
            switch (op) {
                case Opcode::Add: case Opcode::UMax: return n->isZero();
                case Opcode::Mul: return n->isOne();
                case Opcode::SMax: return n->isMinValue(true);
                case Opcode::SMin: return n->isMaxValue(true);
                case Opcode::UMin: return n->isMaxValue(false);
                default: return false;
            }
        }
        return false;
    }
    std::optional<Masked> masked(const llvm::Value* v, Opcode op) const {
        auto* s = llvm::dyn_cast_or_null<llvm::SelectInst>(v);
        if (!s || !skip_.count(s)) return std::nullopt;  // find_masked_combines chose it
        const bool when_true = neutral(s->getFalseValue(), op);
        return Masked{s->getCondition(), when_true ? s->getTrueValue() : s->getFalseValue(), when_true, s};
    }

    // The selects that only mask a combine (one use, one arm the operator's neutral value): skipped, the combine
    // reads them itself. Only for the kernel's element type, where a combine records.
    void find_masked_combines() {
        if (!k_.has_element) return;
        for (llvm::BasicBlock& bb : f_)
            for (llvm::Instruction& i : bb) {
                const std::optional<Opcode> op = combinable_op(i);
                if (!op || type_of(i.getType()) != k_.element) continue;
                for (const llvm::Use& u : i.operands()) {
                    auto* s = llvm::dyn_cast<llvm::SelectInst>(u.get());
                    if (!s || !s->hasOneUse() || s->getParent() != i.getParent()) continue;
                    if (neutral(s->getFalseValue(), *op) != neutral(s->getTrueValue(), *op)) {
                        skip_.insert(s);
                        break;
                    }
                }
            }
    }
    static std::optional<Opcode> combinable_op(const llvm::Instruction& i) {
        switch (i.getOpcode()) {
            case llvm::Instruction::Add: return Opcode::Add;
            case llvm::Instruction::Mul: return Opcode::Mul;
            case llvm::Instruction::FAdd: return Opcode::FAdd;
            case llvm::Instruction::FMul: return Opcode::FMul;
            default: break;
        }
        auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
        if (!c) return std::nullopt;
        switch (c->getIntrinsicID()) {
            case llvm::Intrinsic::maxnum: return Opcode::FMax;
            case llvm::Intrinsic::minnum: return Opcode::FMin;
            case llvm::Intrinsic::smax: return Opcode::SMax;
            case llvm::Intrinsic::smin: return Opcode::SMin;
            case llvm::Intrinsic::umax: return Opcode::UMax;
            case llvm::Intrinsic::umin: return Opcode::UMin;
            default: return std::nullopt;
        }
    }

    // Where a value was written in the student's file: (line, column) of the instruction that makes it; a phi or a
    // parameter (a value from before the statement) comes first, a constant last; {} when unknown.
    std::optional<std::pair<uint32_t, uint32_t>> written_at(const llvm::Value* v) const {
        if (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::PHINode>(v)) return std::pair<uint32_t, uint32_t>{0, 0};
        if (llvm::isa<llvm::Constant>(v)) return std::pair<uint32_t, uint32_t>{~0u, ~0u};
        auto* i = llvm::dyn_cast<llvm::Instruction>(v);
        for (const llvm::DILocation* loc = i ? i->getDebugLoc().get() : nullptr; loc; loc = loc->getInlinedAt())
            if (loc->getFilename() == ctx_.main_file) return std::pair<uint32_t, uint32_t>{loc->getLine(), loc->getColumn()};
        return std::nullopt;
    }
    // Integer + and * reach the bitcode with their operands reordered (LLVM's reassociation puts the later-made
    // one first): `s[t] + s[t + h]` arrives as s[t + h] + s[t]. The operand written first in the source is the
    // left one again, so that the records name them in the student's order (floating point keeps its order).
    bool written_after(const llvm::Value* left, const llvm::Value* right) const {
        if (!left->getType()->isIntegerTy()) return false;
        const auto a = written_at(left), b = written_at(right);
        return a && b && *b < *a;
    }
    void unary(llvm::Instruction& i, Opcode op) {
        Inst& in = emit(op, type_of(i.getType()));
        in.dst = reg(&i);
        in.a = operand(i.getOperand(0));
    }
    void cast(llvm::Instruction& i, Opcode op) {
        const Type from = type_of(i.getOperand(0)->getType());
        Inst& in = emit(op, type_of(i.getType()));
        in.dst = reg(&i);
        in.a = operand(i.getOperand(0));
        in.aux = uint8_t(from);
    }

    static Pred pred_of(llvm::CmpInst::Predicate p) {
        using P = llvm::CmpInst;
        switch (p) {
            case P::ICMP_EQ: return Pred::Eq;
            case P::ICMP_NE: return Pred::Ne;
            case P::ICMP_UGT: return Pred::Ugt;
            case P::ICMP_UGE: return Pred::Uge;
            case P::ICMP_ULT: return Pred::Ult;
            case P::ICMP_ULE: return Pred::Ule;
            case P::ICMP_SGT: return Pred::Sgt;
            case P::ICMP_SGE: return Pred::Sge;
            case P::ICMP_SLT: return Pred::Slt;
            case P::ICMP_SLE: return Pred::Sle;
            case P::FCMP_FALSE: return Pred::False;
            case P::FCMP_OEQ: return Pred::Oeq;
            case P::FCMP_OGT: return Pred::Ogt;
            case P::FCMP_OGE: return Pred::Oge;
            case P::FCMP_OLT: return Pred::Olt;
            case P::FCMP_OLE: return Pred::Ole;
            case P::FCMP_ONE: return Pred::One;
            case P::FCMP_ORD: return Pred::Ord;
            case P::FCMP_UNO: return Pred::Uno;
            case P::FCMP_UEQ: return Pred::Ueq;
            case P::FCMP_UGT: return Pred::Fugt;
            case P::FCMP_UGE: return Pred::Fuge;
            case P::FCMP_ULT: return Pred::Fult;
            case P::FCMP_ULE: return Pred::Fule;
            case P::FCMP_UNE: return Pred::Une;
            default: return Pred::True;
        }
    }

    void compare(llvm::CmpInst& c) {
        Inst& in = emit(c.isFPPredicate() ? Opcode::FCmp : Opcode::ICmp, type_of(c.getOperand(0)->getType()));
        in.dst = reg(&c);
        in.a = operand(c.getOperand(0));
        in.b = operand(c.getOperand(1));
        in.aux = uint8_t(pred_of(c.getPredicate()));
    }

    // `a > b ? a : b` (and its spellings) as compiled: select(cmp a b) a b is a max (or min), a combine of a and b.
    void select(llvm::SelectInst& s) {
        auto* cmp = llvm::dyn_cast<llvm::CmpInst>(s.getCondition());
        const llvm::Value *x = s.getTrueValue(), *y = s.getFalseValue();
        if (cmp && !s.getType()->isPointerTy()) {
            const llvm::Value *p = cmp->getOperand(0), *q = cmp->getOperand(1);
            const bool direct = x == p && y == q, swapped = x == q && y == p;
            const llvm::CmpInst::Predicate pr = cmp->getPredicate();
            const bool greater = pr == llvm::CmpInst::FCMP_OGT || pr == llvm::CmpInst::FCMP_OGE || pr == llvm::CmpInst::FCMP_UGT ||
                                 pr == llvm::CmpInst::FCMP_UGE || pr == llvm::CmpInst::ICMP_SGT || pr == llvm::CmpInst::ICMP_SGE ||
                                 pr == llvm::CmpInst::ICMP_UGT || pr == llvm::CmpInst::ICMP_UGE;
            const bool less = pr == llvm::CmpInst::FCMP_OLT || pr == llvm::CmpInst::FCMP_OLE || pr == llvm::CmpInst::FCMP_ULT ||
                              pr == llvm::CmpInst::FCMP_ULE || pr == llvm::CmpInst::ICMP_SLT || pr == llvm::CmpInst::ICMP_SLE ||
                              pr == llvm::CmpInst::ICMP_ULT || pr == llvm::CmpInst::ICMP_ULE;
            if ((direct || swapped) && (greater || less)) {
                // the max when it picks the greater: greater and direct, or less and swapped
                Inst& in = emit(greater == direct ? Opcode::MaxSelect : Opcode::MinSelect, type_of(s.getType()));
                in.dst = reg(&s);
                in.a = operand(p);
                in.b = operand(q);
                in.c = operand(cmp);
                in.imm = direct ? 1 : 0;  // without a combine: the select itself, cond == imm ? a : b
                if (auto it = deferred_selects_.find(&s); it != deferred_selects_.end())
                    for (const llvm::SelectInst* index : it->second) plain_select(*index, &s);
                return;
            }
        }
        const llvm::SelectInst* value = value_select_of(s);
        if (value && value->comesBefore(&s) == false) {  // the value select comes later: the index waits for it
            deferred_selects_[value].push_back(&s);
            return;
        }
        plain_select(s, value);
    }

    void plain_select(const llvm::SelectInst& s, const llvm::SelectInst* value) {
        Inst& in = emit(Opcode::Select, type_of(s.getType()));
        in.dst = reg(&s);
        in.a = operand(s.getCondition());
        in.b = operand(s.getTrueValue());
        in.c = operand(s.getFalseValue());
        if (value) in.d = reg(value);
    }

    // >, >=, <, <= in any signedness or ordering: what select() reads as a max or min.
    static bool order_predicate(llvm::CmpInst::Predicate pr) {
        using P = llvm::CmpInst;
        switch (pr) {
            case P::FCMP_OGT: case P::FCMP_OGE: case P::FCMP_UGT: case P::FCMP_UGE: case P::ICMP_SGT: case P::ICMP_SGE:
            case P::ICMP_UGT: case P::ICMP_UGE: case P::FCMP_OLT: case P::FCMP_OLE: case P::FCMP_ULT: case P::FCMP_ULE:
            case P::ICMP_SLT: case P::ICMP_SLE: case P::ICMP_ULT: case P::ICMP_ULE: return true;
            default: return false;
        }
    }

    // Whether a select decodes to a MaxSelect or MinSelect of the kernel's elements (`best = v > best ? v : best`).
    bool max_select_shape(const llvm::SelectInst& s) const {
        if (!k_.has_element || s.getType()->isPointerTy() || scalar_type(s.getType(), ctx_.file, line_) != k_.element) return false;
        auto* cmp = llvm::dyn_cast<llvm::CmpInst>(s.getCondition());
        if (!cmp || !order_predicate(cmp->getPredicate())) return false;
        const llvm::Value *x = s.getTrueValue(), *y = s.getFalseValue(), *p = cmp->getOperand(0), *q = cmp->getOperand(1);
        return (x == p && y == q) || (x == q && y == p);
    }
    // An argmax's index select: `bi = v > best ? i : bi` beside `best = v > best ? v : best`, a select of another type on
    // the same compare in the same block as a max (min) select of the elements, and no use of the index between them.
    // The index takes that select's history under --op argmax (execute.cpp); elsewhere it is a plain select.
    const llvm::SelectInst* value_select_of(const llvm::SelectInst& s) const {
        if (!k_.has_element || s.getType()->isPointerTy() || !llvm::isa<llvm::CmpInst>(s.getCondition())) return nullptr;
        if (scalar_type(s.getType(), ctx_.file, line_) == k_.element) return nullptr;
        for (const llvm::User* u : s.getCondition()->users()) {
            auto* other = llvm::dyn_cast<llvm::SelectInst>(u);
            if (!other || other == &s || other->getParent() != s.getParent() || !max_select_shape(*other)) continue;
            if (skip_.count(other)) continue;
            if (other->comesBefore(&s)) return other;
            bool used_between = false;
            for (const llvm::User* su : s.users())
                if (auto* ui = llvm::dyn_cast<llvm::Instruction>(su))
                    used_between = used_between || (!llvm::isa<llvm::PHINode>(ui) && ui->getParent() == s.getParent() && ui->comesBefore(other));
            if (!used_between) return other;
        }
        return nullptr;
    }

    void gep(llvm::GetElementPtrInst& g) {
        if (g.getType()->isVectorTy()) fail("a vector of addresses");
        uint32_t cur = operand(g.getPointerOperand());
        int64_t offset = 0;
        const size_t first = k_.code.size();
        for (llvm::gep_type_iterator it = llvm::gep_type_begin(g), end = llvm::gep_type_end(g); it != end; ++it) {
            const llvm::Value* idx = it.getOperand();
            if (llvm::StructType* st = it.getStructTypeOrNull()) {
                offset += int64_t(dl_.getStructLayout(st)->getElementOffset(unsigned(llvm::cast<llvm::ConstantInt>(idx)->getZExtValue())));
                continue;
            }
            const int64_t scale = int64_t(dl_.getTypeAllocSize(it.getIndexedType()).getFixedSize());
            if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(idx)) {
                offset = int64_t(uint64_t(offset) + uint64_t(ci->getSExtValue()) * uint64_t(scale));  // wraps, as the GPU's does
                continue;
            }
            if (offset != 0) cur = ptr_add(cur, offset), offset = 0;
            const uint32_t index = operand(idx);
            Inst& in = emit(Opcode::PtrIndex, Type::Ptr);
            in.dst = temp();
            in.a = cur;
            in.b = index;
            in.aux = uint8_t(type_of(idx->getType()));
            in.imm = scale;
            cur = in.dst;
        }
        if (offset != 0 || k_.code.size() == first) {
            Inst& in = emit(offset != 0 ? Opcode::PtrAdd : Opcode::Copy, Type::Ptr);
            in.dst = temp();
            in.a = cur;
            in.imm = offset;
        }
        k_.code.back().dst = reg(&g);
    }
    uint32_t ptr_add(uint32_t p, int64_t bytes) {
        Inst& in = emit(Opcode::PtrAdd, Type::Ptr);
        in.dst = temp();
        in.a = p;
        in.imm = bytes;
        return in.dst;
    }

    void load(llvm::LoadInst& l) {
        Inst& in = emit(Opcode::Load, type_of(l.getType()));
        in.dst = reg(&l);
        in.a = operand(l.getPointerOperand());
        in.aux = l.isVolatile() ? 1 : 0;
    }
    void store(llvm::StoreInst& s) {
        const uint32_t a = operand(s.getPointerOperand()), b = operand(s.getValueOperand());
        Inst& in = emit(Opcode::Store, type_of(s.getValueOperand()->getType()));
        in.a = a;
        in.b = b;
        in.aux = s.isVolatile() ? 1 : 0;
        if (auto it = branch_combine_.find(s.getParent()); it != branch_combine_.end()) {
            if (it->second.store == &s) in.b = it->second.reg;      // the combine's value, not x alone
            else if (in.type != k_.element) in.d = it->second.reg;  // an index stored beside it
        }
    }

    // The stores `if (x > s[t]) s[t] = x;` compiles to (see BranchCombine): a store S of x (the kernel's element type,
    // not a constant) over the pointer a load L read, in a block B that is the true side of a conditional branch on
    // cmp(x, L) (x > L, x >= L or L < x ... for a max; the reverse for a min), and B stores no other element. Other
    // ways into B (the tie test of an argmax) are allowed: BranchMax checks at run time that x >= L before it records.
    void find_branch_combines() {
        if (!k_.has_element) return;
        for (llvm::BasicBlock& bb : f_) {
            const llvm::StoreInst* only = nullptr;
            int element_stores = 0;
            for (llvm::Instruction& i : bb)
                if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
                    if (st->getValueOperand()->getType()->isVectorTy() || st->getValueOperand()->getType()->isStructTy()) continue;
                    if (st->getValueOperand()->getType()->isPointerTy()) continue;
                    if (scalar_type(st->getValueOperand()->getType(), ctx_.file, line_) != k_.element) continue;
                    ++element_stores;
                    only = st;
                }
            if (element_stores != 1 || llvm::isa<llvm::Constant>(only->getValueOperand())) continue;
            const llvm::Value* x = only->getValueOperand();
            const llvm::Value* p = only->getPointerOperand()->stripPointerCasts();
            for (const llvm::BasicBlock* pred : llvm::predecessors(&bb)) {
                auto* br = llvm::dyn_cast<llvm::BranchInst>(pred->getTerminator());
                if (!br || !br->isConditional() || br->getSuccessor(0) != &bb || br->getSuccessor(1) == &bb) continue;
                auto* cmp = llvm::dyn_cast<llvm::CmpInst>(br->getCondition());
                if (!cmp || cmp->isEquality()) continue;
                const llvm::Value *l = cmp->getOperand(0), *r = cmp->getOperand(1);
                const bool x_left = l == x, x_right = r == x;
                auto* slot = llvm::dyn_cast_or_null<llvm::LoadInst>(x_left ? r : x_right ? l : nullptr);
                if (!slot || slot->getPointerOperand()->stripPointerCasts() != p) continue;
                const llvm::CmpInst::Predicate pr = cmp->getPredicate();
                const bool greater = llvm::CmpInst::isFPPredicate(pr)
                                         ? (pr == llvm::CmpInst::FCMP_OGT || pr == llvm::CmpInst::FCMP_OGE || pr == llvm::CmpInst::FCMP_UGT || pr == llvm::CmpInst::FCMP_UGE)
                                         : llvm::ICmpInst::isGT(pr) || llvm::ICmpInst::isGE(pr);
                const bool less = llvm::CmpInst::isFPPredicate(pr)
                                      ? (pr == llvm::CmpInst::FCMP_OLT || pr == llvm::CmpInst::FCMP_OLE || pr == llvm::CmpInst::FCMP_ULT || pr == llvm::CmpInst::FCMP_ULE)
                                      : llvm::ICmpInst::isLT(pr) || llvm::ICmpInst::isLE(pr);
                if (!greater && !less) continue;
                // x > slot (x on the left and greater, or on the right and less) stores the greater: a max.
                branch_combine_[&bb] = BranchCombine{only, x, slot, greater == x_left};
                break;
            }
        }
    }

    void emit_branch_combine(BranchCombine& bc) {
        line_ = student_line(*bc.store, ctx_.main_file);
        if (line_ == 0) line_ = last_line_;
        const uint32_t a = operand(bc.slot), b = operand(bc.value);
        Inst& in = emit(bc.max ? Opcode::BranchMax : Opcode::BranchMin, k_.element);
        in.dst = bc.reg = temp();
        in.a = a;
        in.b = b;
    }

    void note_counter(const llvm::Value* ptr) {
        if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(ptr)); gv && gv->getAddressSpace() != 3)
            k_.ticket_counter = true;
    }

    void atomic_rmw(llvm::AtomicRMWInst& a) {
        using B = llvm::AtomicRMWInst;
        AtomicOp op;
        switch (a.getOperation()) {
            case B::Add: op = AtomicOp::Add; break;
            case B::FAdd: op = AtomicOp::FAdd; break;
            case B::Sub: op = AtomicOp::Sub; break;
            case B::And: op = AtomicOp::And; break;
            case B::Or: op = AtomicOp::Or; break;
            case B::Xor: op = AtomicOp::Xor; break;
            case B::Max: op = AtomicOp::Max; break;
            case B::Min: op = AtomicOp::Min; break;
            case B::UMax: op = AtomicOp::UMax; break;
            case B::UMin: op = AtomicOp::UMin; break;
            case B::Xchg: op = AtomicOp::Xchg; break;
            default: fail(std::string("the atomic operation ") + B::getOperationName(a.getOperation()).str());
        }
        atomic(op, a.getPointerOperand(), a.getValOperand(), &a);
    }
    void atomic(AtomicOp op, const llvm::Value* ptr, const llvm::Value* value, const llvm::Instruction* result) {
        Inst& in = emit(Opcode::Atomic, type_of(value->getType()));
        in.dst = result->getType()->isVoidTy() ? kNoReg : reg(result);
        in.a = operand(ptr);
        in.b = operand(value);
        in.aux = uint8_t(op);
        note_counter(ptr);
    }

    void cmpxchg(llvm::AtomicCmpXchgInst& x) {
        const uint32_t swapped = temp();
        swapped_[&x] = swapped;
        Inst& in = emit(Opcode::CmpXchg, type_of(x.getCompareOperand()->getType()));
        in.dst = reg(&x);
        in.a = operand(x.getPointerOperand());
        in.b = operand(x.getCompareOperand());
        in.c = operand(x.getNewValOperand());
        in.d = swapped;
        note_counter(x.getPointerOperand());
    }

    void extract(llvm::ExtractValueInst& e) {
        auto* x = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(e.getAggregateOperand());
        if (!x || e.getNumIndices() != 1) fail("a struct value");
        Inst& in = emit(Opcode::Copy, type_of(e.getType()));
        in.dst = reg(&e);
        in.a = e.getIndices()[0] == 0 ? reg(x) : swapped_.at(x);
    }

    void fence(llvm::FenceInst& f) {
        llvm::SmallVector<llvm::StringRef, 8> names;
        f.getContext().getSyncScopeNames(names);
        const std::string scope = f.getSyncScopeID() < names.size() ? names[f.getSyncScopeID()].str() : "";
        const bool block = f.getSyncScopeID() == llvm::SyncScope::SingleThread || scope.find("block") != std::string::npos ||
                           scope.find("cta") != std::string::npos || scope.find("warp") != std::string::npos;
        emit(block ? Opcode::Nop : Opcode::Fence, Type::I32);  // a block-scope fence orders nothing the lab does not already
    }

    void alloca_(llvm::AllocaInst& a) {
        auto it = local_index_.find(&a);
        if (it == local_index_.end()) fail("a local array declared in a loop or after a branch (alloca outside the entry)");
        Inst& in = emit(Opcode::Alloca, Type::Ptr);
        in.dst = reg(&a);
        in.imm = it->second;
    }

    void trap(const std::string& message) {
        Inst& in = emit(Opcode::Trap, Type::I32);
        in.imm = int64_t(k_.messages.size());
        k_.messages.push_back(message);
    }

    // ---- 64-bit shuffles -----------------------------------------------------------------------------------
    static bool is_shift_by_32(const llvm::Value* v, unsigned opcode, const llvm::Value* of) {
        auto* b = llvm::dyn_cast<llvm::BinaryOperator>(v);
        auto* amount = b ? llvm::dyn_cast<llvm::ConstantInt>(b->getOperand(1)) : nullptr;
        return b && b->getOpcode() == opcode && amount && amount->getZExtValue() == 32 && b->getOperand(0) == of && b->hasOneUse();
    }
    static const llvm::Instruction* only_user(const llvm::Value* v) {
        return v->hasOneUse() ? llvm::dyn_cast<llvm::Instruction>(*v->user_begin()) : nullptr;
    }
    static bool is_shuffle(const llvm::Instruction* i) {
        auto* c = llvm::dyn_cast_or_null<llvm::CallInst>(i);
        const llvm::Function* f = c ? c->getCalledFunction() : nullptr;
        if (!f) return false;
        namespace In = llvm::Intrinsic;
        switch (f->getIntrinsicID()) {
            case In::nvvm_shfl_sync_down_i32: case In::nvvm_shfl_sync_up_i32: case In::nvvm_shfl_sync_bfly_i32:
            case In::nvvm_shfl_sync_idx_i32: return true;
            default: return false;
        }
    }

    // low = shfl(trunc(x)), high = shfl(trunc(lshr(x, 32))) with the same mask, lane operand and width, joined by
    // or(shl(zext(high), 32), zext(low)): the shape clang gives CUDA's shuffle of a double or a long long.
    void find_wide_shuffles() {
        for (llvm::BasicBlock& bb : f_)
            for (llvm::Instruction& i : bb) {
                if (!is_shuffle(&i)) continue;
                auto& low = llvm::cast<llvm::CallInst>(i);
                auto* low_trunc = llvm::dyn_cast<llvm::TruncInst>(low.getArgOperand(1));
                if (!low_trunc || !low_trunc->hasOneUse() || !low_trunc->getOperand(0)->getType()->isIntegerTy(64)) continue;
                const llvm::Value* x = low_trunc->getOperand(0);
                for (const llvm::User* u : x->users()) {
                    if (!is_shift_by_32(u, llvm::Instruction::LShr, x)) continue;
                    auto* high_trunc = llvm::dyn_cast_or_null<llvm::TruncInst>(only_user(u));
                    auto* high = llvm::dyn_cast_or_null<llvm::CallInst>(high_trunc ? only_user(high_trunc) : nullptr);
                    if (!high || !is_shuffle(high) || high->getCalledFunction() != low.getCalledFunction()) continue;
                    if (high->getArgOperand(0) != low.getArgOperand(0) || high->getArgOperand(2) != low.getArgOperand(2) ||
                        high->getArgOperand(3) != low.getArgOperand(3))
                        continue;
                    auto* low_ext = llvm::dyn_cast_or_null<llvm::ZExtInst>(only_user(&low));
                    auto* high_ext = llvm::dyn_cast_or_null<llvm::ZExtInst>(only_user(high));
                    const llvm::Instruction* shifted = high_ext ? only_user(high_ext) : nullptr;
                    if (!low_ext || !shifted || !is_shift_by_32(shifted, llvm::Instruction::Shl, high_ext)) continue;
                    auto* join = llvm::dyn_cast_or_null<llvm::BinaryOperator>(only_user(shifted));
                    if (!join || join->getOpcode() != llvm::Instruction::Or || only_user(low_ext) != join) continue;
                    wide_[&low] = {x, join};
                    skip_.insert({low_trunc, llvm::cast<llvm::Instruction>(u), high_trunc, high, low_ext, high_ext, shifted, join});
                    break;
                }
            }
    }

    // ---- calls: the CUDA intrinsics --------------------------------------------------------------------
    void sreg(const llvm::CallInst& c, SpecialReg r) {
        Inst& in = emit(Opcode::SReg, Type::I32);
        in.dst = reg(&c);
        in.aux = uint8_t(r);
    }
    void shuffle(const llvm::CallInst& c, ShuffleKind kind) {
        const auto wide = wide_.find(&c);
        const llvm::Value* value = wide == wide_.end() ? c.getArgOperand(1) : wide->second.value;
        Type t = type_of(value->getType());
        if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(value); cast && cast->getSrcTy()->isDoubleTy()) {
            value = cast->getOperand(0);
            t = Type::F64;
        }
        const uint32_t b = operand(value);
        Inst& in = emit(Opcode::Shuffle, t);
        in.dst = reg(wide == wide_.end() ? &c : wide->second.result);
        in.a = operand(c.getArgOperand(0));
        in.b = b;
        in.c = operand(c.getArgOperand(2));
        in.d = operand(c.getArgOperand(3));
        in.aux = uint8_t(kind);
    }
    void vote(const llvm::CallInst& c, VoteKind kind) {
        Inst& in = emit(Opcode::Vote, type_of(c.getType()));
        in.dst = reg(&c);
        in.a = operand(c.getArgOperand(0));
        in.b = operand(c.getArgOperand(1));
        in.aux = uint8_t(kind);
    }
    void barrier(const llvm::CallInst& c, BarrierKind kind) {
        Inst& in = emit(Opcode::Barrier, Type::I32);
        in.aux = uint8_t(kind);
        if (kind != BarrierKind::Plain) {
            in.dst = reg(&c);
            in.a = operand(c.getArgOperand(0));
        }
    }
    void numbered_barrier(const llvm::CallInst& c) {
        auto* id = llvm::dyn_cast<llvm::ConstantInt>(c.getArgOperand(0));
        if (!id || !id->isZero()) fail("a named barrier other than barrier 0 (bar.sync N)");
        if (c.arg_size() > 1) fail("a barrier with a thread count (bar.sync 0, N)");
        barrier(c, BarrierKind::Plain);
    }
    void math(const llvm::CallInst& c, Opcode op) {
        combinable(c, op, c.getArgOperand(0), c.arg_size() > 1 ? c.getArgOperand(1) : nullptr);
    }

    // memcpy / memset of a small constant size: element by element, as wide as the alignment allows, so that
    // copying floats in shared memory moves them (and their history) one float at a time.
    void expand_memory(const llvm::MemIntrinsic& m) {
        auto* len = llvm::dyn_cast<llvm::ConstantInt>(m.getLength());
        if (!len || len->getZExtValue() > kMaxExpandedBytes) fail("memcpy or memset of a size not known at compile time (or above 1 KiB)");
        const uint64_t n = len->getZExtValue();
        uint64_t align = m.getDestAlign() ? m.getDestAlign()->value() : 1;
        if (auto* t = llvm::dyn_cast<llvm::MemTransferInst>(&m)) align = std::min<uint64_t>(align, t->getSourceAlign() ? t->getSourceAlign()->value() : 1);
        const uint64_t step = n % 8 == 0 && align >= 8 ? 8 : n % 4 == 0 && align >= 4 ? 4 : 1;
        const Type t = step == 8 ? Type::I64 : step == 4 ? Type::I32 : Type::I8;
        const uint32_t dst = operand(m.getRawDest());
        uint32_t value = kNoReg, src = kNoReg;
        if (auto* set = llvm::dyn_cast<llvm::MemSetInst>(&m)) {
            auto* byte = llvm::dyn_cast<llvm::ConstantInt>(set->getValue());
            if (!byte) fail("memset with a value not known at compile time");
            uint64_t bits = 0;
            for (uint64_t k = 0; k < step; ++k) bits |= (byte->getZExtValue() & 0xff) << (8 * k);
            value = constant({t, bits, false});
        } else {
            src = operand(llvm::cast<llvm::MemTransferInst>(m).getRawSource());
        }
        for (uint64_t at = 0; at < n; at += step) {
            uint32_t v = value;
            if (src != kNoReg) {
                const uint32_t from = at ? ptr_add(src, int64_t(at)) : src;
                v = temp();
                Inst& l = emit(Opcode::Load, t);
                l.a = from;
                l.dst = v;
            }
            const uint32_t to = at ? ptr_add(dst, int64_t(at)) : dst;
            Inst& s = emit(Opcode::Store, t);
            s.a = to;
            s.b = v;
        }
    }

    // assert(): clang calls __assertfail(message, file, line, function, size); the message is a constant string.
    std::string assert_text(const llvm::CallInst& c) {
        if (c.arg_size() == 0) return {};
        auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(c.getArgOperand(0)));
        if (!gv || !gv->hasInitializer()) return {};
        if (auto* s = llvm::dyn_cast<llvm::ConstantDataSequential>(gv->getInitializer()); s && s->isCString())
            return s->getAsCString().str();
        return {};
    }

    void call(llvm::CallInst& c) {
        if (c.isInlineAsm()) {
            std::string text = llvm::cast<llvm::InlineAsm>(c.getCalledOperand())->getAsmString();
            text.erase(std::remove_if(text.begin(), text.end(), [](char ch) { return std::isspace(uint8_t(ch)); }), text.end());
            if (text == "activemask.b32$0;") {
                Inst& in = emit(Opcode::ActiveMask, Type::I32);
                in.dst = reg(&c);
                return;
            }
            fail("inline PTX (asm(\"" + llvm::cast<llvm::InlineAsm>(c.getCalledOperand())->getAsmString() + "\"))");
        }
        llvm::Function* callee = c.getCalledFunction();
        if (!callee) fail("a call through a function pointer");
        namespace In = llvm::Intrinsic;
        switch (callee->getIntrinsicID()) {
            case In::dbg_declare: case In::dbg_value: case In::dbg_label: case In::lifetime_start: case In::lifetime_end:
            case In::assume: case In::experimental_noalias_scope_decl: case In::invariant_start: case In::invariant_end:
            case In::sideeffect: case In::donothing: case In::var_annotation: case In::ptr_annotation: case In::annotation:
            case In::prefetch:
                return;
            case In::nvvm_read_ptx_sreg_tid_x: return sreg(c, SpecialReg::TidX);
            case In::nvvm_read_ptx_sreg_tid_y: return sreg(c, SpecialReg::TidY);
            case In::nvvm_read_ptx_sreg_tid_z: return sreg(c, SpecialReg::TidZ);
            case In::nvvm_read_ptx_sreg_ntid_x: return sreg(c, SpecialReg::NtidX);
            case In::nvvm_read_ptx_sreg_ntid_y: return sreg(c, SpecialReg::NtidY);
            case In::nvvm_read_ptx_sreg_ntid_z: return sreg(c, SpecialReg::NtidZ);
            case In::nvvm_read_ptx_sreg_ctaid_x: return sreg(c, SpecialReg::CtaidX);
            case In::nvvm_read_ptx_sreg_ctaid_y: return sreg(c, SpecialReg::CtaidY);
            case In::nvvm_read_ptx_sreg_ctaid_z: return sreg(c, SpecialReg::CtaidZ);
            case In::nvvm_read_ptx_sreg_nctaid_x: return sreg(c, SpecialReg::NctaidX);
            case In::nvvm_read_ptx_sreg_nctaid_y: return sreg(c, SpecialReg::NctaidY);
            case In::nvvm_read_ptx_sreg_nctaid_z: return sreg(c, SpecialReg::NctaidZ);
            case In::nvvm_read_ptx_sreg_laneid: return sreg(c, SpecialReg::LaneId);
            case In::nvvm_read_ptx_sreg_warpsize: return sreg(c, SpecialReg::WarpSize);
            case In::nvvm_read_ptx_sreg_lanemask_lt: return sreg(c, SpecialReg::LanemaskLt);
            case In::nvvm_read_ptx_sreg_lanemask_le: return sreg(c, SpecialReg::LanemaskLe);
            case In::nvvm_read_ptx_sreg_lanemask_eq: return sreg(c, SpecialReg::LanemaskEq);
            case In::nvvm_read_ptx_sreg_lanemask_ge: return sreg(c, SpecialReg::LanemaskGe);
            case In::nvvm_read_ptx_sreg_lanemask_gt: return sreg(c, SpecialReg::LanemaskGt);
            case In::nvvm_barrier0: return barrier(c, BarrierKind::Plain);
            case In::nvvm_barrier0_and: return barrier(c, BarrierKind::And);
            case In::nvvm_barrier0_or: return barrier(c, BarrierKind::Or);
            case In::nvvm_barrier0_popc: return barrier(c, BarrierKind::Count);
            case In::nvvm_barrier_sync: case In::nvvm_bar_sync: case In::nvvm_barrier_n: case In::nvvm_barrier_sync_cnt:
                return numbered_barrier(c);
            case In::nvvm_bar_warp_sync: {
                Inst& in = emit(Opcode::WarpSync, Type::I32);
                in.a = operand(c.getArgOperand(0));
                return;
            }
            case In::nvvm_shfl_sync_down_f32: case In::nvvm_shfl_sync_down_i32: return shuffle(c, ShuffleKind::Down);
            case In::nvvm_shfl_sync_up_f32: case In::nvvm_shfl_sync_up_i32: return shuffle(c, ShuffleKind::Up);
            case In::nvvm_shfl_sync_bfly_f32: case In::nvvm_shfl_sync_bfly_i32: return shuffle(c, ShuffleKind::Xor);
            case In::nvvm_shfl_sync_idx_f32: case In::nvvm_shfl_sync_idx_i32: return shuffle(c, ShuffleKind::Idx);
            case In::nvvm_membar_gl: case In::nvvm_membar_sys: emit(Opcode::Fence, Type::I32); return;
            case In::nvvm_membar_cta: emit(Opcode::Nop, Type::I32); return;
            case In::nvvm_vote_ballot: case In::nvvm_vote_any: case In::nvvm_vote_all: case In::nvvm_vote_uni: {
                // the vote of the lanes that execute it (__activemask() is the ballot of true)
                const VoteKind kind = callee->getIntrinsicID() == In::nvvm_vote_ballot ? VoteKind::Ballot
                                      : callee->getIntrinsicID() == In::nvvm_vote_any  ? VoteKind::Any
                                      : callee->getIntrinsicID() == In::nvvm_vote_all  ? VoteKind::All
                                                                                        : VoteKind::Uni;
                const uint32_t all = constant({Type::I32, 0xffffffffu, false}), pred = operand(c.getArgOperand(0));
                Inst& in = emit(Opcode::Vote, type_of(c.getType()));
                in.dst = reg(&c);
                in.a = all;
                in.b = pred;
                in.aux = uint8_t(kind);
                return;
            }
            case In::nvvm_vote_ballot_sync: return vote(c, VoteKind::Ballot);
            case In::nvvm_vote_any_sync: return vote(c, VoteKind::Any);
            case In::nvvm_vote_all_sync: return vote(c, VoteKind::All);
            case In::nvvm_vote_uni_sync: return vote(c, VoteKind::Uni);
            case In::nvvm_atomic_load_inc_32: return atomic(AtomicOp::Inc, c.getArgOperand(0), c.getArgOperand(1), &c);
            case In::nvvm_atomic_load_dec_32: return atomic(AtomicOp::Dec, c.getArgOperand(0), c.getArgOperand(1), &c);
            case In::maxnum: case In::maximum: case In::nvvm_fmax_f: case In::nvvm_fmax_ftz_f: case In::nvvm_fmax_d:
                return math(c, Opcode::FMax);
            case In::minnum: case In::minimum: case In::nvvm_fmin_f: case In::nvvm_fmin_ftz_f: case In::nvvm_fmin_d:
                return math(c, Opcode::FMin);
            case In::smax: return math(c, Opcode::SMax);
            case In::smin: return math(c, Opcode::SMin);
            case In::umax: return math(c, Opcode::UMax);
            case In::umin: return math(c, Opcode::UMin);
            case In::fabs: case In::nvvm_fabs_f: case In::nvvm_fabs_ftz_f: case In::nvvm_fabs_d: return math(c, Opcode::FAbs);
            case In::sqrt: return math(c, Opcode::FSqrt);
            case In::memcpy: case In::memmove: case In::memset: return expand_memory(llvm::cast<llvm::MemIntrinsic>(c));
            case In::trap: return trap("the kernel called __trap()");
            case In::nvvm_ldg_global_f: case In::nvvm_ldg_global_i: case In::nvvm_ldg_global_p:
            case In::nvvm_ldu_global_f: case In::nvvm_ldu_global_i: case In::nvvm_ldu_global_p: {
                Inst& in = emit(Opcode::Load, type_of(c.getType()));
                in.dst = reg(&c);
                in.a = operand(c.getArgOperand(0));
                return;
            }
            case In::not_intrinsic: break;
            default: fail("the intrinsic " + callee->getName().str());
        }
        const std::string name = callee->getName().str();
        if (name == "vprintf") {  // printf: the lab shows no output; the kernel runs on
            Inst& in = emit(Opcode::Nop, Type::I32);
            in.dst = reg(&c);
            return;
        }
        if (name == "__assertfail") {
            const std::string text = assert_text(c);
            return trap(text.empty() ? "an assert() failed" : "assert(" + text + ") failed");
        }
        fail("a call to " + llvm::demangle(name) + " (a function the lab's CUDA headers do not define)");
    }

    // ---- control flow ------------------------------------------------------------------------------------
    // The edge from `from` to `to`: its phi copies, in parallel (through temporaries when a copy reads what
    // another writes); the target is filled in once every block has its first instruction.
    Edge edge(const llvm::BasicBlock* from, const llvm::BasicBlock* to, uint32_t branch, int slot) {
        std::vector<Copy> copies;
        for (const llvm::PHINode& phi : to->phis()) copies.push_back({reg(&phi), operand(phi.getIncomingValueForBlock(from))});
        bool overlap = false;
        for (const Copy& c : copies)
            for (const Copy& d : copies) overlap = overlap || c.src == d.dst;
        Edge e;
        e.first_copy = uint32_t(k_.copies.size());
        if (overlap) {
            std::vector<Copy> second;
            for (const Copy& c : copies) {
                const uint32_t t = temp();
                k_.copies.push_back({t, c.src});
                second.push_back({c.dst, t});
            }
            k_.copies.insert(k_.copies.end(), second.begin(), second.end());
        } else {
            k_.copies.insert(k_.copies.end(), copies.begin(), copies.end());
        }
        e.copies = uint32_t(k_.copies.size()) - e.first_copy;
        pending_.push_back({branch, slot, to});
        return e;
    }

    // The immediate post-dominator; none when the paths only end (the virtual exit). A loop that never ends has
    // no real post-dominators: the tree hangs it from one of its blocks (a root that returns nothing), which then
    // post-dominates in name only. When a side of the branch can come back to the branch without passing that
    // block (`for (h = ...; h >= 0u; h >>= 1) { if (t < h) ...; __syncthreads(); }` rotated so that the barrier
    // loops on itself), the lanes rejoin at the branch's own block instead, where every path of the loop returns.
    const llvm::BasicBlock* reconvergence(const llvm::BasicBlock* bb) const {
        const llvm::DomTreeNodeBase<llvm::BasicBlock>* node = pdt_.getNode(bb);
        if (!node || !node->getIDom()) return nullptr;
        const llvm::BasicBlock* r = node->getIDom()->getBlock();
        if (r && !endless_root(r)) return r;
        if (!r && !endless_root(bb)) return nullptr;
        if (!r) return bb;
        for (const llvm::BasicBlock* next : llvm::successors(bb))
            if (reaches_avoiding(next, bb, r)) return bb;
        return r;
    }
    bool endless_root(const llvm::BasicBlock* b) const {
        return std::find(pdt_.root_begin(), pdt_.root_end(), b) != pdt_.root_end() && !llvm::isa<llvm::ReturnInst>(b->getTerminator());
    }
    static bool reaches_avoiding(const llvm::BasicBlock* from, const llvm::BasicBlock* target, const llvm::BasicBlock* avoid) {
        std::vector<const llvm::BasicBlock*> work{from};
        std::set<const llvm::BasicBlock*> seen{from};
        while (!work.empty()) {
            const llvm::BasicBlock* b = work.back();
            work.pop_back();
            if (b == target) return true;
            if (b == avoid) continue;
            for (const llvm::BasicBlock* next : llvm::successors(b))
                if (seen.insert(next).second) work.push_back(next);
        }
        return false;
    }

    void branch(llvm::BranchInst& br) {
        const llvm::BasicBlock* from = br.getParent();
        const uint32_t index = uint32_t(k_.branches.size());
        k_.branches.emplace_back();
        if (br.isUnconditional() || br.getSuccessor(0) == br.getSuccessor(1)) {
            Edge e = edge(from, br.getSuccessor(0), index, 0);
            k_.branches[index].to[0] = e;
            emit(Opcode::Br, Type::I32).imm = index;
            return;
        }
        Edge t = edge(from, br.getSuccessor(0), index, 0);
        Edge f = edge(from, br.getSuccessor(1), index, 1);
        k_.branches[index].to[0] = t;
        k_.branches[index].to[1] = f;
        if (const llvm::BasicBlock* r = reconvergence(from)) pending_.push_back({index, 2, r});
        Inst& in = emit(Opcode::CondBr, Type::I1);
        in.a = operand(br.getCondition());
        in.imm = index;
    }

    // A switch as a chain of equality tests, every one reconverging where the switch does.
    void switch_(llvm::SwitchInst& sw) {
        const llvm::BasicBlock* from = sw.getParent();
        const llvm::BasicBlock* r = reconvergence(from);
        const uint32_t cond = operand(sw.getCondition());
        const Type t = type_of(sw.getCondition()->getType());
        for (auto it = sw.case_begin(); it != sw.case_end(); ++it) {
            Inst& cmp = emit(Opcode::ICmp, t);
            cmp.dst = temp();
            cmp.a = cond;
            cmp.b = operand(it->getCaseValue());
            cmp.aux = uint8_t(Pred::Eq);
            const uint32_t test = cmp.dst;
            const uint32_t index = uint32_t(k_.branches.size());
            k_.branches.emplace_back();
            Edge taken = edge(from, it->getCaseSuccessor(), index, 0);
            k_.branches[index].to[0] = taken;
            k_.branches[index].to[1].target = uint32_t(k_.code.size()) + 1;  // the next test
            if (r) pending_.push_back({index, 2, r});
            Inst& in = emit(Opcode::CondBr, Type::I1);
            in.a = test;
            in.imm = index;
        }
        const uint32_t index = uint32_t(k_.branches.size());
        k_.branches.emplace_back();
        Edge e = edge(from, sw.getDefaultDest(), index, 0);
        k_.branches[index].to[0] = e;
        emit(Opcode::Br, Type::I32).imm = index;
    }

    void resolve_targets() {
        for (const PendingTarget& p : pending_) {
            const uint32_t pc = block_pc_.at(p.block);
            Branch& b = k_.branches[p.branch];
            if (p.slot == 2) b.reconverge = pc;
            else b.to[p.slot].target = pc;
        }
    }

    // Constants get the registers after every value (temporaries included), and operands name them.
    void place_constants() {
        const uint32_t first = k_.values;
        auto fix = [&](uint32_t& r) {
            if (r != kNoReg && (r & kConstTag)) r = first + (r & ~kConstTag);
        };
        for (Inst& in : k_.code) {
            fix(in.a);
            fix(in.b);
            fix(in.c);
            fix(in.d);
        }
        for (Copy& c : k_.copies) fix(c.src);
        for (size_t k = 0; k < k_.constants.size(); ++k) k_.constants[k].reg = first + uint32_t(k);
        k_.registers = first + uint32_t(k_.constants.size());
        if (k_.registers > kMaxRegisters) unsupported(ctx_.file, k_.line, "a kernel this large (over a million values)");
    }

    // Branch::skips: the side of a two-way branch from which no __syncthreads() can be reached before the branch's
    // reconvergence point, while one can be from the other side; skip_exits when that point only returns.
    void mark_barrier_skips() {
        for (Branch& br : k_.branches) {
            if (br.to[1].target == kNoPc) continue;
            const bool a = barrier_before(br.to[0].target, br.reconverge), b = barrier_before(br.to[1].target, br.reconverge);
            if (a == b) continue;
            br.skips = a ? 1 : 0;
            br.skip_exits = returns_at(br.reconverge);
        }
    }
    // A thread at pc only returns: the virtual exit, or a `ret` after calls that change nothing and jumps.
    bool returns_at(uint32_t pc) const {
        for (int hops = 0; pc != kNoPc && hops < 64; ++hops, ++pc) {
            const Inst& in = k_.code[pc];
            if (in.op == Opcode::Ret) return true;
            if (in.op == Opcode::Br) pc = k_.branches[size_t(in.imm)].to[0].target - 1;
            else if (in.op != Opcode::Nop) return false;
        }
        return pc == kNoPc;
    }
    bool barrier_before(uint32_t from, uint32_t stop) const {
        std::vector<uint32_t> work{from};
        std::set<uint32_t> seen{from};
        while (!work.empty()) {
            uint32_t pc = work.back();
            work.pop_back();
            for (; pc != stop && pc < k_.code.size(); ++pc) {
                const Inst& in = k_.code[pc];
                if (in.op == Opcode::Barrier) return true;
                if (in.op == Opcode::Br || in.op == Opcode::CondBr) {
                    const Branch& b = k_.branches[size_t(in.imm)];
                    for (int side = 0; side < (in.op == Opcode::CondBr ? 2 : 1); ++side)
                        if (b.to[side].target != kNoPc && seen.insert(b.to[side].target).second) work.push_back(b.to[side].target);
                    break;
                }
                if (in.op == Opcode::Ret || in.op == Opcode::Trap) break;
            }
        }
        return false;
    }

    // Arithmetic of the kernel's element type can combine data; index arithmetic of other types never does.
    void mark_combines() {
        if (!k_.has_element) return;
        for (Inst& in : k_.code) {
            if (in.type != k_.element) continue;
            switch (in.op == Opcode::MaskedCombine ? Opcode(in.aux) : in.op) {
                case Opcode::Add: case Opcode::FAdd: in.combine = kCombineSum; break;
                case Opcode::Mul: case Opcode::FMul: in.combine = kCombineProd; break;
                case Opcode::FMax: case Opcode::SMax: case Opcode::UMax: case Opcode::MaxSelect: case Opcode::BranchMax: in.combine = kCombineMax; break;
                case Opcode::FMin: case Opcode::SMin: case Opcode::UMin: case Opcode::MinSelect: case Opcode::BranchMin: in.combine = kCombineMin; break;
                case Opcode::Atomic:
                    switch (AtomicOp(in.aux)) {
                        case AtomicOp::Add: case AtomicOp::FAdd: in.combine = kCombineSum; break;
                        case AtomicOp::Max: case AtomicOp::UMax: in.combine = kCombineMax; break;
                        case AtomicOp::Min: case AtomicOp::UMin: in.combine = kCombineMin; break;
                        default: break;
                    }
                    break;
                default: break;
            }
        }
    }
};

}  // namespace

Kernel decode_kernel(llvm::Function& f, const ModuleContext& ctx) { return KernelDecoder(f, ctx).run(); }

}  // namespace rl::simt::detail
