#!/usr/bin/env bash
# tests/gpu/plain/test_exercises_time.sh RLAB LESSONS — the exercises (plain CUDA) on the GPU (label gpu): each solution
# with its exercise's own flags through `rlab run --backend cuda --time`, every repetition equal to the exact reduction
# of its input computed here (Python: 1..n, or the --input values; sum or max), and wrong-identity's planted bug,
# deterministic on any hardware (a max that starts the tail from 0 over negative numbers gives 0), caught as wrong.
# The witness operator (descending-order) exists on the emulator only. Exit 77 (skipped, with the reason) without a GPU.
set -u
rlab=$1
lessons=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

ran=0
for dir in "$lessons"/exercises/*/; do
  name=$(basename "$dir")
  mapfile -t flags < <(python3 -c "import tomllib,sys; [print(f) for f in tomllib.load(open(sys.argv[1],'rb'))['run']]" "$dir/exercise.toml")
  case " ${flags[*]} " in *" witness "*) echo "$name: --op witness runs on the emulator only"; continue ;; esac
  "$rlab" run "$dir/solution.cu" "${flags[@]}" --backend cuda --time --format json -o "$tmp/t.json" >"$tmp/out" 2>"$tmp/err"
  code=$?
  if [ "$code" -eq 2 ] && grep -q "no usable GPU\|built without the CUDA backend" "$tmp/err"; then
    if nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then bad "a GPU is present but rlab says: $(tail -1 "$tmp/err")"; exit 1; fi
    echo "SKIPPED: $(tail -1 "$tmp/err")"; exit 77
  fi
  [ "$code" -eq 0 ] || { bad "$name: the solution on the GPU: exit $code: $(tail -3 "$tmp/err")"; continue; }
  ran=$((ran + 1))
  python3 - "$tmp/t.json" "$name" "${flags[@]}" <<'PY' || fail=1
import json, sys
from fractions import Fraction
path, name, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
opts = dict(zip(flags[::2], flags[1::2]))
n, op = int(opts["--n"]), opts.get("--op", "sum")
xs = [Fraction(v) for v in opts["--input"].split(",")] if "--input" in opts else [Fraction(i) for i in range(1, n + 1)]
want = sum(xs) if op == "sum" else max(xs)
rows = {r["name"]: r for r in json.load(open(path))["kernel_timing"]["rows"]}
r = rows["your kernel"]
ok = r["timed"] and r["reps"] >= 3 and r["wrong"] == 0 and Fraction(r["result"]) == want
print(f"{name}: out[0] = {r.get('result')} (by hand {want}), {r.get('wrong')} of {r.get('reps')} repetitions wrong")
sys.exit(0 if ok else 1)
PY
done
[ "$ran" -ge 5 ] || bad "only $ran exercise solutions timed, expected the 5 without --op witness"

# wrong-identity's kernel: 0 is larger than every input, so out[0] is 0 on every repetition: CHECK FAILED, exit 1.
dir="$lessons/exercises/wrong-identity"
mapfile -t flags < <(python3 -c "import tomllib,sys; [print(f) for f in tomllib.load(open(sys.argv[1],'rb'))['run']]" "$dir/exercise.toml")
"$rlab" run "$dir/kernel.cu" "${flags[@]}" --backend cuda --time >"$tmp/wrong" 2>&1
code=$?
[ "$code" -eq 1 ] && grep -q "CHECK FAILED: your kernel" "$tmp/wrong" ||
  bad "wrong-identity's kernel on the GPU: exit $code, expected 1 and CHECK FAILED: $(tail -3 "$tmp/wrong")"
exit $fail
