#!/usr/bin/env bash
# tests/cli/test_readme_kernel.sh — the kernel README.md gives students, taken from the README itself, does what the
# README says: exact sums (n(n+1)/2 for the default input 1..n) on one block and on more block partials than the
# second launch has threads, and the full mask's hazards in a partial warp.
set -u
RLAB="$1"
README="$2"
source "$(dirname "$0")/../support/expect.sh"

sed -n '/^```cuda$/,/^```$/p' "$README" | sed '1d;$d' >"$tmp/block_sum.cu"
grep -q 'RL_KERNEL void block_sum' "$tmp/block_sum.cu" || { echo "FAIL: no block_sum kernel in $README's cuda block"; exit 1; }

expect 0 "the README's first command" -- "$RLAB" run "$tmp/block_sum.cu" --n 1000 --block 256 --backend cpu
contains out "^result    500500$" "1000 elements sum to 1000*1001/2"
contains out "verdict   exact" "an exact verdict"
contains out "no hazards" "no hazards"

# 5000 elements on 64-thread blocks: 79 partials, more than the second launch's one block of 64 threads holds.
expect 0 "more partials than threads" -- "$RLAB" run "$tmp/block_sum.cu" --n 5000 --block 64 --backend cpu
contains out "grid 79" "79 blocks"
contains out "second launch (one block over the 79 block partials)" "the second launch is shown"
contains out "^result    12502500$" "5000 elements sum to 5000*5001/2"
contains out "no hazards" "no hazards"

# Block 40: warp 1 has lanes 0-7 only, and the full mask names lanes 8-31 that were never launched. By hand, each
# shuffle level (offsets 16, 8, 4, 2, 1) has lanes of warp 1 reading a never-launched lane: 8, 8, 4, 2, 1 readers.
expect 1 "the README's check command" -- "$RLAB" check "$tmp/block_sum.cu" --n 40 --block 40 --backend cpu
contains out "^5 hazard(s):" "five findings"
[ "$(grep -c '\[read-from-non-participating-lane\] block 0 warp 1' "$tmp/out")" -eq 5 ] ||
    { echo "FAIL: expected 5 read-from-non-participating-lane findings in warp 1"; fails=$((fails + 1)); }
for offset_lanes in "offset 16: lanes 0-7" "offset 8: lanes 0-7" "offset 4: lanes 4-7" "offset 2: lanes 6-7" "offset 1: lane 7"; do
    contains out "$offset_lanes" "a finding at $offset_lanes"
done
contains out "^result    undefined" "the result is undefined"
finish "README kernel"
