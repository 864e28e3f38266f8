#!/usr/bin/env bash
# scripts/record-gpu-corpus.sh RLAB OUTDIR [BACKEND] — records every schedule listed in
# tests/data/gpu-corpus/schedules.txt with `rlab trace --backend BACKEND` (cuda unless given) into
# OUTDIR/NAME.json, and writes OUTDIR/recorded.txt: device, driver, date and commit, then one line
# per schedule, "NAME ok EVENTS" or "NAME failed EXIT: the last line rlab printed" (a hung kernel
# ends with the watchdog's message). A failing schedule never stops the others. The lead commits
# OUTDIR's contents under tests/data/gpu-corpus/ (backend cpu is for testing the tests only).
set -uo pipefail
rlab=$1
out=$2
backend=${3:-cuda}
root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/tests/data/gpu-corpus/schedules.txt
mkdir -p "$out"
manifest=$out/recorded.txt
log=$(mktemp)
{
  echo "# GPU trace corpus: recorded by scripts/record-gpu-corpus.sh from tests/data/gpu-corpus/schedules.txt"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "cuda: $(nvcc --version 2>/dev/null | grep -oE 'release [0-9.]+' | head -1)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"
  echo "backend: $backend"
} >"$manifest"
ok=0 failed=0
while read -r name flags; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  rm -f "$out/$name.json"
  # shellcheck disable=SC2086  # the flags are words by design
  timeout 90 "$rlab" trace --backend "$backend" $flags --format json -o "$out/$name.json" >"$log" 2>&1
  code=$?
  if [ "$code" -eq 0 ] && [ -s "$out/$name.json" ]; then
    echo "$name ok $(grep -oE 'wrote [0-9]+ events' "$log" | grep -oE '[0-9]+')" >>"$manifest"
    ok=$((ok + 1))
  else
    why=$(tail -1 "$log")
    [ "$code" -eq 124 ] && why="no answer within 90 s (killed by timeout)"
    echo "$name failed $code: $why" >>"$manifest"
    rm -f "$out/$name.json"
    failed=$((failed + 1))
  fi
done <"$list"
rm -f "$log"
echo "recorded $ok traces, $failed failed ($(du -sh "$out" | cut -f1) in $out)"
