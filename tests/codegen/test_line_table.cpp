// tests/codegen/test_line_table.cpp — every event of random schedules' traces maps to a line of the
// generated source, and that line holds the CUDA construct the event kind stands for.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "codegen/kernel_source.h"
#include "core/emulator.h"
#include "tests/codegen/bug_schedules.h"
#include "tests/random_schedule.h"

namespace {

using rl::EventKind;

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// What the line of an event of this kind must contain: written from the CUDA programming model, not
// from the generator's site names.
bool line_fits(const rl::Schedule& s, const rl::Event& e, const std::string& line) {
    switch (e.kind) {
        case EventKind::Load: return contains(line, "in[i]");
        case EventKind::IdentityFill:
            return s.has(rl::Bug::UninitTail) ? contains(line, "BUG uninit-tail") : contains(line, "identity()");
        case EventKind::Combine:
            return contains(line, "combine(") ||
                   ((s.accum == rl::Accum::Kahan || s.accum == rl::Accum::F64) && contains(line, "v = "));
        case EventKind::Shuffle: {
            const bool xor_ = s.effective_warp() == rl::WarpStage::ShflXor;
            return contains(line, xor_ ? "__shfl_xor_sync(" : "__shfl_down_sync(");
        }
        case EventKind::SharedStore: return contains(line, "] = v;") && (contains(line, "s[") || contains(line, "smem["));
        case EventKind::SharedLoad:
            return contains(line, "= s[") || contains(line, "= partial_smem[") || contains(line, "= smem[");
        case EventKind::Barrier: return contains(line, "__syncthreads()");
        case EventKind::WarpSync: return contains(line, "__syncwarp(");
        case EventKind::BlockPartial: return contains(line, "partials[blockIdx.x] = v");
        case EventKind::Atomic: return contains(line, "atomic");
        case EventKind::Ticket: return contains(line, "atomicAdd(done");
        case EventKind::GridSync: return contains(line, ".sync()");
        case EventKind::PartialLoad: return contains(line, "partials[idx]");
        case EventKind::FinalStore: return contains(line, "*out = v");
        case EventKind::Fence: return contains(line, "__threadfence()");
        case EventKind::Exit: return false;  // the lab's schedules record none
    }
    return false;
}

void check_schedule(const rl::Schedule& s) {
    const rl::Trace t = rl::emulate(s);
    const rl::KernelSource src = rl::kernel_source(s);
    const std::vector<uint32_t> lines = rl::line_table(src, t);
    REQUIRE(lines.size() == t.events.size());
    int bad = 0;
    for (size_t i = 0; i < lines.size() && bad < 3; ++i) {
        const rl::Event& e = t.events[i];
        const bool ok = lines[i] >= 1 && lines[i] <= src.lines.size() && line_fits(s, e, src.lines[lines[i] - 1].text);
        if (!ok) {
            ++bad;
            FAIL_CHECK(rl::describe(s) << ": event " << i << " (" << rl::to_string(e.kind) << ", step " << e.step
                                       << ") maps to line " << lines[i] << ": "
                                       << (lines[i] >= 1 && lines[i] <= src.lines.size() ? src.lines[lines[i] - 1].text : "-"));
        }
    }
}

}  // namespace

TEST_CASE("line table: every event of 300 random schedules maps to a line with its CUDA construct") {
    std::mt19937_64 rng(15);
    for (int i = 0; i < 300; ++i) check_schedule(rl::testing::random_schedule(rng, 3000));
}

TEST_CASE("line table: every bug's events map to lines with their CUDA construct") {
    for (const rl::Schedule& s : rl::testing::bug_schedules()) check_schedule(s);
}

TEST_CASE("line table: the eight-thread example maps shuffles, combines and the store to three different lines") {
    rl::Schedule s;  // n=8, block=8: one warp of shuffles
    const rl::Trace t = rl::emulate(s);
    const rl::KernelSource src = rl::kernel_source(s);
    const auto lines = rl::line_table(src, t);
    uint32_t shuffle = 0, combine = 0, store = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (t.events[i].kind == EventKind::Shuffle) shuffle = lines[i];
        if (t.events[i].kind == EventKind::Combine && rl::scope_of(t, t.events[i]) == rl::Scope::Warp) combine = lines[i];
        if (t.events[i].kind == EventKind::FinalStore) store = lines[i];
    }
    CHECK(shuffle > 0);
    CHECK(combine == shuffle + 1);  // the combine follows its shuffle in the loop
    CHECK(store > combine);
    CHECK(int(shuffle) == src.line_of("shuffle"));
}
