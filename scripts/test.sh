#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, builds everything this machine can build,
# runs every test (GPU tests skip with a reason where there is no GPU), then the CPU tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer (clang 14), and fuzzes every parser for a bounded time.
# Ends by counting the tests CTest skipped, each with its reason.
set -euo pipefail  # pipefail: a failing ctest ends the script through the tee that keeps its output
cd "$(dirname "$0")/.."
jobs=$(nproc)

bash scripts/install-deps.sh

echo "== build (preset default, unity build)"
# Unity builds (a few files compiled as one) take about a fifth off each build's CPU time on CI's 2 cores: the
# heavy headers (CLI11, nlohmann/json, toml++, Qt) are parsed once per batch instead of once per file.
cmake --preset default -DCMAKE_UNITY_BUILD=ON
cmake --build --preset default -j "$jobs"
echo "== tests (preset default)"
ctest --preset default -j "$jobs" 2>&1 | tee build/ctest-default.txt
cp build/default/Testing/Temporary/LastTest.log build/ctest-default.log  # the skip reasons (scripts/ctest_skips.sh)
echo "== install tests: cmake --install to a temporary prefix, then the Debian package through apt"
bash tests/install/test_install.sh build/default --deb

stage_start=$SECONDS
echo "== build (preset asan-monkeys: AddressSanitizer + UndefinedBehaviorSanitizer, clang 14, the fuzz targets and the GUI monkeys)"
cmake --preset asan-monkeys -DCMAKE_UNITY_BUILD=ON
cmake --build --preset asan-monkeys -j "$jobs"
echo "== tests (preset asan) after $((SECONDS - stage_start)) s"
# Left to the default stage, to keep CI under its 20 minutes: the lessons command's shell suite (110 s under ASan;
# every lesson is still played under ASan by the core test "every lesson plays to the end"), the command-line
# suite (its parsers are fuzzed below and its hostile-input suite runs here) and the nvcc compile of generated
# sources (no host code of ours runs in it); likewise every shell suite labelled cli (hostile input, exercises),
# whose parsers the fuzzers below run under ASan.
# (No test preset here: CTest 3.25 ignored both the preset's label filter and -LE given with --preset, and ran the
# cli- and gui-labelled suites of this GUI-enabled build; the GL ones then failed on Mesa's stackless leaks.)
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build/asan -j "$jobs" --output-on-failure \
  --timeout 600 -LE '^(cli|gui|gpu)$' -E '^(rlab_lessons_command|rlab_command_line|rlab_generated_sources_compile)$' \
  2>&1 | tee build/ctest-asan.txt
cp build/asan/Testing/Temporary/LastTest.log build/ctest-asan.log  # the monkeys' run below replaces it
echo "== both GUI monkeys under the sanitizers, after $((SECONDS - stage_start)) s"
# Fewer events than the release build's runs above (which also hold every frame to a second): under ASan both
# front ends are about ten times slower; these look for crashes and sanitizer reports (docs/gui-monkey.md).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 RLAB_MONKEY=19:1000 RLAB_MONKEY_ACTIONS=201 \
  LSAN_OPTIONS="suppressions=$PWD/tests/gui/lsan-third-party.supp:print_suppressions=0" \
  ctest --test-dir build/asan --output-on-failure --timeout 900 --no-tests=error -R '^(reduction_lab_monkey|rlab_qt_monkey)$' \
  2>&1 | tee build/ctest-asan-monkeys.txt
cp build/asan/Testing/Temporary/LastTest.log build/ctest-asan-monkeys.log
echo "== fuzzing each parser for ${RLAB_FUZZ_SECONDS:=10} s, after $((SECONDS - stage_start)) s"
fuzz_failed=0
for t in trace_json:"docs/gpu/traces tests/data/hostile tests/data/fuzz/trace_json" \
         lesson_toml:"lessons tests/data/hostile tests/data/fuzz/lesson_toml" \
         bench_json:"docs/bench tests/data/bench-fixture.json tests/data/fuzz/bench_json" \
         schedule_flags:"tests/data/fuzz/schedule_flags"; do
  # shellcheck disable=SC2086
  RLAB_FUZZ_ARTIFACTS=build/fuzz-findings tests/fuzz/run_fuzz.sh "build/asan/tests/fuzz/fuzz_${t%%:*}" "$RLAB_FUZZ_SECONDS" ${t#*:} &
done
for job in $(jobs -p); do wait "$job" || fuzz_failed=1; done
[ "$fuzz_failed" -eq 0 ] || { echo "fuzzing found inputs (build/fuzz-findings): add each to tests/data/fuzz/ and fix"; exit 1; }
echo "== sanitizer stage: $((SECONDS - stage_start)) s (build, tests, fuzzing)"
echo "== all tests passed, except those skipped:"
bash scripts/ctest_skips.sh build/ctest-default.txt build/ctest-default.log
bash scripts/ctest_skips.sh build/ctest-asan.txt build/ctest-asan.log
bash scripts/ctest_skips.sh build/ctest-asan-monkeys.txt build/ctest-asan-monkeys.log
echo "== mutation sample (docs/mutation.md): 3 mutants of tests/mutants/, rotated by the day of the year"
# CI's checkout is a clean clone, so the mutants go into it (--in-place) and reuse build/default's objects: each
# rebuilds one unity batch and the tests it names. A mutant no test kills fails CI with its name.
bash scripts/mutate.sh --in-place --build-dir build/default --sample "${RLAB_MUTANTS_SAMPLE:-3}" --no-restore
