// app/cli/board_view.cpp — text pictures of a trace: the board, the depth table, the hazards.
#include "app/cli/board_view.h"

#include "core/cost_notes.h"
#include "core/step_words.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace rl::cli {
namespace {

std::string pad(std::string s, size_t w, bool right = true) {
    if (s.size() > w) s = s.substr(0, w - 1) + "~";
    std::string sp(w - s.size(), ' ');
    return right ? sp + s : s + sp;
}

std::string cell_text(const Trace& t, const Event& e) {
    std::string v = format_value(t.schedule.op, t.schedule.type, e.value, e.flags);
    if (e.flags & kUndefined) v = "?undef";
    if (e.kind == EventKind::IdentityFill && !(e.flags & kUndefined)) v = "(" + v + ")";
    if (e.flags & kHazard) v += "!";
    return v;
}

}  // namespace

void print_board(std::ostream& out, const Trace& t, unsigned max_columns, unsigned max_blocks) {
    const Schedule& s = t.schedule;
    // Blocks to show: the first ones, and the finishing block when it is a separate launch.
    // A plain run: the first ones of every launch.
    std::vector<uint32_t> blocks;
    for (uint32_t b = 0; b < std::min<uint32_t>(t.grid, max_blocks); ++b) blocks.push_back(b);
    for (size_t k = 1; k < t.launches.size(); ++k)
        for (uint32_t b = 0; b < std::min<uint32_t>(t.launches[k].grid, max_blocks); ++b) blocks.push_back(t.launches[k].first_block + b);
    if (t.finisher_block != kNoEvent && std::find(blocks.begin(), blocks.end(), t.finisher_block) == blocks.end())
        blocks.push_back(t.finisher_block);

    std::map<uint32_t, std::map<uint16_t, std::vector<const Event*>>> by_block;
    for (const Event& e : t.events)
        if (std::find(blocks.begin(), blocks.end(), e.block) != blocks.end()) by_block[e.block][e.step].push_back(&e);

    const std::vector<uint8_t> used = used_values(t);  // moves: the shuffle reads some lane uses
    const unsigned cw = s.op == Op::Witness || s.op == Op::ArgMax || s.op == Op::SumCount ? 11 : 8;
    for (uint32_t b : blocks) {
        auto& steps = by_block[b];
        uint32_t threads = 0;
        for (auto& [st, evs] : steps)
            for (const Event* e : evs) threads = std::max<uint32_t>(threads, e->thread + 1u);
        const unsigned cols = std::min<unsigned>(threads, max_columns);
        std::string title = !t.launches.empty() ? block_label(t, b)
                            : b == t.grid ? "second launch (one block over the " + std::to_string(t.grid) + " block partials)"
                                          : "block " + std::to_string(b);
        if (!t.launches.empty() && b == t.launches[launch_of_block(t, b)].first_block) {
            const LaunchScope& l = t.launches[launch_of_block(t, b)];
            title += "  (" + l.kernel + "<<<" + std::to_string(l.grid) + ", " + std::to_string(l.block) + ", " +
                     std::to_string(l.shared_bytes) + ">>>)";
        }
        if (b == t.finisher_block && b != t.grid) title += " (finishes the grid)";
        out << "\n" << title << (threads > cols ? "  [threads " + std::to_string(cols) + "-" + std::to_string(threads - 1) + " not shown]" : "") << "\n";
        out << "step  " << pad("what", 22, false);
        for (unsigned c = 0; c < cols; ++c) out << pad("t" + std::to_string(c), cw);
        out << "\n";
        for (auto& [st, evs] : steps) {
            std::vector<std::string> cells(cols);
            std::vector<std::string> moves;
            for (const Event* e : evs) {
                if (e->thread >= cols) continue;
                if (holds_thread_value(e->kind)) cells[e->thread] = cell_text(t, *e);
                if (e->kind == EventKind::Shuffle && used[size_t(e - t.events.data())] && moves.size() < 8)
                    moves.push_back("t" + std::to_string(e->thread) + "<-t" +
                                    std::to_string(e->warp() * 32 + e->source_lane()));
                if (e->kind == EventKind::Barrier && cells[e->thread].empty()) cells[e->thread] = "|wait|";
                if (e->kind == EventKind::SharedStore && cells[e->thread].empty())
                    cells[e->thread] = "s[" + std::to_string(e->detail) + "]";
                if (e->kind == EventKind::BlockPartial) cells[e->thread] = cell_text(t, *e) + ">g";
                if (e->kind == EventKind::Exit && cells[e->thread].empty()) cells[e->thread] = "exit";
            }
            KindMask kinds = 0;
            const Event* first_shuffle = nullptr;
            StepLines lines;  // a student's kernel: the row names its source lines
            for (const Event* e : evs) {
                kinds |= 1u << unsigned(e->kind);
                lines.add(t, size_t(e - t.events.data()));
                if (e->kind == EventKind::Shuffle && !first_shuffle) first_shuffle = e;
            }
            out << pad(std::to_string(st), 4) << "  " << pad(describe_step(t, kinds, first_shuffle, lines), 22, false);
            for (auto& c : cells) out << pad(c.empty() ? "." : c, cw);
            if (!moves.empty()) {
                out << "   ";
                for (auto& m : moves) out << " " << m;
            }
            out << "\n";
        }
    }
    if (!t.launches.empty()) {
        if (launch_blocks(t) > blocks.size())
            out << "(" << launch_blocks(t) << " blocks in all over " << t.launches.size()
                << (t.launches.size() == 1 ? " launch" : " launches") << "; the others run the same steps on their own elements)\n";
    } else if (t.grid > blocks.size() - (t.finisher_block == t.grid ? 1 : 0)) {
        out << "(" << t.grid << " blocks in all; the others run the same steps on their own elements)\n";
    }
}

void print_result(std::ostream& out, const Trace& t, const Analysis& a) {
    const Schedule& s = t.schedule;
    // A plain CUDA argmax writes an int index to out[0]: the result is that int; the pair's value is the maximum its
    // history recorded.
    if (s.op == Op::ArgMax && !t.launches.empty() && !(t.result_flags & kUndefined)) {
        const int32_t got = int32_t(uint32_t(t.result_value >> 32)), want = int32_t(uint32_t(t.reference_value >> 32));
        const std::string max = format_value(Op::Max, s.type, t.reference_value & 0xffffffffu);
        out << "\nresult    " << got << "  (the index in out[0])\n";
        out << "reference " << want << "  (the first index of the maximum " << max << ")\n";
        if (got != want) out << "          out[0] holds " << got << ", and the first index of the maximum " << max << " is " << want << "\n";
        else if ((t.result_value & 0xffffffffu) != (t.reference_value & 0xffffffffu))
            out << "          out[0] holds " << got << ", but the value its history recorded is "
                << format_value(Op::Max, s.type, t.result_value & 0xffffffffu) << ", not the maximum " << max << "\n";
        out << "verdict   " << to_string(a.verdict) << "\n";
        return;
    }
    out << "\nresult    " << format_value(s.op, s.type, t.result_value, t.result_flags);
    if ((t.result_flags & kUndefined) && t.backend == Backend::Cuda)
        out << " by the rules; this GPU returned " << format_value(s.op, s.type, t.result_value);
    out << "\n";
    out << "reference " << format_value(s.op, s.type, t.reference_value) << "  ("
        << (s.op == Op::Sum ? "exact sum, rounded once" : s.op == Op::Prod ? "product in extended precision" : "exact")
        << ")\n";
    char buf[256];
    out << "verdict   " << to_string(a.verdict);
    if (a.verdict != Verdict::Undefined && is_float_type(s.type) && (s.op == Op::Sum || s.op == Op::Prod || s.op == Op::SumCount)) {
        snprintf(buf, sizeof buf, "  (abs error %.3g, rel %.3g, %.2f ulp; bound %.3g = %s)", a.abs_error, a.rel_error,
                 a.ulps, a.error_bound, a.bound_formula.c_str());
        out << buf;
    }
    out << "\n";
}

void print_depth_table(std::ostream& out, const Trace& t, const Analysis& a) {
    const uint64_t n = t.schedule.n;
    char buf[256];
    out << "\n" << pad("", 26, false) << pad("combines", 12) << pad("depth", 10) << "\n";
    snprintf(buf, sizeof buf, "%-26s%12llu%10llu\n", "serial chain", (unsigned long long)(n - 1), (unsigned long long)a.serial_depth);
    out << buf;
    snprintf(buf, sizeof buf, "%-26s%12llu%10u\n", "ideal tree", (unsigned long long)(n - 1), a.tree_depth);
    out << buf;
    snprintf(buf, sizeof buf, "%-26s%12llu%10u\n", "this schedule", (unsigned long long)a.work, a.span);
    out << buf;
    for (int i = 0; i < 4; ++i) {
        snprintf(buf, sizeof buf, "%-26s%12llu%10u\n", ("  " + std::string(to_string(Scope(i))) + (i == 0 ? " (registers)" : "")).c_str(), (unsigned long long)a.work_by_scope[i], a.span_by_scope[i]);
        out << buf;
    }
    if (a.identity_combines)
        out << "  + " << a.identity_combines << " combine(s) with the identity (lanes without data), not counted as work\n";
    if (a.redundant_combines)
        out << "  + " << a.redundant_combines << " combine(s) whose value never reaches the result\n";
    if (t.detail.active())  // summarised: the chains run through the kept events only, not the run's
        out << "(depth: the longest chain of combines among the " << t.events.size() << " events kept, of the run's " << a.events
            << "; the summarised blocks' combines count as work, not depth)\n";
    else
        out << "(depth: the longest chain of combines in the trace's own dependencies; " << a.events << " events)\n";
}

namespace {
// One finding a line, its rule once per kind; at most 20 lines of each list.
void print_findings(std::ostream& out, const Trace& t, const std::vector<Hazard>& findings) {
    std::set<HazardKind> explained;
    size_t shown = 0;
    for (const Hazard& h : findings) {
        if (++shown > 20) {
            out << "  ... and " << (findings.size() - 20) << " more (rlab trace --format json lists all)\n";
            break;
        }
        char lanes[16];
        snprintf(lanes, sizeof lanes, "%08x", h.lanes);
        // (a plain run's message starts with its place in words: "In launch 2, block 0, warp 0, lanes 0-15: ...")
        out << "  [" << to_string(h.kind) << "]";
        if (t.launches.empty()) out << " block " << h.block << " warp " << h.warp << " lanes 0x" << lanes;
        out << " (event " << h.event << ", step " << t.events[h.event].step << "): " << h.what << "\n";
        if (explained.insert(h.kind).second) out << "      rule: " << rule_of(h.kind) << "\n";
    }
}
}  // namespace

void print_hazards(std::ostream& out, const Trace& t) {
    if (t.hazards.empty()) {
        out << "\nno hazards\n";
    } else {
        out << "\n" << t.hazards.size() << " hazard(s):\n";
        print_findings(out, t, t.hazards);
    }
    // Cost findings: the code is correct; they never change the exit code.
    if (!t.notes.empty()) {
        out << "\n" << t.notes.size() << " note(s), about cost (correct code, not a hazard):\n";
        print_findings(out, t, t.notes);
    }
    // Bank conflicts, divergence and idle lanes, from the events: notes about cost too (docs/costs.md).
    out << "\n";
    for (const std::string& line : cost_note_lines(compute_costs(t)))
        out << line << (t.detail.active() ? " (over the events kept: the blocks in full and the others' kept events)" : "") << "\n";
}

}  // namespace rl::cli
