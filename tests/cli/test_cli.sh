#!/usr/bin/env bash
# tests/cli/test_cli.sh — rlab's command-line contract: outputs, exit codes 0/1/2, one-line errors.
set -u
RLAB="$1"
source "$(dirname "$0")/../support/expect.sh"

expect 0 "no command shows the eight-thread example" -- "$RLAB"
contains out "shfl_down offset 4" "eight threads board"
contains out "result    36" "eight threads result"

expect 0 "trace text" -- "$RLAB" trace --backend cpu --n 8 --block 8
contains out "verdict   exact" "trace text verdict"
expect 0 "trace json to a file" -- "$RLAB" trace --backend cpu --n 100 --block 64 --format json -o "$tmp/t.json"
expect 0 "import reads it back" -- "$RLAB" import "$tmp/t.json"
contains out "valid trace, version 1" "import summary"
expect 0 "chrome trace" -- "$RLAB" trace --backend cpu --n 100 --block 64 --format chrome -o "$tmp/c.json"
python3 -c "import json,sys; d=json.load(open('$tmp/c.json')); assert any(e['ph']=='s' for e in d['traceEvents'])" \
    || { echo "FAIL: chrome trace is not JSON with flows"; fails=$((fails + 1)); }

expect 0 "depth table" -- "$RLAB" depth --backend cpu --n 8 --block 8
contains out "serial chain" "depth: serial row"
contains out "ideal tree" "depth: tree row"

expect 0 "check a correct schedule" -- "$RLAB" check --backend cpu --n 1000 --block 256
contains out "no hazards" "check clean"
expect 1 "check finds the missing barrier" -- "$RLAB" check --backend cpu --n 256 --block 128 --bug missing-barrier
contains out "shared-memory-race" "check names the hazard"
contains out "rule:" "check states the rule"
expect 1 "check finds the order violation" -- "$RLAB" check --backend cpu --n 64 --block 32 --op witness --warp shfl-down

expect 2 "block out of range" -- "$RLAB" trace --block 2000
one_line_error "block out of range"
contains err "--block 2000" "error names the field and value"
expect 2 "unknown warp stage" -- "$RLAB" depth --warp shfl-up
contains err "shfl-down|shfl-down-asc" "error lists what is allowed"
expect 2 "bad VALUES" -- "$RLAB" trace --input 1,2,x
one_line_error "bad VALUES"
expect 2 "n does not match VALUES" -- "$RLAB" trace --n 5 --input 1,2,3
expect 2 "unknown flag" -- "$RLAB" trace --frobnicate
expect 2 "unknown backend" -- "$RLAB" trace --backend tpu
expect 2 "bad format" -- "$RLAB" trace --format xml
expect 2 "bug that cannot apply" -- "$RLAB" check --bug missing-barrier --block 32
contains err "more than one warp" "bug refusal says why"
expect 2 "missing file" -- "$RLAB" import "$tmp/none.json"
echo '{"version": 99}' >"$tmp/v.json"
expect 2 "unknown version" -- "$RLAB" import "$tmp/v.json"
contains err "unknown version 99" "version error"
printf '{"version": 1, "schedule": ' >"$tmp/trunc.json"
expect 2 "truncated JSON" -- "$RLAB" import "$tmp/trunc.json"
one_line_error "truncated JSON"
expect 2 "trace too large is refused up front" -- "$RLAB" trace --n 4294967295 --block 1024 --items 4
contains err "GB" "size estimate in the refusal"
expect 2 "unwritable output" -- "$RLAB" trace -o /nonexistent/dir/t.json
expect 2 "too many block partials per finishing thread" -- "$RLAB" depth --n 300000 --block 1
contains err "finishing stage" "finisher refusal says why"
expect 0 "help" -- "$RLAB" trace --help
contains out "--grid-stage" "help lists schedule flags"

expect 0 "numerics table" -- "$RLAB" numerics --backend cpu --n 3000 --block 128 --items 4 --input cancellation --grid-stage atomic-block --runs 8
contains out "serial Kahan" "numerics: Kahan row"
contains out "exact sum" "numerics: the exact reference"
contains out "distinct bit pattern" "numerics: atomic orders counted"
contains out "gamma_" "numerics: bounds stated"
contains err "emulator's seeded legal orders" "numerics: says where the orders came from"
one_line_error "numerics note"
expect 0 "numerics json" -- "$RLAB" numerics --backend cpu --n 500 --block 64 --accum kahan --type bf16 --format json
python3 -c "import json; d=json.load(open('$tmp/out')); r=d['rows']; assert all(x['within_bound'] for x in r) and any(x['chosen'] for x in r)" \
    || { echo "FAIL: numerics json is not JSON with rows inside their bounds"; fails=$((fails + 1)); }
expect 0 "accum in a trace" -- "$RLAB" trace --backend cpu --n 64 --block 8 --items 8 --accum pairwise --format json -o "$tmp/p.json"
expect 0 "accum trace reads back" -- "$RLAB" import "$tmp/p.json"
expect 2 "numerics refuses max" -- "$RLAB" numerics --op max
one_line_error "numerics refuses max"
contains err "use --op sum" "numerics refusal says what is allowed"
expect 2 "accum with an integer type" -- "$RLAB" trace --accum kahan --type i32
one_line_error "accum with i32"
expect 2 "unknown accum" -- "$RLAB" numerics --accum quad
contains err "plain|f64|kahan|pairwise" "accum error lists what is allowed"
expect 2 "numerics zero runs" -- "$RLAB" numerics --runs 0
expect 2 "numerics bad format" -- "$RLAB" numerics --format xml
expect 0 "numerics help" -- "$RLAB" numerics --help
contains out "--runs" "numerics help lists --runs"

finish "rlab command-line checks"
