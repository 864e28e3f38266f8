#!/usr/bin/env bash
# tests/lessons/test_lessons_cli.sh — `rlab lessons [--check]`: the list, exit 0 on the real lessons,
# 1 when an expectation fails, 2 for a malformed file (which still lets the others be checked).
set -u
RLAB="$1"; LESSONS="$2"
source "$(dirname "$0")/../support/expect.sh"

expect 0 "list the lessons" -- env RLAB_LESSONS_DIR="$LESSONS" "$RLAB" lessons
contains out "eight-threads" "list names eight-threads"
contains out "steps" "list gives step counts"
expect 0 "the real lessons all check" -- env RLAB_LESSONS_DIR="$LESSONS" "$RLAB" lessons --check
contains out "0 failure(s)" "check summary"
expect 0 "found from the executable's location" -- "$RLAB" lessons --check --lesson eight-threads

# The course order (lessons/course.txt): eight-threads first, and each lesson names the next.
expect 0 "list in course order" -- env RLAB_LESSONS_DIR="$LESSONS" "$RLAB" lessons
first=$(head -1 "$tmp/out" | cut -d' ' -f1)
[ "$first" = "eight-threads" ] || { echo "FAIL: the list starts with '$first', not eight-threads"; fails=$((fails + 1)); }
second=$(grep -v '^#' "$LESSONS/course.txt" | grep -v '^ *$' | sed -n 2p)
expect 0 "show names the next lesson" -- "$RLAB" lessons --dir "$LESSONS" --show eight-threads
contains out "Next lesson: $second" "the next lesson is the course's second"

# Knowledge checks in the terminal, answers scripted on stdin: by number, by text, a reply naming no choice.
printf '2\n' >"$tmp/right"
expect 0 "quiz: the right choice by number" -- sh -c "\"$RLAB\" lessons --dir \"$LESSONS\" --quiz eight-threads <\"$tmp/right\""
contains out "Right. Every value but one must be added once" "graded right, with the explanation"
contains out "1 of 1 graded answer(s) right" "the score"
printf '9\nfewer\n' >"$tmp/wrong"
expect 0 "quiz: a reply naming no choice, then a wrong choice by text" -- sh -c "\"$RLAB\" lessons --dir \"$LESSONS\" --quiz eight-threads <\"$tmp/wrong\""
contains out '"9" names no choice' "asked again"
contains out 'Not quite: the answer is "the same number". Every value but one' "graded wrong, with the answer and explanation"
contains out "0 of 1 graded answer(s) right" "the score counts it wrong"
printf '\n\n\n\n' >"$tmp/open"
expect 0 "quiz: open questions give the model answer" -- sh -c "\"$RLAB\" lessons --dir \"$LESSONS\" --quiz knowledge-check <\"$tmp/open\""
contains out "Model answer: Atomics to one address serialise" "model answer on request"
contains out '"" names no choice' "an empty reply to a choice question is asked again (the quiz ends with the input)"
expect 2 "quiz: no such lesson" -- "$RLAB" lessons --dir "$LESSONS" --quiz no-such-lesson

mkdir "$tmp/l"
cat >"$tmp/l/good.toml" <<'T'
title = "good"
[schedule]
n = 8
block = 8
[[step]]
text = "depth {span}"
expect = { span = "tree_depth" }
T
cat >"$tmp/l/failing.toml" <<'T'
title = "failing"
[schedule]
n = 8
block = 8
[[step]]
text = "depth {span}"
expect = { span = "serial_depth" }
T
expect 1 "a failing expectation exits 1" -- "$RLAB" lessons --check --dir "$tmp/l"
contains out "failing.toml:7:12: step 1: span is 3, but the lesson expects it equal to serial_depth (7)" "failure in plain language"
contains out "ok   good" "the good lesson is still checked"
printf 'title = "bad"\n[schedule]\nn = 8\nwarp = "shfl-up"\n[[step]]\ntext = "x"\n' >"$tmp/l/bad.toml"
expect 2 "a malformed lesson exits 2" -- "$RLAB" lessons --check --dir "$tmp/l"
contains err "bad.toml:4:8: --warp shfl-up" "malformed: file:line:column and the field"
contains out "ok   good" "the others are still checked"
expect 2 "no such folder" -- "$RLAB" lessons --dir "$tmp/none"

# --record: each step's trace with device and date (the emulator here; --backend cuda on a GPU), then --check
# plays the recordings against the expectations as well.
mkdir "$tmp/r"
cp "$LESSONS/eight-threads.toml" "$tmp/r/"
expect 0 "record a lesson's steps" -- "$RLAB" lessons --dir "$tmp/r" --record "$tmp/r/recorded"
contains out "eight-threads step 1: recorded on CPU SIMT emulator" "each step recorded, with the device"
[ -s "$tmp/r/recorded/eight-threads/step-1.json" ] || { echo "FAIL: no step-1.json"; fails=$((fails + 1)); }
grep -q "^date: 20" "$tmp/r/recorded/eight-threads/recorded.txt" || { echo "FAIL: recorded.txt has no date"; fails=$((fails + 1)); }
contains out "eight-threads step 3: the schedule of step 2, whose recording it plays" "a repeated schedule is written once"
[ -e "$tmp/r/recorded/eight-threads/step-3.json" ] && { echo "FAIL: step-3.json repeats step 2's schedule"; fails=$((fails + 1)); }
expect 0 "check plays the recordings" -- "$RLAB" lessons --dir "$tmp/r" --check
contains out "7 step(s) recorded on CPU SIMT emulator" "the recordings checked, labelled, a repeated schedule's step included"
# Committed recordings are gzip-compressed (step-K.json.gz): read the same, and a broken one is named.
gzip -9 "$tmp/r/recorded/eight-threads/step-1.json"
expect 0 "check reads a gzip-compressed recording" -- "$RLAB" lessons --dir "$tmp/r" --check
contains out "7 step(s) recorded on CPU SIMT emulator" "the compressed step still counted"
expect 0 "import reads a gzip-compressed trace" -- "$RLAB" import "$tmp/r/recorded/eight-threads/step-1.json.gz"
head -c 300 "$tmp/r/recorded/eight-threads/step-1.json.gz" >"$tmp/cut.json.gz"
expect 2 "a truncated gzip trace is an error" -- "$RLAB" import "$tmp/cut.json.gz"
contains err "cut.json.gz" "the file named"
# Recordings are read one step at a time when their step is checked: a broken one is one line naming the file and
# the step, and the other steps' recordings are still checked.
head -c 400 "$tmp/r/recorded/eight-threads/step-6.json" >"$tmp/cut6.json"
cp "$tmp/r/recorded/eight-threads/step-6.json" "$tmp/good6.json"
mv "$tmp/cut6.json" "$tmp/r/recorded/eight-threads/step-6.json"
expect 1 "a recording that does not read fails the check" -- "$RLAB" lessons --dir "$tmp/r" --check
contains out "step-6.json: step 6's recording does not read: " "names the file and the step"
contains out "6 step(s) recorded on CPU SIMT emulator" "the other steps' recordings still checked"
mv "$tmp/good6.json" "$tmp/r/recorded/eight-threads/step-6.json"
python3 - "$tmp/r/recorded/eight-threads/step-2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["schedule"]["seed"] = 99; json.dump(d, open(sys.argv[1], "w"))
PY
expect 1 "a recording of another schedule fails the check" -- "$RLAB" lessons --dir "$tmp/r" --check
contains out "step-2.json: recorded for" "names the file and the schedules"
expect 0 "steps over --max-events are left out" -- "$RLAB" lessons --dir "$tmp/r" --record "$tmp/r/small" --max-events 30
contains out "not recorded (" "the reason"

# A course file naming a lesson that does not exist, or leaving one out, is an error with file:line.
mkdir "$tmp/c"
cp "$tmp/l/good.toml" "$tmp/l/failing.toml" "$tmp/c/"
printf '# order\ngood\nmissing\n' >"$tmp/c/course.txt"
expect 2 "a course naming no file, and a lesson left out" -- "$RLAB" lessons --check --dir "$tmp/c"
contains err "course.txt:3:1: no lesson file missing.toml" "the missing lesson, with its line"
contains err "failing.toml: not in the course" "the lesson left out"
printf 'failing\ngood\n' >"$tmp/c/course.txt"
expect 0 "the course decides the order" -- "$RLAB" lessons --dir "$tmp/c"
[ "$(head -1 "$tmp/out" | cut -d' ' -f1)" = "failing" ] || { echo "FAIL: not listed in course order"; fails=$((fails + 1)); }

finish "lessons command"
