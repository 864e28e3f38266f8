// tests/gpu/gpu_main.cpp — doctest runner for the `gpu` suites: without a usable GPU every test
// exits 77 (CTest's skip) after one line saying why; listing the tests always works.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include "cuda/host_api.h"

int main(int argc, char** argv) {
    bool listing = false;
    for (int i = 1; i < argc; ++i)
        if (std::strstr(argv[i], "list-test") || std::strcmp(argv[i], "-ltc") == 0) listing = true;
    if (!listing) {
        rl::cuda::DeviceInfo info = rl::cuda::probe_device();
        if (!info.usable) {
            std::printf("SKIPPED: no usable GPU: %s\n", info.reason.c_str());
            return 77;
        }
    }
    doctest::Context ctx(argc, argv);
    return ctx.run();
}
