// include/rlab/detail/host_abi.h — the C table through which a student's kernel, built as a plugin by the host
// compiler, reaches the emulator's runtime (student/fiber_runtime): the plugin needs no symbol of the executable.
// Shared verbatim by the header's host branch and the runtime; bump RL_HOST_ABI when anything here changes.
#pragma once
#include <stdint.h>

#define RL_HOST_ABI 2

extern "C" {

// A value as it travels: packed bits (core/ops.h packing), the record that produced it, its flags.
struct rl_val {
    uint64_t bits;
    uint32_t ev;      // index of its record (0xffffffff: none)
    uint8_t flags;
    uint8_t pad[3];
};

struct rl_dim3 {
    unsigned x, y, z;
};

// The running thread's coordinates: the runtime rewrites it before it resumes a thread's fiber.
struct rl_thread_view {
    rl_dim3 thread_idx, block_idx, block_dim, grid_dim;
};

enum rl_combine_op { RL_COMBINE_SUM = 0, RL_COMBINE_MAX = 1, RL_COMBINE_MIN = 2, RL_COMBINE_PROD = 3 };
enum rl_shuffle_kind { RL_SHFL_DOWN = 0, RL_SHFL_UP = 1, RL_SHFL_XOR = 2, RL_SHFL_IDX = 3 };

// Every call records (or schedules) on behalf of the running thread; `line` is the student's source line.
// A kernel error (an index out of range, a hang) never returns: the runtime ends the launch.
struct rl_host_api {
    uint32_t abi;                       // RL_HOST_ABI
    void* rt;                           // the runtime, passed back as the first argument
    const rl_thread_view* view;
    rl_val (*identity)(void* rt, int line);                      // IdentityFill of the run's identity
    rl_val (*constant)(void* rt, uint64_t bits, int line);       // IdentityFill of a constant (packed)
    rl_val (*undefined)(void* rt, int line);                     // IdentityFill flagged kUndefined
    rl_val (*combine)(void* rt, int op, rl_val a, rl_val b, int line);
    rl_val (*load_in)(void* rt, long long i, int line);          // Load (PartialLoad in the second launch)
    rl_val (*load_out)(void* rt, long long b, int line);         // PartialLoad of out[b]
    void (*store_out)(void* rt, long long b, rl_val v, uint32_t retract, int line);
    uint32_t (*retract)(void* rt, uint32_t ev);                  // marks a load retracted; returns its slot
    rl_val (*atomic_out)(void* rt, int op, long long b, rl_val v, int line);  // returns the old value
    unsigned (*ticket)(void* rt, unsigned add, int line);        // atomicAdd on the Counter
    void (*fence)(void* rt, int line);
    uint32_t (*shared_alloc)(void* rt, uint32_t slots, int line);  // base slot of the Shared array declared at line
    rl_val (*load_shared)(void* rt, uint32_t base, uint32_t size, long long i, int line);
    void (*store_shared)(void* rt, uint32_t slot, rl_val v, uint32_t retract, int line);
    rl_val (*shuffle)(void* rt, int kind, unsigned mask, rl_val v, int arg, int width, int line);
    void (*syncthreads)(void* rt, int line);
    void (*syncwarp)(void* rt, unsigned mask, int line);
    void (*shared_release)(void* rt, uint32_t base);             // the Shared array at base goes out of scope
};

// What the plugin's entry reports: its element type (0 f32, 1 f64, 2 i32), whether it takes a Counter, and
// the function a thread's fiber runs (the kernel with In, Out, n and Counter bound).
struct rl_host_kernel {
    uint32_t abi;
    int element;
    int has_counter;
    void (*run_thread)(int n);
};

// The plugin exports this one symbol (RL_ENTRY defines it).
typedef int (*rl_host_entry_fn)(const rl_host_api* api, rl_host_kernel* kernel);
#define RL_HOST_ENTRY_SYMBOL "rlab_host_entry"
}
