// app/imgui/numerics_state.cpp — runs compare_numerics for the shown schedule once per change.
#include "app/imgui/numerics_state.h"

#include <exception>

namespace rl::lab {
namespace {

std::string key_of(const Schedule& s) {
    std::string k = describe(s) + " input=" + std::string(to_string(s.input.kind)) + " seed=" + std::to_string(s.input.seed);
    for (double v : s.input.values) k += "," + std::to_string(v);
    return k;
}

}  // namespace

void NumericsState::update(const Schedule& s, bool force) {
    const std::string k = key_of(s);
    if (k == key && (ready || !unsupported.empty() || !error.empty() || (waiting && !force))) return;
    key = k;
    ready = waiting = false;
    unsupported.clear();
    error.clear();
    if (std::string why = numerics_supported(s); !why.empty()) {
        unsupported = why;
        return;
    }
    if (s.n > kAutoMaxN && !force) {
        waiting = true;
        return;
    }
    try {
        report = compare_numerics(s);
        table = render::numerics_table(report);
        ready = true;
    } catch (const std::exception& e) {
        error = e.what();
    }
}

}  // namespace rl::lab
