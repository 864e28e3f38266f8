#!/usr/bin/env bash
# scripts/record-gpu-corpus.sh RLAB OUTDIR [BACKEND] — records every schedule listed in
# tests/data/gpu-corpus/schedules.txt with `rlab trace --backend BACKEND` (cuda unless given) into
# OUTDIR/NAME.json, and writes OUTDIR/recorded.txt: device, driver, date and commit, then one line
# per schedule, "NAME ok EVENTS" or "NAME failed EXIT: the last line rlab printed" (a hung kernel
# ends with the watchdog's message). A failing schedule never stops the others; four run at a time
# (separate processes share the GPU). The lead commits OUTDIR's files under tests/data/gpu-corpus/
# (backend cpu makes a corpus-shaped folder for testing the tests, never to be committed).
# RLAB_COMMIT=SHORT-SHA names the commit recorded (the device machine's copy of the tree has a stale git folder).
set -uo pipefail
rlab=$1
out=$2
backend=${3:-cuda}
root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/tests/data/gpu-corpus/schedules.txt
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.line

# record NAME FLAGS...: one trace, and its manifest line in NAME.line
record() {
  local name=$1; shift
  local log="$out/$name.log" code why
  # shellcheck disable=SC2068  # the flags are words by design
  timeout 90 "$rlab" trace --backend "$backend" $@ --format json -o "$out/$name.json" >"$log" 2>&1
  code=$?
  if [ "$code" -eq 0 ] && [ -s "$out/$name.json" ]; then
    echo "$name ok $(grep -oE 'wrote [0-9]+ events' "$log" | grep -oE '[0-9]+')" >"$out/$name.line"
  else
    why=$(tail -1 "$log")
    [ "$code" -eq 124 ] && why="no answer within 90 s (killed by timeout)"
    echo "$name failed $code: $why" >"$out/$name.line"
    rm -f "$out/$name.json"
  fi
  rm -f "$log"
}
export -f record
export rlab out backend

grep -vE '^\s*(#|$)' "$list" | xargs -P 4 -L 1 bash -c 'record "$@"' _

manifest=$out/recorded.txt
{
  echo "# GPU trace corpus: recorded by scripts/record-gpu-corpus.sh from tests/data/gpu-corpus/schedules.txt"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "cuda: $(nvcc --version 2>/dev/null | grep -oE 'release [0-9.]+' | head -1)"
  # RLAB_COMMIT names the commit when the tree is a copy whose git folder may be stale (the device machine's).
  echo "commit: ${RLAB_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null)}"
  echo "backend: $backend"
  # in the list's order
  grep -vE '^\s*(#|$)' "$list" | while read -r name _; do
    if [ -f "$out/$name.line" ]; then cat "$out/$name.line"; else echo "$name failed -1: not run"; fi
  done
} >"$manifest"
rm -f "$out"/*.line
ok=$(grep -cE ' ok [0-9]*$' "$manifest")
failed=$(grep -c ' failed ' "$manifest")
echo "recorded $ok traces, $failed failed ($(du -sh "$out" | cut -f1) in $out)"
