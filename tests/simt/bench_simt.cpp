// tests/simt/bench_simt.cpp — rlab_simt_bench: how many records per second the SIMT interpreter makes, on Harris's
// kernel 3 and the blog's warp-shuffle kernel (launch 0 only: the interpreter, not the trace assembly).
//   rlab_simt_bench [N] [BLOCK] [KERNEL.cu]   (default 1048576 elements, blocks of 256, all three kernels)
// The first launch of a process pays the page faults of its record array (1.2 GB at 2^20 elements).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "core/error.h"
#include "simt_test.h"

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
    const uint32_t block = argc > 2 ? uint32_t(std::atoi(argv[2])) : 256;
    if (!rl::simt_test::have_clang()) {
        std::printf("rlab_simt_bench: clang-14 not found\n");
        return 77;
    }
    try {
        std::vector<std::string> files = {"harris3_sequential.cu", "harris1_interleaved.cu", "blog_warp_sum.cu"};
        if (argc > 3) files = {argv[3]};
        for (const std::string& file : files) {
            const rl::simt::Module m = rl::simt_test::compile_file(file);
            const auto start = std::chrono::steady_clock::now();
            const rl::simt::LaunchResult r = rl::simt_test::launch(m.kernels.at(0), n, block);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!r.error.empty()) throw rl::Error(r.error);
            std::printf("%-24s n=%d block=%u: %zu records, %llu warp instructions in %.3f s: %.1f million records/s\n", file.c_str(), n,
                        block, r.records.size(), (unsigned long long)r.instructions, s, double(r.records.size()) / s / 1e6);
        }
    } catch (const rl::Error& e) {
        std::fprintf(stderr, "rlab_simt_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
