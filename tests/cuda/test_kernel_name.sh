#!/usr/bin/env bash
# tests/cuda/test_kernel_name.sh RLAB — `--kernel NAME` on plain CUDA files through rlab run and rlab check: a kernel
# of several by its name, a template's instance by its arguments (made even where the file never launches it), and
# each refusal as one line with exit 2 that lists what the file has and says what to write. --backend auto runs a
# plain file on the emulator and says so. SKIPPED (77) where this rlab does not run plain CUDA (no LLVM 14 or clang).
set -u
RLAB="$1"
source "$(dirname "$0")/../support/expect.sh"
corpus=$(cd "$(dirname "$0")" && pwd)/corpus
course=$corpus/course_two_kernels.cu
harris6=$corpus/harris6_complete_unroll.cu

"$RLAB" run "$course" --kernel finish_sum --n 256 --block 256 --backend cpu </dev/null >"$tmp/probe.out" 2>"$tmp/probe.err"
if grep -qE "needs the lab built with LLVM|clang-14 was not found" "$tmp/probe.err"; then
    echo "SKIPPED: this rlab does not run plain CUDA: $(head -1 "$tmp/probe.err")"
    exit 77
fi

# ---- a kernel of two by its name; the board's header names it, rlab check takes it too
expect 0 "run --kernel finish_sum" -- "$RLAB" run "$course" --kernel finish_sum --n 256 --block 256 --backend cpu
contains out "course_two_kernels.cu (kernel finish_sum): n 256, block 256" "the header names the kernel"
contains out "^result    32896$" "finish_sum over 1..256"
# The kernel runs once, as named (no second launch of the lab's own): out[0] is block 0's partial, 1 + ... + 256 =
# 32896, not the sum of 1..4096 (a wrong result: exit 1); the program's own two launches are a --launch plan.
expect 1 "run --kernel block_partials" -- "$RLAB" run "$course" --kernel block_partials --n 4096 --block 256 --backend cpu
contains out "^result    32896$" "block_partials once over 1..4096: block 0's partial"
expect 0 "run --launch block_partials; finish_sum" -- "$RLAB" run "$course" --n 4096 \
    --launch "block_partials<<<16, 256, 1024>>>(in, tmp, n); finish_sum<<<1, 256, 1024>>>(tmp, out, 16)" --backend cpu
contains out "^result    8390656$" "block_partials then finish_sum over 1..4096"
expect 0 "check FILE.cu --kernel block_partials" -- "$RLAB" check "$course" --kernel block_partials --n 256 --block 256 --backend cpu
contains out "(kernel block_partials)" "check's header names the kernel"
contains out "no hazards" "check: clean"

# ---- a template's instance the file never launches, by its arguments
expect 1 "run --kernel harris6<64>" -- "$RLAB" run "$harris6" --kernel "harris6<64>" --n 16384 --block 64 --grid 128 --backend cpu
contains out "(kernel harris6<64>)" "the header names the instance"
contains out "^result    8256$" "Harris 6 once over 1..16384: block 0's partial, 1 + ... + 128"
contains out "implicit-warp-sync" "Harris 6's last warp without __syncwarp"
# A template the file launches itself (a host function's <<< >>>) is the file's one kernel: it runs without --kernel.
# (A host function other than main(): a file with main() and no --kernel runs as a program, below.)
cat >"$tmp/launched.cu" <<'CU'
template <int B>
__global__ void tile_sum(const float* in, float* out, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
void launch_it(const float* in, float* out) {
    tile_sum<64><<<1, 64>>>(in, out, 64);
}
CU
expect 0 "a template its host code launches runs without --kernel" -- "$RLAB" run "$tmp/launched.cu" --n 64 --block 64 --backend cpu
contains out "^result    2080$" "the launched instance over 1..64"
expect 0 "the same by its bare name (one instance)" -- "$RLAB" run "$tmp/launched.cu" --kernel tile_sum --n 64 --block 64 --backend cpu

# ---- --backend auto: a plain file runs on the emulator, the note says why (the GPU runs the dialect only)
expect 0 "run a plain file with --backend auto" -- "$RLAB" run "$course" --kernel finish_sum --n 256 --block 256
contains err "plain CUDA (no RL_KERNEL): using the CPU emulator" "the note says why auto picked the emulator"
contains out "backend: CPU SIMT emulator (plain CUDA)" "it ran on the emulator"

# ---- every refusal: exit 2, one line, naming the kernels there are and what to write
bad() {  # bad DESCRIPTION PATTERN -- command...
    local what=$1 pattern=$2; shift 3
    expect 2 "$what" -- "$@"
    one_line_error "$what"
    contains err "$pattern" "$what: the message"
}
# A file with main() and no --kernel runs as a program (docs/plain-cuda.md, Programs with main()): the course file's
# kernels without its main() are the file of several kernels that needs a name.
mkdir -p "$tmp/kernels-only"
sed '/^int main()/,$d' "$course" >"$tmp/kernels-only/course_two_kernels.cu"
bad "several kernels, no --kernel" \
    "course_two_kernels.cu: the file has 2 kernels (block_partials, finish_sum): name the one to run with --kernel NAME$" \
    -- "$RLAB" run "$tmp/kernels-only/course_two_kernels.cu" --n 4096 --block 256 --backend cpu
expect 0 "the file with its main(), no --kernel: the program runs" -- "$RLAB" run "$course" --backend cpu
contains out "^sum of 1..4096 = 8390656 (expected 8390656)$" "the program's own output, passed through"
contains out "^result    8390656$" "its two launches recorded: the result it copies back"
bad "a name not in the file" \
    "--kernel finish: the file has no kernel finish (its kernels: block_partials, finish_sum)$" \
    -- "$RLAB" run "$course" --kernel finish --n 256 --block 256 --backend cpu
bad "check: a name not in the file" "the file has no kernel nope" \
    -- "$RLAB" check "$course" --kernel nope --n 256 --block 256 --backend cpu
bad "template arguments on a kernel that is no template" \
    "--kernel finish_sum<256>: finish_sum is not a template kernel: name it --kernel finish_sum$" \
    -- "$RLAB" run "$course" --kernel "finish_sum<256>" --n 256 --block 256 --backend cpu
bad "a template file, no --kernel" \
    "harris6 is a template kernel (template <unsigned int blockSize>) that the file never instantiates: name the instance to run with its template arguments, --kernel harris6<64>$" \
    -- "$RLAB" run "$harris6" --n 16384 --block 64 --grid 128 --backend cpu
bad "a template named without its arguments" \
    "--kernel harris6: harris6 is a template kernel: name it with its template arguments, e.g. --kernel harris6<64> (the file launches no instance of it; the lab makes the one named)$" \
    -- "$RLAB" run "$harris6" --kernel harris6 --n 16384 --block 64 --grid 128 --backend cpu
bad "template arguments the template does not take" \
    "--kernel harris6<64,3>: harris6 does not take the template arguments <64,3> (template <unsigned int blockSize>): e.g. --kernel harris6<64>$" \
    -- "$RLAB" run "$harris6" --kernel "harris6<64,3>" --n 16384 --block 64 --grid 128 --backend cpu
bad "a device function's template, no kernel" \
    "--kernel last_warp<64>: the file has no kernel last_warp<64> (its kernels: harris6<...> (a template))$" \
    -- "$RLAB" run "$harris6" --kernel "last_warp<64>" --n 16384 --block 64 --grid 128 --backend cpu
bad "a name that is no name" "--kernel harris6<64>;int x: expected a kernel's name, or a template kernel's name with its arguments (reduce6<256>)" \
    -- "$RLAB" run "$harris6" --kernel "harris6<64>;int x" --n 16384 --block 64 --backend cpu
cp "$(dirname "$0")/../support/warp_sum.cu" "$tmp/dialect.cu"
bad "--kernel on a dialect file" \
    "--kernel warp_sum: the file is in the lab's dialect (RL_KERNEL), one kernel per file: leave --kernel out (it names a kernel of a plain CUDA file)$" \
    -- "$RLAB" run "$tmp/dialect.cu" --kernel warp_sum --n 64 --block 64 --backend cpu
bad "check --kernel without a file" "--kernel finish_sum: names a kernel of a plain CUDA file: give the file too" \
    -- "$RLAB" check --kernel finish_sum --n 64 --block 64

finish "--kernel NAME"
