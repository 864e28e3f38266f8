// core/event_order.cpp — renumbering a trace's events so that every operand points to an earlier event.
#include "core/event_order.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/operand_order.h"  // topological_order, to name an event of a cycle
#include "core/error.h"

namespace rl {

uint32_t first_forward_operand(const Trace& t) {
    for (uint32_t i = 0; i < t.events.size(); ++i)
        for (uint32_t d : t.events[i].dep)
            if (d != kNoEvent && d >= i) return i;
    return kNoEvent;
}

namespace {

// The preferred place of each event: the rank of (launch, step, block, thread, old index).
std::vector<uint32_t> preferred_ranks(const std::vector<Event>& ev) {
    std::vector<uint32_t> by(ev.size());
    std::iota(by.begin(), by.end(), 0u);
    std::stable_sort(by.begin(), by.end(), [&](uint32_t x, uint32_t y) {
        const Event &a = ev[x], &b = ev[y];
        const bool fa = a.flags & kFinisher, fb = b.flags & kFinisher;
        if (fa != fb) return fb;
        if (a.step != b.step) return a.step < b.step;
        if (a.block != b.block) return a.block < b.block;
        return a.thread < b.thread;
    });
    std::vector<uint32_t> rank(ev.size());
    for (uint32_t r = 0; r < by.size(); ++r) rank[by[r]] = r;
    return rank;
}

// Kahn's algorithm taking the ready event of lowest rank first: the preferred order wherever it already
// puts operands first, otherwise an event waits until its operands (and, with program_order, its thread's
// earlier events) are placed. Empty when they form a cycle.
std::vector<uint32_t> kahn_order(const std::vector<Event>& ev, bool program_order) {
    const uint32_t n = uint32_t(ev.size());
    const std::vector<uint32_t> rank = preferred_ranks(ev);
    std::vector<uint32_t> at_rank(n);
    for (uint32_t i = 0; i < n; ++i) at_rank[rank[i]] = i;
    // the edges: each operand, and each thread's previous event (program order)
    std::vector<uint32_t> waits(n, 0), first_out(n + 1, 0), out;
    std::vector<uint32_t> prev_in_thread(n, kNoEvent);
    std::unordered_map<uint64_t, uint32_t> last_of_thread;
    for (uint32_t i = 0; i < n && program_order; ++i) {
        auto [it, fresh] = last_of_thread.try_emplace((uint64_t(ev[i].block) << 16) | ev[i].thread, i);
        if (!fresh) {
            prev_in_thread[i] = it->second;
            it->second = i;
        }
    }
    auto for_each_edge = [&](auto&& f) {  // f(from, to)
        for (uint32_t i = 0; i < n; ++i) {
            for (uint32_t d : ev[i].dep)
                if (d != kNoEvent) f(d, i);
            if (prev_in_thread[i] != kNoEvent) f(prev_in_thread[i], i);
        }
    };
    for_each_edge([&](uint32_t from, uint32_t to) {
        ++first_out[from + 1];
        ++waits[to];
    });
    for (uint32_t i = 0; i < n; ++i) first_out[i + 1] += first_out[i];
    out.resize(first_out[n]);
    std::vector<uint32_t> fill(first_out.begin(), first_out.end() - 1);
    for_each_edge([&](uint32_t from, uint32_t to) { out[fill[from]++] = to; });

    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;  // ranks
    for (uint32_t i = 0; i < n; ++i)
        if (!waits[i]) ready.push(rank[i]);
    std::vector<uint32_t> order;
    order.reserve(n);
    while (!ready.empty()) {
        const uint32_t i = at_rank[ready.top()];
        ready.pop();
        order.push_back(i);
        for (uint32_t k = first_out[i]; k < first_out[i + 1]; ++k)
            if (--waits[out[k]] == 0) ready.push(rank[out[k]]);
    }
    if (order.size() != n) order.clear();
    return order;
}

}  // namespace

std::vector<uint32_t> operands_first_order(const std::vector<Event>& ev) {
    for (uint32_t i = 0; i < ev.size(); ++i)
        for (uint32_t d : ev[i].dep)
            if (d != kNoEvent && d >= ev.size())
                throw Error("event " + std::to_string(i) + " has operand " + std::to_string(d) + ", not an event index below " +
                            std::to_string(ev.size()));
    std::vector<uint32_t> order = kahn_order(ev, true);
    // An order of atomics no hardware could pick (a thread's later atomic before its earlier one, as a test may
    // replay) cannot keep every thread's program order: the operands alone then decide.
    if (order.empty() && !ev.empty()) order = kahn_order(ev, false);
    if (order.empty() && !ev.empty()) {
        Trace cyclic;
        cyclic.events = ev;
        uint32_t at = kNoEvent;
        topological_order(cyclic, &at);
        throw Error("event " + std::to_string(at) + " depends on itself through its operands: no order puts operands first");
    }
    return order;
}

void order_operands_first(Trace& t) {
    const uint32_t n = uint32_t(t.events.size());
    const std::vector<uint32_t> order = operands_first_order(t.events);  // order[new] = old
    std::vector<uint32_t> renamed(n);
    for (uint32_t k = 0; k < n; ++k) renamed[order[k]] = k;
    auto rename = [&](uint32_t i) { return i == kNoEvent || i >= n ? i : renamed[i]; };
    std::vector<Event> events(n);
    for (uint32_t k = 0; k < n; ++k) {
        events[k] = t.events[order[k]];
        for (uint32_t& d : events[k].dep) d = rename(d);
    }
    t.events = std::move(events);
    auto permute = [&](auto& per_event) {
        if (per_event.size() != n) return;
        auto copy = per_event;
        for (uint32_t k = 0; k < n; ++k) per_event[k] = copy[order[k]];
    };
    permute(t.times);
    permute(t.lines);
    for (auto& w : t.wide_atomic_elements) w.first = rename(w.first);
    std::sort(t.wide_atomic_elements.begin(), t.wide_atomic_elements.end());
    for (Hazard& h : t.hazards) h.event = rename(h.event);
    for (Hazard& h : t.notes) h.event = rename(h.event);
    t.result_event = rename(t.result_event);
}

}  // namespace rl
