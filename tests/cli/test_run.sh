#!/usr/bin/env bash
# tests/cli/test_run.sh — rlab run FILE.cu and rlab check FILE.cu: formats, exit codes 0/1/2, compile errors as
# FILE:LINE:COL, and bad input as one line. Kernels are written here as a student would write them.
set -u
RLAB="$1"
source "$(dirname "$0")/../support/expect.sh"

cp "$(dirname "$0")/../support/warp_sum.cu" "$tmp/good.cu"

expect 0 "run a correct kernel (board)" -- "$RLAB" run "$tmp/good.cu" --n 100 --block 64 --backend cpu
contains out "good.cu: n 100, block 64, grid 2" "board header names the file and sizes"
contains out "verdict   exact" "board verdict"
contains out "serial chain" "board depth table"
contains out "no hazards" "board hazards"
# Rows named by the kernel's own lines and calls, never by a schedule's stages it does not have.
contains out "6: load in\[\]" "board row: the load's line"
contains out "8: shuffle 16" "board row: the first shuffle's line and offset"
! grep -q "shfl_down offset\|load, accumulate" "$tmp/out" || { echo "FAIL: board rows use a schedule's words"; fails=$((fails + 1)); }
# --op names the operator the run checks: a kernel that sums cannot compute a max (one line, exit 2).
expect 2 "run --op max on a kernel that combines with +" -- "$RLAB" run "$tmp/good.cu" --n 100 --block 64 --op max --backend cpu
contains err "the kernel combines with +, so it cannot compute max" "--op max on a sum kernel names both operators"
one_line_error "--op max on a sum kernel"
expect 0 "run --format json" -- "$RLAB" run "$tmp/good.cu" --n 100 --block 64 --backend cpu --format json -o "$tmp/g.json"
# The result against an independent sum of the inputs the trace carries (iota: 1..100 = 5050).
python3 -c "import json,sys; d=json.load(open('$tmp/g.json')); r=d['result']
sys.exit(0 if r['value']==sum(d['inputs'])==5050 and d['hazards']==[] and d['kernel']['file'].endswith('good.cu') else 1)" \
    || { echo "FAIL: run json: result, inputs or kernel_file wrong"; fails=$((fails + 1)); }
expect 0 "run --format chrome" -- "$RLAB" run "$tmp/good.cu" --n 100 --block 64 --backend cpu --format chrome -o "$tmp/c.json"
python3 -c "import json; d=json.load(open('$tmp/c.json')); assert d['traceEvents']" \
    || { echo "FAIL: run chrome is not a Chrome trace"; fails=$((fails + 1)); }
expect 0 "run --input VALUES" -- "$RLAB" run "$tmp/good.cu" --input 3,-1,4.5,2 --block 32 --backend cpu
contains out "result    8.5" "sum of the values"
expect 0 "check FILE.cu, clean" -- "$RLAB" check "$tmp/good.cu" --n 100 --block 64 --backend cpu
contains out "no hazards" "check kernel clean"
expect 0 "check FILE.cu --format json" -- "$RLAB" check "$tmp/good.cu" --n 100 --block 64 --backend cpu --format json
python3 -c "import json; d = json.load(open('$tmp/out')); assert d['hazards'] == [] and d['notes'] == [] and set(d) == {'hazards', 'notes', 'costs'} and d['costs']['banks'] == 32" \
    || { echo "FAIL: check json of a clean kernel"; fails=$((fails + 1)); }

# One atomicAdd per element to out[0]: correct, but serialised. A note about cost, apart from the hazards: it is
# shown (board, JSON "notes") and never changes the exit code.
cat >"$tmp/atomics.cu" <<'CU'
#include <rlab/kernel.h>

RL_KERNEL void per_element(rl::In<float> in, rl::Out<float> out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&out[0], in[i]);
}
CU
expect 0 "run: an atomic per element is a note, not a failure" -- "$RLAB" run "$tmp/atomics.cu" --n 100 --block 64 --backend cpu
contains out "^no hazards" "run: no hazard beside the note"
contains out "^1 note(s), about cost (correct code, not a hazard):" "run: the note listed apart"
contains out "\[atomic-contention\]" "run: the note's kind"
expect 0 "check FILE.cu: the note exits 0" -- "$RLAB" check "$tmp/atomics.cu" --n 100 --block 64 --backend cpu --format json
python3 -c "import json,sys; d=json.load(open('$tmp/out'))
sys.exit(0 if d['hazards']==[] and [n['kind'] for n in d['notes']]==['atomic-contention'] else 1)" \
    || { echo "FAIL: check json of per-element atomics: one note, no hazard"; fails=$((fails + 1)); }

# A kernel with a bug: the uninitialised tail (exit 1 from run and check, the hazard named).
sed 's/auto v = i < n ? in\[i\] : rl::identity<float>();/rl::Value<float> v;\n    if (i < n) v = in[i];/' "$tmp/good.cu" >"$tmp/tail.cu"
grep -q "rl::Value<float> v;" "$tmp/tail.cu" || { echo "FAIL: the tail kernel was not made"; fails=$((fails + 1)); }
expect 1 "run finds the uninitialised tail" -- "$RLAB" run "$tmp/tail.cu" --n 40 --block 64 --backend cpu
contains out "uninitialised-tail" "run names the hazard"
expect 1 "check FILE.cu finds it too" -- "$RLAB" check "$tmp/tail.cu" --n 40 --block 64 --backend cpu --format json
contains out '"kind": "uninitialised-tail"' "check json names the hazard"

# Compile errors: FILE:LINE:COL: error: on stderr, exit 2.
sed 's/auto v = i < n/auto v = i < n ?/; 7s/$/ oops/' "$tmp/good.cu" >"$tmp/broken.cu"
expect 2 "a compile error" -- "$RLAB" run "$tmp/broken.cu" --n 8 --block 32 --backend cpu
grep -qE "broken\.cu:[0-9]+:[0-9]+: .*error" "$tmp/err" || { echo "FAIL: compile error without FILE:LINE:COL"; cat "$tmp/err"; fails=$((fails + 1)); }
expect 2 "check FILE.cu with a compile error" -- "$RLAB" check "$tmp/broken.cu" --n 8 --block 32 --backend cpu
grep -qE "broken\.cu:[0-9]+:[0-9]+: .*error" "$tmp/err" || { echo "FAIL: check: compile error without FILE:LINE:COL"; fails=$((fails + 1)); }

# A kernel that compiles and then fails as a program: exit 1 with the runner's one line (thread, block, line, bound).
sed 's/auto v = i < n ? in\[i\] : rl::identity<float>();/rl::Shared<float, 8> s;\n    s[threadIdx.x] = in[i];\n    auto v = s[0];/' "$tmp/good.cu" >"$tmp/oob.cu"
grep -q "rl::Shared<float, 8> s;" "$tmp/oob.cu" || { echo "FAIL: the out-of-range kernel was not made"; fails=$((fails + 1)); }
expect 1 "a shared index out of range" -- "$RLAB" run "$tmp/oob.cu" --n 32 --block 32 --backend cpu
one_line_error "a shared index out of range"
contains err "out of range" "the kernel error names the bound"
contains err "line" "the kernel error names the line"
# Endless loops are kernels that fail as programs too (exit 1), whether they record (the step budget stops them) or
# not (the time limit does); neither is bad input.
cat >"$tmp/spin.cu" <<'CU'
#include <rlab/kernel.h>
RL_KERNEL void spin(rl::In<float> in, rl::Out<float> out, int n) {
    auto v = in[0];
    while (true) v = v + in[0];
    out[0] = v;
}
CU
expect 1 "an endless loop that records" -- "$RLAB" run "$tmp/spin.cu" --n 8 --block 32 --backend cpu
one_line_error "an endless loop that records"
contains err "spin.cu: thread 0 of block 0 on line 4 records its 65535th event: the step budget stops it" "the step budget names thread, block and line"
cat >"$tmp/quiet.cu" <<'CU'
#include <rlab/kernel.h>
RL_KERNEL void quiet(rl::In<float> in, rl::Out<float> out, int n) {
    volatile int k = 0;
    while (k == 0) {}
    out[0] = in[0];
}
CU
expect 1 "an endless loop that records nothing" -- "$RLAB" run "$tmp/quiet.cu" --n 8 --block 32 --backend cpu --time-limit 1
one_line_error "an endless loop that records nothing"
contains err "did not finish within 1 s" "the time limit is named"

# Bad input: one line, exit 2.
bad() {  # bad DESCRIPTION PATTERN -- command...
    local what=$1 pattern=$2; shift 3
    expect 2 "$what" -- "$@"
    one_line_error "$what"
    contains err "$pattern" "$what names the problem"
}
bad "a missing file" "no-such.cu" -- "$RLAB" run "$tmp/no-such.cu" --n 8 --block 32 --backend cpu
mkdir -p "$tmp/dir.cu"
bad "a directory" "dir.cu" -- "$RLAB" run "$tmp/dir.cu" --n 8 --block 32 --backend cpu
grep -v RL_KERNEL "$tmp/good.cu" >"$tmp/none.cu"
bad "no RL_KERNEL" "RL_KERNEL" -- "$RLAB" run "$tmp/none.cu" --n 8 --block 32 --backend cpu
{ cat "$tmp/good.cu"; sed 's/warp_sum/warp_sum2/' "$tmp/good.cu" | grep -v '#include'; } >"$tmp/two.cu"
bad "two RL_KERNELs" "RL_KERNEL" -- "$RLAB" run "$tmp/two.cu" --n 8 --block 32 --backend cpu
bad "a stage flag" "--warp" -- "$RLAB" run "$tmp/good.cu" --n 8 --block 32 --warp shfl-xor --backend cpu
bad "an unknown format" "--format" -- "$RLAB" run "$tmp/good.cu" --format text --backend cpu
bad "a zero time limit" "--time-limit 0: expected seconds above 0, at most 600" -- "$RLAB" run "$tmp/good.cu" --time-limit 0 --backend cpu
bad "an unknown backend" "--backend" -- "$RLAB" run "$tmp/good.cu" --backend gpu
bad "no file" "file" -- "$RLAB" run --n 8
bad "a kernel file and --trace" "--trace" -- "$RLAB" check "$tmp/good.cu" --trace "$tmp/g.json"

finish "rlab run"
