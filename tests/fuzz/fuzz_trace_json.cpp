// tests/fuzz/fuzz_trace_json.cpp — libFuzzer target: the trace JSON reader, then what every reader of a trace
// does next (analysis, the checker, the picture's layout). Bad input must end in rl::Error, nothing else.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "app/render/scene.h"
#include "core/analysis.h"
#include "core/checker.h"
#include "core/error.h"
#include "core/trace_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        rl::Trace t = rl::read_trace_json(in);
        rl::analyze(t);
        rl::render::build_layout(t);
        t.schedule.bugs = 0;
        rl::attach_checked_hazards(t);
    } catch (const rl::Error&) {
    }
    return 0;
}
