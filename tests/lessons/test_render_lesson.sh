#!/usr/bin/env bash
# tests/lessons/test_render_lesson.sh RLAB LESSONS — `rlab render --lesson NAME --step K`: the lesson's step K drawn
# without a window (the book's first level here). A build without RLAB_GUI has no render command: exit 77, which
# CTest reports as skipped with this reason.
set -u
RLAB="$1"; LESSONS="$2"
if ! "$RLAB" --help | grep -qE "^ +render "; then
  echo "SKIPPED: rlab render --lesson: this rlab is built without RLAB_GUI (no render command)"
  exit 77
fi
source "$(dirname "$0")/../support/expect.sh"

expect 0 "render a lesson step" -- env RLAB_LESSONS_DIR="$LESSONS" "$RLAB" render --lesson eight-threads --step 1 \
    --png "$tmp/step.png" --dump-scene "$tmp/step.json"
[ -s "$tmp/step.png" ] || { echo "FAIL: render --lesson wrote no PNG"; fails=$((fails + 1)); }
for v in '"3"' '"7"' '"11"' '"15"'; do grep -q "$v" "$tmp/step.json" || { echo "FAIL: the scene lacks $v"; fails=$((fails + 1)); }; done
expect 2 "render a step the lesson does not have" -- env RLAB_LESSONS_DIR="$LESSONS" "$RLAB" render --lesson eight-threads --step 99 --png "$tmp/x.png"
contains err "has steps 0 to" "the steps it has"
expect 2 "render an unknown lesson" -- env RLAB_LESSONS_DIR="$LESSONS" "$RLAB" render --lesson no-such-lesson --png "$tmp/x.png"
finish "render --lesson"
