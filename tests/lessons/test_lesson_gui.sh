#!/usr/bin/env bash
# tests/lessons/test_lesson_gui.sh — reduction-lab --lesson NAME --step K opens the lesson's step K and saves a
# screenshot (under xvfb-run); an unknown lesson exits 2 with one line.
set -u
XVFB="$1"; LAB="$2"
# Without xvfb-run (CMake then passes XVFB_RUN_LESSONS-NOTFOUND) there is no display to open the window on.
if ! command -v "$XVFB" >/dev/null 2>&1; then
  echo "SKIPPED: xvfb-run not found ($XVFB; Debian package xvfb): the lab bench has no display to open on"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
"$XVFB" -a -s "-screen 0 1600x900x24" "$LAB" --backend cpu --lesson eight-threads --step 2 --quit --screenshot "$tmp/l.png" \
    --dump-scene "$tmp/scene.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: --lesson eight-threads --step 2 exit $rc"; cat "$tmp/err"; fails=$((fails + 1)); }
[ -s "$tmp/l.png" ] || { echo "FAIL: no screenshot"; fails=$((fails + 1)); }
# Lesson step 2 (0-based) is the book's tree at its second level (1+2+3+4, 5+6+7+8): trace step 3.
grep -q "step 3)" "$tmp/err" || { echo "FAIL: the window did not open at trace step 3"; cat "$tmp/err"; fails=$((fails + 1)); }
grep -q '"26"' "$tmp/scene.json" || { echo "FAIL: the scene lacks the level-2 value 26"; fails=$((fails + 1)); }
"$XVFB" -a -s "-screen 0 640x480x24" "$LAB" --lesson no-such-lesson --quit >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: unknown lesson: exit $rc, expected 2"; fails=$((fails + 1)); }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: unknown lesson: not one line"; cat "$tmp/err"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] && echo "lesson GUI: all passed"
exit $((fails > 0))
