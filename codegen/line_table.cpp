// codegen/line_table.cpp — which source line produced each event: the event's kind, scope and operands
// name a site of the generated source, and the site's line is looked up there (no line numbers kept).
#include <algorithm>
#include <bit>
#include <map>
#include <tuple>
#include <unordered_map>

#include "codegen/kernel_source.h"

namespace rl {
namespace {

struct Classifier {
    const Trace& t;
    const Schedule& s;
    const std::vector<Event>& ev;
    std::map<std::tuple<uint32_t, bool, uint32_t>, uint16_t> first_barrier, first_warpsync;
    std::vector<uint8_t> pairwise_finish;  // per event: a pairwise stack's final merge
    std::vector<uint8_t> last_add;         // per event: smem-tree-shfl's smem[t] + smem[t + 32] (combine and loads)
    bool tree_shfl = false;

    explicit Classifier(const Trace& tr) : t(tr), s(tr.schedule), ev(tr.events), pairwise_finish(tr.events.size(), 0) {
        for (const Event& e : ev) {
            const auto key = std::make_tuple(e.block, bool(e.flags & kFinisher), e.warp());
            if (e.kind == EventKind::Barrier) keep_min(first_barrier, key, e.step);
            if (e.kind == EventKind::WarpSync) keep_min(first_warpsync, key, e.step);
        }
        if (s.accum == Accum::Pairwise) mark_pairwise_finish();
        tree_shfl = s.block_stage == BlockStage::SmemTreeShfl;
        if (tree_shfl) mark_last_add();
    }

    // smem-tree-shfl's last add reads slot t + 32 (the tree's levels read t + s with s >= 64).
    void mark_last_add() {
        last_add.assign(ev.size(), 0);
        for (uint32_t i = 0; i < ev.size(); ++i) {
            const Event& e = ev[i];
            if (e.kind != EventKind::Combine || e.dep[1] >= ev.size()) continue;
            const Event& y = ev[e.dep[1]];
            if (y.kind != EventKind::SharedLoad || e.thread >= 32 || y.detail != e.thread + 32u) continue;
            last_add[i] = last_add[e.dep[1]] = 1;
            if (e.dep[0] < ev.size()) last_add[e.dep[0]] = 1;
        }
    }
    // The line of an unrolled shuffle (and of the combine on it): one per offset.
    static std::string_view unrolled_shuffle(uint32_t offset) {
        switch (offset) {
            case 16: return "shuffle";
            case 8: return "shuffle-8";
            case 4: return "shuffle-4";
            case 2: return "shuffle-2";
            default: return "shuffle-1";
        }
    }
    std::string_view tree_shfl_site(uint32_t i) const {
        const Event& e = ev[i];
        switch (e.kind) {
            case EventKind::SharedStore: return tree_store(e) ? "block-tree-store" : "smem-store";
            case EventKind::SharedLoad: return last_add[i] ? "last-smem-load" : "smem-load";
            case EventKind::Shuffle: return unrolled_shuffle(e.shuffle_offset());
            case EventKind::Combine:
                if (last_add[i]) return "last-combine";
                for (int k = 0; k < 2; ++k)
                    if (const Event* d = dep(e, k); d && d->kind == EventKind::Shuffle) return unrolled_shuffle(d->shuffle_offset());
                return "block-combine";
            default: return {};
        }
    }

    static void keep_min(std::map<std::tuple<uint32_t, bool, uint32_t>, uint16_t>& m,
                         const std::tuple<uint32_t, bool, uint32_t>& key, uint16_t step) {
        auto [it, fresh] = m.emplace(key, step);
        if (!fresh) it->second = std::min(it->second, step);
    }

    bool thread_stage(const Event& e) const { return !(e.flags & kFinisher) && scope_of(t, e) == Scope::Thread; }

    // A thread with c items merges c - popcount(c) times while pushing and popcount(c) - 1 times at the
    // end (core/accum.h): its last popcount(c) - 1 thread-stage combines are the final merges.
    void mark_pairwise_finish() {
        std::unordered_map<uint64_t, std::pair<uint64_t, std::vector<uint32_t>>> per_thread;  // block << 16 | thread
        for (uint32_t i = 0; i < ev.size(); ++i) {
            const Event& e = ev[i];
            if (e.flags & kFinisher) continue;
            auto& slot = per_thread[uint64_t(e.block) << 16 | e.thread];
            if (e.kind == EventKind::Load) ++slot.first;
            if (e.kind == EventKind::Combine && thread_stage(e)) slot.second.push_back(i);
        }
        for (auto& [key, v] : per_thread) {
            const size_t finals = v.first ? size_t(std::popcount(v.first)) - 1 : 0;
            for (size_t k = 0; k < finals && k < v.second.size(); ++k) pairwise_finish[v.second[v.second.size() - 1 - k]] = 1;
        }
    }

    // The first slot of the per-warp partials: after 32 slots for each warp of the block's participants.
    uint32_t partial_base(const Event& e) const {
        const uint32_t G = t.grid ? t.grid : s.grid_size();
        const uint32_t threads = (e.flags & kFinisher) ? std::min(s.block, G) : s.block;
        return 32 * ((threads + 31) / 32);
    }
    const Event* dep(const Event& e, int k) const { return e.dep[k] < ev.size() ? &ev[e.dep[k]] : nullptr; }
    bool dep_is(const Event& e, EventKind k) const {
        const Event* a = dep(e, 0);
        const Event* b = dep(e, 1);
        return (a && a->kind == k) || (b && b->kind == k);
    }
    const Event* shared_load_dep(const Event& e) const {
        for (int k = 0; k < 2; ++k)
            if (const Event* d = dep(e, k); d && d->kind == EventKind::SharedLoad) return d;
        return nullptr;
    }
    bool in_partials(const Event& e) const { return e.detail >= partial_base(e); }
    // A store of a tree level: its value was combined from loads of the same region it stores into.
    bool tree_store(const Event& store) const {
        const Event* c = dep(store, 0);
        if (!c || c->kind != EventKind::Combine) return false;
        const Event* ld = shared_load_dep(*c);
        return ld && in_partials(*ld) == in_partials(store);
    }
    bool first_pass_warp_stage(const Event& e) const { return !(e.flags & kFinisher) && scope_of(t, e) == Scope::Warp; }

    std::string_view site(uint32_t i) const {
        const Event& e = ev[i];
        const bool fin = e.flags & kFinisher;
        const bool smem_tree = s.block_stage == BlockStage::SmemTree;
        const WarpStage w = s.effective_warp();
        const bool shuffle = w == WarpStage::ShflDown || w == WarpStage::ShflDownAsc || w == WarpStage::ShflXor;
        const auto key = std::make_tuple(e.block, fin, e.warp());
        if (tree_shfl && !thread_stage(e) && !(e.kind == EventKind::Combine && dep_is(e, EventKind::PartialLoad)))
            if (std::string_view site = tree_shfl_site(i); !site.empty()) return site;
        switch (e.kind) {
            case EventKind::Load: return "load";
            case EventKind::IdentityFill: return fin ? "finish-identity" : "identity";
            case EventKind::Combine:
                if (thread_stage(e)) return pairwise_finish[i] ? "pairwise-finish" : "accumulate";
                if (dep_is(e, EventKind::PartialLoad)) return "partial-combine";
                if (dep_is(e, EventKind::Shuffle))
                    return s.has(Bug::DivergentShuffle) && first_pass_warp_stage(e) ? "warp-combine-all" : "warp-combine";
                if (const Event* ld = shared_load_dep(e))
                    return in_partials(*ld) && smem_tree ? "block-combine" : "warp-smem-combine";
                return "accumulate";
            case EventKind::Shuffle:
                return s.has(Bug::DivergentShuffle) && first_pass_warp_stage(e) ? "shuffle-all" : "shuffle";
            case EventKind::SharedStore:
                if (!in_partials(e)) return tree_store(e) ? "warp-smem-tree-store" : "warp-smem-store";
                if (!tree_store(e)) return "smem-store";
                return smem_tree ? "block-tree-store" : "warp-smem-tree-store";
            case EventKind::SharedLoad:
                if (!in_partials(e)) return "warp-smem-load";
                return smem_tree || shuffle ? "smem-load" : "warp-smem-load";
            case EventKind::Barrier: {
                auto it = first_barrier.find(key);
                const bool first = it != first_barrier.end() && it->second == e.step;
                return first && !s.has(Bug::MissingBarrier) ? "barrier" : "tree-barrier";
            }
            case EventKind::WarpSync: {
                auto it = first_warpsync.find(key);
                const bool store_sync = it != first_warpsync.end() && it->second == e.step &&
                                        (fin || scope_of(t, e) == Scope::Warp);
                return store_sync ? "syncwarp" : "syncwarp-level";
            }
            case EventKind::BlockPartial: return "block-partial";
            case EventKind::Atomic: return "atomic";
            case EventKind::Ticket: return "ticket";
            case EventKind::GridSync: return "grid-sync";
            case EventKind::PartialLoad: return "partial-load";
            case EventKind::FinalStore: return "final-store";
            case EventKind::Fence: return "fence";
            case EventKind::Exit: return {};  // a student's kernel's only: the lab's schedules record no exits
        }
        return {};
    }
};

}  // namespace

std::vector<std::string_view> event_sites(const Trace& t) {
    Classifier c(t);
    std::vector<std::string_view> out(t.events.size());
    for (uint32_t i = 0; i < t.events.size(); ++i) out[i] = c.site(i);
    return out;
}

std::vector<uint32_t> line_table(const KernelSource& src, const Trace& t) {
    std::map<std::string_view, uint32_t> line_of_site;
    for (size_t i = 0; i < src.lines.size(); ++i)
        if (!src.lines[i].site.empty()) line_of_site.emplace(src.lines[i].site, uint32_t(i + 1));
    std::vector<std::string_view> sites = event_sites(t);
    std::vector<uint32_t> out(sites.size(), 0);
    // Site names are a few dozen string literals: remember each one's line by its address.
    std::vector<std::pair<const char*, uint32_t>> seen;
    for (size_t i = 0; i < sites.size(); ++i) {
        if (sites[i].empty()) continue;
        auto hit = std::find_if(seen.begin(), seen.end(), [&](const auto& p) { return p.first == sites[i].data(); });
        if (hit == seen.end()) {
            auto it = line_of_site.find(sites[i]);
            seen.emplace_back(sites[i].data(), it == line_of_site.end() ? 0u : it->second);
            hit = seen.end() - 1;
        }
        out[i] = hit->second;
    }
    return out;
}

const std::vector<std::string_view>& all_sites() {
    static const std::vector<std::string_view> sites{
        "identity-value", "combine", "shuffle", "shuffle-all", "warp-combine", "warp-combine-all",
        "warp-smem-store", "syncwarp", "warp-smem-load", "warp-smem-combine", "warp-smem-tree-store",
        "syncwarp-level", "smem-store", "barrier", "smem-load", "block-combine", "block-tree-store",
        "tree-barrier", "atomic-op", "identity", "load", "accumulate", "pairwise-finish", "atomic",
        "finish-identity", "partial-load", "partial-combine", "final-store", "block-partial", "fence",
        "ticket", "grid-sync", "last-smem-load", "last-combine", "shuffle-8", "shuffle-4", "shuffle-2", "shuffle-1"};
    return sites;
}

}  // namespace rl
