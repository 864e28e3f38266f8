// codegen/kernel_source.cpp — writes the CUDA source of one schedule the way a textbook writes it.
//
// Sections: 1. sizes and the operator   2. warp stage   3. block stage   4. thread stage and kernels
//           5. the whole file
//
// The code does what core/emulator.cpp and cuda/trace_kernels.cuh do, without recording: the same
// items per thread in the same order, the same shuffle offsets and masks, the same pairs combined in
// the same operand order, the same identity. So its result bits equal the traces' (tests/gpu checks it
// with NVRTC). Each injected bug changes one or a few lines, and those lines carry a comment naming it.
#include "codegen/kernel_source.h"

#include <cctype>
#include <cstdio>

#include "codegen/harness.h"
#include "codegen/source_writer.h"

namespace rl {
namespace codegen {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }

class Generator {
public:
    Generator(const Schedule& s, KernelSource& out) : s_(s), w_(out) {
        warp_ = s.effective_warp();
        assign_ = s.effective_assign();
        grid_ = s.effective_grid_stage();
        shuffle_ = warp_ == WarpStage::ShflDown || warp_ == WarpStage::ShflDownAsc || warp_ == WarpStage::ShflXor;
        B_ = s.block;
        G_ = s.grid_size();
        W_ = s.warps_per_block();
        P_ = s.finish_threads();
        tree_shfl_ = s.block_stage == BlockStage::SmemTreeShfl;
        Kp_ = (G_ + P_ - 1) / P_;
        // The functions written follow the declared grid stage; under atomic-per-element only the kernel's
        // body changes (its thread loop does one atomic per element), so the bug stays a few lines.
        layout_ = s.grid_stage;
        finisher_ = G_ > 1 && (layout_ == GridStage::TwoPass || layout_ == GridStage::LastBlock || layout_ == GridStage::Cooperative);
        assign_bug_ = s.has(Bug::GridStrideOrder) && s.assign == Assign::Contiguous;
        unbounded_ = s.has(Bug::FullMaskPartialWarp) || s.has(Bug::UnboundedSource);
        struct_value_ = s.op == Op::ArgMax || s.op == Op::SumCount || s.op == Op::Witness;
    }

    void write(bool harness) {
        header(harness);
        sizes();
        operator_section();
        if (layout_ != GridStage::AtomicElement && tree_shfl_) {
            block_reduce_tree_shfl();
        } else if (layout_ != GridStage::AtomicElement) {
            if (shuffle_) {
                shuffle_warp_reduce(false);
                if (s_.has(Bug::DivergentShuffle)) shuffle_warp_reduce(true);
            } else {
                smem_warp_reduce();
            }
            block_reduce();
        }
        if (grid_ == GridStage::AtomicElement || grid_ == GridStage::AtomicBlock) {
            w_.bug_block(grid_ != layout_);  // atomic-per-element added it
            atomic_combine();
            w_.bug_block(false);
        }
        if (finisher_) finish_partials();
        reduce_kernel();
        if (finisher_ && layout_ == GridStage::TwoPass) finish_kernel();
        if (harness) write_harness(s_, w_);
    }

private:
    const Schedule& s_;
    SourceWriter w_;
    WarpStage warp_{};
    Assign assign_{};
    GridStage grid_{}, layout_{};
    bool assign_bug_ = false, tree_shfl_ = false;
    bool shuffle_ = false, finisher_ = false, unbounded_ = false, struct_value_ = false;
    uint32_t B_ = 0, G_ = 0, W_ = 0, P_ = 0, Kp_ = 0;

    // ---- 1. sizes and the operator ------------------------------------------------------------------
    void header(bool harness) {
        w_.line_if_bug(s_.bugs != 0, "// " + describe(s_));
        w_.line("// The CUDA source of exactly this schedule, written by `rlab kernel` (Reduction Lab).");
        w_.line("// Thread stage -> warp stage -> block stage -> grid stage, as the lab's animation plays it.");
        if (s_.bugs) w_.bug("// Injected bugs are marked `BUG name:` where they change the code.");
        w_.blank();
        if (layout_ == GridStage::Cooperative && G_ > 1)
            w_.line("#include <cooperative_groups.h>");
        if (s_.type != DType::I32 && (s_.op == Op::Max || s_.op == Op::Min || s_.op == Op::ArgMax))
            w_.line("#include <cuda/std/limits>");
        if (s_.type == DType::BF16) w_.line("#include <cuda_bf16.h>");
        if (s_.type == DType::F16) w_.line("#include <cuda_fp16.h>");
        if (harness) harness_includes(w_);
        if (layout_ == GridStage::Cooperative && G_ > 1) {
            w_.blank();
            w_.line("namespace cg = cooperative_groups;");
        }
        w_.blank();
    }

    void sizes() {
        const uint64_t K = s_.chunk();
        w_.line("// The schedule's sizes, fixed when this source was written.");
        w_.line("constexpr unsigned long long N = " + num(s_.n) + "ull;  // input elements");
        w_.line("constexpr unsigned BLOCK = " + num(B_) + ";  // threads per block");
        w_.line("constexpr unsigned GRID = " + num(G_) + ";  // blocks");
        if (assign_ == Assign::GridStride)
            w_.line_if_bug(assign_bug_, "constexpr unsigned long long THREADS = " + num(uint64_t(B_) * G_) + "ull;  // BLOCK * GRID");
        else
            w_.line("constexpr unsigned long long CHUNK = " + num(K) + "ull;  // consecutive elements per thread");
        if (layout_ != GridStage::AtomicElement && !shuffle_)
            w_.line("constexpr unsigned WARPS = " + num(W_) + ";  // warps per block");
        if (finisher_) {
            w_.line("constexpr unsigned FINISH_THREADS = " + num(P_) + ";  // threads that combine the block partials: min(BLOCK, GRID)");
            w_.line("constexpr unsigned FINISH_CHUNK = " + num(Kp_) + ";  // block partials per finishing thread");
        }
        w_.blank();
    }

    std::string acc() const {
        switch (s_.type) {
            case DType::F64: return "double";
            case DType::I32: return "int";
            default: return "float";
        }
    }
    std::string elem() const {
        switch (s_.type) {
            case DType::F32: return "float";
            case DType::F64: return "double";
            case DType::I32: return "int";
            case DType::BF16: return "__nv_bfloat16";
            case DType::F16: return "__half";
        }
        return "float";
    }
    // The two fields of a two-part value.
    std::pair<std::string, std::string> fields() const {
        if (s_.op == Op::ArgMax) return {"value", "index"};
        if (s_.op == Op::SumCount) return {"sum", "count"};
        return {"lo", "hi"};
    }
    std::string lowest() const {
        if (s_.type == DType::I32) return "-2147483647 - 1";
        return "-" + highest();
    }
    std::string highest() const {
        if (s_.type == DType::I32) return "2147483647";
        // libcu++'s numeric_limits: the same on the host, in nvcc's device code and under NVRTC
        return s_.type == DType::F64 ? "cuda::std::numeric_limits<double>::infinity()" : "cuda::std::numeric_limits<float>::infinity()";
    }
    std::string zero() const { return s_.type == DType::F64 ? "0.0" : (s_.type == DType::I32 ? "0" : "0.0f"); }
    std::string one() const { return s_.type == DType::F64 ? "1.0" : (s_.type == DType::I32 ? "1" : "1.0f"); }

    void operator_section() {
        const std::string A = acc();
        const bool integer = s_.type == DType::I32;
        w_.line("// The operator: " + std::string(to_string(s_.op)) + " of " + std::string(to_string(s_.type)) +
                " elements, accumulated in " + A + ".");
        w_.line("typedef " + elem() + " Elem;  // an input element");
        auto [f1, f2] = fields();
        if (struct_value_) {
            const std::string t1 = s_.op == Op::Witness ? "unsigned" : A;
            w_.line("struct alignas(8) Value {");
            w_.line("    " + t1 + " " + f1 + ";");
            w_.line("    unsigned " + f2 + ";");
            w_.line("};");
        } else {
            w_.line("typedef " + A + " Value;  // what threads combine");
        }
        w_.blank();
        // identity
        std::string id;
        switch (s_.op) {
            case Op::Sum: id = zero(); break;
            case Op::Prod: id = one(); break;
            case Op::Max: id = lowest(); break;
            case Op::Min: id = highest(); break;
            case Op::ArgMax: id = "Value{" + lowest() + ", 0xffffffffu}"; break;
            case Op::SumCount: id = "Value{" + zero() + ", 0u}"; break;
            case Op::Witness: id = "Value{0xffffffffu, 0xffffffffu}"; break;
        }
        const char* meaning = s_.op == Op::Witness ? "  // the empty range" : "";
        w_.line("// The identity: combine(identity(), x) == x. A thread without elements contributes it.");
        w_.line("__host__ __device__ Value identity() {");
        if (s_.has(Bug::WrongIdentity)) {
            w_.bug("    // BUG wrong-identity: 0 is not the identity of " + std::string(to_string(s_.op)) + " (it should be " + id + ")");
            w_.bug(std::string("    return ") + (struct_value_ ? "Value{" + zero() + ", 0u}" : zero()) + ";", "identity-value");
        } else {
            w_.line("    return " + id + ";" + meaning, "identity-value");
        }
        w_.line("}");
        w_.blank();
        // lift
        w_.line("// An element as a value (the index is kept by the operators that need it).");
        std::string lift;
        switch (s_.op) {
            case Op::ArgMax: lift = "Value{x, unsigned(i)}"; break;
            case Op::SumCount: lift = "Value{x, 1u}"; break;
            case Op::Witness: lift = "Value{unsigned(i), unsigned(i)}"; break;
            default: lift = "x"; break;
        }
        const std::string xname = s_.op == Op::Witness ? "" : " x";
        w_.line("__device__ Value lift(" + A + xname + ", unsigned long long i) {");
        if (s_.op != Op::ArgMax && s_.op != Op::Witness) w_.line("    (void)i;");
        w_.line("    return " + lift + ";");
        w_.line("}");
        w_.blank();
        // combine
        switch (s_.op) {
            case Op::Sum:
            case Op::Prod: {
                const char* sym = s_.op == Op::Sum ? "+" : "*";
                w_.line(integer ? "// Integer arithmetic wraps modulo 2^32, as the hardware's does (unsigned: no overflow UB)."
                                : "// Round to nearest, as written: the order of the combines decides the bits.");
                w_.line("__host__ __device__ Value combine(Value a, Value b) {");
                if (integer) w_.line(std::string("    return int(unsigned(a) ") + sym + " unsigned(b));", "combine");
                else w_.line(std::string("    return a ") + sym + " b;", "combine");
                break;
            }
            case Op::Max:
                w_.line("__host__ __device__ Value combine(Value a, Value b) {");
                w_.line("    return b > a ? b : a;", "combine");
                break;
            case Op::Min:
                w_.line("__host__ __device__ Value combine(Value a, Value b) {");
                w_.line("    return b < a ? b : a;", "combine");
                break;
            case Op::ArgMax:
                w_.line("// The larger value wins; the lower index wins a tie (so the order of combines does not matter).");
                w_.line("__host__ __device__ Value combine(Value a, Value b) {");
                w_.line("    const bool take_b = b.value > a.value || (b.value == a.value && b.index < a.index);");
                w_.line("    return take_b ? b : a;", "combine");
                break;
            case Op::SumCount:
                w_.line("__host__ __device__ Value combine(Value a, Value b) {");
                if (integer) w_.line("    return Value{int(unsigned(a.sum) + unsigned(b.sum)), a.count + b.count};", "combine");
                else w_.line("    return Value{a.sum + b.sum, a.count + b.count};", "combine");
                break;
            case Op::Witness:
                w_.line("// The order witness: [a.lo, a.hi] then [b.lo, b.hi] merge only when b starts right after a;");
                w_.line("// anything else is 'violated' (0xfffffffe) for good. [0, N-1] at the end: every merge kept order.");
                w_.line("__host__ __device__ Value combine(Value a, Value b) {");
                w_.line("    if (a.lo == 0xffffffffu) return b;");
                w_.line("    if (b.lo == 0xffffffffu) return a;");
                w_.line("    if (a.lo == 0xfffffffeu || b.lo == 0xfffffffeu || b.lo != a.hi + 1) return Value{0xfffffffeu, 0xfffffffeu};");
                w_.line("    return Value{a.lo, b.hi};", "combine");
                break;
        }
        w_.line("}");
        w_.blank();
        if (!tree_shfl_ && (shuffle_ || warp_ == WarpStage::SmemSequential || s_.block_stage == BlockStage::SmemTree)) {
            w_.line("// The first offset of a tree over `count` values: the largest power of two below count.");
            w_.line("__device__ unsigned top_offset(unsigned count) {");
            w_.line("    unsigned offset = 1;");
            w_.line("    while (2 * offset < count) offset *= 2;");
            w_.line("    return count > 1 ? offset : 0;");
            w_.line("}");
            w_.blank();
        }
    }

    // ---- 2. warp stage ------------------------------------------------------------------------------
    std::string shfl(const std::string& mask, const char* kind) const {
        const std::string f = std::string("__shfl_") + kind + "_sync(" + mask + ", ";
        if (!struct_value_) return f + "v, offset)";
        auto [f1, f2] = fields();
        return "Value{" + f + "v." + f1 + ", offset), " + f + "v." + f2 + ", offset)}";
    }

    // all_lanes: the loop of a kernel that assumes every lane of the warp holds an element (full mask, no
    // bound), used in the first pass under divergent-shuffle.
    void shuffle_warp_reduce(bool all_lanes) {
        const bool xor_ = warp_ == WarpStage::ShflXor, asc = warp_ == WarpStage::ShflDownAsc;
        const bool unb = unbounded_ || all_lanes;
        const std::string sfx = all_lanes ? "-all" : "";
        w_.bug_block(all_lanes);
        if (all_lanes) {
            w_.bug("// BUG divergent-shuffle: a full-warp loop, called inside `if (i < n)`: lanes without an element skip it.");
            w_.line("__device__ Value warp_reduce_all(Value v, unsigned lane) {");
        } else {
            w_.line("// Warp stage: lanes [0, active) of a warp combine their values into lane 0 with shuffles.");
            w_.line("__device__ Value warp_reduce(Value v, unsigned lane, unsigned active) {");
        }
        std::string mask = "mask";
        if (all_lanes) {
            mask = "0xffffffffu";
        } else if (s_.has(Bug::FullMaskPartialWarp)) {
            w_.bug("    const unsigned mask = 0xffffffffu;  // BUG full-mask-partial-warp: names lanes of a partial warp that do not take part");
        } else {
            w_.line("    const unsigned mask = active == 32 ? 0xffffffffu : (1u << active) - 1u;  // the lanes taking part");
        }
        const bool desc_bug = s_.has(Bug::DescendingOrder) && !all_lanes;
        std::string loop;
        if (asc) loop = unb ? "for (unsigned offset = 1; offset < 32; offset *= 2) {" : "for (unsigned offset = 1; offset < active; offset *= 2) {";
        else loop = unb ? "for (unsigned offset = 16; offset > 0; offset /= 2) {" : "for (unsigned offset = top_offset(active); offset > 0; offset /= 2) {";
        if (desc_bug) w_.bug("    // BUG descending-order: offsets from the top down merge lane 0 with a far lane first (out of order)");
        if (unb && !all_lanes)
            w_.bug("    " + loop + "  // BUG " + std::string(to_string(s_.has(Bug::FullMaskPartialWarp) ? Bug::FullMaskPartialWarp : Bug::UnboundedSource)) +
                   ": every level of a full warp");
        else
            w_.line_if_bug(desc_bug, "    " + loop);
        w_.line("        const Value other = " + shfl(mask, xor_ ? "xor" : "down") + ";", "shuffle" + sfx);
        std::string combine_line, cond;
        if (xor_) {
            w_.line("        const unsigned partner = lane ^ offset;");
            combine_line = "v = partner > lane ? combine(v, other) : combine(other, v);  // lower lane first";
            cond = unb ? "" : "if (partner < active) ";
        } else if (asc) {
            combine_line = "v = combine(v, other);";
            cond = unb ? "" : "if (lane % (2 * offset) == 0 && lane + offset < active) ";
        } else {
            combine_line = "v = combine(v, other);";
            cond = unb ? "" : "if (lane < offset && lane + offset < active) ";
        }
        if (unb && !all_lanes) {
            w_.bug("        " + combine_line + "  // BUG: no bound: lanes read past `active` (undefined values)", "warp-combine");
        } else {
            w_.line_if_bug(desc_bug && s_.warp != WarpStage::ShflDown, "        " + cond + combine_line, "warp-combine" + sfx);
        }
        w_.line("    }");
        w_.line("    return v;");
        w_.line("}");
        w_.blank();
        w_.bug_block(false);
    }

    void smem_warp_reduce() {
        const bool lag = s_.has(Bug::VolatileUnroll);
        w_.line("// Warp stage in shared memory: lanes [0, active) of a warp combine through s (this warp's slots);");
        w_.line("// `widest` is the widest warp's lane count, which sets the number of levels.");
        w_.line("__device__ Value warp_reduce_smem(Value v, Value* s, unsigned lane, unsigned active, unsigned widest, bool store) {");
        w_.line("    const unsigned mask = active == 32 ? 0xffffffffu : (1u << active) - 1u;  // the lanes taking part");
        w_.line("    if (store) {");
        w_.line("        s[lane] = v;", "warp-smem-store");
        w_.line("        __syncwarp(mask);", "syncwarp");
        w_.line("    }");
        switch (warp_) {
            case WarpStage::SmemDivergent:
                w_.line("    for (unsigned stride = 1; stride < widest; stride *= 2) {  // interleaved addressing, divergent lanes");
                w_.line("        const unsigned a = lane;");
                w_.line("        if (lane % (2 * stride) == 0 && a + stride < active) {");
                break;
            case WarpStage::SmemStrided:
                w_.line("    for (unsigned stride = 1; stride < widest; stride *= 2) {  // interleaved addressing, strided index");
                w_.line("        const unsigned a = 2 * stride * lane;");
                w_.line("        if (a + stride < active) {");
                break;
            default:
                w_.line("    for (unsigned stride = top_offset(widest); stride > 0; stride /= 2) {  // sequential addressing");
                w_.line("        const unsigned a = lane;");
                w_.line("        if (lane < stride && a + stride < active) {");
                break;
        }
        w_.line("            const Value x = s[a], y = s[a + stride];", "warp-smem-load");
        w_.line("            v = combine(x, y);", "warp-smem-combine");
        w_.line("            s[a] = v;", "warp-smem-tree-store");
        w_.line("        }");
        if (lag) w_.bug("        // BUG volatile-unroll: no __syncwarp() between levels: a lane may read a slot before its store lands");
        else w_.line("        __syncwarp(mask);", "syncwarp-level");
        w_.line("    }");
        w_.line("    return v;");
        w_.line("}");
        w_.blank();
    }

    // ---- 3. block stage -----------------------------------------------------------------------------
    void block_reduce() {
        const bool divergent = s_.has(Bug::DivergentShuffle);
        const bool missing = s_.has(Bug::MissingBarrier), div_barrier = s_.has(Bug::DivergentBarrier);
        w_.line("// Warp stage, then block stage: the first `threads` threads of the block combine into thread 0.");
        w_.line("// Every thread of the block calls it (it holds __syncthreads()).");
        if (divergent) w_.bug("__device__ Value block_reduce(Value v, unsigned threads, bool first_pass, bool has_element) {");
        else w_.line("__device__ Value block_reduce(Value v, unsigned threads) {");
        if (!shuffle_) w_.line("    __shared__ Value warp_smem[32 * WARPS];  // 32 slots per warp");
        w_.line("    __shared__ Value partial_smem[32];  // one value per warp");
        w_.line("    const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;");
        w_.line("    const unsigned warps = (threads + 31) / 32;");
        w_.line("    const unsigned active = threads > 32 * warp ? (threads - 32 * warp < 32 ? threads - 32 * warp : 32) : 0;");
        if (shuffle_) {
            if (divergent) {
                w_.bug("    if (first_pass && has_element) v = warp_reduce_all(v, lane);  // BUG divergent-shuffle: inside `if (i < n)`");
                w_.bug("    else if (!first_pass && tid < threads) v = warp_reduce(v, lane, active);");
            } else {
                w_.line("    if (tid < threads) v = warp_reduce(v, lane, active);");
            }
        } else {
            w_.line("    const unsigned widest = threads < 32 ? threads : 32;");
            w_.line("    if (tid < threads) v = warp_reduce_smem(v, warp_smem + 32 * warp, lane, active, widest, true);");
        }
        w_.line("    if (warps == 1) return v;");
        w_.line("    // Block stage: lane 0 of each warp leaves its warp's value in shared memory.");
        if (div_barrier) {
            w_.bug("    if (lane == 0 && warp < warps) {");
            w_.bug("        partial_smem[warp] = v;", "smem-store");
            w_.bug("        __syncthreads();  // BUG divergent-barrier: inside `if (lane == 0)`: only lane 0 of each warp arrives", "barrier");
            w_.bug("    }");
        } else {
            w_.line("    if (lane == 0 && warp < warps) partial_smem[warp] = v;", "smem-store");
            if (missing) w_.bug("    // BUG missing-barrier: no __syncthreads() here: the partials may be read before they are stored");
            else w_.line("    __syncthreads();", "barrier");
        }
        if (s_.block_stage == BlockStage::WarpPartials) {
            w_.line("    // Warp 0 combines the warp partials, as a warp stage over `warps` lanes.");
            w_.line("    if (warp == 0 && lane < warps) {");
            if (shuffle_) {
                w_.line("        v = partial_smem[lane];", "smem-load");
                w_.line("        v = warp_reduce(v, lane, warps);");
            } else {
                w_.line("        v = warp_reduce_smem(v, partial_smem, lane, warps, warps, false);");
            }
            w_.line("    }");
        } else {
            w_.line("    // A shared-memory tree over the partials, sequential addressing, a barrier after each level.");
            w_.line("    for (unsigned stride = top_offset(warps); stride > 0; stride /= 2) {");
            w_.line("        if (tid < stride && tid + stride < warps) {");
            w_.line("            const Value x = partial_smem[tid], y = partial_smem[tid + stride];", "smem-load");
            w_.line("            v = combine(x, y);", "block-combine");
            w_.line("            partial_smem[tid] = v;", "block-tree-store");
            w_.line("        }");
            w_.line("        __syncthreads();", "tree-barrier");
            w_.line("    }");
        }
        w_.line("    return v;");
        w_.line("}");
        w_.blank();
    }

    // The summary's blockReduce, as the lab plays it (--block-stage smem-tree-shfl).
    void block_reduce_tree_shfl() {
        w_.line("// The summary's blockReduce: every thread stores its value, a barrier tree halves them down to 64,");
        w_.line("// then warp 0 adds smem[t] + smem[t + 32] and finishes with an unrolled full-warp shuffle.");
        w_.line("// Every thread of the block calls it; `threads` is the block size, a power of two >= 64.");
        w_.line("__device__ Value block_reduce(Value v, unsigned threads) {");
        w_.line("    __shared__ Value smem[BLOCK];");
        w_.line("    const unsigned tid = threadIdx.x;");
        w_.line("    smem[tid] = v;", "smem-store");
        w_.line("    __syncthreads();", "barrier");
        w_.line("    for (unsigned s = threads / 2; s > 32; s /= 2) {");
        w_.line("        if (tid < s) {");
        w_.line("            const Value x = smem[tid], y = smem[tid + s];", "smem-load");
        w_.line("            v = combine(x, y);", "block-combine");
        w_.line("            smem[tid] = v;", "block-tree-store");
        w_.line("        }");
        w_.line("        __syncthreads();", "tree-barrier");
        w_.line("    }");
        w_.line("    if (tid < 32) {  // the last 64 values: one warp, no barrier needed any more");
        w_.line("        const Value x = smem[tid], y = smem[tid + 32];", "last-smem-load");
        w_.line("        v = combine(x, y);", "last-combine");
        for (int off = 16; off > 0; off /= 2) {
            std::string sh;
            if (struct_value_) {
                auto [f1, f2] = fields();
                const std::string f = "__shfl_down_sync(0xffffffffu, v.";
                sh = "Value{" + f + f1 + ", " + std::to_string(off) + "), " + f + f2 + ", " + std::to_string(off) + ")}";
            } else {
                sh = "__shfl_down_sync(0xffffffffu, v, " + std::to_string(off) + ")";
            }
            w_.line("        v = combine(v, " + sh + ");", off == 16 ? "shuffle" : "shuffle-" + std::to_string(off));
        }
        w_.line("    }");
        w_.line("    return v;");
        w_.line("}");
        w_.blank();
    }

    std::string block_reduce_call(const std::string& threads, bool first_pass) const {
        if (!s_.has(Bug::DivergentShuffle)) return "block_reduce(v, " + threads + ")";
        return "block_reduce(v, " + threads + (first_pass ? ", true, has_element)" : ", false, false)");
    }

    // ---- 4. thread stage and kernels ------------------------------------------------------------
    void atomic_combine() {
        const bool hw = s_.op == Op::Sum;  // float, double and int sums have a hardware atomicAdd
        if (hw) {
            w_.line("// The grid stage's atomic: the hardware adds into *out (in whatever order the threads arrive).");
            w_.line("__device__ void atomic_combine(Value* out, Value x) {");
            w_.line("    atomicAdd(out, x);", "atomic-op");
            w_.line("}");
        } else {
            const bool wide = s_.type == DType::F64 || struct_value_;
            const std::string word = wide ? "unsigned long long" : "unsigned";
            w_.line("// The grid stage's atomic: no hardware atomic does this operator, so a compare-and-swap loop.");
            w_.line("__device__ void atomic_combine(Value* out, Value x) {");
            w_.line("    union Bits { Value value; " + word + " word; };");
            w_.line("    " + word + "* word = reinterpret_cast<" + word + "*>(out);");
            w_.line("    " + word + " old = *word, assumed;");
            w_.line("    do {");
            w_.line("        assumed = old;");
            w_.line("        Bits cur, next;");
            w_.line("        cur.word = assumed;");
            w_.line("        next.word = 0;");
            w_.line("        next.value = combine(cur.value, x);");
            w_.line("        old = atomicCAS(word, assumed, next.word);", "atomic-op");
            w_.line("    } while (old != assumed);");
            w_.line("}");
        }
        w_.blank();
    }

    std::string load_expr(const std::string& i) const {
        if (s_.type == DType::BF16) return "lift(__bfloat162float(in[" + i + "]), " + i + ")";
        if (s_.type == DType::F16) return "lift(__half2float(in[" + i + "]), " + i + ")";
        return "lift(in[" + i + "], " + i + ")";
    }

    // The loop header over this thread's elements; `first` is the expression true for its first one.
    void thread_loop_header(std::string& first) {
        const bool order_bug = s_.has(Bug::GridStrideOrder);
        if (assign_ == Assign::Contiguous) {
            w_.line("    const unsigned long long begin = g * CHUNK, end = begin + CHUNK < N ? begin + CHUNK : N;");
            w_.line("    for (unsigned long long i = begin; i < end; ++i) {  // CHUNK consecutive elements, in order");
            first = "begin";
        } else {
            if (order_bug)
                w_.bug("    // BUG grid-stride-order: a grid-stride loop gives a thread elements g, g + THREADS, ...: not adjacent ranges");
            w_.line_if_bug(order_bug, "    for (unsigned long long i = g; i < N; i += THREADS) {  // grid-stride: every THREADS-th element");
            first = "g";
        }
    }

    void thread_stage() {
        const bool uninit = s_.has(Bug::UninitTail);
        std::string first;
        if (grid_ == GridStage::AtomicElement) {
            w_.line_if_bug(grid_ != layout_, "    // Thread stage: this thread's elements, each combined atomically into *out.");
            thread_loop_header(first);
            w_.line("        const Value x = " + load_expr("i") + ";", "load");
            if (s_.has(Bug::AtomicPerElement))
                w_.bug("        atomic_combine(out, x);  // BUG atomic-per-element: every element contends for *out", "atomic");
            else
                w_.line("        atomic_combine(out, x);  // one atomic per element", "atomic");
            w_.line("    }");
            return;
        }
        w_.line("    // Thread stage: this thread's elements, combined in order in a register.");
        if (uninit) w_.bug("    Value v;  // BUG uninit-tail: no identity(): a thread without elements passes garbage on", "identity");
        else w_.line("    Value v = identity();  // a thread without elements contributes the identity", "identity");

        const bool fsum = s_.op == Op::Sum && s_.type != DType::I32;
        const Accum a = fsum ? s_.accum : Accum::Plain;
        if (a == Accum::Kahan) w_.line("    Value c = 0;  // Kahan: the rounding error lost so far, negated");
        if (a == Accum::F64) w_.line("    double wide = 0.0;  // the running sum in double, rounded once per item into v");
        if (a == Accum::Pairwise) {
            w_.line("    Value stack[24];  // pairwise: partial sums over 1, 2, 4, ... items, like a binary counter");
            w_.line("    unsigned depth = 0;");
            w_.line("    unsigned long long count = 0;");
        }
        thread_loop_header(first);
        w_.line("        const Value x = " + load_expr("i") + ";", "load");
        switch (a) {
            case Accum::Plain:
                w_.line_if_bug(assign_bug_, "        v = i == " + first + " ? x : combine(v, x);  // the first element as it is, then combine", "accumulate");
                break;
            case Accum::Kahan:
                w_.line("        if (i == " + first + ") {");
                w_.line("            v = x;");
                w_.line("        } else {");
                w_.line("            const Value y = x - c, t = v + y;  // the item corrected, the rounded new sum");
                w_.line("            c = (t - v) - y;  // what that add lost");
                w_.line("            v = t;", "accumulate");
                w_.line("        }");
                break;
            case Accum::F64:
                w_.line("        wide = i == " + first + " ? double(x) : wide + double(x);");
                w_.line("        v = Value(wide);", "accumulate");
                break;
            case Accum::Pairwise:
                w_.line("        stack[depth++] = x;");
                w_.line("        for (unsigned long long c = ++count; (c & 1) == 0 && depth >= 2; c >>= 1, --depth)");
                w_.line("            stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1]);", "accumulate");
                break;
        }
        w_.line("    }");
        if (a == Accum::Pairwise) {
            w_.line("    for (; depth > 1; --depth) stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1]);", "pairwise-finish");
            w_.line("    if (depth == 1) v = stack[0];");
        }
    }

    void finish_partials() {
        w_.line("// The finishing block: FINISH_THREADS threads each combine their block partials in order, then");
        w_.line("// reduce as a block; thread 0 writes the result.");
        w_.line("__device__ void finish_partials(const Value* partials, Value* out) {");
        w_.line("    const unsigned tid = threadIdx.x;");
        if (s_.has(Bug::UninitTail)) w_.bug("    Value v;  // BUG uninit-tail: no identity() here either", "finish-identity");
        else w_.line("    Value v = identity();", "finish-identity");
        w_.line("    if (tid < FINISH_THREADS) {");
        w_.line("        for (unsigned k = 0; k < FINISH_CHUNK; ++k) {");
        if (assign_ == Assign::Contiguous)
            w_.line("            const unsigned idx = tid * FINISH_CHUNK + k;  // consecutive partials");
        else
            w_.line_if_bug(assign_bug_, "            const unsigned idx = tid + k * FINISH_THREADS;  // every FINISH_THREADS-th partial");
        w_.line("            if (idx >= GRID) break;");
        w_.line("            const Value p = partials[idx];", "partial-load");
        w_.line("            v = k == 0 ? p : combine(v, p);", "partial-combine");
        w_.line("        }");
        w_.line("    }");
        w_.line_if_bug(s_.has(Bug::DivergentShuffle), "    v = " + block_reduce_call("FINISH_THREADS", false) + ";");
        w_.line("    if (tid == 0) *out = v;", "final-store");
        w_.line("}");
        w_.blank();
    }

    void reduce_kernel() {
        const bool divergent = s_.has(Bug::DivergentShuffle);
        w_.line("// The first pass: GRID blocks of BLOCK threads.");
        w_.line("__global__ void reduce(const Elem* in, Value* partials, Value* out, unsigned* done) {");
        w_.line("    const unsigned tid = threadIdx.x;");
        w_.line("    const unsigned long long g = (unsigned long long)blockIdx.x * BLOCK + tid;  // this thread in the grid");
        thread_stage();
        if (grid_ == GridStage::AtomicElement) {
            w_.line("}");
            w_.blank();
            return;
        }
        if (divergent)
            w_.bug(std::string("    const bool has_element = ") + (assign_ == Assign::Contiguous ? "g * CHUNK < N;" : "g < N;") +
                   "  // BUG divergent-shuffle: the condition the warp stage is put under");
        w_.line_if_bug(divergent, "    v = " + block_reduce_call("BLOCK", true) + ";");
        w_.line("    // Grid stage.");
        if (grid_ == GridStage::AtomicBlock) {
            w_.line("    if (tid == 0) atomic_combine(out, v);  // one atomic per block", "atomic");
        } else if (!finisher_) {
            w_.line("    if (tid == 0) *out = v;  // one block: its value is the result", "final-store");
        } else if (grid_ == GridStage::TwoPass) {
            w_.line("    if (tid == 0) partials[blockIdx.x] = v;  // the second launch combines the partials", "block-partial");
        } else if (grid_ == GridStage::LastBlock) {
            w_.line("    __shared__ unsigned ticket;");
            w_.line("    if (tid == 0) {");
            w_.line("        partials[blockIdx.x] = v;", "block-partial");
            if (s_.has(Bug::MissingThreadfence))
                w_.bug("        // BUG missing-threadfence: no __threadfence(): the ticket may be seen before the partial");
            else
                w_.line("        __threadfence();  // the partial is visible to every block before the ticket is taken", "fence");
            w_.line("        ticket = atomicAdd(done, 1u);  // how many blocks finished before this one", "ticket");
            w_.line("    }");
            w_.line("    __syncthreads();");
            w_.line("    if (ticket != GRID - 1) return;  // only the last block to finish goes on");
            w_.line("    __threadfence();");
            w_.line("    finish_partials(partials, out);");
        } else {
            w_.line("    if (tid == 0) partials[blockIdx.x] = v;", "block-partial");
            w_.line("    cg::this_grid().sync();  // every block's partial is stored", "grid-sync");
            w_.line("    if (blockIdx.x != 0) return;  // block 0 finishes");
            w_.line("    finish_partials(partials, out);");
        }
        w_.line("}");
        w_.blank();
    }

    void finish_kernel() {
        w_.line("// The second launch: one block of FINISH_THREADS threads over the GRID block partials.");
        w_.line("__global__ void finish(const Value* partials, Value* out) {");
        w_.line("    finish_partials(partials, out);");
        w_.line("}");
        w_.blank();
    }
};

}  // namespace
}  // namespace codegen

std::string KernelSource::text() const {
    std::string out;
    for (const auto& l : lines) {
        out += l.text;
        out += '\n';
    }
    return out;
}

int KernelSource::line_of(std::string_view site) const {
    if (site.empty()) return 0;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].site == site) return int(i + 1);
    return 0;
}

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `name` occurs as a whole word in `text` outside position `skip`'s line.
bool used_elsewhere(const KernelSource& src, size_t skip, const std::string& name) {
    for (size_t i = 0; i < src.lines.size(); ++i) {
        if (i == skip) continue;
        const std::string t = src.lines[i].text.substr(0, src.lines[i].text.find("//"));  // code, not comments
        for (size_t p = t.find(name); p != std::string::npos; p = t.find(name, p + 1)) {
            const bool left = p == 0 || !word_char(t[p - 1]);
            const bool right = p + name.size() == t.size() || !word_char(t[p + name.size()]);
            if (left && right) return true;
        }
    }
    return false;
}

// The sizes are written for every schedule; the ones this schedule's code never reads are dropped
// (nvcc warns about an unused constant, and the student should not wonder what it is for).
void drop_unused_constants(KernelSource& src) {
    for (size_t i = src.lines.size(); i-- > 0;) {
        const std::string& t = src.lines[i].text;
        if (t.rfind("constexpr ", 0) != 0) continue;
        const size_t eq = t.find(" = ");
        if (eq == std::string::npos) continue;
        const size_t start = t.rfind(' ', eq - 1) + 1;
        if (!used_elsewhere(src, i, t.substr(start, eq - start))) src.lines.erase(src.lines.begin() + long(i));
    }
}

}  // namespace

KernelSource kernel_source(const Schedule& s, bool harness) {
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    KernelSource src;
    codegen::Generator(s, src).write(harness);
    drop_unused_constants(src);
    while (!src.lines.empty() && src.lines.back().text.empty() && src.lines.back().site.empty()) src.lines.pop_back();
    return src;
}

}  // namespace rl
