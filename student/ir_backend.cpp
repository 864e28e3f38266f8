// student/ir_backend.cpp — plain CUDA on the SIMT interpreter as a KernelBackend: the launch contract's arguments
// (in, out, n and block * sizeof(T) bytes of dynamic shared memory), the second launch over the partials.
#include "student/ir_backend.h"
#include "core/error.h"
#include "rlab/detail/host_abi.h"
#include "simt/interpreter.h"

namespace rl::student {
namespace {

static_assert(int(simt::kCombineSum) == RL_COMBINE_SUM && int(simt::kCombineMax) == RL_COMBINE_MAX &&
                  int(simt::kCombineMin) == RL_COMBINE_MIN && int(simt::kCombineProd) == RL_COMBINE_PROD,
              "simt numbers the operators as rl_combine_op does: ops_used and first_op pass through");

std::vector<simt::Slot> to_simt(const std::vector<SlotState>& slots) {
    std::vector<simt::Slot> out(slots.size());
    for (size_t i = 0; i < slots.size(); ++i) out[i] = {slots[i].bits, slots[i].flags, slots[i].writer};
    return out;
}
std::vector<SlotState> from_simt(const std::vector<simt::Slot>& slots) {
    std::vector<SlotState> out(slots.size());
    for (size_t i = 0; i < slots.size(); ++i) out[i] = {slots[i].bits, slots[i].flags, slots[i].writer};
    return out;
}

bool is_integer(simt::Type t) { return t == simt::Type::I32 || t == simt::Type::I64 || t == simt::Type::I16 || t == simt::Type::I8; }

// The contract's signature: (T* in, T* out, n), T float, double or int.
void check_signature(const simt::Kernel& k, const std::string& file) {
    const auto& p = k.params;
    const bool ok = p.size() == 3 && p[0].pointer && p[1].pointer && !p[2].pointer && is_integer(p[2].type) &&
                    k.has_element && p[1].element == p[0].element;
    if (!ok)
        throw Error(file + ":" + std::to_string(k.line) + ": " + k.signature +
                    " does not take the lab's launch K<<<grid, block, block * sizeof(T)>>>(in, out, n): its parameters "
                    "must be (T* in, T* out, an integer n) with T float, double or int");
}

class IrBackend final : public KernelBackend {
public:
    explicit IrBackend(const simt::Kernel& kernel) : kernel_(kernel) {}

    DType element() const override {
        return kernel_.element == simt::Type::F64 ? DType::F64 : kernel_.element == simt::Type::I32 ? DType::I32 : DType::F32;
    }
    bool has_counter() const override { return kernel_.ticket_counter; }
    std::string device() const override { return "CPU SIMT emulator (plain CUDA)"; }

    LaunchOutput launch(const LaunchInput& in) override {
        simt::LaunchRequest r;
        r.launch = in.launch;
        r.grid = in.grid;
        r.block = in.block;
        r.dynamic_shared_bytes = in.block * simt::type_bytes(kernel_.element);
        const uint64_t n_bits = uint64_t(int64_t(in.n)) & (simt::type_bytes(kernel_.params[2].type) == 8 ? ~0ull : 0xffffffffull);
        r.args = {{simt::ArgKind::Input, 0}, {simt::ArgKind::Output, 0}, {simt::ArgKind::Scalar, n_bits}};
        r.n = in.n;
        r.op = in.op;
        r.type = in.type;
        r.input = in.input;
        r.partials = to_simt(in.partials);
        r.out = to_simt(in.out);
        r.record_base = in.record_base;
        simt::LaunchResult res = simt::run_launch(kernel_, r);
        LaunchOutput out;
        out.records = std::move(res.records);
        out.out = from_simt(res.out);
        out.ops_used = res.ops_used;
        out.first_op = res.first_op;
        out.error = std::move(res.error);
        return out;
    }

private:
    simt::Kernel kernel_;
};

}  // namespace

std::unique_ptr<KernelBackend> make_ir_backend(const simt::Module& module, const std::string& name) {
    const simt::Kernel& k = simt::pick_kernel(module, name);
    check_signature(k, module.file);
    return std::make_unique<IrBackend>(k);
}

}  // namespace rl::student
