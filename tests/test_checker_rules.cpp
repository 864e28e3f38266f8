// tests/test_checker_rules.cpp — checker rules at their edges (sync steps, fence order, shuffle masks, unwritten slots, a small second launch), each finding derived by hand.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
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
    // The same race within one warp (implicit warp sync), at lane 1's load. With `__syncwarp(0x2)` called by lane 1
    // (the sync event is the lowest calling lane's, a lane its mask names) the store's lane is left out instead.
    auto trace = [](uint32_t sync_mask) {
        const uint16_t caller = uint16_t(std::countr_zero(sync_mask));
        return rules_trace::one_block(32, {rules_trace::event(EventKind::SharedStore, 1, 0, 0),
                                           rules_trace::event(EventKind::WarpSync, 1, caller, 0, sync_mask),
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

TEST_CASE("checker: a mask that names an executing lane which uses another mask is found, with the lanes") {
    // `__shfl_down_sync(lane < 4 ? 0xff : 0xf0, v, 4)`: the rule (Programming Guide, warp shuffle functions) is that
    // every lane a mask names executes the call with that same mask. Lane 0-3's mask 0xff names lanes 4-7, which
    // execute it with 0xf0: broken. Lanes 4-7's mask 0xf0 names only lanes 4-7, all with 0xf0: kept. One finding at
    // the warp instruction, on the first lane whose mask is not kept (lane 0: event 8), lanes 0-3 and the lanes they
    // name, 4-7: 0xff. Each lane's mask holds its own bit; no mask names a lane that skipped; the reads are legal
    // (lanes 0-3 read lanes 4-7, which executed and are named in 0xff).
    const uint32_t masks[8] = {0xff, 0xff, 0xff, 0xff, 0xf0, 0xf0, 0xf0, 0xf0};
    const auto h = check_trace(rules_trace::shfl_down_4(masks));
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::MaskNamesInactiveLanes);
    CHECK(h[0].event == 8);
    CHECK(h[0].warp == 0);
    CHECK(h[0].lanes == 0xffu);
    CHECK(h[0].what == "`__shfl_*_sync` in warp 0, offset 4: lanes 0-3 use mask 0x000000ff, which names lanes 4-7, but "
                       "lanes 4-7 use 0x000000f0: every lane a mask names must call it with that same mask");
    const uint32_t same[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    CHECK(check_trace(rules_trace::shfl_down_4(same)).empty());  // one mask for all: a correct step
}

TEST_CASE("checker: disjoint masks in one shuffle step are legal (each lane's mask names only lanes that use it)") {
    // A full warp: lanes 0-15 call `__shfl_down_sync(0x0000ffff, v, 8)` and lanes 16-31 `__shfl_down_sync(0xffff0000,
    // v, 8)` in the same step, each half reducing its own 16 values. Lane l reads lane l + 8; lanes 0-7 and 16-23 add
    // what they read (their sources 8-15 and 24-31 are in their own half, named by their mask), lanes 8-15 and 24-31
    // ignore it, as a correct loop does. For each mask the lanes it names use that same mask, and every lane's mask
    // holds its own bit: no rule is broken (the masks differ, which the old check, masks_or != masks_and, flagged).
    // Events: loads 0-31, shuffles 32-63, combines 64-79.
    auto trace = [](uint32_t upper_mask) {
        std::vector<Event> ev;
        for (uint16_t l = 0; l < 32; ++l) ev.push_back(rules_trace::event(EventKind::Load, 0, l, 0, l));
        for (uint16_t l = 0; l < 32; ++l) {
            const uint32_t src = l + 8u, mask = l < 16 ? 0x0000ffffu : upper_mask;
            Event sh = rules_trace::event(EventKind::Shuffle, 1, l, uint16_t(8u | src << 8), mask, src < 32 ? src : kNoEvent);
            ev.push_back(sh);
        }
        for (uint16_t l = 0; l < 32; ++l)
            if (l % 16 < 8) ev.push_back(rules_trace::event(EventKind::Combine, 1, l, 0, 0, l, 32u + l));
        return rules_trace::one_block(32, std::move(ev));
    };
    CHECK(check_trace(trace(0xffff0000u)).empty());
    // Lanes 16-31 with the full mask instead: it names lanes 0-15, which use 0x0000ffff: broken. Lanes 0-15's mask
    // names only lanes 0-15 (kept). One finding on lane 16's shuffle (event 48), all 32 lanes.
    const auto h = check_trace(trace(0xffffffffu));
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::MaskNamesInactiveLanes);
    CHECK(h[0].event == 48);
    CHECK(h[0].lanes == 0xffffffffu);
    CHECK(h[0].what == "`__shfl_*_sync` in warp 0, offset 8: lanes 16-31 use mask 0xffffffff, which names lanes 0-15, but "
                       "lanes 0-15 use 0x0000ffff: every lane a mask names must call it with that same mask");
}

TEST_CASE("checker: a lane whose shuffle mask leaves out its own bit is found (mask-omits-own-lane)") {
    // The Guide: each calling thread must have its own bit set in the mask. `__shfl_down_sync(0x0f, v, 4)` executed
    // by all eight lanes: lanes 4-7 call it with a mask that does not name them. One finding at the warp instruction,
    // on lane 4's shuffle (event 12), lanes 4-7. (Lanes 0-3 read lanes 4-7, which the mask does not name: the read
    // finding of the next test, also here.)
    const uint32_t masks[8] = {0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f};
    std::vector<Hazard> own;
    for (const Hazard& h : check_trace(rules_trace::shfl_down_4(masks))) {
        CHECK((h.kind == HazardKind::MaskOmitsOwnLane || h.kind == HazardKind::ReadFromNonParticipatingLane));
        if (h.kind == HazardKind::MaskOmitsOwnLane) own.push_back(h);
    }
    REQUIRE(own.size() == 1);
    CHECK(own[0].event == 12);
    CHECK(own[0].warp == 0);
    CHECK(own[0].lanes == 0xf0u);
    CHECK(own[0].what == "`__shfl_*_sync` in warp 0, offset 4: lanes 4-7 call it with 0x0000000f, a mask without the "
                         "calling lane's own bit: each lane that calls it must be named in its mask");
    // One lane alone: lanes 0-6 use 0xff, lane 7 uses 0x7f, which leaves out bit 7. Lane 7 breaks the own-bit rule
    // (event 15), and the masks disagree both ways: 0xff names lane 7 (which uses 0x7f) and 0x7f names lanes 0-6
    // (which use 0xff), so the same-mask rule is broken for all eight lanes at lane 0's shuffle (event 8).
    const uint32_t one[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    const auto h = check_trace(rules_trace::shfl_down_4(one));
    REQUIRE(h.size() == 2);
    CHECK(h[0].kind == HazardKind::MaskNamesInactiveLanes);
    CHECK(h[0].event == 8);
    CHECK(h[0].lanes == 0xffu);
    CHECK(h[0].what == "`__shfl_*_sync` in warp 0, offset 4: lanes 0-6 use mask 0x000000ff, which names lane 7, but "
                       "lane 7 uses 0x0000007f; lane 7 uses mask 0x0000007f, which names lanes 0-6, but lanes 0-6 use "
                       "0x000000ff: every lane a mask names must call it with that same mask");
    CHECK(h[1].kind == HazardKind::MaskOmitsOwnLane);
    CHECK(h[1].event == 15);
    CHECK(h[1].lanes == 0x80u);
    CHECK(h[1].what == "`__shfl_*_sync` in warp 0, offset 4: lane 7 calls it with 0x0000007f, a mask without the "
                       "calling lane's own bit: each lane that calls it must be named in its mask");
}

TEST_CASE("checker: a lane whose __syncwarp() mask leaves out its own bit is found (mask-omits-own-lane)") {
    // A student's `__syncwarp(0x1)` called by lane 5: the arrival keeps an event of its own, thread 5 with mask 0x1
    // (core/student_trace.cpp), and the mask does not name lane 5. Lane 0's `__syncwarp(0x1)` names itself: legal.
    // A mask of 0 is the old traces' "every lane" and names the caller.
    const Trace t = rules_trace::one_block(
        32, {rules_trace::event(EventKind::WarpSync, 1, 0, 0, 0x1u), rules_trace::event(EventKind::WarpSync, 1, 5, 0, 0x1u),
             rules_trace::event(EventKind::WarpSync, 2, 3, 0, 0u)});
    const auto h = check_trace(t);
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::MaskOmitsOwnLane);
    CHECK(h[0].event == 1);
    CHECK(h[0].warp == 0);
    CHECK(h[0].lanes == 1u << 5);
    CHECK(h[0].what == "lane 5 of warp 0 calls `__syncwarp(0x00000001)`, a mask without its own bit: each lane that "
                       "calls it must be named in its mask");
}

TEST_CASE("checker: a shuffle read of a lane the mask does not name is undefined, even though that lane executes it") {
    // `__shfl_down_sync(0x0f, v, 4)` executed by all eight lanes: lanes 0-3 read lanes 4-7, which execute the call
    // but are not named in the mask, so they do not take part in it; the value read is undefined, and lanes 0-3
    // add it. One finding for the warp instruction, at its first reader (lane 0's shuffle), lanes 0-3.
    // (Lanes 4-7 also call it without their own bit in the mask: the mask-omits-own-lane test looks at that.)
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
        const char* sources;  // the verbs agree with the lanes: "lane 7 reads and uses lane 8, which was"
    };
    const std::vector<Read> hand{
        {16, 0xffu, 0, "lanes 0-7 read and use lanes 16-23, which were never launched"},
        {8, 0xffu, 0, "lanes 0-7 read and use lanes 8-15, which were never launched"},
        {4, 0xf0u, 4, "lanes 4-7 read and use lanes 8-11, which were never launched"},
        {2, 0xc0u, 6, "lanes 6-7 read and use lanes 8-9, which were never launched"},
        {1, 0x80u, 7, "lane 7 reads and uses lane 8, which was never launched"},
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
                               " (the block has 8 threads): the value read is undefined, whatever the mask says");
    }
}

namespace {
namespace identity_trace {

uint64_t f32(float v) { return pack_value(v); }

// Four threads of one block, op max over f32 (or `op`): threads 0 and 1 load elements 0 and 1 (values a and b),
// threads 2 and 3 have none and start from `start`; thread 0 combines max(a, start) and thread 1 max(b, start) at
// step 1, thread 0 combines the two at step 2: the result (event 6). Events: loads 0-1, fills 2-3, combines 4-6.
Trace two_loads_two_starts(float a, float b, float start, Op op = Op::Max) {
    std::vector<Event> ev{rules_trace::event(EventKind::Load, 0, 0, 0, 0), rules_trace::event(EventKind::Load, 0, 1, 0, 1),
                          rules_trace::event(EventKind::IdentityFill, 0, 2), rules_trace::event(EventKind::IdentityFill, 0, 3),
                          rules_trace::event(EventKind::Combine, 1, 0, 0, 0, 0, 2), rules_trace::event(EventKind::Combine, 1, 1, 0, 0, 1, 3),
                          rules_trace::event(EventKind::Combine, 2, 0, 0, 0, 4, 5)};
    ev[0].value = f32(a);
    ev[1].value = f32(b);
    ev[2].value = ev[3].value = f32(start);
    Trace t = rules_trace::one_block(4, std::move(ev));
    t.schedule.n = 2;
    t.schedule.op = op;
    t.result_event = 6;
    return t;
}

}  // namespace identity_trace
}  // namespace

TEST_CASE("checker: a start that is not the identity but never changes the result is no wrong identity") {
    // max over -5 and -3: r = -3. -FLT_MAX is not the identity of max (-inf), but max(-FLT_MAX, -3) = -3 = r: the
    // starts of threads 2 and 3 reach the result and change nothing. No finding (the old rule, value != identity,
    // reported both).
    CHECK(check_trace(identity_trace::two_loads_two_starts(-5.0f, -3.0f, -3.40282347e+38f)).empty());
    // A start equal to the identity is never examined, whatever the data: -inf.
    CHECK(check_trace(identity_trace::two_loads_two_starts(-5.0f, -3.0f, -INFINITY)).empty());
    // max over 2 and 7 started from 0: max(0, 7) = 7 = r, the result is right: no finding.
    CHECK(check_trace(identity_trace::two_loads_two_starts(2.0f, 7.0f, 0.0f)).empty());
}

TEST_CASE("checker: a start that changes the result is a wrong identity, found at each start with the values") {
    // max over -5 and -3 started from 0: r = -3, max(0, -3) = 0 != r. Both starts reach the result: one finding for
    // the warp instruction at thread 2's fill (event 2), lanes 2-3.
    const auto h = check_trace(identity_trace::two_loads_two_starts(-5.0f, -3.0f, 0.0f));
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::WrongIdentity);
    CHECK(h[0].event == 2);
    CHECK(h[0].lanes == 0xcu);
    CHECK(h[0].what == "thread 2 of block 0 starts from 0, which is not the identity of max and changes the result: the "
                       "max of the 2 elements the result combines is -3, and max of 0 with it is 0 (and 1 more lane of "
                       "this warp at this step)");
    // -FLT_MAX over data that is all -inf: r = -inf, max(-FLT_MAX, -inf) = -FLT_MAX != r. Changed: found.
    const auto inf = check_trace(identity_trace::two_loads_two_starts(-INFINITY, -INFINITY, -3.40282347e+38f));
    REQUIRE(inf.size() == 1);
    CHECK(inf[0].kind == HazardKind::WrongIdentity);
    CHECK(inf[0].lanes == 0xcu);
    // prod over 2 and 3 started from 0: r = 6, 0 * 6 = 0 != 6: found; over 2 and 0, r = 0 and 0 * 0 = 0: not.
    CHECK(check_trace(identity_trace::two_loads_two_starts(2.0f, 3.0f, 0.0f, Op::Prod)).size() == 1);
    CHECK(check_trace(identity_trace::two_loads_two_starts(2.0f, 0.0f, 0.0f, Op::Prod)).empty());
    // A sum started from 1 over 2 and 3: r = 5, 1 + 5 = 6 != 5: found.
    CHECK(check_trace(identity_trace::two_loads_two_starts(2.0f, 3.0f, 1.0f, Op::Sum)).size() == 1);
}

TEST_CASE("checker: a constant that never reaches the result (a flag through shared memory) is no starting value") {
    // A sum over elements 1 and 2 (threads 0 and 1). Thread 2 makes the constant 1 (a flag, not the identity 0 of
    // sum), stores it to shared slot 0 at step 1; every thread reaches `__syncthreads()` at step 1; thread 0 loads
    // the flag at step 2 and adds the two elements at step 3: the result (event 6). The flag's cone is fill, store
    // and load; the result's cone is the two loads and the combine: the flag is not in it. No finding.
    auto trace = [](bool flag_added) {
        std::vector<Event> ev{rules_trace::event(EventKind::Load, 0, 0, 0, 0), rules_trace::event(EventKind::Load, 0, 1, 0, 1),
                              rules_trace::event(EventKind::IdentityFill, 0, 2),
                              rules_trace::event(EventKind::SharedStore, 1, 2, 0, 0, 2),
                              rules_trace::event(EventKind::Barrier, 1, 0, 0, 0x7u),
                              rules_trace::event(EventKind::SharedLoad, 2, 0, 0, 0, 3),
                              rules_trace::event(EventKind::Combine, 3, 0, 0, 0, 0, 1)};
        ev[0].value = identity_trace::f32(1.0f);
        ev[1].value = identity_trace::f32(2.0f);
        ev[2].value = ev[3].value = ev[5].value = identity_trace::f32(1.0f);
        ev[6].value = identity_trace::f32(3.0f);
        if (flag_added) {  // the same constant added to the sum: 1 + (1 + 2) = 4 != 3
            ev.push_back(rules_trace::event(EventKind::Combine, 4, 0, 0, 0, 6, 5));
            ev.back().value = identity_trace::f32(4.0f);
        }
        Trace t = rules_trace::one_block(3, std::move(ev));
        t.schedule.n = 2;
        t.schedule.op = Op::Sum;
        t.result_event = uint32_t(t.events.size() - 1);
        return t;
    };
    CHECK(check_trace(trace(false)).empty());
    const auto h = check_trace(trace(true));
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::WrongIdentity);
    CHECK(h[0].event == 2);
    CHECK(h[0].lanes == 1u << 2);
    CHECK(h[0].what == "thread 2 of block 0 starts from 1, which is not the identity of sum and changes the result: the "
                       "sum of the 2 elements the result combines is 3, and sum of 1 with it is 4");
}
