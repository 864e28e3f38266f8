// tests/fuzz/fuzz_trace_binary.cpp — libFuzzer target: the binary handoff's reader (core/trace_binary.h), the form
// rlab-kernel-runner hands its trace in, then what the caller does next (analysis, the checker, the picture's
// layout). Bad input must end in rl::Error, nothing else.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "app/render/scene.h"
#include "core/analysis.h"
#include "core/checker.h"
#include "core/error.h"
#include "core/trace_binary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        rl::Trace t = rl::read_trace_binary(in);
        rl::analyze(t);
        rl::render::build_layout(t);
        t.schedule.bugs = 0;
        rl::attach_checked_hazards(t);
    } catch (const rl::Error&) {
    }
    return 0;
}
