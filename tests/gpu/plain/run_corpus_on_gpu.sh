#!/usr/bin/env bash
# tests/gpu/plain/run_corpus_on_gpu.sh [OUTDIR] — the plain-CUDA corpus (tests/cuda/corpus) on the GPU: every manifest
# line launched as the lab launches it (plain_launch: NVRTC, the launch contract: the kernel once, or the line's
# --launch plan, launch after launch; no launch of the lab's own), its
# result against the expert's expected one; the course program's main() built with nvcc and run as it is; then
# compute-sanitizer on every line: racecheck and synccheck on the clean ones (they must be clean), racecheck,
# synccheck, memcheck and initcheck on the buggy ones (what the tools say is recorded, never a failure).
# Writes OUTDIR/report.md (the two tables), OUTDIR/logs/ (every run's output); exit 1 when a line whose result is
# defined disagrees with the GPU, a clean line is not clean under a sanitizer, or something could not be built.
# Needs nvcc, libnvrtc, a GPU and compute-sanitizer; scripts/gpu-run.sh runs it as RLAB_GPU_ONLY=plain.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(cd "$here/../../cuda/corpus" && pwd)
out=${1:-${OUT:-/tmp/rlab-gpu}/plain}
budget=${RLAB_PLAIN_BUDGET_S:-480}  # no new sanitizer run after this many seconds
mkdir -p "$out/logs" "$out/bin"
report=$out/report.md
failures=()

cuda=$(dirname "$(dirname "$(command -v nvcc)")")
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
[[ $arch =~ ^[0-9]+$ ]] || arch=90
{ echo "# plain-CUDA corpus on the GPU ($(date -u +%Y-%m-%dT%H:%MZ))"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1
  nvcc --version | tail -1; echo "sm_$arch, toolkit $cuda"; echo; } >"$report"

launcher=$out/bin/plain_launch
if ! nvcc -std=c++17 -O2 -o "$launcher" "$here/plain_launch.cu" -lnvrtc -L"$cuda/lib64/stubs" -lcuda \
    -Xlinker -rpath -Xlinker "$cuda/lib64" >"$out/logs/build.log" 2>&1; then
  echo "BUILD FAILED: plain_launch (logs/build.log)" >>"$report"; sed 's/^/    /' "$out/logs/build.log" | head -20 >>"$report"
  cat "$report"; exit 1
fi

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
same() {  # same GOT WANT: numerically equal, or the same words
  python3 -c 'import sys
g, w = sys.argv[1], sys.argv[2]
try: sys.exit(0 if float(g) == float(w) else 1)
except ValueError: sys.exit(0 if g.split() == w.split() else 1)' "$1" "$2"
}

# A file with main() is built by nvcc twice: the program itself and a cubin of its kernels for plain_launch.
declare -A built=()
build_program() {  # build_program FILE: 0 when its program and cubin exist
  local f=$1 name=${1%.cu}
  [ -n "${built[$f]:-}" ] && return "${built[$f]}"
  nvcc -std=c++17 -arch="sm_$arch" -lineinfo -o "$out/bin/$name" "$corpus/$f" >"$out/logs/$name.build.log" 2>&1 &&
    nvcc -std=c++17 -arch="sm_$arch" -lineinfo -cubin -o "$out/bin/$name.cubin" "$corpus/$f" >>"$out/logs/$name.build.log" 2>&1
  built[$f]=$?
  return "${built[$f]}"
}

{ echo "## results: each manifest line launched as the lab launches it"
  echo "| file | flags | GPU result | expected | agree |"; echo "|---|---|---|---|---|"; } >>"$report"
runs=()  # "file|flags|type|exit" of every line, for the sanitizers
k=0
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  IFS='|' read -r file flags type want_exit want_result _ <<<"$line"
  file=$(trim "$file"); flags=$(trim "$flags"); type=$(trim "${type#*type=}")
  want_exit=$(trim "${want_exit#*exit=}"); want_result=$(trim "${want_result#*result=}")
  k=$((k + 1)); log=$out/logs/$k-${file%.cu}.log
  # A line the lab refuses as bad input (result=error: a plan argument that does not fit the kernel) has nothing to run.
  if [ "$want_result" = error ]; then
    echo "| $file | \`$flags\` | not run | bad input (exit $want_exit) | n/a |" >>"$report"; continue
  fi
  read -ra args <<<"$flags"
  extra=()
  # A program line (a file with main(), no --kernel or --launch: docs/plain-cuda.md, "Programs with main()") is the
  # program run as it is: the loop over programs below runs it.
  if grep -qE '\bint[[:space:]]+main[[:space:]]*\(' "$corpus/$file" && ! grep -qE -- '--(kernel|launch)' <<<"$flags"; then
    continue
  fi
  if grep -qE '\bint[[:space:]]+main[[:space:]]*\(' "$corpus/$file"; then
    if ! build_program "$file"; then
      echo "| $file | \`$flags\` | nvcc failed | $want_result | NO |" >>"$report"; failures+=("$file: nvcc failed"); continue
    fi
    extra=(--cubin "$out/bin/${file%.cu}.cubin")
  fi
  timeout 60 "$launcher" "$corpus/$file" "${args[@]}" --type "$type" --timeout 10 "${extra[@]}" </dev/null >"$log" 2>&1
  code=$?
  got=$(grep -m1 '^RESULT ' "$log" | sed 's/^RESULT //')
  [ -z "$got" ] && got="exit $code: $(grep -m1 . "$log" | cut -c1-80)"
  case $want_result in
    any) agree="n/a (undefined)" ;;
    none) if [[ $got == hang* ]]; then agree=yes; else agree=NO; failures+=("$file: expected no end, the GPU gave $got"); fi ;;
    *) if [ "$code" -eq 0 ] && same "$got" "$want_result"; then agree=yes
       else agree=NO; failures+=("$file $flags: the GPU gave $got, the manifest expects $want_result"); fi ;;
  esac
  echo "| $file | \`$flags\` | $got | $want_result | $agree |" >>"$report"
  runs+=("$file|$flags|$type|$want_exit|${extra[*]}")
done <"$corpus/manifest.txt"

# The programs with main(), run as they are: they print "... = SUM (expected E)".
for f in "$corpus"/*.cu; do
  b=$(basename "$f")
  grep -qE '\bint[[:space:]]+main[[:space:]]*\(' "$f" || continue
  if ! build_program "$b"; then continue; fi
  timeout 60 "$out/bin/${b%.cu}" </dev/null >"$out/logs/${b%.cu}.main.log" 2>&1
  code=$?
  printed=$(head -1 "$out/logs/${b%.cu}.main.log")
  got=$(sed -nE 's/.* = ([-0-9.e+]+) \(expected.*/\1/p' <<<"$printed"); want=$(sed -nE 's/.*\(expected ([-0-9.e+]+)\).*/\1/p' <<<"$printed")
  # A program the manifest expects to fail (its main() returns non-zero, it never launches, it reads out of bounds)
  # is the lab's verdict to give; on the GPU it only has to run.
  program_exit=$(grep -E "^$b \| +\| " "$corpus/manifest.txt" | head -1 | sed -nE 's/.*\| exit=([0-9]+) \|.*/\1/p')
  if [ -n "$program_exit" ] && [ "$program_exit" != 0 ]; then agree="n/a (lab: exit $program_exit; GPU: exit $code)"
  elif [ "$code" -eq 0 ] && [ -n "$got" ] && same "$got" "$want"; then agree=yes
  else agree=NO; failures+=("$b main(): exit $code, printed: $printed"); fi
  echo "| $b | main() | ${got:-exit $code} | ${want:-?} | $agree |" >>"$report"
done

{ echo; echo "## compute-sanitizer (clean lines: racecheck, synccheck; buggy lines: all four tools)"
  echo "| file | flags | expected exit | racecheck | synccheck | memcheck | initcheck |"; echo "|---|---|---|---|---|---|---|"; } >>"$report"
k=0
for r in "${runs[@]}"; do
  IFS='|' read -r file flags type want_exit extra_s <<<"$r"
  k=$((k + 1))
  read -ra args <<<"$flags"
  read -ra extra <<<"$extra_s"
  row="| $file | \`$flags\` | $want_exit |"
  if [ "$SECONDS" -gt "$budget" ]; then
    echo "$row not run (time budget of ${budget}s) | | | |" >>"$report"; failures+=("sanitizers on $file: not run (time)"); continue
  fi
  if grep -q "^$file | .*result=none" "$corpus/manifest.txt"; then
    echo "$row not run: the kernel never ends | | | |" >>"$report"; continue
  fi
  tools=(racecheck synccheck memcheck initcheck)
  [ "$want_exit" -eq 0 ] && tools=(racecheck synccheck)
  for tool in racecheck synccheck memcheck initcheck; do
    if [[ " ${tools[*]} " != *" $tool "* ]]; then row="$row - |"; continue; fi
    log=$out/logs/$k-${file%.cu}.$tool.log
    timeout 90 compute-sanitizer --tool "$tool" --print-limit 5 "$launcher" "$corpus/$file" "${args[@]}" --type "$type" \
      --timeout 30 "${extra[@]}" </dev/null >"$log" 2>&1
    code=$?
    # the count: "ERROR SUMMARY: N errors" (not its "N errors were not printed" line), or racecheck's hazards
    n=$(grep -oE "(ERROR SUMMARY: [0-9]+ errors?$|RACECHECK SUMMARY: [0-9]+ hazard)" "$log" | grep -oE "[0-9]+" | head -1)
    [ "$tool" = racecheck ] && [ "${n:-0}" != 0 ] &&
      n="$n $(grep -oE "RACECHECK SUMMARY: .*" "$log" | grep -oE "\([0-9]+ errors?, [0-9]+ warnings?\)" | head -1)"
    first=$(grep -m1 -E "^========= +(Error|Warning|Race|Invalid|Barrier|Uninitialized|Divergent|Warp|Potential)" "$log" |
      sed -E 's/^========= +//' | cut -c1-90 | tr '|' '/')
    [ "$code" -eq 124 ] && n=timeout
    cell="${n:-exit $code}${first:+: $first}"
    row="$row $cell |"
    if [ "$want_exit" -eq 0 ] && { [ "$code" -ne 0 ] || [ "${n:-x}" != 0 ]; }; then
      failures+=("$tool on the clean $file: ${n:-no summary} finding(s), exit $code")
    fi
  done
  echo "$row" >>"$report"
done

{ echo; echo "## verdict"
  if [ "${#failures[@]}" -eq 0 ]; then echo "all agree (${SECONDS}s)"
  else echo "FAILED (${SECONDS}s):"; printf -- '- %s\n' "${failures[@]}"; fi; } >>"$report"
cat "$report"
[ "${#failures[@]}" -eq 0 ]
