#!/usr/bin/env bash
# tests/cli/test_hostile.sh — issue 19's findings, one regression each: malformed, hostile or huge input and
# failed output must end in exit 2 with one line on stderr (never a crash, hang or silent exit 0).
# Usage: test_hostile.sh RLAB [DATA_DIR]. Every command runs under a timeout: a hang is a failure (exit 124).
set -u
RLAB="$1"
DATA="${2:-$(dirname "$0")/../data/hostile}"
source "$(dirname "$0")/../support/expect.sh"
T="timeout 60"

refused() {  # refused PATTERN DESCRIPTION -- command...: exit 2, one line on stderr, naming PATTERN
    local pattern=$1 what=$2; shift 3
    expect 2 "$what" -- $T "$@"
    one_line_error "$what"
    contains err "$pattern" "$what"
}

# ---- trace JSON: geometry, operands, nesting, size, special files ----
refused "step" "event step 65535 (the render overflow)" -- "$RLAB" import "$DATA/trace-step-65535.json"
refused "step_count" "event step past step_count" -- "$RLAB" import "$DATA/trace-step-past-count.json"
refused "event 20 names itself" "operand pointing to its own event" -- "$RLAB" import "$DATA/trace-dep-self.json"
refused "DAG" "operands forming a cycle" -- "$RLAB" import "$DATA/trace-dep-cycle.json"
refused "event 20 operand 32 points to a later event" "operand pointing to a later event" -- "$RLAB" import "$DATA/trace-dep-forward.json"
refused "the grid has 1 blocks" "block past the grid" -- "$RLAB" import "$DATA/trace-block-past-grid.json"
refused "block of 8 threads" "lane past the block" -- "$RLAB" import "$DATA/trace-thread-past-block.json"
refused "outside the launch" "hazard outside the launch" -- "$RLAB" import "$DATA/trace-hazard-outside.json"
refused "launches 1 blocks" "grid unlike the schedule's" -- "$RLAB" import "$DATA/trace-grid-mismatch.json"
refused "every event or on none" "timestamps on some events only" -- "$RLAB" import "$DATA/trace-times-partial.json"
refused "operand" "check --trace: operand cycle" -- "$RLAB" check --trace "$DATA/trace-dep-cycle.json"
python3 - "$DATA/trace-step-65535.json" "$tmp/deep.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
deep = "[" * 50000 + "]" * 50000          # schedule.bug nested 50,000 arrays deep
open(sys.argv[2], "w").write(text.replace('"bug":[]', '"bug":' + deep, 1))
PY
refused "nested deeper than 64" "schedule.bug nested 50,000 deep" -- "$RLAB" import "$tmp/deep.json"
mkdir -p "$tmp/folder.json"
refused "is a folder" "import a folder" -- "$RLAB" import "$tmp/folder.json"
refused "not a regular file" "import /dev/zero" -- "$RLAB" import /dev/zero
python3 -c "
import sys
with open('$tmp/empty-events.json', 'w') as f:
    f.write('{\"version\": 1, \"events\": [')
    f.write(','.join(['{}'] * 4000000))
    f.write(']}')"
refused "event 0 has no" "30 MB of empty events (streamed: fails at the first)" -- "$RLAB" import "$tmp/empty-events.json"
if "$RLAB" --help 2>/dev/null | grep -q "^  render"; then  # rlab render is built with the GUI
    refused "step" "render --trace with event step 65535" -- "$RLAB" render --trace "$DATA/trace-step-65535.json" --png "$tmp/x.png"
    refused "font-scale" "render --font-scale nan" -- "$RLAB" render --n 8 --block 8 --font-scale nan --png "$tmp/x.png"
    refused "font-scale" "render --font-scale -5" -- "$RLAB" render --n 8 --block 8 --font-scale -5 --png "$tmp/x.png"
    refused "font-scale" "render --font-scale 0" -- "$RLAB" render --n 8 --block 8 --font-scale 0 --png "$tmp/x.png"
    refused "size" "render --size 640x480junk" -- "$RLAB" render --n 8 --block 8 --size 640x480junk --png "$tmp/x.png"
    refused "size" "render --size 65535x65535" -- "$RLAB" render --n 8 --block 8 --size 65535x65535 --png "$tmp/x.png"
    refused "No space left" "render --png /dev/full" -- "$RLAB" render --n 8 --block 8 --png /dev/full
fi

# ---- lessons: nesting, special files, sizes, type errors ----
mkdir -p "$tmp/lessons"
cp "$(dirname "$0")/../../lessons/eight-threads.toml" "$tmp/lessons/"
python3 -c "
open('$tmp/lessons/deep-key.toml', 'w').write('title = \"x\"\n' + '.'.join(['a'] * 20000) + ' = 1\n')
open('$tmp/lessons/deep-header.toml', 'w').write('title = \"x\"\n[' + '.'.join(['a'] * 20000) + ']\n')
open('$tmp/lessons/deep-array.toml', 'w').write('title = \"x\"\nv = ' + '[' * 20000 + ']' * 20000 + '\n')"
ln -s /dev/zero "$tmp/lessons/zero.toml"
expect 2 "lessons with malformed files: the others still listed" -- $T "$RLAB" lessons --dir "$tmp/lessons"
contains out "eight-threads" "the good lesson is listed beside the malformed ones"
contains err "deep-key.toml.*nested deeper than 32" "a deep dotted key is refused"
contains err "deep-header.toml.*nested deeper than 32" "a deep table header is refused"
contains err "deep-array.toml.*nested deeper than 32" "a deep inline array is refused"
contains err "zero.toml.*not a regular file" "a lesson linked to /dev/zero is refused"
mkdir -p "$tmp/l2"
cp "$DATA/lesson-200-steps.toml" "$DATA/lesson-big-n.toml" "$DATA/lesson-n-true.toml" "$DATA/lesson-n-table.toml" "$tmp/l2/"
expect 2 "lessons --check with oversized lessons" -- $T "$RLAB" lessons --check --dir "$tmp/l2"
contains err "200 steps: a lesson has at most 64" "200 steps refused before playing"
contains err "over the 1048576 elements a lesson step may show" "n = 5,000,000 refused"
contains err "lesson-n-true.toml.*expected a whole number" "n = true says what was expected"
contains err "lesson-n-table.toml.*expected a whole number" "n = {table} says what was expected"
if grep -q "expected *$" "$tmp/err"; then echo "FAIL: a lesson error ends in 'expected'"; fails=$((fails + 1)); fi

# ---- bench JSON ----
refused "not a regular file" "bench --recorded --file /dev/zero" -- "$RLAB" bench --recorded --file /dev/zero
python3 -c "open('$tmp/deep-bench.json', 'w').write('{\"results\": ' + '[' * 50000 + ']' * 50000 + '}')"
refused "nested deeper than 64" "bench JSON nested 50,000 deep" -- "$RLAB" bench --recorded --file "$tmp/deep-bench.json"
refused "sizes" "bench --sizes 1:30:2147483647 (signed overflow)" -- "$RLAB" bench --sizes 1:30:2147483647
refused "sizes" "bench --sizes 1:2147483647:1 (refused at once)" -- "$RLAB" bench --sizes 1:2147483647:1
refused "sizes" "bench --sizes 99999999999999999999" -- "$RLAB" bench --sizes 99999999999999999999

# ---- the exact reference: linear with infinities, the IEEE result on overflow ----
expect 0 "depth with f16 inputs overflowing to infinity finishes" -- $T "$RLAB" depth --backend cpu --n 400000 --block 256 --type f16
expect 0 "f64 sum overflowing to +inf, as the tree does" -- $T "$RLAB" check --backend cpu --type f64 --input 1e308,1e308,1e308 --block 32
contains out "reference *inf" "the reference is +inf"
contains out "verdict *exact" "the tree's +inf is the IEEE result"
if grep -q "nan" "$tmp/out"; then echo "FAIL: the overflow reference prints nan"; fails=$((fails + 1)); fi

# ---- check --runs: bounded, progress, Ctrl-C ----
refused "expected 1 to 10000" "check --runs 100000" -- "$RLAB" check --backend cpu --n 8 --block 8 --runs 100000
refused "limits.md" "check --runs x --n over the limit" -- "$RLAB" check --backend cpu --n 1000000 --block 256 --runs 5000
"$RLAB" check --backend cpu --n 100000 --block 256 --grid-stage atomic-element --runs 9000 >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
code=$?
[ "$code" -eq 130 ] || { echo "FAIL: Ctrl-C on check --runs: exit $code, expected 130"; fails=$((fails + 1)); }
contains err "interrupted after" "Ctrl-C reports the runs done"
contains err "rlab check: run " "check --runs shows its progress"
contains out "runs on" "the summary of the runs done is printed"

# ---- one-line errors ----
refused "--n 8\\\\n" "a value with a newline is echoed as one line" -- "$RLAB" depth --backend cpu --n $'8\n' --block 8
refused "runs reports in text" "--backend auto: the no-GPU note does not precede an error" -- \
    "$RLAB" check --backend auto --n 8 --block 8 --runs 2 --format json

# ---- every write checked ----
refused "No space left" "trace -o /dev/full" -- "$RLAB" trace --backend cpu --n 8 --block 8 --format json -o /dev/full
for cmd in "depth --backend cpu --n 8 --block 8" "check --backend cpu --n 8 --block 8" "import $DATA/../gpu-corpus/single-block.json" \
           "lessons" "trace --backend cpu --n 8 --block 8" "numerics --backend cpu --n 1000" ""; do
    expect 2 "rlab $cmd > /dev/full" -- bash -c "$RLAB $cmd >/dev/full"
    one_line_error "rlab $cmd > /dev/full"
    contains err "standard output" "rlab $cmd > /dev/full says so"
    expect 2 "rlab $cmd with standard output closed" -- bash -c "$RLAB $cmd >&-"
    contains err "standard output" "rlab $cmd with standard output closed says so"
done
# A write that fails part-way (a file-size limit standing in for a full disk) leaves no file behind.
expect 2 "trace -o past a file-size limit" -- bash -c "trap '' XFSZ; ulimit -f 8; exec $RLAB trace --backend cpu --n 20000 --block 256 --format json -o $tmp/cut.json"
one_line_error "trace -o past a file-size limit"
if ls "$tmp"/cut.json* >/dev/null 2>&1; then echo "FAIL: a truncated trace (or its temporary) was left"; fails=$((fails + 1)); fi
expect 0 "trace -o writes the whole file" -- "$RLAB" trace --backend cpu --n 20000 --block 256 --format json -o "$tmp/whole.json"
expect 0 "and it reads back" -- "$RLAB" import "$tmp/whole.json"

finish "hostile input"
