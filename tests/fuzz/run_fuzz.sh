#!/usr/bin/env bash
# tests/fuzz/run_fuzz.sh TARGET SECONDS SEED... — runs a libFuzzer target over its seeds (files or folders):
# SECONDS 0 runs each seed once (the regression test); otherwise it fuzzes for SECONDS from a copy of the
# seeds. A crash, leak, timeout or sanitizer report fails, and the input that caused it is printed and kept
# in $RLAB_FUZZ_ARTIFACTS (default: a temporary folder) to be committed under tests/data/fuzz/<parser>/.
set -u
target=$1 seconds=$2
shift 2
name=$(basename "$target")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
artifacts=${RLAB_FUZZ_ARTIFACTS:-$work/artifacts}
mkdir -p "$artifacts" "$work/corpus"
files=()
for s in "$@"; do
    if [ -d "$s" ]; then
        while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$s" -maxdepth 1 -type f ! -name '*.md' -print0)
    elif [ -f "$s" ]; then files+=("$s"); fi
done
[ ${#files[@]} -gt 0 ] || { echo "$name: no seeds found in $*"; exit 1; }
common=(-rss_limit_mb=2048 -timeout=20 -max_len=262144 "-artifact_prefix=$artifacts/$name-")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$seconds" = 0 ]; then
    "$target" "${common[@]}" -runs=1 "${files[@]}" >"$work/log" 2>&1
else
    cp "${files[@]}" "$work/corpus/" 2>/dev/null
    "$target" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 "$work/corpus" >"$work/log" 2>&1
fi
code=$?
if [ $code -ne 0 ]; then
    echo "$name: FAILED (exit $code)"
    grep -E "ERROR|SUMMARY|runtime error|Test unit written|deadly signal" "$work/log" | head -20
    ls "$artifacts"/"$name"-* 2>/dev/null | sed 's/^/  input kept: /'
    exit 1
fi
if [ "$seconds" = 0 ]; then
    echo "$name: ${#files[@]} seed and regression inputs, no finding"
else
    echo "$name: $(grep -oE 'stat::number_of_executed_units: [0-9]+' "$work/log" | grep -oE '[0-9]+$') runs in ${seconds}s," \
         "$(grep -oE 'cov: [0-9]+' "$work/log" | tail -1), no finding"
fi
