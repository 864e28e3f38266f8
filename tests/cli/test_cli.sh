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

# check --trace: a saved trace checked by the rules alone. Each bug's trace is saved, its hazards, hazard
# flags and bug names stripped in the file; the check must find the same hazards the lab showed.
strip() {  # strip IN OUT [FORGE]: remove hazards and bug names (FORGE: claim a bug and a hazard instead)
    python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["hazards"] = []
d["schedule"]["bug"] = ["missing-barrier"] if sys.argv[3] else []
if sys.argv[3]:
    d["hazards"] = [{"kind": "shared-memory-race", "event": 0, "block": 0, "warp": 0, "lanes": "0x00000001", "what": "announced"}]
for e in d["events"]:
    e["flags"] = [f for f in e["flags"] if f != "hazard"]
json.dump(d, open(sys.argv[2], "w"))
PY
}
same_hazards() {  # same_hazards ORIGINAL CHECKED DESCRIPTION: kind, event and lanes of each hazard agree
    python3 -c "import json,sys
a=[(h['kind'],h['event'],h['lanes']) for h in json.load(open('$1'))['hazards']]
b=[(h['kind'],h['event'],h['lanes']) for h in json.load(open('$2'))['hazards']]
sys.exit(0 if a and sorted(a)==sorted(b) else 1)" || { echo "FAIL: $3: check --trace found other hazards than the lab"; fails=$((fails + 1)); }
}
for bug in "full-mask-partial-warp --n 40 --block 40" "unbounded-source --n 40 --block 40" "uninit-tail --n 30 --block 32" \
           "wrong-identity --n 30 --block 32 --op max" "missing-barrier --n 256 --block 128" "divergent-barrier --n 256 --block 128" \
           "grid-stride-order --n 1000 --block 64 --grid 2 --op witness" "descending-order --n 64 --block 32 --items 2 --op witness" \
           "atomic-per-element --n 500 --block 64" "volatile-unroll --n 64 --block 32 --warp smem-strided" \
           "divergent-shuffle --n 40 --block 64" "missing-threadfence --n 256 --block 64 --grid-stage last-block"; do
    name=${bug%% *}
    # shellcheck disable=SC2086
    expect 0 "trace of $name saved" -- "$RLAB" trace --backend cpu --bug $bug --format json -o "$tmp/$name.json"
    strip "$tmp/$name.json" "$tmp/$name-stripped.json"
    expect 1 "check --trace finds $name's hazards" -- "$RLAB" check --trace "$tmp/$name-stripped.json" --format json
    cp "$tmp/out" "$tmp/$name-checked.json"
    same_hazards "$tmp/$name.json" "$tmp/$name-checked.json" "$name"
done
expect 1 "check --trace in text" -- "$RLAB" check --trace "$tmp/divergent-shuffle-stripped.json"
contains out "exist but do not execute" "check --trace words the skipped lanes"
contains out "rule:" "check --trace states the rule"
expect 0 "a clean trace" -- "$RLAB" trace --backend cpu --n 1000 --block 96 --format json -o "$tmp/clean.json"
strip "$tmp/clean.json" "$tmp/forged.json" forge
expect 0 "check --trace ignores the file's own hazards and bug names" -- "$RLAB" check --trace "$tmp/forged.json"
contains out "no hazards" "forged hazards are not reported"
expect 2 "check --trace of a missing file" -- "$RLAB" check --trace "$tmp/none.json"
one_line_error "check --trace of a missing file"
printf '{"version": 1, "schedule": ' >"$tmp/trunc-early.json"
expect 2 "check --trace of truncated JSON" -- "$RLAB" check --trace "$tmp/trunc-early.json"
one_line_error "check --trace of truncated JSON"
expect 2 "check bad format" -- "$RLAB" check --format xml

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

# rlab kernel: the CUDA source of a schedule (codegen/); bad flags and unwritable files are one-line errors.
expect 0 "kernel source" -- "$RLAB" kernel --n 1000 --block 256 --warp shfl-xor --grid-stage last-block
contains out "__shfl_xor_sync(" "kernel: the xor shuffle"
contains out "__threadfence();" "kernel: the last-block fence"
expect 0 "kernel with a bug and its harness to a file" -- "$RLAB" kernel --n 300 --block 40 --bug unbounded-source --harness -o "$tmp/k.cu"
grep -q "BUG unbounded-source" "$tmp/k.cu" || { echo "FAIL: kernel -o lacks the bug's mark"; fails=$((fails + 1)); }
grep -q "^int main()" "$tmp/k.cu" || { echo "FAIL: kernel --harness lacks main()"; fails=$((fails + 1)); }
expect 0 "kernel for the summary's blockReduce" -- "$RLAB" kernel --n 4096 --block 256 --block-stage smem-tree-shfl
contains out "smem[tid + 32]" "kernel: blockReduce's last add"
expect 2 "kernel bad flag" -- "$RLAB" kernel --warp shfl-sideways
one_line_error "kernel bad flag"
contains err "shfl-down|shfl-down-asc" "kernel error lists the warp stages"
expect 2 "kernel unwritable output" -- "$RLAB" kernel -o /nonexistent-dir/k.cu
one_line_error "kernel unwritable output"
expect 2 "kernel invalid combination" -- "$RLAB" kernel --block-stage smem-tree-shfl --block 96
one_line_error "kernel invalid combination"
expect 0 "kernel help" -- "$RLAB" kernel --help
contains out "--harness" "kernel help lists --harness"

finish "rlab command-line checks"
