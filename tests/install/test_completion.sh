#!/usr/bin/env bash
# tests/install/test_completion.sh — the bash completion offers rlab's commands, each command's flags and the
# value lists of the contract, read from the rlab given (its folder goes first on PATH).
set -u
RLAB="$1"; COMPLETION="$2"
PATH="$(dirname "$RLAB"):$PATH"
# shellcheck source=/dev/null
source "$COMPLETION"
fails=0
# complete WORDS... : the candidates for the last word
complete_words() {
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    _rlab
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
expect() {  # expect "WORDS" "CANDIDATES" — exactly these
    local got; read -ra words <<<"$1"; [[ $1 == *" " ]] && words+=("")
    got=$(complete_words "${words[@]}")
    [ "$got" = "$2 " ] || { echo "FAIL: '$1' completes to '$got', expected '$2'"; fails=$((fails + 1)); }
}
expect_has() {  # expect_has "WORDS" CANDIDATE — among them
    local got; read -ra words <<<"$1"; [[ $1 == *" " ]] && words+=("")
    got=" $(complete_words "${words[@]}")"
    [[ $got == *" $2 "* ]] || { echo "FAIL: '$1' completions lack '$2': $got"; fails=$((fails + 1)); }
}
expect "rlab tr" "trace"
expect "rlab l" "lessons"
expect_has "rlab " "numerics"
expect "rlab trace --wa" "--warp"
expect "rlab trace --warp " "shfl-down shfl-down-asc shfl-xor smem-divergent smem-sequential smem-strided"
expect "rlab check --grid-stage " "atomic-block atomic-element cooperative last-block two-pass"
expect "rlab trace --backend " "auto cpu cuda"
expect "rlab depth --op " "argmax max min prod sum sum-count witness"
expect "rlab trace --type " "bf16 f16 f32 f64 i32"
expect_has "rlab trace --bug " "missing-barrier"
expect_has "rlab trace --bug " "full-mask-partial-warp"
expect_has "rlab trace --input " "cancellation"
expect "rlab lessons --ch" "--check"
expect_has "rlab bench --" "--recorded"
expect "rlab --vers" "--version"
# --kernel NAME of rlab run and check: the __global__ kernels of the plain CUDA file on the line.
corpus=$(cd "$(dirname "$0")/../cuda/corpus" && pwd)
expect_has "rlab run --" "--kernel"
expect "rlab run $corpus/course_two_kernels.cu --kernel " "block_partials finish_sum"
expect "rlab check $corpus/course_two_kernels.cu --n 8 --kernel f" "finish_sum"
[ "$fails" -eq 0 ] && echo "bash completion: all passed"
exit $((fails > 0))
