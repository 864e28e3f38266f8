#!/usr/bin/env bash
# Runs Reduction Lab on the eight-thread lesson: installs what it needs, builds, launches the lab
# bench (reduction-lab --lesson eight-threads); without a display it prints the example in the terminal with rlab.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
lab=build/default/app/imgui/reduction-lab
if [ -x "$lab" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  if [ "$#" -eq 0 ]; then set -- --lesson eight-threads; fi
  exec "$lab" "$@"
fi
[ -x "$lab" ] && echo "(no display: showing the example in the terminal; run $lab on a desktop)"
exec build/default/app/cli/rlab "$@"
