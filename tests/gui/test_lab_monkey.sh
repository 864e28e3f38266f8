#!/usr/bin/env bash
# tests/gui/test_lab_monkey.sh — the lab bench itself (GLFW window, Dear ImGui panels) under random use:
# reduction-lab --monkey SEED:COUNT feeds COUNT random keys, clicks, drags, wheel turns, typed text, resizes,
# schedule changes and lesson switches through ImGui's IO; it must end with exit 0 (no crash, no sanitizer
# report: the sanitizer build aborts on the first), report every event fed and every kind used, no frame over a
# second, and the lab's state invariants held after every frame.
# Usage: test_lab_monkey.sh XVFB_RUN REDUCTION_LAB [SEED:COUNT] (RLAB_MONKEY overrides the default).
set -u
XVFB="$1"; LAB="$2"
# Without xvfb-run (CMake then passes XVFB_RUN-NOTFOUND) there is no display to open the window on.
if ! command -v "$XVFB" >/dev/null 2>&1; then
  echo "SKIPPED: xvfb-run not found ($XVFB; Debian package xvfb): the lab bench has no display to open on"; exit 77
fi
SPEC="${3:-${RLAB_MONKEY:-19:1500}}"  # 1,500 events: 30-40 s on CI's 2 cores, where the GUI tests take the display in turn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/config"  # the lab bench remembers lessons and windows: not in the user's settings
fails=0
start=$SECONDS
# RLAB_MONKEY_LAUNCH: words put before the lab bench (the sanitizer build preloads Mesa's driver: tests/CMakeLists.txt).
# shellcheck disable=SC2086
timeout 900 "$XVFB" -a -s "-screen 0 1600x900x24" ${RLAB_MONKEY_LAUNCH:-} "$LAB" --backend cpu --monkey "$SPEC" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
echo "lab monkey: $SPEC in $((SECONDS - start)) s, exit $rc"
[ "$rc" -eq 0 ] || { echo "FAIL: --monkey $SPEC exit $rc"; tail -40 "$tmp/err"; fails=$((fails + 1)); }
grep -q "AddressSanitizer\|runtime error\|LeakSanitizer" "$tmp/err" && { echo "FAIL: a sanitizer report"; fails=$((fails + 1)); }
count=${SPEC#*:}
grep -q "monkey: $count events (" "$tmp/out" || { echo "FAIL: not all $count events were fed"; fails=$((fails + 1)); }
for kind in keys clicks drags "wheel turns" "typed characters" resizes "schedule changes" "lesson switches"; do
  grep -qE "[1-9][0-9]* $kind" "$tmp/out" || { echo "FAIL: no $kind among the events"; fails=$((fails + 1)); }
done
grep -q "slowest frame" "$tmp/out" || { echo "FAIL: no slowest frame reported"; fails=$((fails + 1)); }
# After every frame the lab's state was checked (app/lab/state_invariants.h): the trace a fresh emulation of the
# schedule shown, the cursor, selection and cone, text size and view in range; the first broken one is on stderr.
grep -qE "the state's invariants held after all [1-9][0-9]* frames \([1-9][0-9]* fresh emulations" "$tmp/out" ||
  { echo "FAIL: the state's invariants were not all held"; grep "invariant" "$tmp/err"; fails=$((fails + 1)); }
# A malformed --monkey is one line and exit 2, before any window opens.
"$LAB" --monkey 19 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "SEED:COUNT" "$tmp/err" ||
  { echo "FAIL: --monkey 19: exit $rc, $(cat "$tmp/err")"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] && echo "lab monkey: all passed"
exit $((fails > 0))
