// tests/fuzz/fuzz_bench_json.cpp — libFuzzer target: the bench results reader and the tables drawn from it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/bench_report.h"
#include "core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const rl::BenchReport r = rl::bench_from_json(std::string_view(reinterpret_cast<const char*>(data), size));
        for (const std::string& cache : r.caches()) rl::crossover_analysis(r, cache);
        rl::bench_to_csv(r);
        rl::bench_to_json(r);
    } catch (const rl::Error&) {
    }
    return 0;
}
