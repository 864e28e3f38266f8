#!/usr/bin/env bash
# tests/qt/run_except.sh EXE FUNCTION... — runs a Qt Test executable's every test function but the ones named, which
# CTest runs as tests of their own (they may QSKIP; tests/qt/CMakeLists.txt). A name the executable does not have is
# an error, so a renamed function cannot silently drop out of both runs.
set -u
exe=$1
shift
mapfile -t all < <("$exe" -functions | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)()$/\1/p')
[ "${#all[@]}" -gt 0 ] || { echo "run_except.sh: $exe -functions listed no test function"; exit 1; }
for x in "$@"; do
    printf '%s\n' "${all[@]}" | grep -qx "$x" || { echo "run_except.sh: $exe has no test function $x"; exit 1; }
done
run=()
for f in "${all[@]}"; do
    keep=1
    for x in "$@"; do [ "$f" = "$x" ] && keep=0; done
    [ "$keep" -eq 1 ] && run+=("$f")
done
exec "$exe" "${run[@]}"
