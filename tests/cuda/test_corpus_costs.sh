#!/usr/bin/env bash
# tests/cuda/test_corpus_costs.sh RLAB — bank conflicts of Harris's kernels 2 and 3 (tests/cuda/corpus) as `rlab run`
# exports them (docs/costs.md), against degrees derived by hand, and the cost notes never changing the exit code.
# Skipped (77) while rlab does not run plain CUDA (see test_corpus.sh's probe).
set -u
RLAB="$1"
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

run() {  # run NAME FILE ARGS...: rlab run --format json into $tmp/NAME.json; the exit code must be 0
    local name=$1 file=$2
    shift 2
    "$RLAB" run "$corpus/$file" "$@" --backend cpu --format json -o "$tmp/$name.json" </dev/null >"$tmp/$name.out" 2>"$tmp/$name.err"
    local code=$?
    if [ "$code" -eq 2 ] && grep -q "RL_KERNEL" "$tmp/$name.err"; then echo "SKIPPED: this rlab does not run plain CUDA"; exit 77; fi
    [ "$code" -eq 0 ] || { echo "FAIL: $name: rlab run exits $code, expected 0"; sed 's/^/  | /' "$tmp/$name.err" | head -5; fails=$((fails + 1)); }
}

# Per step with shared-memory accesses, the worst access's degree, in step order, and the line of the loop's body.
degrees() {
    [ -s "$1" ] || return 0
    python3 - "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["costs"]
print(" ".join(str(s["max_degree"]) for s in c["steps"] if s["accesses"]))
PY
}

# Harris's kernel 2 (int, one block of 256): at stride s, lanes t < 128/s access partial[2st] and partial[2st+s]: word
# 2s*l of lane l. A full warp (s = 1, 2, 4) puts 2s words in each bank it uses: 2, 4, 8. Then fewer lanes: s = 8,
# lanes 0-15, words 16l, banks 0 and 16, 8 each; s = 16, 8 lanes, words 32l, all in bank 0: 8; s = 32: 4; 64: 2;
# 128: 1. Each level is three accesses (two loads, one store) on three steps; before them the store of partial[t]
# (1), after them thread 0's load of partial[0] (1).
run harris2 harris2_strided_index.cu --n 256 --block 256
want="1 2 2 2 4 4 4 8 8 8 8 8 8 8 8 8 4 4 4 2 2 2 1 1 1 1"
got=$(degrees "$tmp/harris2.json")
[ "$got" = "$want" ] || { echo "FAIL: harris2: degrees per step $got, expected $want"; fails=$((fails + 1)); }
# And the totals: 8 warps store, then per level (active warps) x 3 accesses, 4, 2, 1 warps at s = 1, 2, 4 and one warp
# at each of the other 5 levels, then one load: 8 + 3 x (4 + 2 + 1 + 5) + 1 = 45 accesses. Conflicted: all but the
# stores, the last level and the final load: 3 x (4 + 2 + 1 + 4) = 33. Passes: 8 + 3 x (4x2 + 2x4 + 1x8 + 8 + 8 + 4
# + 2 + 1) + 1 = 150. Divergence: warp 0 is split at line 11 on the 4 steps (load, load, add, store) of each level
# with 16, 8, 4, 2 or 1 of its lanes: 5 x 4 = 20 warp-steps; the final load by thread 0 comes after every other lane's
# last event (the last barrier), so it splits nothing.
if [ -s "$tmp/harris2.json" ]; then
    python3 - "$tmp/harris2.json" <<'PY' || { echo "FAIL: harris2: totals (above)"; fails=$((fails + 1)); }
import json, sys
c = json.load(open(sys.argv[1]))["costs"]
s = c["shared"]
want = {"accesses": 45, "conflicted": 33, "passes": 150, "max_degree": 8, "worst_line": 11}
got = {k: s[k] for k in want}
if got != want: print("costs.shared", got, "expected", want); sys.exit(1)
if c["slot_bytes"] != 4 or c["banks"] != 32: print("slot_bytes/banks", c["slot_bytes"], c["banks"]); sys.exit(1)
split = {l["line"]: l["divergent_warp_steps"] for l in c["lines"] if l["divergent_warp_steps"]}
if c["divergent_warp_steps"] != 20 or split != {11: 20}: print("divergence", c["divergent_warp_steps"], split, "expected 20 at line 11"); sys.exit(1)
PY
fi
"$RLAB" check "$corpus/harris2_strided_index.cu" --n 256 --block 256 --backend cpu </dev/null >"$tmp/check2.out" 2>&1
code=$?
[ "$code" -eq 0 ] || { echo "FAIL: check harris2: exit $code with bank conflicts (notes never change the exit code)"; fails=$((fails + 1)); }
grep -q "^note: bank conflicts: 33 of 45 shared-memory accesses by a warp put several words in one bank, up to 8-way at line 11" "$tmp/check2.out" ||
    { echo "FAIL: check harris2: no bank-conflict note"; sed 's/^/  | /' "$tmp/check2.out" | tail -6; fails=$((fails + 1)); }
grep -q "^no hazards" "$tmp/check2.out" || { echo "FAIL: check harris2: the notes are no hazards"; fails=$((fails + 1)); }

# Harris's kernel 3: lanes t < s access partial[t] and partial[t+s]: consecutive words, one per bank, always.
run harris3 harris3_sequential.cu --n 256 --block 256
got=$(degrees "$tmp/harris3.json")
case " $got " in *" 1 "*) ;; *) echo "FAIL: harris3: no shared access found ($got)"; fails=$((fails + 1)) ;; esac
[ -z "$(tr -d ' 1' <<<"$got")" ] || { echo "FAIL: harris3: degrees $got, expected 1 everywhere"; fails=$((fails + 1)); }
# Divergence: whole warps drop out while half >= 32; then warp 0 keeps 16, 8, 4, 2, 1 lanes at line 10, 4 steps a level.
if [ -s "$tmp/harris3.json" ]; then
    python3 - "$tmp/harris3.json" <<'PY' || { echo "FAIL: harris3: divergence (above)"; fails=$((fails + 1)); }
import json, sys
c = json.load(open(sys.argv[1]))["costs"]
split = {l["line"]: l["divergent_warp_steps"] for l in c["lines"] if l["divergent_warp_steps"]}
if c["shared"]["conflicted"] != 0 or split != {10: 20}: print("conflicted", c["shared"]["conflicted"], "divergence", split, "expected 0 and 20 at line 10"); sys.exit(1)
PY
fi
"$RLAB" run "$corpus/harris3_sequential.cu" --n 256 --block 256 --backend cpu </dev/null >"$tmp/board3.out" 2>&1
grep -q "^note: bank conflicts: none" "$tmp/board3.out" || { echo "FAIL: run harris3: no 'bank conflicts: none' note"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "plain-CUDA costs: ok" || echo "plain-CUDA costs: $fails failure(s)"
[ "$fails" -eq 0 ]
