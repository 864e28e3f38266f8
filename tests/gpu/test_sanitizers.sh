#!/usr/bin/env bash
# tests/gpu/test_sanitizers.sh RLAB — rlab's checker against compute-sanitizer on the GPU (label gpu).
# For each bug, the checker (`rlab check --trace` on the GPU's own trace, by the rules alone) must find
# the hazards the bug breaks the rules with, and each of memcheck, racecheck, synccheck and initcheck
# must report what the table says: findings (+), nothing (0, with the reason why that tool cannot see
# it), or whatever the hardware did (?, recorded, not asserted). Correct schedules are clean under all
# of them. divergent-barrier deadlocks the GPU and must end in an error, never a hang; divergent-shuffle
# is recorded as it happens (result, synccheck's finding, or the watchdog's message).
# Exit 77 (skip) only where no GPU is present or compute-sanitizer is missing; on a GPU machine a
# capture that fails is a failure.
set -u
rlab=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v compute-sanitizer >/dev/null; then echo "SKIPPED: compute-sanitizer is not installed"; exit 77; fi
if ! "$rlab" trace --backend cuda --n 8 --block 8 --format json -o /dev/null 2>"$tmp/probe"; then
  if nvidia-smi -L 2>/dev/null | grep -q "^GPU " || ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
    echo "FAIL: a GPU is present ($(nvidia-smi -L 2>/dev/null | head -1; ls /dev/nvidia[0-9]* 2>/dev/null | head -1)) but rlab could not capture on it: $(tail -1 "$tmp/probe")"
    exit 1
  fi
  echo "SKIPPED: no usable GPU: $(tail -1 "$tmp/probe")"; exit 77
fi
fail=0

# Findings one tool reports for one schedule: racecheck's hazards or the others' errors; "timeout"
# when it did not end; "exit N" when there is no summary.
findings() {
  local tool=$1; shift
  local out code n
  out=$(timeout 120 compute-sanitizer --tool "$tool" --print-limit 5 "$rlab" trace --backend cuda "$@" --format json -o /dev/null 2>&1)
  code=$?
  n=$(echo "$out" | grep -oE "(ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+ hazard)" | grep -oE "[0-9]+" | tail -1)
  [ "$code" -eq 124 ] && n=timeout
  echo "${n:-exit $code}"
  echo "$out" | grep -E "=========  [A-Z]" | head -3 >&2
}

# row NAME CHECKER-MUST MEMCHECK RACECHECK SYNCCHECK INITCHECK WHY -- SCHEDULE...
# CHECKER-MUST: hazard kinds separated by commas ("-": none, the schedule is correct).
# Each tool column: 0, + or ?; WHY says why the tools marked 0 on a buggy schedule see nothing.
row() {
  local name=$1 must=$2; shift 2
  local want=("$1" "$2" "$3" "$4"); shift 4
  local why=$1; shift 2
  local tools=(memcheck racecheck synccheck initcheck) line="| $name |" got k
  # the checker on the GPU's own trace
  timeout 60 "$rlab" trace --backend cuda "$@" --format json -o "$tmp/$name.json" >"$tmp/$name.capture" 2>&1
  local code=$?
  if [ $code -ne 0 ]; then
    local msg; msg=$(tail -1 "$tmp/$name.capture")
    if [ "$name" = divergent-shuffle ]; then  # undefined behaviour: a hang ended by the watchdog is a result
      echo "recorded: divergent-shuffle did not finish on the GPU (exit $code): $msg"
      line="$line did not finish: $msg |"
      got=$(findings synccheck "$@" 2>"$tmp/sync.txt")
      echo "recorded: synccheck on divergent-shuffle: $got findings; $(head -1 "$tmp/sync.txt")"
      echo "$line ? | ? | $got | ? | the kernel does not finish |"; return
    fi
    echo "FAIL: $name: the capture failed (exit $code): $msg"; fail=1; return
  fi
  "$rlab" check --trace "$tmp/$name.json" --format json >"$tmp/$name.check" 2>&1
  code=$?
  local kinds; kinds=$(grep -oE '"kind": *"[a-z-]+"' "$tmp/$name.check" | grep -oE '"[a-z-]+"$' | tr -d '"' | sort -u | tr '\n' ' ')
  if [ "$must" = - ]; then
    if [ $code -ne 0 ]; then echo "FAIL: $name: the checker reported on a correct schedule (exit $code): $kinds"; fail=1;
    else echo "ok: $name: the checker finds nothing"; fi
  else
    for k in ${must//,/ }; do
      local want_code=1  # a hazard fails the check; a cost finding (a note) never does
      [ "$k" = atomic-contention ] && want_code=0
      if [[ " $kinds " != *" $k "* ]] || [ $code -ne $want_code ]; then echo "FAIL: $name: the checker did not find $k (exit $code; found: $kinds)"; fail=1;
      else echo "ok: $name: the checker finds $k"; fi
    done
  fi
  if [ "$name" = divergent-shuffle ]; then
    echo "recorded: divergent-shuffle finished on the GPU: $(grep -oE '"text": *"[^"]*"' "$tmp/$name.json" | head -1); checker: $kinds"
  fi
  line="$line ${kinds:-none} |"
  # the four tools at once (one process each; they share the GPU)
  for i in 0 1 2 3; do findings "${tools[$i]}" "$@" >"$tmp/$name.${tools[$i]}" 2>"$tmp/$name.${tools[$i]}.err" & done
  wait
  for i in 0 1 2 3; do
    got=$(head -1 "$tmp/$name.${tools[$i]}")
    line="$line $got |"
    case ${want[$i]} in
      0) if [ "$got" != 0 ]; then echo "FAIL: $name: ${tools[$i]} reported $got, expected nothing ($why)"; fail=1;
         elif [ "$must" != - ]; then echo "ok: $name: ${tools[$i]} silent: $why"; fi ;;
      +) if ! [[ "$got" =~ ^[0-9]+$ ]] || [ "$got" -eq 0 ]; then echo "FAIL: $name: ${tools[$i]} reported $got, expected findings"; fail=1;
         else echo "ok: $name: ${tools[$i]} reports $got"; fi ;;
      *) echo "recorded: $name: ${tools[$i]} reported $got $(head -1 "$tmp/$name.${tools[$i]}.err")" ;;
    esac
  done
  echo "$line $why |" >>"$tmp/table"
}

echo "| schedule | checker (rlab check --trace) | memcheck | racecheck | synccheck | initcheck | why a tool is silent |" >"$tmp/table"
echo "|---|---|---|---|---|---|---|" >>"$tmp/table"
nomem="no memory access is out of bounds"
row correct - 0 0 0 0 "" -- --n 4096 --block 256 --items 4
row correct-last-block - 0 0 0 0 "" -- --n 5000 --block 96 --items 3 --warp smem-sequential --block-stage smem-tree --grid-stage last-block
row full-mask-partial-warp read-from-non-participating-lane 0 0 0 0 \
  "never-launched lanes 40-63 count as exited, so naming them in the mask breaks no rule; lanes 2-31 of warp 0 skip the block stage's full-mask shuffle (the checker names them) but then exit, and synccheck allows exited lanes; the undefined value is read from a lane that does not exist, which no tool tracks; $nomem" \
  -- --n 40 --block 40 --bug full-mask-partial-warp
row unbounded-source read-from-non-participating-lane 0 0 0 0 \
  "every lane the mask names executes the shuffle (synccheck); reading a source lane outside the mask returns an undefined register value, which no tool tracks; $nomem" \
  -- --n 40 --block 40 --bug unbounded-source
row uninit-tail uninitialised-tail 0 0 0 0 \
  "the uninitialised value is a register; initcheck tracks only device global memory; $nomem" \
  -- --n 30 --block 32 --bug uninit-tail
row wrong-identity wrong-identity 0 0 0 0 \
  "a wrong identity is legal CUDA that computes the wrong value: no CUDA rule is broken" \
  -- --n 6 --block 8 --op max --input -3,-1,-4,-1.5,-5,-9 --bug wrong-identity
row missing-barrier shared-memory-race 0 + 0 0 "only racecheck models the ordering of shared-memory accesses" \
  -- --n 256 --block 128 --bug missing-barrier
row missing-barrier-tree shared-memory-race 0 + 0 0 "only racecheck models the ordering of shared-memory accesses" \
  -- --n 256 --block 128 --bug missing-barrier --block-stage smem-tree
row volatile-unroll implicit-warp-sync 0 + 0 0 "only racecheck models the ordering of shared-memory accesses" \
  -- --n 64 --block 64 --warp smem-sequential --bug volatile-unroll
row grid-stride-order order-violation 0 0 0 0 "merge order is the operator's contract, not a CUDA rule" \
  -- --n 64 --block 8 --items 4 --op witness --bug grid-stride-order
row descending-order order-violation 0 0 0 0 "merge order is the operator's contract, not a CUDA rule" \
  -- --n 32 --block 32 --op witness --bug descending-order
row atomic-per-element atomic-contention 0 0 0 0 "contention is a cost, not an error: the atomics are correct" \
  -- --n 1000 --block 128 --bug atomic-per-element
row missing-threadfence missing-threadfence 0 '?' 0 0 \
  "memcheck, synccheck and initcheck do not model the order in which other blocks see global stores; racecheck (recorded) watches shared memory" \
  -- --n 4096 --block 128 --grid-stage last-block --bug missing-threadfence
row divergent-shuffle mask-names-inactive-lanes '?' '?' '?' '?' "undefined behaviour: recorded as it happens" \
  -- --n 40 --block 64 --bug divergent-shuffle

# divergent-barrier (__syncthreads() inside `if (lane == 0)`) deadlocks the H200: rlab's watchdog stops waiting after
# 20 s and rlab exits 2 with the watchdog's message (cuda/trace_capture.cu, app/cli/main.cpp). A GPU that finishes
# the kernel instead gives a trace in which the checker must name the divergent barrier, and `rlab check` exits 1 for
# the hazard. Anything else fails: 0 (nothing seen), 124 (the watchdog never fired), 2 with another error, a crash.
timeout 60 "$rlab" check --backend cuda --n 256 --block 128 --bug divergent-barrier >"$tmp/divergent" 2>&1
code=$?
if [ $code -eq 2 ] && grep -q "^rlab: the GPU kernel did not finish within " "$tmp/divergent"; then
  echo "ok: divergent-barrier deadlocks and the watchdog ends it (exit 2): $(tail -1 "$tmp/divergent")"
elif [ $code -eq 1 ] && grep -q "\[divergent-barrier\]" "$tmp/divergent"; then
  echo "ok: divergent-barrier finished on this GPU and the checker names it (exit 1)"
else
  echo "FAIL: divergent-barrier ended with exit $code, expected 2 with the watchdog's message or 1 naming the hazard: $(tail -1 "$tmp/divergent")"; fail=1
fi
cat "$tmp/table"
exit $fail
