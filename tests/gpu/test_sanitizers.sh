#!/usr/bin/env bash
# tests/gpu/test_sanitizers.sh RLAB — compute-sanitizer against rlab's own rules on the GPU (label gpu).
# Correct schedules are clean under all four tools; racecheck reports the barrier bugs; the mask bugs
# pass every tool (the sanitizers do not model shuffle participation) while `rlab check` names them;
# divergent-barrier deadlocks the GPU and must end in an error, never a hang. Exit 77 (skip) without
# a GPU or without compute-sanitizer.
set -u
rlab=$1
if ! command -v compute-sanitizer >/dev/null; then echo "SKIPPED: compute-sanitizer is not installed"; exit 77; fi
if ! "$rlab" trace --backend cuda --n 8 --block 8 --format json -o /dev/null 2>/dev/null; then
  echo "SKIPPED: no usable GPU: $("$rlab" trace --backend cuda --n 8 --block 8 2>&1 | tail -1)"; exit 77
fi
fail=0
# Hazards (racecheck) or errors (other tools) one tool reports for one schedule.
findings() {
  local tool=$1; shift
  local out
  out=$(timeout 120 compute-sanitizer --tool "$tool" --print-limit 5 "$rlab" trace --backend cuda "$@" --format json -o /dev/null 2>&1)
  echo "$out" | grep -oE "(ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+ hazard)" | grep -oE "[0-9]+" | tail -1
}
expect() {  # expect TOOL OP N SCHEDULE...: the finding count compared with N
  local tool=$1 op=$2 want=$3; shift 3
  local got; got=$(findings "$tool" "$@")
  if [ -z "$got" ] || ! [ "$got" "$op" "$want" ]; then
    echo "FAIL: $tool on '$*': ${got:-no summary} findings, expected $op $want"; fail=1
  else
    echo "ok: $tool on '$*': $got findings ($op $want)"
  fi
}
for tool in memcheck racecheck synccheck initcheck; do
  expect "$tool" -eq 0 --n 4096 --block 256 --items 4
  expect "$tool" -eq 0 --n 5000 --block 96 --items 3 --warp smem-sequential --block-stage smem-tree --grid-stage last-block
done
expect racecheck -gt 0 --n 256 --block 128 --bug missing-barrier
expect racecheck -gt 0 --n 256 --block 128 --bug missing-barrier --block-stage smem-tree
expect racecheck -gt 0 --n 64 --block 64 --warp smem-sequential --bug volatile-unroll
for bug in full-mask-partial-warp unbounded-source; do
  for tool in memcheck synccheck; do expect "$tool" -eq 0 --n 40 --block 40 --bug $bug; done
  "$rlab" check --backend cuda --n 40 --block 40 --bug $bug >/dev/null 2>&1
  code=$?
  if [ $code -ne 1 ]; then echo "FAIL: rlab check on the GPU did not report $bug (exit $code)"; fail=1; else echo "ok: rlab check names $bug"; fi
done
timeout 60 "$rlab" check --backend cuda --n 256 --block 128 --bug divergent-barrier >/tmp/rlab-divergent.$$ 2>&1
code=$?
if [ $code -eq 0 ] || [ $code -eq 124 ]; then
  echo "FAIL: divergent-barrier ended with exit $code (0: no hazard seen; 124: the watchdog did not fire)"; fail=1
else
  echo "ok: divergent-barrier ends with exit $code: $(tail -1 /tmp/rlab-divergent.$$)"
fi
rm -f /tmp/rlab-divergent.$$
exit $fail
