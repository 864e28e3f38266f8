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
# Two blocks of one warp; shfl_down's first offset is 16, so lanes 0-15 merge [l] with [l+16] at the first shuffle step.
contains out "^2 hazard(s):" "order violation: one per block"
contains out "\[order-violation\] block 0 warp 0 lanes 0x0000ffff (event [0-9]*, step 1): merge of \[0..0\] with \[16..16\]" "order violation in block 0"
contains out "\[order-violation\] block 1 warp 0 lanes 0x0000ffff (event [0-9]*, step 1): merge of \[32..32\] with \[48..48\]" "order violation in block 1"
contains out "^verdict   order violated" "order violation verdict"

# check --trace: a saved trace checked by the rules alone. Each bug's trace is saved, its hazards, notes, hazard
# flags and bug names stripped in the file; the check must find the same hazards and notes the lab showed.
strip() {  # strip IN OUT [FORGE]: remove hazards, notes and bug names (FORGE: claim a bug and a hazard instead)
    python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["hazards"] = []
d["notes"] = []
d["schedule"]["bug"] = ["missing-barrier"] if sys.argv[3] else []
if sys.argv[3]:
    d["hazards"] = [{"kind": "shared-memory-race", "event": 0, "block": 0, "warp": 0, "lanes": "0x00000001", "what": "announced"}]
for e in d["events"]:
    e["flags"] = [f for f in e["flags"] if f != "hazard"]
json.dump(d, open(sys.argv[2], "w"))
PY
}
# The hazards each bug's schedule must show, derived by hand from its kernel (`rlab kernel ... --bug NAME`): bug, kind,
# step, block, warp, lanes, and the kind of the event the hazard is on.
#  full-mask-partial-warp, unbounded-source (40 threads: warp 1 has lanes 0-7): shfl_down's offsets 16..1 read lanes
#    8-23, never launched, at steps 1-5; the block stage's warp 0 runs lanes 0-1 (two warps) at steps 9-13 and reads
#    lanes 2-17, which exist but skip the call; only the full mask also names lanes 2-31.
#  uninit-tail (30 elements, 32 threads): lanes 30-31 have no element and never write their register; lanes 14-15
#    read and use it at the first shuffle (offset 16), step 1.
#  wrong-identity (min over 1..30, 32 threads): lanes 30-31 have no element and start from 0, step 0; min(0, 1) = 0
#    changes the result. (A max over 1..30 would not: max(0, 30) = 30, a start that changes nothing is no finding.)
#  missing-barrier (2 blocks of 4 warps): lanes 1-3 of warp 0 read the other warps' partials at step 7, unordered.
#  divergent-barrier (the barrier inside `if (lane == 0)`): warp 0's lane 0 arrives alone at step 7, lanes 1-3 then
#    read the partials at step 8, and lane 0 of warps 1-3 arrive at step 12 without warp 0.
#  grid-stride-order (128 threads): thread t's first merge is [t] with [t+128], in every warp of both blocks, step 1.
#  descending-order (2 items each, one warp): lanes 0-15 merge [2l..2l+1] with [2l+32..2l+33] at the first shuffle.
#  atomic-per-element: one contention note at the head of the chain, the first element's atomic; a note, listed
#    under "notes" and no hazard: correct code, so check --trace exits 0.
#  volatile-unroll (smem-strided, one warp a block): level 1's thread 2k reads slot 4k, which thread k writes at level
#    2 (k = 1..7); then level j's 2^(5-j) readers read slots another lane wrote at level j-1, steps 3-6.
#  divergent-shuffle (40 elements, 64 threads): warp 1's lanes 8-31 exist and skip the shuffles, steps 1-5.
#  missing-threadfence (4 blocks): every block's ticket at step 11 comes without a fence; the last block's thread 2
#    reads block 2's partial stale at step 12.
cat >"$tmp/expected-hazards" <<'EOF'
full-mask-partial-warp read-from-non-participating-lane 1 0 1 0x000000ff shuffle
full-mask-partial-warp read-from-non-participating-lane 2 0 1 0x000000ff shuffle
full-mask-partial-warp read-from-non-participating-lane 3 0 1 0x000000f0 shuffle
full-mask-partial-warp read-from-non-participating-lane 4 0 1 0x000000c0 shuffle
full-mask-partial-warp read-from-non-participating-lane 5 0 1 0x00000080 shuffle
full-mask-partial-warp mask-names-inactive-lanes 9 0 0 0xfffffffc shuffle
full-mask-partial-warp read-from-non-participating-lane 9 0 0 0x00000003 shuffle
full-mask-partial-warp mask-names-inactive-lanes 10 0 0 0xfffffffc shuffle
full-mask-partial-warp read-from-non-participating-lane 10 0 0 0x00000003 shuffle
full-mask-partial-warp mask-names-inactive-lanes 11 0 0 0xfffffffc shuffle
full-mask-partial-warp read-from-non-participating-lane 11 0 0 0x00000003 shuffle
full-mask-partial-warp mask-names-inactive-lanes 12 0 0 0xfffffffc shuffle
full-mask-partial-warp read-from-non-participating-lane 12 0 0 0x00000003 shuffle
full-mask-partial-warp mask-names-inactive-lanes 13 0 0 0xfffffffc shuffle
full-mask-partial-warp read-from-non-participating-lane 13 0 0 0x00000002 shuffle
unbounded-source read-from-non-participating-lane 1 0 1 0x000000ff shuffle
unbounded-source read-from-non-participating-lane 2 0 1 0x000000ff shuffle
unbounded-source read-from-non-participating-lane 3 0 1 0x000000f0 shuffle
unbounded-source read-from-non-participating-lane 4 0 1 0x000000c0 shuffle
unbounded-source read-from-non-participating-lane 5 0 1 0x00000080 shuffle
unbounded-source read-from-non-participating-lane 9 0 0 0x00000003 shuffle
unbounded-source read-from-non-participating-lane 10 0 0 0x00000003 shuffle
unbounded-source read-from-non-participating-lane 11 0 0 0x00000003 shuffle
unbounded-source read-from-non-participating-lane 12 0 0 0x00000003 shuffle
unbounded-source read-from-non-participating-lane 13 0 0 0x00000002 shuffle
uninit-tail uninitialised-tail 1 0 0 0x0000c000 shuffle
wrong-identity wrong-identity 0 0 0 0xc0000000 identity-fill
missing-barrier shared-memory-race 7 0 0 0x0000000e shared-load
missing-barrier shared-memory-race 7 1 0 0x0000000e shared-load
divergent-barrier divergent-barrier 7 0 0 0x00000001 barrier
divergent-barrier shared-memory-race 8 0 0 0x0000000e shared-load
divergent-barrier divergent-barrier 12 0 1 0x00000001 barrier
divergent-barrier divergent-barrier 12 0 2 0x00000001 barrier
divergent-barrier divergent-barrier 12 0 3 0x00000001 barrier
divergent-barrier divergent-barrier 7 1 0 0x00000001 barrier
divergent-barrier shared-memory-race 8 1 0 0x0000000e shared-load
divergent-barrier divergent-barrier 12 1 1 0x00000001 barrier
divergent-barrier divergent-barrier 12 1 2 0x00000001 barrier
divergent-barrier divergent-barrier 12 1 3 0x00000001 barrier
grid-stride-order order-violation 1 0 0 0xffffffff combine
grid-stride-order order-violation 1 0 1 0xffffffff combine
grid-stride-order order-violation 1 1 0 0xffffffff combine
grid-stride-order order-violation 1 1 1 0xffffffff combine
descending-order order-violation 2 0 0 0x0000ffff combine
atomic-per-element atomic-contention 0 0 0 0x00000001 atomic
volatile-unroll implicit-warp-sync 2 0 0 0x00005554 shared-load
volatile-unroll implicit-warp-sync 3 0 0 0x000000ff shared-load
volatile-unroll implicit-warp-sync 4 0 0 0x0000000f shared-load
volatile-unroll implicit-warp-sync 5 0 0 0x00000003 shared-load
volatile-unroll implicit-warp-sync 6 0 0 0x00000001 shared-load
volatile-unroll implicit-warp-sync 2 1 0 0x00005554 shared-load
volatile-unroll implicit-warp-sync 3 1 0 0x000000ff shared-load
volatile-unroll implicit-warp-sync 4 1 0 0x0000000f shared-load
volatile-unroll implicit-warp-sync 5 1 0 0x00000003 shared-load
volatile-unroll implicit-warp-sync 6 1 0 0x00000001 shared-load
divergent-shuffle mask-names-inactive-lanes 1 0 1 0xffffff00 shuffle
divergent-shuffle read-from-non-participating-lane 1 0 1 0x000000ff shuffle
divergent-shuffle mask-names-inactive-lanes 2 0 1 0xffffff00 shuffle
divergent-shuffle read-from-non-participating-lane 2 0 1 0x000000ff shuffle
divergent-shuffle mask-names-inactive-lanes 3 0 1 0xffffff00 shuffle
divergent-shuffle read-from-non-participating-lane 3 0 1 0x000000f0 shuffle
divergent-shuffle mask-names-inactive-lanes 4 0 1 0xffffff00 shuffle
divergent-shuffle read-from-non-participating-lane 4 0 1 0x000000c0 shuffle
divergent-shuffle mask-names-inactive-lanes 5 0 1 0xffffff00 shuffle
divergent-shuffle read-from-non-participating-lane 5 0 1 0x00000080 shuffle
missing-threadfence missing-threadfence 11 0 0 0x00000001 ticket
missing-threadfence missing-threadfence 11 1 0 0x00000001 ticket
missing-threadfence missing-threadfence 11 2 0 0x00000001 ticket
missing-threadfence missing-threadfence 11 3 0 0x00000001 ticket
missing-threadfence stale-partial-read 12 3 0 0x00000004 partial-load
EOF
expected_hazards() {  # expected_hazards TRACE CHECKED BUG: the checked hazards' and notes' places equal the hand-written list
    python3 - "$1" "$2" "$3" "$tmp/expected-hazards" <<'PY' || { echo "FAIL: $3: check --trace's hazards are not the expected ones"; fails=$((fails + 1)); }
import json, sys
events = json.load(open(sys.argv[1]))["events"]
checked = json.load(open(sys.argv[2]))
got = sorted((h["kind"], events[h["event"]]["step"], h["block"], h["warp"], h["lanes"], events[h["event"]]["kind"])
             for h in checked["hazards"] + checked["notes"])
want = sorted((k, int(s), int(b), int(w), lanes, ek) for bug, k, s, b, w, lanes, ek in
              (line.split() for line in open(sys.argv[4])) if bug == sys.argv[3])
if not want or got != want:
    print("  expected:", *want, sep="\n    ")
    print("  found:", *got, sep="\n    ")
    sys.exit(1)
PY
}
same_hazards() {  # same_hazards ORIGINAL CHECKED DESCRIPTION: kind, event and lanes of each hazard and note agree
    python3 -c "import json,sys
def places(f, key):
    return sorted((h['kind'],h['event'],h['lanes']) for h in json.load(open(f))[key])
a=places('$1','hazards')+places('$1','notes')
sys.exit(0 if a and all(places('$1',k)==places('$2',k) for k in ('hazards','notes')) else 1)" || { echo "FAIL: $3: check --trace found other hazards or notes than the lab"; fails=$((fails + 1)); }
}
for bug in "full-mask-partial-warp --n 40 --block 40" "unbounded-source --n 40 --block 40" "uninit-tail --n 30 --block 32" \
           "wrong-identity --n 30 --block 32 --op min" "missing-barrier --n 256 --block 128" "divergent-barrier --n 256 --block 128" \
           "grid-stride-order --n 1000 --block 64 --grid 2 --op witness" "descending-order --n 64 --block 32 --items 2 --op witness" \
           "atomic-per-element --n 500 --block 64" "volatile-unroll --n 64 --block 32 --warp smem-strided" \
           "divergent-shuffle --n 40 --block 64" "missing-threadfence --n 256 --block 64 --grid-stage last-block"; do
    name=${bug%% *}
    # shellcheck disable=SC2086
    expect 0 "trace of $name saved" -- "$RLAB" trace --backend cpu --bug $bug --format json -o "$tmp/$name.json"
    strip "$tmp/$name.json" "$tmp/$name-stripped.json"
    rc=1
    [ "$name" = atomic-per-element ] && rc=0  # a note only: correct code never exits 1
    expect $rc "check --trace finds $name's hazards" -- "$RLAB" check --trace "$tmp/$name-stripped.json" --format json
    cp "$tmp/out" "$tmp/$name-checked.json"
    same_hazards "$tmp/$name.json" "$tmp/$name-checked.json" "$name"
    expected_hazards "$tmp/$name.json" "$tmp/$name-checked.json" "$name"
done
python3 -c "import json,sys; d=json.load(open('$tmp/atomic-per-element-checked.json'))
sys.exit(0 if d['hazards']==[] and [n['kind'] for n in d['notes']]==['atomic-contention'] else 1)" \
    || { echo "FAIL: atomic-per-element: the contention is a note, and no hazard"; fails=$((fails + 1)); }
# Cost findings are notes: shown apart from the hazards, and the exit code stays 0 (1 is for hazards, wrong results, hangs).
expect 0 "check: a chain of atomics is a note, not a failure" -- "$RLAB" check --backend cpu --n 500 --block 64 --bug atomic-per-element
contains out "^no hazards" "check: no hazard beside the note"
contains out "^1 note(s), about cost (correct code, not a hazard):" "check: the note listed apart"
contains out "\[atomic-contention\] block 0 warp 0 lanes 0x00000001" "check: the note's place"
expect 0 "trace: the note is shown on the board too" -- "$RLAB" trace --backend cpu --n 500 --block 64 --bug atomic-per-element
contains out "^1 note(s), about cost" "trace: the note listed apart"
# A start that is not the identity but never changes the result is no wrong identity (max over 1..30 from 0).
expect 0 "check: a wrong identity that changes nothing is no hazard" -- "$RLAB" check --backend cpu --n 30 --block 32 --op max --bug wrong-identity
contains out "^no hazards" "check: max over positive values started from 0"
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
one_line_error "check bad format"
contains err "--format xml: expected text or json" "check format error names the value and the choices"

expect 2 "block out of range" -- "$RLAB" trace --block 2000
one_line_error "block out of range"
contains err "--block 2000" "error names the field and value"
expect 2 "unknown warp stage" -- "$RLAB" depth --warp shfl-up
contains err "shfl-down|shfl-down-asc" "error lists what is allowed"
expect 2 "bad VALUES" -- "$RLAB" trace --input 1,2,x
one_line_error "bad VALUES"
expect 2 "n does not match VALUES" -- "$RLAB" trace --n 5 --input 1,2,3
one_line_error "n does not match VALUES"
contains err "--n 5 does not match the 3 values given with --input" "n mismatch names both counts"
expect 2 "unknown flag" -- "$RLAB" trace --frobnicate
one_line_error "unknown flag"
contains err "not expected: --frobnicate" "unknown flag is named"
expect 2 "unknown backend" -- "$RLAB" trace --backend tpu
one_line_error "unknown backend"
contains err "--backend tpu: expected auto, cpu or cuda" "backend error names the value and the choices"
expect 2 "bad format" -- "$RLAB" trace --format xml
one_line_error "bad format"
contains err "--format xml: expected text, json or chrome" "trace format error names the value and the choices"
expect 2 "bug that cannot apply" -- "$RLAB" check --bug missing-barrier --block 32
contains err "more than one warp" "bug refusal says why"
expect 2 "missing file" -- "$RLAB" import "$tmp/none.json"
one_line_error "missing file"
contains err "none.json: cannot open the trace" "missing file is named"
echo '{"version": 99}' >"$tmp/v.json"
expect 2 "unknown version" -- "$RLAB" import "$tmp/v.json"
contains err "unknown version 99" "version error"
printf '{"version": 1, "schedule": ' >"$tmp/trunc.json"
expect 2 "truncated JSON" -- "$RLAB" import "$tmp/trunc.json"
one_line_error "truncated JSON"
expect 2 "trace too large is refused up front" -- "$RLAB" trace --n 4294967295 --block 1024 --items 4
contains err "GB" "size estimate in the refusal"
expect 2 "unwritable output" -- "$RLAB" trace -o /nonexistent/dir/t.json
one_line_error "unwritable output"
contains err "/nonexistent/dir/t.json: cannot create" "unwritable output is named"
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
# 1..64, eight per thread, summed pairwise: thread 0 forms 1+2, 3+4, (3)+(7), 5+6, 7+8, (11)+(15), (10)+(26) (a plain
# loop gives 3, 6, 10, ...); depth 3 per thread and 3 over the warp's 8 lanes; 64 loads, 63 combines, 24 shuffles,
# one final store; the sum 2080, exact.
python3 - "$tmp/p.json" <<'PY' || { echo "FAIL: accum pairwise: the trace is not the hand-computed one"; fails=$((fails + 1)); }
import collections, json, sys
d = json.load(open(sys.argv[1]))
ev = d["events"]
r, a = d["result"], d["analysis"]
t0 = [e["value"] for e in ev if e["kind"] == "combine" and (e["block"], e["warp"], e["lane"]) == (0, 0, 0)][:7]
kinds = collections.Counter(e["kind"] for e in ev)
checks = {
    "accum": d["schedule"]["accum"] == "pairwise",
    "result": r["value"] == 2080.0 and r["reference"] == 2080.0 and r["verdict"] == "exact",
    "thread 0's combines": t0 == [3.0, 7.0, 10.0, 11.0, 15.0, 26.0, 36.0],
    "kinds": kinds == {"load": 64, "combine": 63, "shuffle": 24, "final-store": 1},
    "analysis": (a["work"], a["span"], a["span_by_scope"]["thread"], a["span_by_scope"]["warp"]) == (63, 6, 3, 3),
}
bad = [k for k, ok in checks.items() if not ok]
if bad:
    print("  wrong:", ", ".join(bad), t0, dict(kinds), a)
    sys.exit(1)
PY
expect 0 "accum trace reads back" -- "$RLAB" import "$tmp/p.json"
contains out "valid trace, version 1, 152 events, 0 hazard(s)" "accum trace: import counts the events"
contains out "accum=pairwise" "accum trace: import names the accumulation"
contains out "^result    2080$" "accum trace: import prints the sum"
expect 2 "numerics refuses max" -- "$RLAB" numerics --op max
one_line_error "numerics refuses max"
contains err "use --op sum" "numerics refusal says what is allowed"
expect 2 "accum with an integer type" -- "$RLAB" trace --accum kahan --type i32
one_line_error "accum with i32"
expect 2 "unknown accum" -- "$RLAB" numerics --accum quad
contains err "plain|f64|kahan|pairwise" "accum error lists what is allowed"
expect 2 "numerics zero runs" -- "$RLAB" numerics --runs 0
one_line_error "numerics zero runs"
contains err "--runs 0: expected 1 to 100000" "numerics runs error names the value and the range"
expect 2 "numerics bad format" -- "$RLAB" numerics --format xml
one_line_error "numerics bad format"
contains err "--format xml: expected text or json" "numerics format error names the value and the choices"
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
contains out "y = smem.tid + 32.;" "kernel: blockReduce's last add"
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
