#!/usr/bin/env bash
# On the GPU machine, in one call: build core + cuda + cli + tests (no GUI), run the `gpu` tests,
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on correct and buggy schedules,
# and the benchmarks; everything lands in $OUT with report.md as the summary.
# Needs the header-only dependencies in .deps/ (scripts/prepare-gpu-deps.sh makes it).
# Modes (RLAB_GPU_ONLY): corpus (build, record the trace corpus, divergent-shuffle on the hardware),
# tests (build, corpus, every gpu-labelled test, rlab run --time's among them: the one call of at most 10 minutes), fast, fast-matrix
# (issue 18: exact fast-path tests, --tune, the three-round --fast-matrix into $OUT/bench-fast.json), record (the
# tune table twice, then the recorded --fast-matrix, no tests: for code whose tests passed already), tune (the
# exact fast-path tests and five rounds of --tune), ncu-fast and ncu-small (Nsight Compute: 2^28 f32, the one-block
# and deterministic-finish cases), bench,
# final, session (student suites, fast-path tests and the recorded --fast-matrix, then the other gpu tests),
# lessons (build rlab, record every lesson step's trace on the GPU into $OUT/lesson-traces.tar.gz:
# commit its contents under lessons/recorded/), student (a student's kernel on the GPU: build the runner and its
# tests, run the student suites against the emulator, compute-sanitizer on README's example; $OUT/student-tests.log,
# $OUT/student-traces.tar.gz); plain (no build: the plain-CUDA corpus, tests/cuda/corpus, launched as the lab launches
# it and run under compute-sanitizer by tests/gpu/plain/run_corpus_on_gpu.sh, each result against the manifest's;
# $OUT/plain-corpus.tar.gz); none: everything, with the nvcc compile of generated sources. The corpus lands as
# $OUT/gpu-corpus.tar.gz (commit its contents under tests/data/gpu-corpus/).
# Every mode goes on after a failing step (the rest of the report is still worth having), ends the report with a
# "## verdict" naming each failed test step, and exits 1 when any failed: test suites, compute-sanitizer runs meant to
# be clean, the corpus and lesson recordings, lessons --check, a benchmark whose exact check failed. Measurements
# (timings, ncu, the sanitizer findings and races of buggy schedules, undefined behaviour) never fail the run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-/tmp/rlab-gpu}
mkdir -p "$OUT"
report="$OUT/report.md"
jobs=$(nproc)
rlab=build/gpu/app/cli/rlab

# The verdict: each test step counted, the failed ones named (with how), notes on what did not run or was skipped.
steps=0
failed=()
notes=()
# check NAME CODE [WHY]: one test step, failed when CODE is not 0 (WHY says how; 124 is a time limit's kill).
check() {
  steps=$((steps + 1))
  [ "$2" -eq 0 ] && return 0
  local why=${3:-exit $2}
  [ "$2" -eq 124 ] && why="stopped by its time limit (exit 124)"
  [ "$2" -eq 77 ] && why="skipped (exit 77): the suite found no usable GPU"
  failed+=("$1: $why")
  return 1
}
# bench_check NAME CODE OUTPUT...: a benchmark measures, but one whose exact check failed ("CHECK FAILED", exit 1) or
# that crashed fails the run; one stopped by its time limit is noted, not failed.
bench_check() {
  local name=$1 code=$2; shift 2
  if grep -qs "^CHECK FAILED" "$@"; then check "$name" 1 "$(grep -hs "^CHECK FAILED" "$@" | head -1) (exit $code)"
  elif [ "$code" -eq 124 ]; then notes+=("$name: stopped by its time limit (a measurement: not a failure)")
  else check "$name" "$code"
  fi
}
# sanitizer_check NAME CODE LOG: a compute-sanitizer run meant to be clean: exit 0 and a summary of 0 errors or hazards.
sanitizer_check() {
  local n
  n=$(grep -oE "(ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+ hazard)" "$3" | grep -oE "[0-9]+" | tail -1)
  if [ "$2" -eq 0 ] && [ "${n:-none}" != 0 ]; then check "$1" 1 "exit 0 but ${n:-no summary} error(s) or hazard(s)"
  else check "$1" "$2"; fi
}
# ctest_check NAME CODE LOG: a ctest run; its skipped tests are noted by name (ctest counts a skip as a pass).
ctest_check() {
  check "$1" "$2"
  local skipped
  skipped=$(grep -oE "Test +#[0-9]+: .*\*\*\*Skipped" "$3" | sed -E 's/^Test +#[0-9]+: (.*[^ .*]) *\.* *\*+Skipped$/\1/' | sort -u)
  [ -n "$skipped" ] && notes+=("$1: $(echo "$skipped" | wc -l) test(s) skipped: $(echo "$skipped" | paste -sd ';' | sed 's/;/; /g')")
  return 0
}
# required_test NAME LOG: a test that must run and pass on this machine (ctest counts a skip as a pass).
required_test() {
  local line
  line=$(grep -E "Test +#[0-9]+: $1 " "$2" | tail -1)
  if [[ $line =~ Passed ]]; then check "$1" 0; else check "$1" 1 "did not run and pass here: ${line:-not in the log}"; fi
}
# finish: the verdict at the end of the report, the report on stdout, exit 1 when a step failed.
finish() {
  { echo "## verdict"
    if [ "$steps" -eq 0 ]; then echo "all passed (this mode has no test step, only measurements)"
    elif [ "${#failed[@]}" -eq 0 ]; then echo "all passed ($steps test step(s))"
    else echo "FAILED: ${#failed[@]} of $steps test step(s)"; printf -- '- failed: %s\n' "${failed[@]}"; fi
    [ "${#notes[@]}" -gt 0 ] && printf -- '- note: %s\n' "${notes[@]}"
  } >>"$report"
  cat "$report"
  [ "${#failed[@]}" -eq 0 ] || exit 1
  exit 0
}

{
  echo "# GPU run $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1
  nvcc --version | tail -2
  cmake --version | head -1
} >"$report"

# The plain-CUDA corpus on the GPU needs nvcc and NVRTC, not the lab: it runs before (and instead of) the build.
if [ "${RLAB_GPU_ONLY:-}" = plain ]; then
  echo "== plain-CUDA corpus"
  start=$SECONDS
  timeout 570 bash tests/gpu/plain/run_corpus_on_gpu.sh "$OUT/plain" >"$OUT/plain.log" 2>&1
  code=$?
  check "plain-CUDA corpus on the GPU (tests/gpu/plain/run_corpus_on_gpu.sh)" "$code"
  { echo "## plain-CUDA corpus on the GPU: exit $code ($((SECONDS - start))s)"
    if [ -s "$OUT/plain/report.md" ]; then sed -n '/^## results/,$p' "$OUT/plain/report.md"; else tail -20 "$OUT/plain.log"; fi
  } >>"$report"
  tar -czf "$OUT/plain-corpus.tar.gz" -C "$OUT" plain plain.log && rm -rf "$OUT/plain" "$OUT/plain.log"
  finish
fi

echo "== build"
# corpus and tests need only the command line and the gpu suites: build just those (nvcc is the long pole)
targets=()
case "${RLAB_GPU_ONLY:-}" in corpus | tests | fast-matrix | tune) targets=(--target rlab rlab_gpu_tests) ;; lessons | ncu-fast | ncu-small | record) targets=(--target rlab) ;;
  student) targets=(--target rlab rlab-kernel-runner rlab_student_gpu_tests rlab_student_nvrtc_tests rlab_plain_compile_tests) ;;
  session) targets=(--target rlab rlab_gpu_tests rlab_nvrtc_tests rlab-kernel-runner rlab_student_gpu_tests rlab_student_nvrtc_tests
    rlab_codegen_batch) ;; esac
# tests: also the generated kernels against the instrumented ones (NVRTC), the student suites and the nvcc compile of
# generated sources, so that every gpu- and nvcc-labelled test has its executable
[ "${RLAB_GPU_ONLY:-}" = tests ] && targets+=(rlab_nvrtc_tests rlab-kernel-runner rlab_student_gpu_tests
  rlab_student_nvrtc_tests rlab_codegen_batch rlab_plain_compile_tests)
if ! { cmake --preset gpu && cmake --build --preset gpu -j "$jobs" "${targets[@]}"; } >"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; echo "BUILD FAILED" >>"$report"
  check build 1 "the build failed (build.log)"; finish
fi
echo "- build: ${SECONDS}s" >>"$report"

# The recorded trace corpus (tests/data/gpu-corpus/schedules.txt), tarred into one file for $OUT.
record_corpus() {
  echo "== corpus"
  local start=$SECONDS dir=$OUT/corpus-tmp
  rm -rf "$dir"
  bash scripts/record-gpu-corpus.sh "$rlab" "$dir" cuda >"$OUT/corpus.log" 2>&1
  local code=$? bad
  { echo "## trace corpus ($((SECONDS - start))s): $(tail -1 "$OUT/corpus.log")"; echo '```'
    grep -vE " ok [0-9]+$" "$dir/recorded.txt"; echo '```'; } >>"$report"
  # Every schedule must record, except that divergent-shuffle is undefined behaviour: a hang that the watchdog ends
  # (exit 2 and its message) is one of its results; a hang the watchdog missed (timeout's kill) is not.
  bad=$(grep -E "^[^ ]+ failed " "$dir/recorded.txt" 2>/dev/null |
    grep -vE "^bug-divergent-shuffle[a-z-]* failed 2: rlab: the GPU kernel did not finish within ")
  if [ "$code" -ne 0 ]; then check "trace corpus recording" "$code"
  elif [ ! -s "$dir/recorded.txt" ]; then check "trace corpus recording" 1 "no recorded.txt"
  elif [ -n "$bad" ]; then check "trace corpus recording" 1 "$(echo "$bad" | wc -l) schedule(s) failed: $(echo "$bad" | cut -d' ' -f1 | paste -sd ' ')"
  else check "trace corpus recording" 0; fi
  tar -czf "$OUT/gpu-corpus.tar.gz" -C "$dir" . && rm -rf "$dir"
}

# divergent-shuffle on the hardware: the result, synccheck's finding, or a hang ended by the watchdog.
divergent_shuffle() {
  echo "== divergent-shuffle"
  local sched="--n 40 --block 64 --input uniform --seed 78 --bug divergent-shuffle" start=$SECONDS
  echo "## divergent-shuffle on the GPU (\`$sched\`)" >>"$report"
  # shellcheck disable=SC2086
  { timeout 60 $rlab trace --backend cuda $sched --format text; echo "exit $?"; } >"$OUT/divergent-shuffle.txt" 2>&1
  # shellcheck disable=SC2086
  { timeout 60 compute-sanitizer --tool synccheck --print-limit 5 $rlab trace --backend cuda $sched --format json -o /dev/null
    echo "exit $?"; } >"$OUT/divergent-shuffle-synccheck.txt" 2>&1
  { echo '```'; grep -E "^result|^verdict|hazard|exit|rlab:" "$OUT/divergent-shuffle.txt" | head -12
    echo "synccheck:"; grep -E "SUMMARY|=========  [A-Z]|exit" "$OUT/divergent-shuffle-synccheck.txt" | head -8
    echo '```'; echo "($((SECONDS - start))s)"; } >>"$report"
}

# Nsight Compute on the fast path and on CUB's main kernel at 2^28 f32 (warm, clocks not locked): time, DRAM
# throughput and bytes, occupancy and registers, one launch each; the table goes into the report.
ncu_fast_section() {
  echo "== ncu: the fast path against CUB at 2^28 f32"
  local metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_read.sum.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size
  local v k
  for v in fast cub; do
    k='regex:^reduce(_bounded|_one_block)?$'; [ "$v" = cub ] && k='regex:DeviceReduceKernel'  # the fast path's kernel: fast::reduce(_bounded)
    timeout 120 ncu --clock-control none -k "$k" -s 3 -c 1 --metrics "$metrics" $rlab bench --sizes 28 --variants "$v" --reps 3 \
      --no-worked-example --no-harris >"$OUT/ncu-fast-$v.txt" 2>&1
  done
  { echo "## ncu (--clock-control none): the fast path and CUB's DeviceReduceKernel, f32 sum 2^28, warm"; echo '```'
    for v in fast cub; do echo "### $v"; grep -E "reduce|Reduce|gpu__time|dram__|sm__warps|launch__|ERROR" "$OUT/ncu-fast-$v.txt" | head -14; done
    echo '```'; } >>"$report"
}

# Nsight Compute's warp states where the fast path trails by about 0.2 us (issue 18): one block over 2^12 f32 against
# CUB's single tile, and the deterministic finish against the atomic one at a grid of 64 blocks (2^17 f32); ncu
# flushes the caches before each kernel (--cache-control all), the cold case of the matrix.
ncu_small_section() {
  local args=(--clock-control none --section WarpStateStats --section LaunchStats --page raw
    --metrics gpu__time_duration.sum,smsp__inst_executed.sum)
  local v k
  for v in fast cub; do
    k='regex:^reduce(_bounded|_one_block)?$'; [ "$v" = cub ] && k='regex:SingleTile'
    timeout 90 ncu "${args[@]}" -k "$k" -s 2 -c 1 $rlab bench --sizes 12 --variants "$v" --reps 3 \
      --no-worked-example --no-harris >"$OUT/ncu-small-$v.txt" 2>&1
  done
  for v in fast fast-deterministic; do
    timeout 90 ncu "${args[@]}" -k 'regex:^reduce(_bounded)?$' -s 2 -c 1 $rlab bench --sizes 17 --variants "$v" --reps 3 \
      --no-worked-example --no-harris >"$OUT/ncu-grid-$v.txt" 2>&1
  done
  { echo "## ncu (--clock-control none, caches flushed): 2^12 f32 on one block against CUB's single tile; 2^17 f32 in both modes"
    echo '```'
    for f in small-fast small-cub grid-fast grid-fast-deterministic; do
      echo "### $f"; grep -E "Reduce|reduce|gpu__time_duration.sum |inst_executed.sum |launch__(grid|block)_size |launch__registers|ERROR" "$OUT/ncu-$f.txt" | head -6
      grep -E "issue_stalled_[a-z_]+_per_warp_active.pct " "$OUT/ncu-$f.txt" | sort -k3 -g -r | head -8
    done; echo '```'; } >>"$report"
}

# What is left in $OUT goes back at most 8 files at a time: the report and the recorded matrix as they are, every
# other file in one tarball.
pack_out() {
  (cd "$OUT" && find . -maxdepth 1 -type f ! -name report.md ! -name 'bench-fast.json' ! -name '*.tar.gz' -printf '%P\n' \
    | tar -czf logs.tar.gz -T - --remove-files)
}

# The fast path's exact GPU tests (the doctest filter $1), at most 240 s: a finish that waited forever would otherwise
# take the call's whole budget.
fast_tests() {
  timeout 240 build/gpu/tests/gpu/rlab_gpu_tests -tc="$1" >"$OUT/fast-tests.log" 2>&1
  local code=$?
  check "fast path tests (rlab_gpu_tests -tc=\"$1\")" "$code"
  echo "## fast path tests: exit $code" >>"$report"
  grep -E "MESSAGE|ERROR|CHECK|test cases|assertions" "$OUT/fast-tests.log" | head -30 >>"$report"
}

# The fast path's matrix (issue 18), ended after $1 seconds: fast, deterministic and CUB over every type at every power
# 2^10..2^30 and odd sizes (misaligned), warm and cold, three rounds, into $OUT/bench-fast.json; its summary goes into
# the report.
record_matrix() {
  local code
  timeout "$1" $rlab bench --fast-matrix --cache both --rounds 3 --sizes 10:30:1 --reps 50 \
    --json "$OUT/bench-fast.json" --csv "$OUT/bench-fast.csv" >"$OUT/bench-fast.txt" 2>"$OUT/bench-fast.err"
  code=$?
  bench_check "rlab bench --fast-matrix (recorded)" "$code" "$OUT/bench-fast.txt" "$OUT/bench-fast.err"
  { echo "## rlab bench --fast-matrix (exit $code, at ${SECONDS}s)"; tail -3 "$OUT/bench-fast.err"
    [ -f "$OUT/bench-fast.json" ] && $rlab bench --recorded --file "$OUT/bench-fast.json" --markdown summary; } >>"$report"
}

# compute-sanitizer over the fast path's kernels (both finishes, the one-block kernels, every type and operator) and
# CUB's, through a small --fast-matrix whose every cell also checks its exact answer; one line per tool in the report.
fast_sanitizers() {
  echo "== compute-sanitizer on the fast path"
  local tool code
  echo "## compute-sanitizer on rlab bench --fast-matrix (2^10, 2^17, 2^24, 1001 and 300007 elements misaligned)" >>"$report"
  for tool in memcheck racecheck synccheck initcheck; do
    [ "$SECONDS" -gt 500 ] && { echo "- $tool: not run (the call's 10 minutes)" >>"$report"
      notes+=("compute-sanitizer $tool on the fast path: not run (time)"); continue; }
    timeout 60 compute-sanitizer --tool "$tool" --print-limit 5 $rlab bench --fast-matrix --sizes 10,17,24 \
      --odd-sizes 1001,300007 --cache warm --reps 3 >"$OUT/fast-sanitizer-$tool.txt" 2>&1
    code=$?
    sanitizer_check "compute-sanitizer $tool on rlab bench --fast-matrix" "$code" "$OUT/fast-sanitizer-$tool.txt"
    echo "- $tool: exit $code; $(grep -E "SUMMARY" "$OUT/fast-sanitizer-$tool.txt" | head -2 | tr '\n' ' ')$(grep -E "^rlab:" "$OUT/fast-sanitizer-$tool.txt" | head -2 | tr '\n' ' ')" >>"$report"
  done
}

# Every lesson step's trace recorded on the GPU (device and date in each lesson's recorded.txt), then checked
# against the lessons' expectations as a classroom will play them; one tar for $OUT.
if [ "${RLAB_GPU_ONLY:-}" = lessons ]; then
  echo "== lesson traces"
  dir=$OUT/lesson-traces
  rm -rf "$dir"
  start=$SECONDS
  timeout 400 $rlab lessons --backend cuda --record "$dir" >"$OUT/lesson-traces.log" 2>&1
  code=$?
  check "rlab lessons --backend cuda --record" "$code"
  find "$dir" -name 'step-*.json' -exec gzip -9 {} +  # committed as .json.gz: a tenth of the size
  { echo "## lesson traces: exit $code ($((SECONDS - start))s), $(grep -c ': recorded on' "$OUT/lesson-traces.log") step(s) recorded"
    echo '```'; grep -v ': recorded on' "$OUT/lesson-traces.log" | head -40; echo '```'; } >>"$report"
  # The same checks a classroom's copy will run: the recordings in place of lessons/recorded.
  rm -rf lessons/recorded && mkdir -p lessons/recorded && cp -r "$dir"/. lessons/recorded/
  $rlab lessons --check >"$OUT/lessons-check.log" 2>&1
  code=$?
  check "rlab lessons --check with the recordings" "$code"
  { echo "## rlab lessons --check with the recordings: exit $code"; echo '```'; tail -25 "$OUT/lessons-check.log"; echo '```'; } >>"$report"
  tar -czf "$OUT/lesson-traces.tar.gz" -C "$dir" . && rm -rf "$dir"
  du -sh "$OUT/lesson-traces.tar.gz" >>"$report"
  finish
fi

# A student's kernel (include/rlab/kernel.h) on the GPU: the NVRTC compiles and the GPU-against-emulator suites,
# README's example recorded on both backends (one tar), compute-sanitizer on the example, the exercises (plain CUDA)
# compiled with NVRTC and their solutions timed with --time.
# One call for a session's end: the student-kernel suites, the fast path's exact tests and its recorded matrix
# ($OUT/bench-fast.json), then every other gpu-labelled test in the time left of the call's 10 minutes.
if [ "${RLAB_GPU_ONLY:-}" = session ]; then
  start=$SECONDS
  timeout 200 ctest --preset gpu -R '^(NVRTC|student kernel on the GPU): ' --output-on-failure -V >"$OUT/student-tests.log" 2>&1
  code=$?
  ctest_check "student kernel tests" "$code" "$OUT/student-tests.log"
  { echo "## student kernel tests: exit $code ($((SECONDS - start))s)"
    grep -E "tests passed|Test +#.*(Passed|Failed|Skipped|\*\*\*)|ERROR|CHECK|REQUIRE|values:" "$OUT/student-tests.log" | head -60; } >>"$report"
  fast_tests "fast path*,rlab bench --fast-matrix*"
  record_matrix 150
  ncu_fast_section
  left=$((580 - SECONDS)); [ "$left" -lt 30 ] && left=30
  # with the nvcc compile of generated sources (label nvcc: CPU only, beside the GPU tests) where time allows; it
  # always runs in the default mode
  labels='^gpu$'
  if [ "$left" -ge 240 ]; then labels='^(gpu|nvcc)$'
  else notes+=("rlab_generated_sources_compile: not run (${left}s left in the call)"); fi
  timeout "$left" ctest --preset gpu -L "$labels" -E '^(NVRTC|student kernel on the GPU): |fast path|fast-matrix' -j 3 \
    --output-on-failure -V >"$OUT/gpu-tests.log" 2>&1
  code=$?
  ctest_check "other gpu tests" "$code" "$OUT/gpu-tests.log"
  [ "$labels" = '^gpu$' ] || required_test rlab_generated_sources_compile "$OUT/gpu-tests.log"
  [ "$code" -eq 124 ] && echo "## gpu tests: STOPPED after ${left}s (the call's limit); the log has what ran" >>"$report"
  echo "## other gpu tests: exit $code (whole call ${SECONDS}s)" >>"$report"
  grep -E "tests passed|Test +#.*(Failed|\*\*\*)|SKIPPED|ERROR|CHECK|compiled [0-9]+ units" "$OUT/gpu-tests.log" | head -80 >>"$report"
  pack_out; finish
fi

if [ "${RLAB_GPU_ONLY:-}" = student ]; then
  echo "== student kernels"
  start=$SECONDS
  left=$((450 - SECONDS)); [ "$left" -lt 60 ] && left=60  # the device call's 10 minutes hold build, tests and the rest
  # the exercises (plain CUDA): NVRTC's compile of each file, and each solution timed and checked with --time
  timeout "$left" ctest --preset gpu -R '^(NVRTC|student kernel on the GPU): |^plain timer compile: every exercise|^gpu_exercises_time$' \
    --output-on-failure -V >"$OUT/student-tests.log" 2>&1
  code=$?
  ctest_check "student kernel tests" "$code" "$OUT/student-tests.log"
  [ "$code" -eq 124 ] && echo "## student tests: STOPPED after ${left}s; the log has what ran" >>"$report"
  { echo "## student kernel tests: exit $code ($((SECONDS - start))s)"
    grep -E "tests passed|Test +#.*(Passed|Failed|Skipped|\*\*\*)|ERROR|CHECK|REQUIRE|logged|values:|MESSAGE" "$OUT/student-tests.log" | head -120; } >>"$report"
  runner=build/gpu/student/rlab-kernel-runner dir=$OUT/student-traces
  rm -rf "$dir" && mkdir -p "$dir"
  awk '/^```cuda$/{f=1; next} /^```$/{if (f) exit} f' README.md >"$dir/readme_example.cu"
  # (The exercises are plain CUDA, which the runner's --backend cuda does not record yet: gpu_exercises_time runs them.)
  echo "## README's example, recorded on both backends" >>"$report"
  for f in "$dir/readme_example.cu"; do
    [ "$SECONDS" -gt 520 ] && { notes+=("the runner from $f on: not run (time)"); break; }
    name=$(basename "$(dirname "$f")"); [ "$f" = "$dir/readme_example.cu" ] && name=readme_example
    for b in cpu cuda; do
      timeout 20 "$runner" "$f" --out "$dir/$name-$b.json" --n 256 --block 64 --input uniform --seed 3 --backend "$b" \
        >"$dir/$name-$b.log" 2>&1
      code=$?
      check "rlab-kernel-runner $name --backend $b" "$code"
      echo "- $name --backend $b: exit $code $(head -c 300 "$dir/$name-$b.log")" >>"$report"
    done
  done
  echo "## compute-sanitizer on README's example (--backend cuda)" >>"$report"
  for tool in memcheck synccheck; do
    [ "$SECONDS" -gt 540 ] && { notes+=("compute-sanitizer $tool on README's example: not run (time)"); break; }
    timeout 25 compute-sanitizer --tool "$tool" --print-limit 5 "$runner" "$dir/readme_example.cu" --out "$dir/sanitized-$tool.json" \
      --n 1000 --block 256 --backend cuda >"$dir/sanitizer-$tool.txt" 2>&1
    code=$?
    sanitizer_check "compute-sanitizer $tool on README's example" "$code" "$dir/sanitizer-$tool.txt"
    echo "- $tool: exit $code $(grep -E "SUMMARY" "$dir/sanitizer-$tool.txt" | head -2 | tr '\n' ' ')" >>"$report"
  done
  tar -czf "$OUT/student-traces.tar.gz" -C "$dir" . && rm -rf "$dir"
  pack_out; finish
fi

if [ "${RLAB_GPU_ONLY:-}" = corpus ]; then
  record_corpus
  divergent_shuffle
  finish
fi

# What the fast path compiled to: registers, and whether its loads are 16 bytes wide.
fast_obj=build/gpu/cuda/CMakeFiles/rlab_cuda.dir/fast_reduce.cu.o
{ cuobjdump --dump-resource-usage "$fast_obj" 2>&1 | grep -E "Function|REG" | head -40
  echo "load instructions in the fast path's SASS:"; cuobjdump -sass "$fast_obj" 2>&1 | grep -oE "LDG\.E[A-Z0-9.]*" | sort | uniq -c
} >"$OUT/fast-path-sass.txt"

run_bench() {  # the measured matrix: JSON + CSV + the table with the crossover analysis
  echo "== rlab bench $*"
  timeout 400 $rlab bench "$@" --json "$OUT/bench.json" --csv "$OUT/bench.csv" >"$OUT/bench.txt" 2>"$OUT/bench.err"
  local code=$?
  bench_check "rlab bench $*" "$code" "$OUT/bench.txt" "$OUT/bench.err"
  echo "## rlab bench $* (exit $code)" >>"$report"; { echo '```'; cat "$OUT/bench.txt"; echo '```'; } >>"$report"
}

ncu_section() {
echo "== ncu: one atomic per element against one per block (2^20 f32)"
metrics=gpu__time_duration.sum,smsp__inst_executed_op_global_red.sum,smsp__inst_executed_op_global_atom.sum,lts__t_requests_srcunit_tex_op_red.sum,lts__t_requests_srcunit_tex_op_atom.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for v in atomic-element atomic-block; do
  args=(--clock-control none -k regex:reduce_kernel -c 1 --section SpeedOfLight)
  timeout 150 ncu "${args[@]}" --metrics "$metrics" $rlab bench --sizes 20 --variants $v --reps 3 --no-worked-example --no-harris >"$OUT/ncu-$v.txt" 2>&1
  if grep -q "==ERROR==" "$OUT/ncu-$v.txt"; then  # a metric this ncu does not know: the section alone
    timeout 150 ncu "${args[@]}" $rlab bench --sizes 20 --variants $v --reps 3 --no-worked-example --no-harris >"$OUT/ncu-$v.txt" 2>&1
  fi
done
{ echo "## ncu (--clock-control none), atomic-element vs atomic-block at 2^20"; echo '```'
  for v in atomic-element atomic-block; do echo "### $v"; grep -E "reduce_kernel|Duration|Throughput|red|atom|ERROR" "$OUT/ncu-$v.txt" | head -20; done
  echo '```'; } >>"$report"
}

if [ "${RLAB_GPU_ONLY:-}" = ncu-fast ]; then  # Nsight Compute on the fast path and CUB alone
  ncu_fast_section; pack_out; finish
fi
if [ "${RLAB_GPU_ONLY:-}" = ncu-small ]; then  # Nsight Compute where the fast path trails by a step
  ncu_small_section; pack_out; finish
fi

if [ "${RLAB_GPU_ONLY:-}" = fast ]; then  # the fast path: correctness, launch shapes, against CUB
  fast_tests "fast path*"
  timeout 200 $rlab bench --tune --sizes 28 --reps 20 >"$OUT/tune.txt" 2>&1
  bench_check "rlab bench --tune" $? "$OUT/tune.txt"
  { echo '```'; cat "$OUT/tune.txt"; echo '```'; } >>"$report"
  run_bench --variants fast,fast-deterministic,cub,atomic-block,two-pass --reps 30 --no-harris
  finish
fi

# The fast path's launch shapes against CUB, five times over (the machine's own drift shows between them), after
# the exact fast-path tests that every shape must pass (five rounds: a round takes seconds), then compute-sanitizer.
if [ "${RLAB_GPU_ONLY:-}" = tune ]; then
  fast_tests "fast path*"
  for round in 1 2 3 4 5; do
    timeout 120 $rlab bench --tune --sizes 28 --reps 100 >"$OUT/tune-$round.txt" 2>&1
    code=$?
    bench_check "rlab bench --tune, round $round" "$code" "$OUT/tune-$round.txt"
    { echo "## rlab bench --tune, round $round (exit $code, at ${SECONDS}s)"; echo '```'; cat "$OUT/tune-$round.txt"; echo '```'; } >>"$report"
  done
  fast_sanitizers
  pack_out; finish
fi

# The tune table twice and a recorded matrix, no tests (for code whose tests already passed on the GPU).
if [ "${RLAB_GPU_ONLY:-}" = record ]; then
  for round in 1 2; do
    timeout 60 $rlab bench --tune --sizes 28 --reps 100 >"$OUT/tune-$round.txt" 2>&1
    code=$?
    bench_check "rlab bench --tune, round $round" "$code" "$OUT/tune-$round.txt"
    { echo "## rlab bench --tune, round $round (exit $code, at ${SECONDS}s)"; echo '```'; cat "$OUT/tune-$round.txt"; echo '```'; } >>"$report"
  done
  end=${RLAB_RECORD_END_S:-400}; [[ $end =~ ^[0-9]+$ ]] || end=400
  left=$((end - SECONDS)); [ "$left" -lt 60 ] && left=60
  record_matrix "$left"
  pack_out; finish
fi

if [ "${RLAB_GPU_ONLY:-}" = fast-matrix ]; then
  fast_tests "fast path*,rlab bench --fast-matrix*"
  timeout 150 $rlab bench --tune --sizes 28 --reps 50 >"$OUT/tune.txt" 2>&1
  code=$?
  bench_check "rlab bench --tune" "$code" "$OUT/tune.txt"
  { echo "## rlab bench --tune (exit $code)"; echo '```'; cat "$OUT/tune.txt"; echo '```'; } >>"$report"
  left=$((395 - SECONDS)); [ "$left" -lt 60 ] && left=60  # the two steps after it take up to 180 s
  record_matrix "$left"
  # The held stream over the chapter's variants (their reset queued from device memory): warm against cold.
  timeout 90 $rlab bench --sizes 10:20:10 --variants atomic-block,two-pass,last-block,fast,cub --cache both --reps 30 \
    --no-worked-example --no-harris >"$OUT/bench-chapter.txt" 2>&1
  code=$?
  bench_check "rlab bench, the chapter's variants held" "$code" "$OUT/bench-chapter.txt"
  { echo "## rlab bench, the chapter's variants held (exit $code)"; echo '```'; head -30 "$OUT/bench-chapter.txt"; echo '```'; } >>"$report"
  # (the one numerics test that times with time_uninstrumented_us; the atomic-block one takes 66 s and runs in `tests`)
  timeout 90 build/gpu/tests/gpu/rlab_gpu_tests -tc="deterministic schedules*" >"$OUT/numerics-tests.log" 2>&1
  code=$?
  check "numerics GPU test (rlab_gpu_tests -tc=\"deterministic schedules*\")" "$code"
  echo "## numerics GPU test (time_uninstrumented_us held): exit $code" >>"$report"
  grep -E "MESSAGE|ERROR|CHECK|test cases|assertions" "$OUT/numerics-tests.log" | head -12 >>"$report"
  pack_out; finish
fi

if [ "${RLAB_GPU_ONLY:-}" = bench ]; then  # the measurements alone (bench, ncu, capture cost)
  run_bench --cache both --extra-types
  ncu_section
  build/gpu/tests/gpu/rlab_capture_bench >"$OUT/capture-bench.txt" 2>&1
  bench_check "capture benchmark" $? "$OUT/capture-bench.txt"
  { echo "## capture benchmark"; echo '```'; cat "$OUT/capture-bench.txt"; echo '```'; } >>"$report"
  finish
fi

if [ "${RLAB_GPU_ONLY:-}" = final ]; then  # bench, ncu, capture cost, then every gpu-labelled test
  run_bench --cache both --extra-types
  ncu_section
  build/gpu/tests/gpu/rlab_capture_bench >"$OUT/capture-bench.txt" 2>&1
  bench_check "capture benchmark" $? "$OUT/capture-bench.txt"
  { echo "## capture benchmark"; echo '```'; cat "$OUT/capture-bench.txt"; echo '```'; } >>"$report"
  RLAB_GPU_ONLY=tests
fi

if [ "${RLAB_GPU_ONLY:-}" = tests ]; then  # corpus, then every gpu-labelled test: equality, bugs, sanitizers, numerics, lessons
  record_corpus  # divergent-shuffle's result and synccheck finding come from gpu_sanitizers here
  start=$SECONDS
  # the whole call must end inside the device's 10 minutes: what is left of ~570 s goes to ctest
  left=$((570 - SECONDS)); [ "$left" -lt 60 ] && left=60
  # three test processes at a time share the GPU (the sanitizer table and the lessons are the long ones)
  timeout "$left" ctest --preset gpu -L '^(gpu|nvcc)$' -j 3 --output-on-failure -V >"$OUT/gpu-tests.log" 2>&1
  code=$?
  ctest_check "gpu tests" "$code" "$OUT/gpu-tests.log"
  required_test rlab_generated_sources_compile "$OUT/gpu-tests.log"
  required_test gpu_run_time "$OUT/gpu-tests.log"  # rlab run --time (issue 32): must run and pass on the GPU
  [ "$code" -eq 124 ] && echo "## gpu tests: STOPPED after ${left}s (the device call's limit); the log has what ran" >>"$report"
  { echo "## rlab run --time on the GPU (tests/gpu/plain/test_run_time.sh: Harris's kernel 4, 2^24 ints, three launches)"
    echo '```'; grep -E "^[0-9]+: (timed on|your kernel|fast path|CUB|reference:|FAIL|SKIPPED)" "$OUT/gpu-tests.log" | sed -E 's/^[0-9]+: //' | head -30
    echo '```'; } >>"$report"
  echo "## gpu tests: exit $code ($((SECONDS - start))s; whole run ${SECONDS}s)" >>"$report"
  grep -E "Test +#|tests passed|MESSAGE|ok:|FAIL|ERROR|CHECK|SKIPPED|recorded:|: \| " "$OUT/gpu-tests.log" | head -250 >>"$report"
  finish
fi

record_corpus
divergent_shuffle

echo "== gpu tests and the nvcc compile of generated sources"
ctest --preset gpu -L '^(gpu|nvcc)$' --output-on-failure -V >"$OUT/gpu-tests.log" 2>&1
code=$?
ctest_check "gpu and nvcc tests" "$code" "$OUT/gpu-tests.log"
# the one place the generated sources meet nvcc: a skip here (nvcc not found) is a failure
required_test rlab_generated_sources_compile "$OUT/gpu-tests.log"
echo "## gpu and nvcc tests: exit $code" >>"$report"
grep -E "Test +#|tests passed|MESSAGE|atomics in block order|: [0-9]+$|ERROR|CHECK|compiled [0-9]+ units" "$OUT/gpu-tests.log" | head -60 >>"$report"

echo "== races with and without the amplifier (K runs each)"
echo "## races on the GPU: K = 20 runs each" >>"$report"
for delay in 0 2000; do
  for sched in "--n 256 --block 128 --bug missing-barrier" "--n 256 --block 128 --bug missing-barrier --block-stage smem-tree" \
               "--n 64 --block 64 --warp smem-sequential --bug volatile-unroll"; do
    # shellcheck disable=SC2086
    timeout 60 $rlab check --backend cuda $sched --runs 20 --race-delay $delay >"$OUT/race.tmp" 2>&1
    echo "- \`$sched --race-delay $delay\`: $(grep -E 'runs on' "$OUT/race.tmp")" >>"$report"
  done
done
echo "- divergent-barrier (\`--n 256 --block 128\`): $(timeout 25 $rlab check --backend cuda --n 256 --block 128 --bug divergent-barrier 2>&1 | tail -1; echo "exit ${PIPESTATUS[0]}")" >>"$report"

echo "== capture benchmark"
build/gpu/tests/gpu/rlab_capture_bench >"$OUT/capture-bench.txt" 2>&1
bench_check "capture benchmark" $? "$OUT/capture-bench.txt"
{ echo "## capture benchmark"; echo '```'; cat "$OUT/capture-bench.txt"; echo '```'; } >>"$report"

run_bench --cache both --extra-types
ncu_section
echo "== compute-sanitizer"

correct=(
  "--n 4096 --block 256 --items 4"
  "--n 5000 --block 96 --items 3 --warp smem-sequential --block-stage smem-tree --grid-stage last-block"
  "--n 3000 --block 40 --warp shfl-xor --grid-stage cooperative --op argmax"
  "--n 2000 --block 128 --warp smem-divergent --grid-stage atomic-block --type f64"
  "--n 4000 --block 1000 --warp shfl-down-asc --op witness --type bf16"
)
buggy=(
  "--n 40 --block 40 --bug full-mask-partial-warp"
  "--n 40 --block 40 --bug unbounded-source"
  "--n 30 --block 32 --bug uninit-tail"
  "--n 256 --block 128 --bug missing-barrier"
  "--n 256 --block 128 --bug missing-barrier --block-stage smem-tree"
  "--n 64 --block 64 --warp smem-sequential --bug volatile-unroll"
)
echo "## compute-sanitizer (errors reported per tool; 0 = clean)" >>"$report"
echo "| schedule | memcheck | racecheck | synccheck | initcheck |" >>"$report"
echo "|---|---|---|---|---|" >>"$report"
budget=${RLAB_GPU_BUDGET_S:-560}  # stop starting new sanitizer runs after this many seconds
for sched in "${correct[@]}" "${buggy[@]}"; do
  if [ "$SECONDS" -gt "$budget" ]; then echo "| (stopped: time budget of ${budget}s reached) | | | | |" >>"$report"
    notes+=("compute-sanitizer table from \`$sched\` on: not run (time budget of ${budget}s)"); break; fi
  row="| \`$sched\` |"
  for tool in memcheck racecheck synccheck initcheck; do
    # shellcheck disable=SC2086
    timeout 60 compute-sanitizer --tool "$tool" --print-limit 5 $rlab trace --backend cuda $sched --format json -o /dev/null \
      >"$OUT/san.tmp" 2>&1
    code=$?
    n=$(grep -oE "(ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+ hazard)" "$OUT/san.tmp" | grep -oE "[0-9]+" | tail -1)
    # the correct schedules must be clean; the buggy ones' findings are measured (tests/gpu/test_sanitizers.sh asserts them)
    for c in "${correct[@]}"; do [ "$c" = "$sched" ] && sanitizer_check "compute-sanitizer $tool on \`$sched\`" "$code" "$OUT/san.tmp"; done
    [ "$code" -eq 124 ] && n="timeout"
    [ -z "$n" ] && n="exit $code"
    row="$row $n |"
    { echo "### $tool $sched (exit $code)"; grep -E "SUMMARY|=========  (Race|Invalid|Barrier|Uninitialized|Divergent|Warp|Error)" "$OUT/san.tmp" | head -6; } >>"$OUT/sanitizer.log"
  done
  echo "$row" >>"$report"
done

echo "== bug runs on the GPU"
echo "## bugs on the GPU (rlab check --backend cuda; result as the GPU returned it)" >>"$report"
for sched in "${buggy[@]}"; do
  [ "$SECONDS" -gt "$budget" ] && break
  # shellcheck disable=SC2086
  timeout 30 $rlab check --backend cuda $sched >"$OUT/bug.tmp" 2>&1
  echo "- \`$sched\`: exit $?; $(grep -E '^result|^verdict' "$OUT/bug.tmp" | tr '\n' ' ')" >>"$report"
done

rm -f "$OUT/san.tmp" "$OUT/bug.tmp" "$OUT/race.tmp"
finish
