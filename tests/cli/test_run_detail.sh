#!/usr/bin/env bash
# tests/cli/test_run_detail.sh — rlab run with --detail-blocks (issue 32, level of detail): Harris's kernel 4 as a
# two-launch plan at 2^16 elements, summarised to a window of 4 blocks, gives the whole run's result and verdict, says
# on screen what it shows in full and what as counts, and carries the summary in its JSON; bad values are one line.
set -u
RLAB="$1"
SRC="$2"
source "$(dirname "$0")/../support/expect.sh"

K="$SRC/tests/cuda/corpus/harris4_first_add_during_load.cu"
PLAN='harris4<<<128, 256, 1024>>>(in, tmp, n); harris4<<<1, 64, 256>>>(tmp, out, 128)'

expect 0 "the whole run" -- "$RLAB" run "$K" --n 65536 --backend cpu --launch "$PLAN" --format json -o "$tmp/full.json"
expect 0 "summarised to 4 blocks (board)" -- "$RLAB" run "$K" --n 65536 --backend cpu --launch "$PLAN" --detail-blocks 4
contains out "level of detail: " "the board says it is summarised"
contains out "in full ([0-9,]* events): launch 1 blocks 0-3, 127; launch 2 block 0; the other 123 blocks as counts" "what is in full"
contains out "verdict   exact" "the verdict"
contains out "no hazards" "no hazards"
expect 0 "summarised to 4 blocks (json)" -- "$RLAB" run "$K" --n 65536 --backend cpu --launch "$PLAN" --detail-blocks 4 --format json -o "$tmp/sum.json"
contains err "level of detail: " "json: the line on stderr"
# The result against 1 + 2 + ... + 65536 as the kernel's ints wrap, and against the whole run's trace.
python3 - "$tmp/full.json" "$tmp/sum.json" <<'PY' || { echo "FAIL: the summarised run's JSON"; fails=$((fails + 1)); }
import json, sys
full, summ = (json.load(open(p)) for p in sys.argv[1:3])
n = 65536
want = (n * (n + 1) // 2) % 2**32
want = want - 2**32 if want >= 2**31 else want
d = summ["level_of_detail"]
kept_full = sum(1 for e in summ["events"] if not any(r["first_block"] <= e["block"] < r["first_block"] + r["blocks"] for r in d["summarised"]))
counted = sum(r["events"] for r in d["summarised"])
checks = {
    "result": summ["result"]["value"] == full["result"]["value"] == want,
    "hazards": summ["hazards"] == full["hazards"] == [],
    "events_total": d["events_total"] == len(full["events"]) == kept_full + counted,
    "window": d["detail_blocks"] == 4 and sum(r["blocks"] for r in d["summarised"]) == 123,
    "steps": summ["step_count"] == full["step_count"],
}
bad = [k for k, ok in checks.items() if not ok]
if bad:
    print("mismatch:", bad)
    sys.exit(1)
PY
expect 2 "--detail-blocks 0" -- "$RLAB" run "$K" --n 65536 --backend cpu --launch "$PLAN" --detail-blocks 0
one_line_error "--detail-blocks 0"
finish "rlab run --detail-blocks"
