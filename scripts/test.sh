#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, builds everything this machine can build,
# runs every test (GPU tests skip with a reason where there is no GPU), then the CPU tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

bash scripts/install-deps.sh

echo "== build (preset default)"
cmake --preset default
cmake --build --preset default -j "$jobs"
echo "== tests (preset default)"
ctest --preset default -j "$jobs"
echo "== install tests: cmake --install to a temporary prefix, then the Debian package through apt"
bash tests/install/test_install.sh build/default --deb

echo "== build (preset asan: AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
echo "== tests (preset asan)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -j "$jobs"
echo "== all tests passed"
