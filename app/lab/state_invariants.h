// app/lab/state_invariants.h — what must hold of the lab's state after any action, whatever the action was: the trace
// is the emulator's for the schedule the knobs show (compared with a fresh emulation, event for event), its analysis
// is that trace's, the cursor and the selection are in range and the cone is the selection's, the text size and
// the view within their limits. The monkey tests (the lab layer's, the lab bench's --monkey, the classroom's)
// check it after every action. Header-only: a test's helper that the lab bench's --monkey uses too.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>
#include "app/lab/lab_state.h"
#include "app/render/presenter.h"
#include "core/analysis.h"
#include "core/emulator.h"

namespace rl::lab {

class StateInvariants {
public:
    // A trace of more events is not emulated again (the schedules the monkeys pick stay far below; counted).
    static constexpr size_t kMaxEmulatedEvents = 400000;
    static constexpr float kMinFontScale = 0.5f, kMaxFontScale = 3.0f;  // Ctrl +/- and the saved setting clamp to these

    // The first invariant that does not hold, in one line; empty when all hold.
    std::string check(const LabState& s) {
        ++checks_;
        const Trace& t = s.trace;
        const size_t n = t.events.size();
        // The trace: the schedule's, run here on the emulator (not a saved file, a student's kernel or a GPU's).
        if (s.trace_file.empty() && t.kernel_file.empty() && t.backend == Backend::Cpu && n > 0) {
            if (!(t.schedule == s.schedule)) return "the trace's schedule (" + describe(t.schedule) + ") is not the one shown (" + describe(s.schedule) + ")";
            if (n > kMaxEmulatedEvents) {
                ++skipped_;
            } else {
                if (!key_ || !(*key_ == s.schedule)) {
                    expected_ = emulate(s.schedule);
                    expected_analysis_ = analyze(expected_);
                    key_ = s.schedule;
                    ++emulations_;
                }
                if (expected_.events.size() != n)
                    return "the trace has " + std::to_string(n) + " events, a fresh emulation of " + describe(s.schedule) + " " +
                           std::to_string(expected_.events.size());
                if (std::memcmp(t.events.data(), expected_.events.data(), n * sizeof(Event)) != 0)
                    for (size_t i = 0; i < n; ++i)
                        if (std::memcmp(&t.events[i], &expected_.events[i], sizeof(Event)) != 0)
                            return "event " + std::to_string(i) + " differs from a fresh emulation of " + describe(s.schedule);
                if (t.result_event != expected_.result_event || t.result_value != expected_.result_value ||
                    t.step_count != expected_.step_count)
                    return "the result or the step count differs from a fresh emulation of " + describe(s.schedule);
                if (s.analysis_ready) {
                    const Analysis& a = s.analysis;
                    const Analysis& e = expected_analysis_;
                    if (a.work != e.work || a.span != e.span || a.serial_depth != e.serial_depth || a.tree_depth != e.tree_depth ||
                        a.verdict != e.verdict)
                        return "the analysis shown (work " + std::to_string(a.work) + ", span " + std::to_string(a.span) +
                               ") is not the trace's (work " + std::to_string(e.work) + ", span " + std::to_string(e.span) + ")";
                }
            }
        }
        // One layout row per step, the cursor on one of them.
        const int last = n ? std::max(0, int(t.step_count) - 1) : s.last();
        if (s.last() != last) return "the layout's last step " + std::to_string(s.last()) + " is not the trace's " + std::to_string(last);
        if (s.cursor.step < 0 || s.cursor.step > last)
            return "the cursor's step " + std::to_string(s.cursor.step) + " is outside [0, " + std::to_string(last) + "]";
        if (!(s.cursor.t >= 0.0f && s.cursor.t <= 1.0f)) return "the cursor's progress " + std::to_string(s.cursor.t) + " is outside [0, 1]";
        // The selection exists, and its cone is every event it depends on (the closure over the operands).
        if (s.selected == kNoEvent) {
            if (!s.cone.empty() || s.cone_size != 0) return "a cone is highlighted with nothing selected";
        } else {
            if (s.selected >= n) return "the selected event " + std::to_string(s.selected) + " is not in the trace (" + std::to_string(n) + " events)";
            if (s.cone.size() != n) return "the cone is not one flag per event";
            std::vector<uint8_t> want(n, 0);
            std::vector<uint32_t> queue{s.selected};
            want[s.selected] = 1;
            for (size_t q = 0; q < queue.size(); ++q)
                for (uint32_t d : t.events[queue[q]].dep)
                    if (d < n && !want[d]) want[d] = 1, queue.push_back(d);
            if (want != s.cone) return "the cone of event " + std::to_string(s.selected) + " is not its operands' closure";
            if (s.cone_size != queue.size())
                return "the cone's size " + std::to_string(s.cone_size) + " is not " + std::to_string(queue.size());
        }
        // The text size and the view.
        if (!(s.font_scale >= kMinFontScale && s.font_scale <= kMaxFontScale))
            return "the text size " + std::to_string(s.font_scale) + " is outside [0.5, 3]";
        const render::View& v = s.view;
        if (!(std::isfinite(v.px_per_col) && v.px_per_col > 0 && std::isfinite(v.x0) && std::isfinite(v.row_h) && v.row_h > 0 &&
              std::isfinite(v.y0) && v.y0 >= 0))
            return "the view is broken: px_per_col " + std::to_string(v.px_per_col) + ", x0 " + std::to_string(v.x0) + ", row_h " +
                   std::to_string(v.row_h) + ", y0 " + std::to_string(v.y0);
        if (!s.time_view && s.view_fitted) {
            // Rows: fit and the wheel keep 14 to 140 px per row at the view's text size (presenter: at least 1.6).
            const float lo = 14.0f * kMinFontScale, hi = 140.0f * std::max(kMaxFontScale, render::kPresenterFontScale);
            if (v.row_h < lo - 0.01f || v.row_h > hi + 0.01f)
                return "the row height " + std::to_string(v.row_h) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
            // Columns: never wider than the widest canvas (7680 px), the deepest zoom showing one lane.
            if (v.px_per_col > 7680.0) return "the zoom " + std::to_string(v.px_per_col) + " px per column is past the deepest";
        }
        return {};
    }

    int checks() const { return checks_; }
    int emulations() const { return emulations_; }  // fresh emulations (one per schedule met)
    int skipped() const { return skipped_; }        // checks whose trace was too large to emulate again

private:
    std::optional<Schedule> key_;
    Trace expected_;
    Analysis expected_analysis_;
    int checks_ = 0, emulations_ = 0, skipped_ = 0;
};

}  // namespace rl::lab
