// app/backend/numerics_gpu.cpp — K GPU runs per atomic row and GPU timings per accumulation choice.
#include "app/backend/numerics_gpu.h"

#include "core/emulator.h"
#ifdef RLAB_HAVE_CUDA
#include "cuda/host_api.h"
#endif

namespace rl {

std::string measure_numerics_on_gpu(NumericsReport& report, [[maybe_unused]] const InputData& input,
                                    BackendChoice choice, [[maybe_unused]] uint32_t runs) {
    if (choice == BackendChoice::Cpu) return "--backend cpu: atomic rows use the emulator's seeded legal orders";
    const GpuStatus& gpu = gpu_status();
    if (!gpu.usable) {
        if (choice == BackendChoice::Cuda) throw Error("--backend cuda: " + gpu.reason);
        return "no usable GPU (" + gpu.reason + "): atomic rows use the emulator's seeded legal orders";
    }
#ifdef RLAB_HAVE_CUDA
    uint32_t atomic_rows = 0, timed = 0;
    for (NumericsRow& row : report.rows) {
        if (row.group == RowGroup::Serial) continue;
        if (!row.deterministic) {
            // A capture can fail where the atomic order cannot be rebuilt from the replaced values
            // (long per-element chains); the row then keeps the emulator's orders and says why.
            try {
                std::vector<uint64_t> bits;
                for (uint32_t k = 0; k < runs; ++k) bits.push_back(cuda::capture_trace(row.variant, input).result_value);
                set_runs(row, report, bits, "GPU: " + std::to_string(runs) + " runs on " + gpu.name);
                ++atomic_rows;
            } catch (const Error& e) {
                row.note = "kept the emulator's orders: GPU capture failed (" + std::string(e.what()) + ")";
            }
        }
        if (row.chosen || row.group == RowGroup::Accumulation) {
            row.gpu_time_us = cuda::time_uninstrumented_us(row.variant, input);
            ++timed;
        }
    }
    return "GPU " + gpu.name + ": " + std::to_string(atomic_rows) + " atomic row(s) run " + std::to_string(runs) +
           " times each; " + std::to_string(timed) + " accumulation choice(s) timed uninstrumented";
#else
    return "no usable GPU: atomic rows use the emulator's seeded legal orders";
#endif
}

}  // namespace rl
