#!/usr/bin/env bash
# tests/cli/test_run_time.sh RLAB SOURCE_DIR — rlab run --time's refusals, each one line and exit 2, on any machine: the
# emulator, a file --time cannot take (main(), the dialect, a template named without its arguments), a format it does
# not write, and, where no GPU answers, what --time needs. What it measures on a GPU: tests/gpu/plain/test_run_time.sh.
set -u
RLAB="$1"
corpus="$2/tests/cuda/corpus"
source "$(dirname "$0")/../support/expect.sh"

expect 2 "--time on the emulator" -- "$RLAB" run "$corpus/harris4_first_add_during_load.cu" --backend cpu --time --n 128 --block 64
contains err "rlab: --time times the kernel on a GPU: it needs --backend cuda" "--time --backend cpu says what it needs"
one_line_error "--time --backend cpu"
expect 2 "--time with a format it does not write" -- "$RLAB" run "$corpus/harris4_first_add_during_load.cu" --backend cuda --time --format chrome
contains err "rlab: --format chrome: with --time, board (the rows) or json" "--time --format chrome"
one_line_error "--time --format chrome"
expect 2 "--time on a program with main()" -- "$RLAB" run "$corpus/course_two_kernels.cu" --backend cuda --time
contains err "course_two_kernels.cu:33 has main(): NVRTC compiles device code only" "--time names main()'s line"
one_line_error "--time on a program"
expect 2 "--time on a template named without arguments" -- "$RLAB" run "$corpus/harris6_complete_unroll.cu" --backend cuda --time --block 64
contains err "rlab: --time: harris6 is a template: name its instance, e.g. --kernel harris6<64>" "--time on a template"
one_line_error "--time on a template"
cat >"$tmp/dialect.cu" <<'CU'
#include <rlab/kernel.h>
RL_KERNEL void k(rl::In<float> in, rl::Out<float> out) {}
CU
expect 2 "--time on a dialect kernel" -- "$RLAB" run "$tmp/dialect.cu" --backend cuda --time
contains err "is a kernel in the lab's dialect (RL_KERNEL); --time times plain CUDA files" "--time on the dialect"
one_line_error "--time on a dialect kernel"
expect 2 "--time with --kernel and --launch" -- "$RLAB" run "$corpus/harris4_first_add_during_load.cu" --backend cuda --time \
  --kernel harris4 --launch 'harris4<<<1, 64, 256>>>(in, out, n)'
contains err "rlab: --kernel and --launch: give one" "--time with both --kernel and --launch"
# Without a GPU (this machine, CI): what --time needs, in one line, exit 2. With one, the GPU test times it.
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then
  expect 2 "--time without a GPU" -- "$RLAB" run "$corpus/harris4_first_add_during_load.cu" --backend cuda --time --n 128 --block 64 --grid 1
  contains err "rlab: --time needs --backend cuda on a machine with a usable GPU and an rlab built with CUDA and NVRTC: " \
    "--time without a GPU names what it needs"
  one_line_error "--time without a GPU"
fi
finish "rlab run --time refusals"
