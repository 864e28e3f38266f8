#!/usr/bin/env bash
# tests/cuda/test_corpus.sh RLAB — the plain-CUDA corpus (tests/cuda/corpus: Harris's seven kernels, the Kepler blog's,
# a course program, the last-block reduction, max/argmax, cooperative groups and the classroom bugs) run through
# `rlab run FILE --backend cpu` and held to what a CUDA expert expects of each (tests/cuda/corpus/manifest.txt):
# the exit code, the result line and the hazard kinds (with the places the manifest checks by machine).
# Until the plain-CUDA engine (docs/plain-cuda.md) is in this build, `rlab run` on a plain file is a compile error
# asking for RL_KERNEL: one probe run finds that and the test is SKIPPED (exit 77), never passed silently.
# Files in corpus/pending.txt are reported PENDING when they fail; one of them whose every line passes fails the test
# (the list must stay honest).
set -u
RLAB="$1"
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the probe: a correct plain-CUDA warp sum (1..64 = 2080)
cat >"$tmp/probe.cu" <<'CU'
__global__ void probe_sum(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
CU
"$RLAB" run "$tmp/probe.cu" --n 64 --block 64 --backend cpu </dev/null >"$tmp/probe.out" 2>"$tmp/probe.err"
code=$?
if [ "$code" -eq 2 ] && grep -q "RL_KERNEL" "$tmp/probe.err"; then
    echo "SKIPPED: this rlab does not run plain CUDA yet (the engine of docs/plain-cuda.md is not in this build):"
    echo "  the probe, a plain __global__ warp sum, got: $(head -1 "$tmp/probe.err")"
    exit 77
fi
if [ "$code" -ne 0 ] || ! grep -qE "^result +2080$" "$tmp/probe.out"; then
    echo "FAIL: the probe (a correct plain-CUDA warp sum, n 64, block 64) exits $code, expected 0 and result 2080"
    sed 's/^/  | /' "$tmp/probe.err" | head -10
    grep -E "^(result|verdict)|hazard" "$tmp/probe.out" | sed 's/^/  | /' | head -10
    exit 1
fi

# ---- the checker of one run's JSON against the manifest's result, hazards and places
cat >"$tmp/check.py" <<'PY'
import json, sys
path, want_result, want_hazards, want_at = sys.argv[1:5]
problems = []
d = json.load(open(path))
text = str(d.get("result", {}).get("text", ""))
if want_result != "any":
    def num(s):
        try: return float(s)
        except ValueError: return None
    a, b = num(text), num(want_result)
    same = (a == b) if (a is not None and b is not None) else " ".join(text.split()) == " ".join(want_result.split())
    if not same: problems.append("result %r, expected %s" % (text, want_result))
kinds = {h["kind"] for h in d.get("hazards", [])}
need = set() if want_hazards == "none" else {k for k in want_hazards.split(",") if not k.endswith("?")}
allowed = need | ({k[:-1] for k in want_hazards.split(",") if k.endswith("?")} if want_hazards != "none" else set())
if not need <= kinds: problems.append("hazards %s missing (reported: %s)" % (",".join(sorted(need - kinds)), ",".join(sorted(kinds)) or "none"))
if not kinds <= allowed: problems.append("hazards %s not expected" % ",".join(sorted(kinds - allowed)))
def lanes(v): return int(v, 16) if isinstance(v, str) else int(v)
for spec in ([] if want_at == "-" else want_at.split(";")):
    kind, _, where = spec.strip().partition("@")
    cond = dict(p.split(":", 1) for p in where.split(",") if p)
    hs = [h for h in d.get("hazards", []) if h["kind"] == kind
          and ("block" not in cond or int(h["block"]) == int(cond["block"]))
          and ("warp" not in cond or int(h["warp"]) == int(cond["warp"]))]
    if not hs:
        problems.append("no %s at %s" % (kind, where)); continue
    if "lanes" in cond:
        got = 0
        for h in hs: got |= lanes(h["lanes"])
        if got != int(cond["lanes"], 16): problems.append("%s at %s: lanes 0x%08x" % (kind, where, got))
print("result %s; hazards %s" % (text, ",".join(sorted(kinds)) or "none"))
for p in problems: print("PROBLEM: " + p)
sys.exit(1 if problems else 0)
PY

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
pending_reason() { grep -E "^$1:" "$corpus/pending.txt" 2>/dev/null | head -1 | cut -d: -f2- | sed 's/^ //'; }

passed=0 failed=0 pending=0
declare -A lines_of=() passes_of=()
# every corpus file has a manifest line, every manifest file exists
for f in "$corpus"/*.cu; do
    grep -qE "^$(basename "$f") \|" "$corpus/manifest.txt" || { echo "FAIL: $(basename "$f") has no line in manifest.txt"; failed=$((failed + 1)); }
done

while IFS= read -r line; do
    case $line in '' | '#'*) continue ;; esac
    IFS='|' read -r file flags _type want_exit want_result want_hazards want_at _ <<<"$line"
    file=$(trim "$file"); flags=$(trim "$flags")
    want_exit=$(trim "${want_exit#*exit=}"); want_result=$(trim "${want_result#*result=}")
    want_hazards=$(trim "${want_hazards#*hazards=}"); want_at=$(trim "${want_at#*at=}")
    what="$file $flags"
    lines_of[$file]=$(( ${lines_of[$file]:-0} + 1 ))
    if [ ! -f "$corpus/$file" ]; then echo "FAIL: $what: no such corpus file"; failed=$((failed + 1)); continue; fi
    read -ra args <<<"$flags"
    rm -f "$tmp/r.json"
    timeout 300 "$RLAB" run "$corpus/$file" "${args[@]}" --backend cpu --format json -o "$tmp/r.json" </dev/null >"$tmp/out" 2>"$tmp/err"
    code=$?
    problems=()
    [ "$code" -eq "$want_exit" ] || problems+=("exit $code, expected $want_exit")
    summary=""
    if [ "$want_result" = error ]; then
        # A run that must give no trace, only a line (bad input: a program that never launches): its words are the
        # manifest's `where:` text.
        want_line=$(sed -n 's/.*| where: //p' <<<"$line")
        grep -qF -- "$want_line" "$tmp/err" || problems+=("stderr lacks \"$want_line\": $(head -c 200 "$tmp/err")")
        [ ! -s "$tmp/r.json" ] || problems+=("a trace was written")
    elif [ "$want_result" = none ]; then
        grep -qE "step budget|did not finish" "$tmp/err" ||
            problems+=("no step budget or time limit named on stderr: $(head -c 160 "$tmp/err")")
    elif [ -s "$tmp/r.json" ]; then
        summary=$(python3 "$tmp/check.py" "$tmp/r.json" "$want_result" "$want_hazards" "$want_at" </dev/null)
        while IFS= read -r p; do problems+=("${p#PROBLEM: }"); done < <(grep "^PROBLEM: " <<<"$summary")
        summary=$(head -1 <<<"$summary")
    else
        problems+=("no trace written")
    fi
    reason=$(pending_reason "$file")
    if [ "${#problems[@]}" -eq 0 ]; then
        passed=$((passed + 1)); passes_of[$file]=$(( ${passes_of[$file]:-0} + 1 ))
        echo "ok: $what ($summary)"
    elif [ -n "$reason" ]; then
        pending=$((pending + 1))
        echo "PENDING: $what: $(IFS=';'; echo "${problems[*]}") — pending.txt: $reason"
    else
        failed=$((failed + 1))
        echo "FAIL: $what: $(IFS=';'; echo "${problems[*]}")"
        sed 's/^/  | /' "$tmp/err" | head -5
    fi
done <"$corpus/manifest.txt"

# pending.txt stays honest: every file it names is in the manifest and still fails somewhere
while IFS= read -r entry; do
    case $entry in '' | '#'*) continue ;; esac
    f=${entry%%:*}
    if [ -z "${lines_of[$f]:-}" ]; then echo "FAIL: pending.txt names $f, which has no manifest line"; failed=$((failed + 1))
    elif [ "${passes_of[$f]:-0}" -eq "${lines_of[$f]}" ]; then
        echo "FAIL: $f passes every manifest line now: take it off tests/cuda/corpus/pending.txt"; failed=$((failed + 1))
    fi
done <"$corpus/pending.txt"

echo "plain-CUDA corpus: $passed passed, $pending pending, $failed failed"
[ "$failed" -eq 0 ] || exit 1
exit 0
