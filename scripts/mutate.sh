#!/usr/bin/env bash
# scripts/mutate.sh — mutation testing: plants each mutant of tests/mutants/ (a small patch, a realistic bug), builds
# incrementally, runs the tests that should notice, and says whether any failed (docs/mutation.md).
#
#   scripts/mutate.sh [options] [MUTANT...]     MUTANT: a name (checker-barrier-missing) or a .patch path; default all
#     --in-place         mutate this checkout itself (a clean clone, as in CI) instead of a git worktree of HEAD
#     --tree DIR         the worktree to mutate (default build/mutants/tree; made and moved to HEAD as needed)
#     --build-dir DIR    the build folder (default: TREE/build/mutants, configured as preset "mutants":
#                        Debug -O1, no GUI, no CUDA, no unity build, so a mutated file recompiles alone)
#     --sample K         only K mutants, picked by the day of the year (--day N overrides): a rotation through the list
#                        of those not in tests/mutants/gaps.txt (known survivors, each with the test it needs)
#     --report FILE      also write the result as Markdown
#     --no-fallback      a mutant that no targeted test kills survives at once (default: the wider set runs first)
#     --no-restore       --in-place: leave the build holding the last mutant's objects (CI, at the very end)
#     --jobs N           build and test jobs (default nproc)
#     --list             print each mutant's area, name and what it breaks, and exit
#
# Each patch starts with a preamble that git apply skips:
#   Mutant-Area: checker              the table's row
#   Mutant-Breaks: one line           what the planted bug does
#   Mutant-Targets: rlab_core_tests   ninja targets to rebuild before the targeted tests
#   Mutant-Tests: REGEX               ctest -R: the tests expected to fail
# A mutant is STALE when it no longer applies to the tree (exit 2: update the patch), KILLED by the first failing
# test (or by the compiler, counted apart), else the wider set (every CPU test: ctest -LE gpu|gui|nvcc after a full
# build) runs; SURVIVED when nothing fails, unless tests/mutants/equivalent.txt lists it ("NAME: reason").
# Exit status: 0 every mutant killed or equivalent, 1 a survivor, 2 a stale mutant or a harness error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mutants_dir=$root/tests/mutants
in_place=0 tree="" build="" sample=0 day="" report="" fallback=1 restore=1 jobs=$(nproc) list=0
names=()
while [ $# -gt 0 ]; do
    case $1 in
        --in-place) in_place=1 ;;
        --tree) tree=$2; shift ;;
        --build-dir) build=$2; shift ;;
        --sample) sample=$2; shift ;;
        --day) day=$2; shift ;;
        --report) report=$2; shift ;;
        --no-fallback) fallback=0 ;;
        --no-restore) restore=0 ;;
        --jobs) jobs=$2; shift ;;
        --list) list=1 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "mutate.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) names+=("$1") ;;
    esac
    shift
done

field() { sed -n "s/^$2: *//p;/^diff --git/q" "$1" | head -1; }

# The mutants: named ones, or every patch in sorted order.
patches=()
if [ ${#names[@]} -gt 0 ]; then
    for n in "${names[@]}"; do
        p=$n
        [ -f "$p" ] || p=$mutants_dir/${n%.patch}.patch
        [ -f "$p" ] || { echo "mutate.sh: no mutant $n" >&2; exit 2; }
        patches+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
    done
else
    mapfile -t patches < <(ls "$mutants_dir"/*.patch 2>/dev/null | LC_ALL=C sort)
fi
[ ${#patches[@]} -gt 0 ] || { echo "mutate.sh: no mutants in $mutants_dir" >&2; exit 2; }
for p in "${patches[@]}"; do
    for f in Mutant-Area Mutant-Breaks Mutant-Targets Mutant-Tests; do
        [ -n "$(field "$p" "$f")" ] || { echo "mutate.sh: $(basename "$p") has no $f: line" >&2; exit 2; }
    done
done
if [ "$list" = 1 ]; then
    for p in "${patches[@]}"; do printf '%-10s %-40s %s\n' "$(field "$p" Mutant-Area)" "$(basename "$p" .patch)" "$(field "$p" Mutant-Breaks)"; done
    exit 0
fi
gap() { [ -f "$mutants_dir/gaps.txt" ] && grep -q "^$1:" "$mutants_dir/gaps.txt"; }
if [ "$sample" -gt 0 ]; then
    # The sample guards what the tests already catch: a mutant listed in gaps.txt (a known survivor, with the test it
    # needs) is left out of it, so that a day's sample fails only when a test stops catching what it caught. A full
    # run still runs the gaps and fails on them.
    kept=()
    for p in "${patches[@]}"; do gap "$(basename "$p" .patch)" || kept+=("$p"); done
    patches=("${kept[@]}")
fi
if [ "$sample" -gt 0 ] && [ "$sample" -lt ${#patches[@]} ]; then
    # A rotation: day d runs mutants d*K .. d*K+K-1 (mod the count), so consecutive days cover the whole list.
    d=${day:-$(date -u +%j)}
    d=$((10#$d))
    start=$(( (d * sample) % ${#patches[@]} ))
    picked=()
    for ((i = 0; i < sample; ++i)); do picked+=("${patches[$(( (start + i) % ${#patches[@]} ))]}"); done
    patches=("${picked[@]}")
fi

# The tree to mutate and its build folder.
if [ "$in_place" = 1 ]; then
    tree=$root
    if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
        echo "mutate.sh: --in-place needs a clean checkout (tracked files are modified)" >&2
        exit 2
    fi
else
    tree=${tree:-$root/build/mutants/tree}
    head=$(git -C "$root" rev-parse HEAD)
    if [ ! -e "$tree/.git" ]; then
        mkdir -p "$(dirname "$tree")"
        git -C "$root" worktree add --detach "$tree" "$head" >/dev/null || { echo "mutate.sh: cannot make the worktree $tree" >&2; exit 2; }
    else
        # The worktree is ours: an interrupted run may have left a mutant in it.
        git -C "$tree" checkout --quiet --force --detach "$head" || { echo "mutate.sh: cannot move $tree to HEAD" >&2; exit 2; }
    fi
fi
tree=$(cd "$tree" && pwd)
build=${build:-$tree/build/mutants}
case $build in /*) ;; *) build=$tree/$build ;; esac
commit=$(git -C "$tree" rev-parse --short HEAD)
if [ ! -f "$build/build.ninja" ]; then
    echo "== configuring $build (Debug -O1, no GUI, no CUDA, no unity build)"
    nice -n 15 cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g0" \
        -DRLAB_GUI=OFF -DRLAB_CUDA=OFF -DCMAKE_UNITY_BUILD=OFF >"$build.configure.log" 2>&1 ||
        { echo "mutate.sh: configure failed ($build.configure.log)" >&2; exit 2; }
fi
log_dir=$build/mutants-log
mkdir -p "$log_dir"
exec 9>"$build/.mutate.lock"
flock -n 9 || { echo "mutate.sh: another mutate.sh is using $build" >&2; exit 2; }
echo "== building the unmutated tree ($commit) in $build"
nice -n 15 ninja -C "$build" -j "$jobs" >"$log_dir/clean-build.txt" 2>&1 ||
    { echo "mutate.sh: the unmutated tree does not build ($log_dir/clean-build.txt)" >&2; exit 2; }

# The baseline: every CPU test on the unmutated tree. A test that already fails there proves nothing about a
# mutant; it is named here and left out of every run below (-E), and the run still reports on the rest.
echo "== baseline: the CPU tests on the unmutated tree"
nice -n 15 timeout 900 ctest --test-dir "$build" -j "$jobs" -LE '^(gpu|gui|nvcc)$' >"$log_dir/baseline.txt" 2>&1
mapfile -t broken < <(sed -n '/^The following tests FAILED:/,$ s/^[[:space:]]*[0-9]* - \(.*\) ([A-Za-z ]*)$/\1/p' "$log_dir/baseline.txt")
exclude=()
if [ ${#broken[@]} -gt 0 ]; then
    rx=""
    for b in "${broken[@]}"; do
        echo "mutate.sh: fails without any mutant, left out: $b" >&2
        rx+="${rx:+|}^$(printf '%s' "$b" | sed 's/[][\\.^$*+?(){}|/]/\\&/g')\$"
    done
    exclude=(-E "$rx")
fi

# The targets this build knows (a mutant may name a suite that an older tree does not have yet).
known_targets=$(ninja -C "$build" -t targets all 2>/dev/null | sed 's/:.*//')
only_known() { local t out=""; for t in $1; do grep -qxF "$t" <<<"$known_targets" && out+=" $t"; done; echo "$out"; }

applied=""
revert() {
    [ -n "$applied" ] || return 0
    git -C "$tree" apply -R "$applied" || { echo "mutate.sh: cannot revert $(basename "$applied"): the tree at $tree is left mutated" >&2; exit 2; }
    applied=""
}
trap 'revert; exit 2' INT TERM

# ctest's failures from its summary ("  12 - name (Failed)"), first one only.
first_failure() { sed -n '/^The following tests FAILED:/,$ s/^[[:space:]]*[0-9]* - \(.*\) ([A-Za-z ]*)$/\1/p' "$1" | head -1; }
run_ctest() {  # LOG ARGS...: 0 when a test failed (the mutant is killed)
    local log=$1; shift
    nice -n 15 timeout 900 ctest --test-dir "$build" -j "$jobs" --stop-on-failure -LE '^(gpu|gui|nvcc)$' "${exclude[@]}" "$@" >"$log" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && ! grep -q "No tests were found" "$log"
}

declare -A area_total area_tests area_compiler area_survived area_equiv area_stale
rows=() lines=() survivors=() stale=0 survived=0
equivalent_reason() { [ -f "$mutants_dir/equivalent.txt" ] && sed -n "s/^$1: *//p" "$mutants_dir/equivalent.txt" | head -1; }
t_all=$SECONDS
for p in "${patches[@]}"; do
    name=$(basename "$p" .patch) area=$(field "$p" Mutant-Area) breaks=$(field "$p" Mutant-Breaks)
    targets=$(only_known "$(field "$p" Mutant-Targets)") regex=$(field "$p" Mutant-Tests)
    area_total[$area]=$(( ${area_total[$area]:-0} + 1 ))
    t0=$SECONDS
    if ! git -C "$tree" apply --check "$p" 2>"$log_dir/$name.apply.txt"; then
        verdict="STALE" by="does not apply to $commit: $(head -1 "$log_dir/$name.apply.txt")"
        area_stale[$area]=$(( ${area_stale[$area]:-0} + 1 )); stale=$((stale + 1))
    else
        git -C "$tree" apply "$p" && applied=$p
        verdict="" by=""
        # shellcheck disable=SC2086
        if ! nice -n 15 ninja -C "$build" -j "$jobs" $targets >"$log_dir/$name.build.txt" 2>&1; then
            verdict="KILLED" by="the compiler"
            area_compiler[$area]=$(( ${area_compiler[$area]:-0} + 1 ))
        elif run_ctest "$log_dir/$name.tests.txt" -R "$regex"; then
            verdict="KILLED" by=$(first_failure "$log_dir/$name.tests.txt")
        elif [ "$fallback" = 1 ]; then
            if ! nice -n 15 ninja -C "$build" -j "$jobs" >>"$log_dir/$name.build.txt" 2>&1; then
                verdict="KILLED" by="the compiler"
                area_compiler[$area]=$(( ${area_compiler[$area]:-0} + 1 ))
            elif run_ctest "$log_dir/$name.wide.txt"; then
                verdict="KILLED" by="$(first_failure "$log_dir/$name.wide.txt") (wider set)"
            fi
        fi
        if [ "$verdict" = KILLED ] && [ "$by" != "the compiler" ]; then
            [ -n "$by" ] || by="a test (see $log_dir/$name.*.txt)"
            area_tests[$area]=$(( ${area_tests[$area]:-0} + 1 ))
        fi
        if [ -z "$verdict" ]; then
            reason=$(equivalent_reason "$name")
            if [ -n "$reason" ]; then
                verdict="EQUIVALENT" by=$reason
                area_equiv[$area]=$(( ${area_equiv[$area]:-0} + 1 ))
            else
                verdict="SURVIVED" by="no test failed"
                area_survived[$area]=$(( ${area_survived[$area]:-0} + 1 )); survived=$((survived + 1))
                survivors+=("$name")
            fi
        fi
        revert
    fi
    line=$(printf '%-10s %-44s %s (%d s)' "$verdict" "$name" "${by:+by $by}" $((SECONDS - t0)))
    [ "$verdict" = KILLED ] || line=$(printf '%-10s %-44s %s (%d s)' "$verdict" "$name" "$by" $((SECONDS - t0)))
    echo "$line"
    rows+=("| $name | $area | $verdict | ${by//|/\\|} | $breaks |")
done
if [ "$in_place" = 1 ] && [ "$restore" = 1 ]; then
    echo "== rebuilding the unmutated tree"
    nice -n 15 ninja -C "$build" -j "$jobs" >"$log_dir/restore-build.txt" 2>&1 || echo "mutate.sh: the rebuild after the mutants failed" >&2
fi

table=("| area | mutants | killed by a test | killed by the compiler | survived | equivalent | stale | kill ratio |"
       "|---|---|---|---|---|---|---|---|")
mapfile -t areas < <(printf '%s\n' "${!area_total[@]}" | LC_ALL=C sort)
sum() { local s=0 a; for a in "${areas[@]}"; do s=$((s + $(eval "echo \${$1[$a]:-0}"))); done; echo $s; }
ratio() { local k=$1 n=$2; [ "$n" -gt 0 ] && echo "$k/$n ($((100 * k / n))%)" || echo "-"; }
for a in "${areas[@]}"; do
    n=${area_total[$a]} kt=${area_tests[$a]:-0} kc=${area_compiler[$a]:-0} s=${area_survived[$a]:-0} e=${area_equiv[$a]:-0} st=${area_stale[$a]:-0}
    table+=("| $a | $n | $kt | $kc | $s | $e | $st | $(ratio $((kt + kc)) $((n - e - st))) |")
done
N=$(sum area_total) KT=$(sum area_tests) KC=$(sum area_compiler) S=$(sum area_survived) E=$(sum area_equiv) ST=$(sum area_stale)
table+=("| **all** | $N | $KT | $KC | $S | $E | $ST | $(ratio $((KT + KC)) $((N - E - ST))) |")
echo
printf '%s\n' "${table[@]}"
echo "== ${#patches[@]} mutant(s) on $commit in $((SECONDS - t_all)) s: $((KT + KC)) killed, $S survived, $E equivalent, $ST stale"
if [ -n "$report" ]; then
    {
        echo "# Mutation run of $commit"
        echo
        echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, build $build, $((SECONDS - t_all)) s."
        [ ${#broken[@]} -eq 0 ] || { echo; echo "Left out: failing without any mutant: $(printf '%s; ' "${broken[@]}")"; }
        echo
        printf '%s\n' "${table[@]}"
        echo
        echo "| mutant | area | verdict | by | what it breaks |"
        echo "|---|---|---|---|---|"
        printf '%s\n' "${rows[@]}"
    } >"$report"
    echo "== report: $report"
fi
[ "$stale" -eq 0 ] || { echo "mutate.sh: $stale stale mutant(s): update their patches to the code" >&2; exit 2; }
[ "$survived" -eq 0 ] || { echo "mutate.sh: surviving mutant(s): ${survivors[*]}" >&2; exit 1; }
exit 0
