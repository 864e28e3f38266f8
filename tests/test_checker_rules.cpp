// tests/test_checker_rules.cpp — checker rules at their edges (sync steps, fence order, shuffle masks, unwritten slots, a small second launch), each finding derived by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/checker.h"
#include "core/emulator.h"
#include "stripped_trace.h"

using namespace rl;

namespace {
// Named, not only anonymous: a unity build puts this file beside test_checker.cpp's helpers.
namespace rules_trace {

Event event(EventKind kind, uint16_t step, uint16_t thread, uint16_t detail = 0, uint32_t aux = 0,
            uint32_t dep0 = kNoEvent, uint32_t dep1 = kNoEvent) {
    Event e{};
    e.kind = kind;
    e.step = step;
    e.thread = thread;
    e.detail = detail;
    e.aux = aux;
    e.dep[0] = dep0;
    e.dep[1] = dep1;
    return e;
}

// One block of `threads` threads, grid 1, one element per thread: the events as a recorder lists them.
Trace one_block(uint32_t threads, std::vector<Event> events) {
    Trace t;
    t.schedule.n = threads;
    t.schedule.block = threads;
    t.grid = 1;
    t.events = std::move(events);
    return t;
}

// Thread 0 (warp 0) stores shared slot 0, thread 32 (warp 1) loads it and sees that store, and both warps
// arrive at one `__syncthreads()`: a complete barrier, each warp's arrival naming all 32 lanes.
Trace store_barrier_load(uint16_t store_step, uint16_t barrier_step, uint16_t load_step) {
    return one_block(64, {event(EventKind::SharedStore, store_step, 0, 0),
                          event(EventKind::SharedLoad, load_step, 32, 0, 0, /*saw*/ 0),
                          event(EventKind::Barrier, barrier_step, 0, 0, 0xffffffffu),
                          event(EventKind::Barrier, barrier_step, 32, 0, 0xffffffffu)});
}

// Eight lanes of one warp: each loads its element at step 0, then every lane executes `__shfl_down_sync(mask[l],
// v, 4)` at step 1; lanes 0-3 add the value (lanes 4-7 read lanes 8-11, which do not exist, and ignore it, as a
// correct loop does). Events: loads 0-7, shuffles 8-15, combines 16-19.
Trace shfl_down_4(const uint32_t (&mask)[8]) {
    std::vector<Event> ev;
    for (uint16_t l = 0; l < 8; ++l) ev.push_back(event(EventKind::Load, 0, l, 0, l));
    for (uint16_t l = 0; l < 8; ++l) {
        const uint32_t src = l + 4u;
        Event sh = event(EventKind::Shuffle, 1, l, uint16_t(4u | src << 8), mask[l], src < 8 ? src : kNoEvent);
        if (src >= 8) sh.flags = kUndefined;  // no lane held a value there
        ev.push_back(sh);
    }
    for (uint16_t l = 0; l < 4; ++l) ev.push_back(event(EventKind::Combine, 1, l, 0, 0, l, 8u + l));
    return one_block(8, std::move(ev));
}

}  // namespace rules_trace
}  // namespace

TEST_CASE("checker: a load on the barrier's own step is not ordered by that barrier: still a race") {
    // The kernels record a sync on the step of the accesses it follows, so a barrier at step s orders x before y
    // only when x.step <= s < y.step. The load at step 2 comes before the barrier at step 2 (`v = smem[0];
    // __syncthreads();`): nothing orders warp 0's store at step 1 before it. A shared-memory race between two
    // warps, at the load: warp 1, lane 0 (thread 32).
    const Trace t = rules_trace::store_barrier_load(1, 2, 2);
    const auto h = check_trace(t);
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::SharedMemoryRace);
    CHECK(h[0].event == 1);
    CHECK(h[0].block == 0);
    CHECK(h[0].warp == 1);
    CHECK(h[0].lanes == 1u);
    CHECK(h[0].what ==
          "thread 32 reads shared slot 0, which thread 0 stores at step 1 in another warp with no `__syncthreads()` "
          "that both reach between them");
    // one step later the load follows the barrier: 1 <= 2 < 3, ordered
    CHECK(check_trace(rules_trace::store_barrier_load(1, 2, 3)).empty());
}

TEST_CASE("checker: a store on the barrier's own step is ordered before a load after it") {
    // `smem[0] = v; __syncthreads();` both at step 2, then warp 1 loads at step 3: 2 <= 2 < 3, the barrier orders
    // the store before the load, and the load saw it. No hazard at all.
    CHECK(check_trace(rules_trace::store_barrier_load(2, 2, 3)).empty());
    // the barrier one step before the store orders nothing between them: a race again
    const auto h = check_trace(rules_trace::store_barrier_load(2, 1, 3));
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::SharedMemoryRace);
    CHECK(h[0].lanes == 1u);
}

TEST_CASE("checker: a __syncwarp() whose mask names only the storing lane does not order the load") {
    // Lane 0 stores slot 0 at step 1 and calls `__syncwarp(0x1)`; lane 1 loads the slot at step 2. A `__syncwarp()`
    // orders only the lanes its mask names: lane 1 is not among them, so nothing orders the store before its load.
    // The same race within one warp (implicit warp sync), at lane 1's load.
    auto trace = [](uint32_t sync_mask) {
        return rules_trace::one_block(32, {rules_trace::event(EventKind::SharedStore, 1, 0, 0),
                                           rules_trace::event(EventKind::WarpSync, 1, 0, 0, sync_mask),
                                           rules_trace::event(EventKind::SharedLoad, 2, 1, 0, 0, /*saw*/ 0)});
    };
    const std::string race =
        "thread 1 reads shared slot 0, which thread 0 stores at step 1 in the same warp with no `__syncwarp()` between them";
    for (uint32_t mask : {0x1u, 0x2u}) {  // the storing lane only, the loading lane only
        CAPTURE(mask);
        const auto h = check_trace(trace(mask));
        REQUIRE(h.size() == 1);
        CHECK(h[0].kind == HazardKind::ImplicitWarpSync);
        CHECK(h[0].event == 2);
        CHECK(h[0].warp == 0);
        CHECK(h[0].lanes == 1u << 1);
        CHECK(h[0].what == race);
    }
    CHECK(check_trace(trace(0x3u)).empty());  // `__syncwarp(0x3)` names both: ordered
}

TEST_CASE("checker: a load of a shared slot no thread stored is found (shared-slot-never-written)") {
    // Shared memory is not initialised at launch. Thread 0 stores slot 0 and then loads it: fine. Thread 1 loads
    // slot 1 at step 2 and stores it only at step 3, after its load; no other thread touches slot 1. Its load reads
    // a slot nothing wrote before it: one finding there, lane 1 of warp 0.
    const Trace t = rules_trace::one_block(
        2, {rules_trace::event(EventKind::SharedStore, 1, 0, 0), rules_trace::event(EventKind::SharedLoad, 2, 0, 0, 0, 0),
            rules_trace::event(EventKind::SharedLoad, 2, 1, 1), rules_trace::event(EventKind::SharedStore, 3, 1, 1)});
    const auto h = check_trace(t);
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::SharedSlotNeverWritten);
    CHECK(h[0].event == 2);
    CHECK(h[0].warp == 0);
    CHECK(h[0].lanes == 1u << 1);
    CHECK(h[0].what ==
          "thread 1 reads shared slot 1, which no thread of the block stored before it in this launch: the value is "
          "unspecified");
}

TEST_CASE("checker: lanes that execute one shuffle with different masks are found") {
    // `__shfl_down_sync(lane < 4 ? 0xff : 0xf0, v, 4)`: lane 0's mask 0xff names lanes 4-7, which execute the call
    // with 0xf0. Every non-exited lane a mask names must execute the call with the same mask: undefined. Reported
    // at the warp instruction (its first event, lane 0's shuffle), all eight executing lanes. The reads themselves
    // are legal: lanes 0-3 read lanes 4-7, which executed and are named in 0xff; no mask names a lane that skipped.
    const uint32_t masks[8] = {0xff, 0xff, 0xff, 0xff, 0xf0, 0xf0, 0xf0, 0xf0};
    const auto h = check_trace(rules_trace::shfl_down_4(masks));
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::MaskNamesInactiveLanes);
    CHECK(h[0].event == 8);
    CHECK(h[0].warp == 0);
    CHECK(h[0].lanes == 0xffu);
    CHECK(h[0].what == "lanes 0-7 of warp 0, offset 4 execute one shuffle with different masks (0x000000f0 in common, "
                       "0x000000ff in all)");
    const uint32_t same[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    CHECK(check_trace(rules_trace::shfl_down_4(same)).empty());  // one mask for all: a correct step
}

TEST_CASE("checker: a shuffle read of a lane the mask does not name is undefined, even though that lane executes it") {
    // `__shfl_down_sync(0x0f, v, 4)` executed by all eight lanes: lanes 0-3 read lanes 4-7, which execute the call
    // but are not named in the mask, so they do not take part in it; the value read is undefined, and lanes 0-3
    // add it. One finding for the warp instruction, at its first reader (lane 0's shuffle), lanes 0-3.
    // (Lanes 4-7 also call it without their own bit in the mask, a breach this test does not look at.)
    const uint32_t masks[8] = {0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f};
    std::vector<Hazard> reads;
    for (const Hazard& h : check_trace(rules_trace::shfl_down_4(masks)))
        if (h.kind == HazardKind::ReadFromNonParticipatingLane) reads.push_back(h);
    REQUIRE(reads.size() == 1);
    CHECK(reads[0].event == 8);
    CHECK(reads[0].warp == 0);
    CHECK(reads[0].lanes == 0x0fu);
    CHECK(reads[0].what == "warp 0, offset 4: lanes 0-3 read and use lanes 4-7, which the mask does not name: the value "
                           "read is undefined, whatever the mask says");
}

TEST_CASE("checker: a __threadfence() after the ticket is still a missing threadfence") {
    // Last-block over two blocks of 32. Each block's thread 0 stores its partial, calls `__threadfence()`, then
    // draws its ticket (the fence recorded on the ticket's step, before it). A fence orders the partial before
    // the ticket only between them in thread 0's order: moved after the ticket (`atomicInc` then
    // `__threadfence()`), block 0's partial may be seen after its ticket.
    Schedule s;
    s.n = 64;
    s.block = 32;
    s.grid_stage = GridStage::LastBlock;
    Trace t = testing::stripped(emulate(s));
    REQUIRE(t.grid == 2);
    CHECK(check_trace(t).empty());
    uint32_t partial = kNoEvent, fence = kNoEvent, ticket = kNoEvent;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.block != 0 || (e.flags & kFinisher)) continue;
        if (e.kind == EventKind::BlockPartial) partial = i;
        if (e.kind == EventKind::Fence) fence = i;
        if (e.kind == EventKind::Ticket) ticket = i;
    }
    REQUIRE(partial != kNoEvent);
    REQUIRE(fence != kNoEvent);
    REQUIRE(ticket != kNoEvent);
    REQUIRE(t.events[ticket].thread == 0);
    REQUIRE(t.events[ticket].aux == 0);  // block 0 draws ticket 0
    t.events[fence].step = uint16_t(t.events[ticket].step + 1);
    const auto h = check_trace(t);
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::MissingThreadfence);
    CHECK(h[0].event == ticket);
    CHECK(h[0].block == 0);
    CHECK(h[0].warp == 0);
    CHECK(h[0].lanes == 1u);
    CHECK(h[0].what == "block 0 stores its partial (step " + std::to_string(t.events[partial].step) +
                           ") and draws ticket 0 (step " + std::to_string(t.events[ticket].step) +
                           ") with no `__threadfence()` between: the last block may see the ticket before the partial");
}

TEST_CASE("checker: the second launch of two-pass has min(block, grid) threads: lanes past them were never launched") {
    // n = 256 in blocks of 32: grid 8, so the second launch has min(32, 8) = 8 threads, one warp of lanes 0-7.
    // Its warp reduction uses the full mask and no bound (full-mask-partial-warp). Lanes 8-31 were never launched:
    // naming them breaks no rule, but reading them is undefined. Every lane adds at every offset, so every read
    // is used: at 16 and 8 lanes 0-7 read lanes 16-23 and 8-15; at 4 lanes 4-7 read 8-11 (lanes 0-3 read 4-7,
    // which exist); at 2 lanes 6-7 read 8-9; at 1 lane 7 reads 8. The first pass's warps are full: no hazard.
    Schedule s;
    s.n = 256;
    s.block = 32;
    s.grid_stage = GridStage::TwoPass;
    s.bugs = uint16_t(Bug::FullMaskPartialWarp);
    REQUIRE(validate(s).empty());
    const Trace t = emulate(s);
    REQUIRE(t.grid == 8);
    struct Read {
        uint32_t offset, lanes;
        uint16_t thread;  // the first reader, whose event the finding names
        const char* sources;
    };
    const std::vector<Read> hand{
        {16, 0xffu, 0, "lanes 0-7 read and use lanes 16-23"}, {8, 0xffu, 0, "lanes 0-7 read and use lanes 8-15"},
        {4, 0xf0u, 4, "lanes 4-7 read and use lanes 8-11"},   {2, 0xc0u, 6, "lanes 6-7 read and use lanes 8-9"},
        {1, 0x80u, 7, "lane 7 read and use lane 8"},
    };
    const auto h = check_trace(testing::stripped(t));
    REQUIRE(h.size() == hand.size());
    for (size_t k = 0; k < hand.size(); ++k) {
        CAPTURE(k);
        const Event& e = t.events[h[k].event];
        CHECK(h[k].kind == HazardKind::ReadFromNonParticipatingLane);
        CHECK(h[k].block == 8);  // the second launch, shown as block `grid`
        CHECK(h[k].warp == 0);
        CHECK(h[k].lanes == hand[k].lanes);
        CHECK(e.kind == EventKind::Shuffle);
        CHECK((e.flags & kFinisher) != 0);
        CHECK(e.shuffle_offset() == hand[k].offset);
        CHECK(e.thread == hand[k].thread);
        CHECK(h[k].what == "warp 0, offset " + std::to_string(hand[k].offset) + ": " + hand[k].sources +
                               ", which were never launched (the block has 8 threads): the value read is undefined, "
                               "whatever the mask says");
    }
}
