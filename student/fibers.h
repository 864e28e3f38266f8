// student/fibers.h — ucontext fibers for the emulated threads of one block, with AddressSanitizer's fiber
// annotations so ASan builds follow the stack switches. ucontext rather than Boost.Context: it is in libc, needs
// no new dependency, and the switch cost (a signal-mask syscall) is small against recording every call.
#pragma once
#include <ucontext.h>
#include <cstddef>
#include <vector>

namespace rl::student {

class FiberPool {
public:
    using Entry = void (*)(void* arg);
    static constexpr size_t kStackBytes = 256 * 1024;
    static constexpr size_t kGuardBytes = 64 * 1024;  // a multiple of every page size Linux uses here

    FiberPool() = default;
    ~FiberPool();
    FiberPool(const FiberPool&) = delete;
    FiberPool& operator=(const FiberPool&) = delete;

    // Prepares fibers 0..count-1 to run entry(arg_i) from the start (stacks are kept across blocks).
    void reset(size_t count, Entry entry, void* const* args);
    // Runs fiber i until it calls yield() or finish(); returns on the scheduler's stack.
    void resume(size_t i);
    // Called on fiber i's stack: back to the scheduler (finish: never resumed again).
    void yield();
    [[noreturn]] void finish();

private:
    struct Fiber {
        ucontext_t ctx{};
        void* stack = nullptr;
        void* arg = nullptr;
    };
    static void trampoline(unsigned lo, unsigned hi);
    void switch_to_fiber(size_t i);
    void switch_to_scheduler(bool exiting);

    std::vector<Fiber> fibers_;
    Entry entry_ = nullptr;
    ucontext_t scheduler_{};
    size_t current_ = 0;
    // ASan: the scheduler's stack as the annotations report it, and the fake stack of the side switched from.
    const void* sched_bottom_ = nullptr;
    size_t sched_size_ = 0;
};

}  // namespace rl::student
