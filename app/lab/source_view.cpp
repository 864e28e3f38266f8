// app/lab/source_view.cpp — the source panel's rows and the line <-> event links, computed from LabState's SourceModel.
#include "app/lab/source_view.h"

#include <algorithm>
#include <cmath>

namespace rl::lab {

namespace {

const SourceLine* line_at(const KernelSource& src, int line) {
    return line >= 1 && size_t(line) <= src.lines.size() ? &src.lines[size_t(line) - 1] : nullptr;
}

}  // namespace

bool has_bug_diff(const LabState& s) {
    return std::any_of(s.source.source.lines.begin(), s.source.source.lines.end(), [](const SourceLine& l) { return l.bug; });
}

std::vector<int> current_step_lines(const LabState& s) {
    if (s.layout.rows.empty() || s.trace.events.empty()) return {};
    const size_t row = size_t(std::clamp(s.cursor.step, 0, int(s.layout.rows.size()) - 1));
    return s.source.lines_of_step(s.layout.rows[row].step);  // indexed once per trace (source_model.h)
}

std::vector<SourceRow> source_rows(const LabState& s) {
    const std::vector<int> step = current_step_lines(s);
    const auto make = [&](int line, int clean_line, char op) {
        SourceRow r{line, clean_line, op, {}, false, false, false, false};
        r.error = line > 0 && !s.kernel->error.empty() && line == s.kernel->error_line;
        if (const SourceLine* l = line_at(s.source.source, line)) {
            r.text = l->text;
            r.bug = l->bug;
            r.step = std::binary_search(step.begin(), step.end(), line);
            r.picked = line == s.source_line;
        } else if (const SourceLine* c = line_at(s.source.clean, clean_line)) {
            r.text = c->text;
        }
        return r;
    };
    std::vector<SourceRow> rows;
    if (s.source_diff && has_bug_diff(s) && !s.source.diff.empty()) {
        rows.reserve(s.source.diff.size());
        for (const DiffLine& d : s.source.diff) rows.push_back(make(d.op == '-' ? 0 : d.bug_line, d.op == '+' ? 0 : d.clean_line, d.op));
        // In each run of changed lines the clean ones first, as diffs read: what was there, then what the bug put.
        for (auto it = rows.begin(); it != rows.end();) {
            const auto end = std::find_if(it, rows.end(), [](const SourceRow& r) { return r.op == ' '; });
            std::stable_partition(it, end, [](const SourceRow& r) { return r.op == '-'; });
            it = end == rows.end() ? end : end + 1;
        }
        return rows;
    }
    rows.reserve(s.source.source.lines.size());
    for (int i = 1; i <= int(s.source.source.lines.size()); ++i) rows.push_back(make(i, 0, ' '));
    return rows;
}

int focus_row(const std::vector<SourceRow>& rows) {
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].error) return int(i);
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].picked) return int(i);
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].step) return int(i);
    return -1;
}

void pick_line(LabState& s, int line) {
    s.select(kNoEvent);  // the canvas shows the line's events, not the cone of an earlier click
    s.line_marks.clear();
    s.shown_changed();  // the marks are edited in place: the canvas's cached scene must not keep the old ones
    s.source_line = line_at(s.source.source, line) ? line : 0;
    if (!s.source_line) return;
    const std::vector<uint32_t> events = s.source.events_of_line(line);
    if (events.empty()) return;
    s.line_marks.assign(s.trace.events.size(), 0);
    uint32_t first_row = UINT32_MAX;
    for (uint32_t e : events) {
        if (e >= s.line_marks.size()) continue;
        s.line_marks[e] = 1;
        if (e < s.layout.event_row.size()) first_row = std::min(first_row, s.layout.event_row[e]);
    }
    // Rows after the cursor are not drawn: show at least the first of the line's events.
    if (first_row != UINT32_MAX && int(first_row) > s.cursor.step) {
        s.playing = false;
        s.set_step(int(first_row));
    }
}

void line_of_selection(LabState& s) {
    s.line_marks.clear();
    s.shown_changed();
    s.source_line = (s.selected != kNoEvent && s.selected < s.source.event_line.size()) ? int(s.source.event_line[s.selected]) : 0;
}

float source_font_px(float normal_px, bool presenter, float screen_h) {
    if (!presenter) return normal_px;
    // 20 px at 1080 lines: a margin over the 18 px floor; taller screens get proportionally larger text.
    return std::max({normal_px, 18.0f, std::round(20.0f * std::max(screen_h, 1.0f) / 1080.0f)});
}

}  // namespace rl::lab
