// A student's warp scan: an inclusive prefix sum with __shfl_up_sync (lane i adds what lane i - d holds, for
// d = 1, 2, 4, 8, 16), so lane 31 ends with the warp's total and writes it. One warp: a block of 32 threads.
// plain CUDA: tests/student/kernels/warp_scan_up.cu line for line, without rlab/kernel.h

__global__ void warp_scan_up(const int* in, int* out, int n) {
    int lane = threadIdx.x % 32;
    int v = lane < n ? in[lane] : 0;
    for (int d = 1; d < 32; d *= 2) {
        int below = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v = v + below;  // lanes below d get their own value back: they add nothing
    }
    if (lane == 31) out[0] = v;
}
