// student/fibers.cpp — ucontext fibers with AddressSanitizer's switch annotations.
#include "student/fibers.h"
#include <sys/mman.h>
#include <cstdint>
#include <cstdlib>
#include "core/error.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RL_ASAN_FIBERS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RL_ASAN_FIBERS 1
#endif
#ifdef RL_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace rl::student {

FiberPool::~FiberPool() {
    for (Fiber& f : fibers_)
        if (f.stack) munmap(static_cast<char*>(f.stack) - kGuardBytes, kStackBytes + kGuardBytes);
}

void FiberPool::trampoline(unsigned lo, unsigned hi) {
    FiberPool* pool = reinterpret_cast<FiberPool*>((uintptr_t(hi) << 32) | uintptr_t(lo));
#ifdef RL_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(nullptr, &pool->sched_bottom_, &pool->sched_size_);
#endif
    Fiber& f = pool->fibers_[pool->current_];
    pool->entry_(f.arg);
    pool->finish();
}

void FiberPool::reset(size_t count, Entry entry, void* const* args) {
    if (fibers_.size() < count) fibers_.resize(count);
    entry_ = entry;
    for (size_t i = 0; i < count; ++i) {
        Fiber& f = fibers_[i];
        if (!f.stack) {
            // A guard page below each stack: a kernel's runaway recursion faults (SIGSEGV, reported by the
            // caller) instead of writing over the neighbouring thread's stack.
            void* m = mmap(nullptr, kStackBytes + kGuardBytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m == MAP_FAILED || mprotect(m, kGuardBytes, PROT_NONE) != 0)
                throw Error("cannot allocate the stacks of " + std::to_string(count) + " emulated threads");
            f.stack = static_cast<char*>(m) + kGuardBytes;
        }
        f.arg = args[i];
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = f.stack;
        f.ctx.uc_stack.ss_size = kStackBytes;
        f.ctx.uc_link = nullptr;
        const uintptr_t self = reinterpret_cast<uintptr_t>(this);
        makecontext(&f.ctx, reinterpret_cast<void (*)()>(&trampoline), 2, unsigned(self & 0xffffffffu), unsigned(self >> 32));
    }
}

void FiberPool::resume(size_t i) {
    current_ = i;
    switch_to_fiber(i);
}

void FiberPool::yield() { switch_to_scheduler(false); }

void FiberPool::finish() {
    switch_to_scheduler(true);
    std::abort();  // a finished fiber is never resumed
}

void FiberPool::switch_to_fiber(size_t i) {
    Fiber& f = fibers_[i];
#ifdef RL_ASAN_FIBERS
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, f.stack, kStackBytes);
    swapcontext(&scheduler_, &f.ctx);
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
    swapcontext(&scheduler_, &f.ctx);
#endif
}

void FiberPool::switch_to_scheduler(bool exiting) {
    Fiber& f = fibers_[current_];
#ifdef RL_ASAN_FIBERS
    void* fake = nullptr;
    // A finishing fiber passes no save slot: ASan frees its fake stack.
    __sanitizer_start_switch_fiber(exiting ? nullptr : &fake, sched_bottom_, sched_size_);
    swapcontext(&f.ctx, &scheduler_);
    __sanitizer_finish_switch_fiber(fake, &sched_bottom_, &sched_size_);
#else
    (void)exiting;
    swapcontext(&f.ctx, &scheduler_);
#endif
}

}  // namespace rl::student
