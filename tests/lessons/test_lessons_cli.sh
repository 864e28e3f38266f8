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

finish "lessons command"
