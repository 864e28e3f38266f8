// app/backend/numerics_gpu.h — the numerics lab's GPU half: atomic stages run K times, accumulation choices timed.
#pragma once
#include <string>
#include "app/backend/backend.h"
#include "core/numerics.h"

namespace rl {

// With a usable GPU (and choice auto or cuda): every non-deterministic row's schedule runs `runs`
// times on the GPU and its patterns become the GPU's; the chosen and accumulation rows get their
// uninstrumented median time. Returns one line saying what was measured, or why the emulator's
// orders stand. Throws rl::Error when cuda is forced but unavailable.
std::string measure_numerics_on_gpu(NumericsReport& report, const InputData& input, BackendChoice choice,
                                    uint32_t runs);

}  // namespace rl
