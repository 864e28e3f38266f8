#!/usr/bin/env bash
# tests/gpu/plain/test_run_time.sh RLAB SOURCE_DIR — `rlab run FILE.cu --backend cuda --time` on the GPU (label gpu):
# Harris's kernel 4 from the corpus, as it is, through a three-launch plan over 2^24 ints and through the contract's
# one launch over 128 ints; the three rows (your kernel, fast path, CUB) timed, every repetition checked against the
# reference derived here by hand (sum 1..n modulo 2^32), plausible figures (0 < GB/s < the H200's 4800 GB/s). Exit 77
# (skipped, with the reason) where no GPU is usable; on a GPU machine a failure to time is a failure.
set -u
rlab=$1
src=$2
file=$src/tests/cuda/corpus/harris4_first_add_during_load.cu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 2^24 ints: 32768 blocks of 256 threads each add 512 elements into tmp, 64 blocks fold those into out, one block of 32
# threads folds out's 64 partials into out[0] (in place within one block: every load precedes the barrier, the store
# follows the last).
n=16777216
plan='harris4<<<32768, 256, 1024>>>(in, tmp, n); harris4<<<64, 256, 1024>>>(tmp, out, 32768); harris4<<<1, 32, 128>>>(out, out, 64)'
"$rlab" run "$file" --backend cuda --time --n $n --launch "$plan" --format json -o "$tmp/t.json" >"$tmp/out" 2>"$tmp/err"
code=$?
if [ "$code" -eq 2 ] && grep -q "no usable GPU\|built without the CUDA backend" "$tmp/err"; then
  if nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then bad "a GPU is present but rlab says: $(tail -1 "$tmp/err")"; exit 1; fi
  echo "SKIPPED: $(tail -1 "$tmp/err")"; exit 77
fi
[ "$code" -eq 0 ] || bad "the plan: exit $code: $(cat "$tmp/err")"

# The reference by hand: 1 + 2 + ... + n = n(n+1)/2, wrapped to a signed 32-bit int as the GPU's int adds wrap.
check_json() {  # check_json FILE N
  python3 - "$1" "$2" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
want = (n * (n + 1) // 2) % 2**32
want = want - 2**32 if want >= 2**31 else want
t = json.load(open(path))["kernel_timing"]
errors = []
if t["reference"] != want: errors.append(f"reference {t['reference']}, by hand {want}")
if t["dtype"] != "i32" or t["n"] != n: errors.append(f"dtype {t['dtype']} n {t['n']}")
names = [r["name"] for r in t["rows"]]
if names != ["your kernel", "fast path", "CUB"]: errors.append(f"rows {names}")
for r in t["rows"]:
    if not r["timed"]: errors.append(f"{r['name']} not timed: {r.get('why')}"); continue
    if r["reps"] < 3 or r["wrong"] != 0: errors.append(f"{r['name']}: {r['wrong']} of {r['reps']} repetitions wrong")
    if r["result"] != str(want): errors.append(f"{r['name']}: out[0] = {r['result']}, by hand {want}")
    if not (0 < r["min_us"] <= r["median_us"] <= r["max_us"]): errors.append(f"{r['name']}: times {r['min_us']} {r['median_us']} {r['max_us']}")
    gbps = n * 4 / (r["median_us"] * 1e-6) / 1e9
    if abs(gbps - r["gbps"]) > 1e-6 * gbps: errors.append(f"{r['name']}: gbps {r['gbps']}, from the median {gbps}")
    if not (0 < r["gbps"] < 4800): errors.append(f"{r['name']}: {r['gbps']} GB/s is outside (0, 4800)")
    print(f"{r['name']}: {r['median_us']:.2f} us, {r['gbps']:.0f} GB/s, {r['percent_of_peak']:.1f}% of peak, {r['reps']} reps checked")
if errors:
    print("\n".join("FAIL: " + e for e in errors)); sys.exit(1)
PY
}
[ -s "$tmp/t.json" ] && { check_json "$tmp/t.json" $n || fail=1; }

# The terminal form of the same run: the three rows and their columns.
"$rlab" run "$file" --backend cuda --time --n $n --launch "$plan" >"$tmp/board" 2>&1 || bad "the board: exit $?: $(tail -3 "$tmp/board")"
for want in "median µs" "GB/s" "% of peak" "your kernel" "fast path" "CUB" "reference: "; do
  grep -qF "$want" "$tmp/board" || bad "the board lacks \"$want\""
done
cat "$tmp/board"

# The contract's one launch: harris4<<<1, 64, 256>>>(in, out, 128), 1 + ... + 128 = 8256.
"$rlab" run "$file" --backend cuda --time --n 128 --block 64 --grid 1 --format json -o "$tmp/one.json" 2>"$tmp/err1" ||
  bad "one launch: exit $?: $(cat "$tmp/err1")"
[ -s "$tmp/one.json" ] && { check_json "$tmp/one.json" 128 || fail=1; }

# A kernel that reads past `in`: the GPU stops it or it reads garbage; either way never exit 0 with a wrong sum unflagged.
# (bug_sum_starts_at_one starts its sum at 1: every repetition is off by one per block, so the check must fail: exit 1.)
"$rlab" run "$src/tests/cuda/corpus/bug_sum_starts_at_one.cu" --backend cuda --time --n 4096 --block 256 --grid 1 \
  >"$tmp/wrong" 2>&1
code=$?
[ "$code" -eq 1 ] && grep -q "CHECK FAILED: your kernel" "$tmp/wrong" || bad "a kernel that sums from 1: exit $code, expected 1 and CHECK FAILED: $(tail -3 "$tmp/wrong")"
exit $fail
