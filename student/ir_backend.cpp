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

// The lab's launch as buffers: in (launch 0: the input; launch 1: the partials with their writers) and out.
simt::GlobalBuffer slots_buffer(const std::vector<SlotState>& slots, uint32_t element_bytes, const std::string& name) {
    simt::GlobalBuffer b;
    b.name = name;
    b.size = uint64_t(slots.size()) * element_bytes;
    b.mem.assign(b.size, 0);
    for (size_t i = 0; i < slots.size(); ++i) {
        const uint64_t first = i * element_bytes;
        for (uint32_t k = 0; k < element_bytes; ++k) b.mem.bytes[first + k] = uint8_t(slots[i].bits >> (8 * k));
        for (uint64_t g = first / 4; g < (first + element_bytes + 3) / 4; ++g) {
            b.mem.value[g] = slots[i].bits;
            b.mem.hist[g] = slots[i].writer;
            b.mem.flags[g] = slots[i].flags;
        }
    }
    return b;
}
std::vector<SlotState> buffer_slots(const simt::GlobalBuffer& b, uint32_t element_bytes) {
    std::vector<SlotState> out(b.size / element_bytes);
    for (size_t i = 0; i < out.size(); ++i) {
        const uint64_t g = i * element_bytes / 4;
        uint64_t bits = 0;
        for (uint32_t k = 0; k < element_bytes; ++k) bits |= uint64_t(b.mem.bytes[i * element_bytes + k]) << (8 * k);
        out[i] = {b.mem.hist[g] != kNoEvent ? b.mem.value[g] : bits, b.mem.flags[g], b.mem.hist[g]};
    }
    return out;
}
simt::GlobalBuffer input_buffer(const InputData& input, DType type, int n) {
    simt::GlobalBuffer b;
    b.name = "in";
    b.input = true;
    b.input_elements = uint64_t(n);
    const uint32_t bytes = type == DType::F64 ? 8 : 4;
    b.size = uint64_t(n) * bytes;
    b.mem.assign(b.size, 0);
    for (int i = 0; i < n; ++i) {
        const size_t e = size_t(i);
        const uint64_t bits = type == DType::F64   ? (e < input.f64.size() ? pack_value(input.f64[e]) : 0)
                              : type == DType::I32 ? (e < input.i32.size() ? pack_value(input.i32[e]) : 0)
                                                   : (e < input.f32.size() ? pack_value(input.f32[e]) : 0);
        for (uint32_t k = 0; k < bytes; ++k) b.mem.bytes[uint64_t(i) * bytes + k] = uint8_t(bits >> (8 * k));
    }
    return b;
}

bool is_integer(simt::Type t) { return t == simt::Type::I32 || t == simt::Type::I64 || t == simt::Type::I16 || t == simt::Type::I8; }

}  // namespace

void check_contract_signature(const simt::Kernel& k, const std::string& file) {
    const auto& p = k.params;
    const bool ok = p.size() == 3 && p[0].pointer && p[1].pointer && !p[2].pointer && is_integer(p[2].type) &&
                    k.has_element && p[1].element == p[0].element;
    if (!ok)
        throw Error(file + ":" + std::to_string(k.line) + ": " + k.signature +
                    " does not take the lab's launch K<<<grid, block, block * sizeof(T)>>>(in, out, n): its parameters "
                    "must be (T* in, T* out, an integer n) with T float, double or int");
}

namespace {

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
        r.args = {{simt::ArgKind::Buffer, 0, 0, 0}, {simt::ArgKind::Buffer, 0, 1, 0}, {simt::ArgKind::Scalar, n_bits, 0, 0}};
        r.scope = in.launch ? "the lab's second launch" : "";
        r.op = in.op;
        r.type = in.type;
        const uint32_t element_bytes = simt::type_bytes(kernel_.element);
        std::vector<simt::GlobalBuffer> buffers;
        buffers.push_back(in.launch == 0 ? input_buffer(*in.input, in.type, in.n) : slots_buffer(in.partials, element_bytes, "in"));
        buffers.push_back(slots_buffer(in.out, element_bytes, "out"));
        r.buffers = &buffers;
        r.record_base = in.record_base;
        simt::LaunchResult res = simt::run_launch(kernel_, r);
        LaunchOutput out;
        out.records = std::move(res.records);
        // The dialect's assembly knows no buffers: these records carry none (launch 1's in[] is launch 0's out). A
        // warp's barrier record keeps its mark (kWarpArrival).
        for (StudentRecord& rec : out.records) rec.pad0 &= kWarpArrival;
        out.out = buffer_slots(buffers[1], element_bytes);
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
    return make_ir_backend(simt::pick_kernel(module, name), module.file);
}

std::unique_ptr<KernelBackend> make_ir_backend(const simt::Kernel& kernel, const std::string& file) {
    check_contract_signature(kernel, file);
    return std::make_unique<IrBackend>(kernel);
}

const simt::Kernel& choose_kernel(const simt::Module& module, const std::string& name,
                                  const std::vector<CudaKernelDecl>& declared, uint32_t block) {
    auto instances_of = [&](const std::string& base) {
        std::vector<std::string> out;
        for (const simt::Kernel& k : module.kernels)
            if (k.name.rfind(base + "<", 0) == 0) out.push_back(k.name);
        return out;
    };
    auto joined = [](const std::vector<std::string>& names) {
        std::string out;
        for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
        return out;
    };
    // The compiled kernels (a template's instances as clang names them, reduce6<256u>), then the templates the file
    // declares and never instantiates: clang compiled nothing of those.
    std::vector<std::string> listed;
    std::vector<const CudaKernelDecl*> bare_templates;
    for (const simt::Kernel& k : module.kernels) listed.push_back(k.name);
    for (const CudaKernelDecl& d : declared)
        if (d.is_template && instances_of(d.name).empty()) {
            listed.push_back(d.name + "<...> (a template)");
            bare_templates.push_back(&d);
        }
    if (name.empty()) {
        if (listed.size() == 1 && module.kernels.size() == 1) return module.kernels[0];
        if (listed.empty()) throw Error("no __global__ kernel in the file");
        if (listed.size() == 1)
            throw Error(bare_templates[0]->name + " is a template kernel (template <" + bare_templates[0]->template_params +
                        ">) that the file never instantiates: name the instance to run with its template arguments, "
                        "--kernel " + kernel_name_example(*bare_templates[0], block));
        throw Error("the file has " + std::to_string(listed.size()) + " kernels (" + joined(listed) +
                    "): name the one to run with --kernel NAME" +
                    (bare_templates.empty() ? std::string()
                                            : ", a template's with its arguments: --kernel " +
                                                  kernel_name_example(*bare_templates[0], block)));
    }
    try {
        return simt::pick_kernel(module, name);
    } catch (const Error&) {
        // worded below, with the templates the compile cannot know about
    }
    const size_t lt = name.find('<');
    std::string base = name.substr(0, lt);
    while (!base.empty() && base.back() == ' ') base.pop_back();
    const CudaKernelDecl* decl = nullptr;
    for (const CudaKernelDecl& d : declared)
        if (d.name == base) decl = &d;
    const std::vector<std::string> instances = instances_of(base);
    if (lt == std::string::npos && ((decl && decl->is_template) || !instances.empty())) {
        const std::string example = decl ? kernel_name_example(*decl, block) : instances.front();
        throw Error("--kernel " + name + ": " + base + " is a template kernel: name it with its template arguments, e.g. --kernel " +
                    example + (instances.empty() ? " (the file launches no instance of it; the lab makes the one named)"
                                                 : " (the file instantiates " + joined(instances) + ")"));
    }
    if (lt != std::string::npos && decl && !decl->is_template)
        throw Error("--kernel " + name + ": " + base + " is not a template kernel: name it --kernel " + base);
    throw Error("--kernel " + name + ": the file has no kernel " + name + " (" +
                (listed.empty() ? std::string("it has none") : "its kernels: " + joined(listed)) + ")");
}

}  // namespace rl::student
