// student/plan_run.cpp — a --launch plan (or the one contract launch) bound to in, out, tmp and n, checked against
// the kernels' parameters, and run launch after launch through one PlainSession.
#include "student/plan_run.h"
#include <algorithm>
#include <limits>
#include <memory>
#include "core/error.h"
#include "core/input.h"
#include "core/phase_clock.h"
#include "student/ir_backend.h"
#include "student/plain_session.h"

namespace rl::student {
namespace {

bool plan_integer(simt::Type t) { return t == simt::Type::I8 || t == simt::Type::I16 || t == simt::Type::I32 || t == simt::Type::I64; }

DType plan_dtype_of(simt::Type t) { return t == simt::Type::F64 ? DType::F64 : t == simt::Type::I32 ? DType::I32 : DType::F32; }

// A parameter in words: "`const float*`" (the IR does not say whether an integer is signed: "a 32-bit integer").
std::string plan_param_words(const simt::Param& p) {
    const std::string name = p.name.empty() ? "" : " " + p.name;
    if (p.pointer) return "`" + std::string(p.is_const ? "const " : "") + simt::type_name(p.element) + "*" + name + "`";
    if (plan_integer(p.type)) return "a " + std::to_string(8 * simt::type_bytes(p.type)) + "-bit integer" + (name.empty() ? "" : " (" + p.name + ")");
    return "`" + std::string(simt::type_name(p.type)) + name + "`";
}

std::string plan_kernels_of(const simt::Module& m) {
    std::string s;
    for (const simt::Kernel& k : m.kernels) s += (s.empty() ? "" : ", ") + k.name;
    return s.empty() ? "it has none" : "its kernels: " + s;
}

// The bits a scalar parameter of type t receives for the value v (its width's two's complement).
uint64_t plan_scalar_bits(simt::Type t, int64_t v) {
    const uint32_t bytes = simt::type_bytes(t);
    return bytes == 8 ? uint64_t(v) : uint64_t(v) & ((1ull << (8 * bytes)) - 1);
}

// A literal fits a parameter of `bytes` bytes when it is a value of the signed or the unsigned type of that width.
bool plan_fits(int64_t v, uint32_t bytes) {
    if (bytes == 8) return true;
    const int64_t lo = -(int64_t(1) << (8 * bytes - 1)), hi = (int64_t(1) << (8 * bytes)) - 1;
    return v >= lo && v <= hi;
}

// --op argmax and the plan agree: argmax runs a kernel over floats whose out (and tmpi) are int indices; tmpi and an
// int out are argmax's alone. One line each (exit 2), before anything runs.
void check_argmax_plan(const std::vector<BoundLaunch>& launches, bool argmax) {
    for (size_t k = 0; k < launches.size(); ++k) {
        const BoundLaunch& l = launches[k];
        const std::string which = "launch " + std::to_string(k + 1) + " (" + launch_text(l.planned) + ")";
        if (argmax && l.kernel->element != simt::Type::F32)
            throw Error("--op argmax: " + which + ": " + l.kernel->signature + " works on " + simt::type_name(l.kernel->element) +
                        " elements: argmax takes float elements in and writes an int index (const float* in, int* out, an integer n)");
        for (size_t a = 0; a < l.planned.args.size() && a < l.kernel->params.size(); ++a) {
            const PlanArg& arg = l.planned.args[a];
            const simt::Param& p = l.kernel->params[a];
            const std::string where = "--launch: " + which + ", argument " + std::to_string(a + 1) + " (" + arg.text + ")";
            if (!argmax && arg.kind == PlanArgKind::Tmpi)
                throw Error(where + ": tmpi is argmax's scratch buffer of indices: it needs --op argmax");
            if (!p.pointer) continue;
            if (!argmax && arg.kind == PlanArgKind::Out && p.element == simt::Type::I32 && l.kernel->element == simt::Type::F32)
                throw Error(where + ": " + l.kernel->name + " writes an int index to out over float elements: an argmax, run with --op argmax");
            if (argmax && arg.kind == PlanArgKind::Out && p.element != simt::Type::I32)
                throw Error("--op argmax: " + where + ": out holds ints under argmax (the first index of the maximum), and " +
                            l.kernel->name + "'s parameter " + std::to_string(a + 1) + " is " + plan_param_words(p));
        }
    }
}

}  // namespace

std::vector<BoundLaunch> bind_plan(const simt::Module& module, const std::vector<PlannedLaunch>& plan) {
    std::vector<BoundLaunch> out;
    const simt::Kernel* first = nullptr;
    for (size_t k = 0; k < plan.size(); ++k) {
        const PlannedLaunch& l = plan[k];
        const std::string which = "launch " + std::to_string(k + 1) + " (" + launch_text(l) + ")";
        const simt::Kernel* kernel = nullptr;
        try {
            kernel = &simt::pick_kernel(module, l.kernel);
        } catch (const Error&) {
            throw Error(which + ": the file has no kernel " + l.kernel + " (" + plan_kernels_of(module) +
                        "; a template kernel is named with its arguments, reduce6<256>)");
        }
        if (!kernel->has_element)
            throw Error(which + ": " + kernel->signature + " has no pointer to float, double or int: the plan's buffers in, out and tmp "
                        "hold the kernels' element type, which the lab takes from their pointer parameters");
        if (!first) first = kernel;
        if (kernel->element != first->element)
            throw Error(which + ": " + kernel->name + "'s elements are " + simt::type_name(kernel->element) + ", and launch 1's are " +
                        simt::type_name(first->element) + ": in, out and tmp hold one element type for the whole plan");
        if (l.args.size() != kernel->params.size())
            throw Error(which + ": " + kernel->signature + " takes " + std::to_string(kernel->params.size()) + " arguments, and the launch passes " +
                        std::to_string(l.args.size()));
        for (size_t a = 0; a < l.args.size(); ++a) {
            const PlanArg& arg = l.args[a];
            const simt::Param& p = kernel->params[a];
            const std::string where = "launch " + std::to_string(k + 1) + ", argument " + std::to_string(a + 1) + " (" + arg.text +
                                      "): " + kernel->name + "'s parameter " + std::to_string(a + 1) + " is " + plan_param_words(p);
            const bool buffer = arg.kind == PlanArgKind::In || arg.kind == PlanArgKind::Out || arg.kind == PlanArgKind::Tmp ||
                                arg.kind == PlanArgKind::Tmpi;
            if (p.pointer) {
                if (!buffer) throw Error(where + ", a pointer: pass in, out, tmp or tmpi");
                // An argmax's indices: out and tmpi are ints beside float values (run_plan checks --op argmax).
                const bool index = (arg.kind == PlanArgKind::Out || arg.kind == PlanArgKind::Tmpi) && p.element == simt::Type::I32 &&
                                   first->element == simt::Type::F32;
                if (arg.kind == PlanArgKind::Tmpi && !index)
                    throw Error(where + ": tmpi holds ints, argmax's indices (pass it to an `int*` of a kernel over floats)");
                if (index) continue;
                if (p.element != first->element)
                    throw Error(where + ", and " + arg.text + " holds " + simt::type_name(first->element) +
                                ": a buffer is passed to a pointer to the plan's element type");
                continue;
            }
            if (!plan_integer(p.type))
                throw Error(where + ": the plan passes in, out, tmp, tmpi, n or an integer, and a " + simt::type_name(p.type) +
                            " parameter takes none of them");
            if (buffer) throw Error(where + ": pass n or an integer literal");
            if (arg.kind == PlanArgKind::Literal && !plan_fits(arg.literal, simt::type_bytes(p.type)))
                throw Error(where + ": " + arg.text + " does not fit in it");
        }
        out.push_back({kernel, l});
    }
    return out;
}

std::vector<BoundLaunch> contract_launch(const simt::Kernel& kernel, const Schedule& schedule, const std::string& file) {
    if (schedule.op == Op::ArgMax) {
        const auto& p = kernel.params;
        const bool ok = p.size() == 3 && p[0].pointer && p[0].element == simt::Type::F32 && p[1].pointer &&
                        p[1].element == simt::Type::I32 && !p[2].pointer && plan_integer(p[2].type);
        if (!ok)
            throw Error(file + ":" + std::to_string(kernel.line) + ": --op argmax: " + kernel.signature +
                        " does not take the lab's argmax launch K<<<grid, block, block * sizeof(float)>>>(in, out, n): its "
                        "parameters must be (const float* in, int* out, an integer n), out[0] the first index of the maximum");
    } else {
        const auto& p = kernel.params;
        const bool argmax_shape = p.size() == 3 && p[0].pointer && p[0].element == simt::Type::F32 && p[1].pointer &&
                                  p[1].element == simt::Type::I32;
        if (argmax_shape && !p[2].pointer && plan_integer(p[2].type))
            throw Error(file + ":" + std::to_string(kernel.line) + ": run it with --op argmax: " + kernel.signature +
                        " does not take the lab's launch K<<<grid, block, block * sizeof(T)>>>(in, out, n) of one element type, "
                        "and an int out over float elements is an argmax");
        check_contract_signature(kernel, file);
    }
    BoundLaunch b;
    b.kernel = &kernel;
    b.planned.kernel = kernel.name;
    b.planned.block = schedule.block;
    b.planned.grid = schedule.grid ? schedule.grid : uint32_t(std::min<uint64_t>((schedule.n + schedule.block - 1) / schedule.block, 0xffffffffull));
    b.planned.shared_bytes = schedule.block * simt::type_bytes(kernel.element);  // argmax: floats, as sizeof(float)
    b.planned.args = {{PlanArgKind::In, 0, "in"}, {PlanArgKind::Out, 0, "out"}, {PlanArgKind::N, 0, "n"}};
    b.planned.column = 1;
    return {b};
}

PlanOutcome run_plan(const simt::Module& module, const std::vector<BoundLaunch>& launches, Schedule schedule, bool op_given,
                     const std::string& file, const std::function<void()>& launches_done) {
    if (launches.empty()) throw Error("the plan has no launch");
    schedule.type = plan_dtype_of(launches[0].kernel->element);
    schedule.items = 1;
    if (op_given && schedule.op != Op::Sum && schedule.op != Op::Max && schedule.op != Op::Min && schedule.op != Op::Prod &&
        schedule.op != Op::Witness && schedule.op != Op::ArgMax)
        throw Error("--op " + std::string(to_string(schedule.op)) +
                    ": a student's kernel runs sum, max, min, prod, argmax (float in, an int index out), or witness "
                    "(element ranges, to check the order)");
    if (!op_given) schedule.op = Op::Sum;
    const bool argmax = schedule.op == Op::ArgMax;
    check_argmax_plan(launches, argmax);
    schedule.block = launches[0].planned.block;
    schedule.grid = launches[0].planned.grid;
    if (std::string why = validate(schedule); !why.empty()) throw Error(why);
    if (schedule.n > 0x7fffffffull)
        throw Error("--n " + std::to_string(schedule.n) + ": the kernel's n is an int, so at most 2147483647 elements");
    const InputData input = make_input(schedule);
    phase::mark("input");
    uint32_t largest = 1;
    for (const BoundLaunch& l : launches) largest = std::max(largest, l.planned.grid);
    const uint32_t bytes_each = schedule.type == DType::F64 ? 8 : 4;

    PlanOutcome outcome;
    std::unique_ptr<PlainSession> session;
    for (int attempt = 0; attempt < 2; ++attempt) {
        session = std::make_unique<PlainSession>(module, schedule.op, schedule.type);
        if (launches.size() > 1) session->name_every_launch();
        const uint32_t in = session->allocate(schedule.n * bytes_each, "in");
        const void* bytes = schedule.type == DType::F64 ? static_cast<const void*>(input.f64.data())
                            : schedule.type == DType::I32 ? static_cast<const void*>(input.i32.data())
                                                          : static_cast<const void*>(input.f32.data());
        const size_t have = schedule.type == DType::F64 ? input.f64.size() : schedule.type == DType::I32 ? input.i32.size() : input.f32.size();
        if (have >= schedule.n) session->write(in, 0, bytes, schedule.n * bytes_each);  // (--op witness reads indices, not values)
        session->mark_input(in, schedule.n);
        const uint32_t out = session->allocate(uint64_t(largest) * bytes_each, "out", BufferStart::Identity);
        const uint32_t tmp = session->allocate(uint64_t(largest) * bytes_each, "tmp", BufferStart::Identity);
        uint32_t tmpi = 0;
        if (argmax) {
            // The argmax contract: out and tmpi are int slots starting at -1 (no element), tmp float slots at -FLT_MAX.
            tmpi = session->allocate(uint64_t(largest) * 4, "tmpi", BufferStart::Identity);
            const std::vector<int32_t> none(largest, -1);
            const std::vector<float> lowest(largest, -std::numeric_limits<float>::max());
            session->write(out, 0, none.data(), uint64_t(largest) * 4);
            session->write(tmpi, 0, none.data(), uint64_t(largest) * 4);
            session->write(tmp, 0, lowest.data(), uint64_t(largest) * 4);
        }
        for (size_t li = 0; li < launches.size(); ++li) {
            const BoundLaunch& l = launches[li];
            uint64_t later = 0;
            for (size_t j = li + 1; j < launches.size(); ++j) later += uint64_t(launches[j].planned.grid) * launches[j].planned.block;
            session->expect_later_threads(later);
            std::vector<SessionArg> args;
            for (size_t a = 0; a < l.planned.args.size(); ++a) {
                const PlanArg& arg = l.planned.args[a];
                const simt::Type t = l.kernel->params[a].type;
                switch (arg.kind) {
                    case PlanArgKind::In: args.push_back(SessionArg::in_buffer(in)); break;
                    case PlanArgKind::Out: args.push_back(SessionArg::in_buffer(out)); break;
                    case PlanArgKind::Tmp: args.push_back(SessionArg::in_buffer(tmp)); break;
                    case PlanArgKind::Tmpi: args.push_back(SessionArg::in_buffer(tmpi)); break;
                    case PlanArgKind::N: args.push_back(SessionArg::scalar(plan_scalar_bits(t, int64_t(schedule.n)))); break;
                    default: args.push_back(SessionArg::scalar(plan_scalar_bits(t, arg.literal))); break;
                }
            }
            std::string label = l.planned.kernel;
            std::string error = session->launch(*l.kernel, label, l.planned.grid, l.planned.block, l.planned.shared_bytes, args);
            phase::mark("launch");
            if (!error.empty()) {
                outcome.error = std::move(error);
                return outcome;
            }
        }
        // The operator the kernels combine with decides out's and tmp's start: run again with it.
        if (op_given || session->first_op() < 0 || op_of(session->first_op()) == schedule.op) break;
        schedule.op = op_of(session->first_op());
    }
    // An argmax combines with max (its pairs keep the first index of the greater value).
    if (std::string why = operator_mismatch(argmax ? Op::Max : schedule.op, op_given, session->ops_used()); !why.empty())
        throw Error(argmax ? "--op argmax: " + why.substr(why.find(": ") + 2) : why);
    if (launches_done) launches_done();
    PlainSession::Finish how;
    how.schedule = schedule;
    how.input = &input;
    how.result_buffer = 1;
    how.result_element = 0;
    how.kernel_file = file;
    try {
        outcome.trace = session->finish(how);
    } catch (const Error& e) {
        outcome.error = e.what();
        outcome.assembly_failed = true;
        return outcome;
    }
    outcome.ok = true;
    return outcome;
}

}  // namespace rl::student
