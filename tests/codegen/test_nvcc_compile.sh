#!/usr/bin/env bash
# tests/codegen/test_nvcc_compile.sh — the generated CUDA source of 200 random schedules and of every bug
# compiles with nvcc for sm_90 with warnings as errors. A few translation units, many kernels each, at
# most two nvcc processes at a time. Exits 77 (skipped) when nvcc is absent.
# usage: test_nvcc_compile.sh BATCH_WRITER [NVCC]
set -euo pipefail
writer=$1
nvcc=${2:-}
if [[ -z "$nvcc" || ! -x "$nvcc" ]]; then
  nvcc=$(command -v nvcc || true)
  [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [[ -z "$nvcc" ]]; then
  echo "SKIP: nvcc not found (neither on PATH nor in /usr/local/cuda/bin): the generated sources are not compiled"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
start=$SECONDS
"$writer" "$dir" 200 4
# -Werror all-warnings: nvcc's and the device front end's warnings; -Wall -Werror: the host compiler's.
ls "$dir"/unit*.cu | xargs -P 2 -I{} sh -c \
  '"$0" -arch=sm_90 -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Werror -c "$1" -o "$1.o" 2> "$1.log" || { cat "$1.log"; echo "FAILED: $1"; exit 1; }' \
  "$nvcc" {}
echo "compiled $(ls "$dir"/unit*.cu.o | wc -l) units with $nvcc in $((SECONDS - start)) s"
