#!/usr/bin/env bash
# tests/cli/test_exercises.sh — grades every exercise of lessons/exercises with rlab run on the emulator: the planted
# bug exits 1 and the checker finds the exercise's hazard kind; the solution exits 0, finds no hazard, and its result
# equals an independent reduction (Python, exact) of the inputs the trace carries. Also rlab lessons --exercise.
set -u
RLAB="$1"
LESSONS="$2"
source "$(dirname "$0")/../support/expect.sh"

count=0
for dir in "$LESSONS"/exercises/*/; do
    name=$(basename "$dir")
    count=$((count + 1))
    # The run flags and the expected hazard, read with Python's own TOML reader (not the lab's).
    mapfile -t flags < <(python3 -c "import tomllib,sys; [print(f) for f in tomllib.load(open(sys.argv[1],'rb'))['run']]" "$dir/exercise.toml")
    hazard=$(python3 -c "import tomllib,sys; print(tomllib.load(open(sys.argv[1],'rb'))['hazard'])" "$dir/exercise.toml")

    expect 1 "$name: the planted bug fails" -- "$RLAB" run "$dir/kernel.cu" "${flags[@]}" --backend cpu --format json -o "$tmp/k.json"
    python3 - "$tmp/k.json" "$hazard" <<'PY' || { echo "FAIL: $name: the checker does not find $hazard in kernel.cu"; fails=$((fails + 1)); }
import json, sys
kinds = {h["kind"] for h in json.load(open(sys.argv[1]))["hazards"]}
sys.exit(0 if sys.argv[2] in kinds else 1)
PY

    expect 0 "$name: the solution passes" -- "$RLAB" run "$dir/solution.cu" "${flags[@]}" --backend cpu --format json -o "$tmp/s.json"
    python3 - "$tmp/s.json" <<'PY' || { echo "FAIL: $name: the solution's result is not the exact reduction of its inputs"; fails=$((fails + 1)); }
import json, math, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
op, xs = d["schedule"]["op"], [Fraction(x) for x in d["inputs"]]
if op == "sum": want = sum(xs)
elif op == "max": want = max(xs)
elif op == "min": want = min(xs)
elif op == "prod": want = math.prod(xs)
elif op == "witness": want = None  # the result is the range 0..n-1: no hazard and verdict exact say it
else: sys.exit(1)
r = d["result"]
ok = not d["hazards"] and r["verdict"] == "exact" and (want is None or Fraction(r["value"]) == want)
sys.exit(0 if ok else 1)
PY

    expect 0 "$name: rlab lessons --exercise" -- "$RLAB" lessons --dir "$LESSONS" --exercise "$name"
    contains out "kernel.cu" "$name: the exercise names its kernel"
    contains out "$hazard" "$name: the exercise names the hazard to find"
    # The command it prints, run by the shell as a student pastes it (quotes and all) on a copy of the planted bug.
    run_line=$(sed -n 's/^  rlab run /run /p' "$tmp/out")
    cp "$dir/kernel.cu" "$tmp/my-$name.cu"
    (rlab_path=$(cd "$(dirname "$RLAB")" && pwd)/$(basename "$RLAB") && cd "$tmp" &&
        eval "\"\$rlab_path\" $run_line --backend cpu" >/dev/null 2>&1)
    code=$?
    [ "$code" = 1 ] || { echo "FAIL: $name: the printed '$run_line' on a copy of kernel.cu: exit $code, expected 1"; fails=$((fails + 1)); }
done
[ "$count" -ge 6 ] || { echo "FAIL: $count exercises, the lessons promise at least six"; fails=$((fails + 1)); }

# Every exercise is linked from a lesson, and --show lists a lesson's exercises.
for dir in "$LESSONS"/exercises/*/; do
    name=$(basename "$dir")
    grep -q "^exercises = .*\"$name\"" "$LESSONS"/*.toml || { echo "FAIL: no lesson links $name"; fails=$((fails + 1)); }
done
expect 0 "lessons --show lists exercises" -- "$RLAB" lessons --dir "$LESSONS" --show mask-contract
contains out "rlab lessons --exercise shuffle-in-branch" "mask-contract links shuffle-in-branch"
expect 2 "an unknown exercise" -- "$RLAB" lessons --dir "$LESSONS" --exercise no-such
one_line_error "an unknown exercise"
contains err "exercises:" "the error lists the exercises"

finish "exercises ($count graded)"
