// app/lab/source_view.h — what the source panel shows, for both front ends: the rows (source or bug diff) with the
// current step's lines, the picked line and the bug's lines marked, and the two links between lines and events.
#pragma once
#include <string_view>
#include <vector>
#include "app/lab/lab_state.h"

namespace rl::lab {

// One row of the source panel: a line of the shown source or, in the diff view, a clean line the bug removed.
struct SourceRow {
    int line = 0;            // 1-based line of s.source.source; 0 for a clean-only row of the diff
    int clean_line = 0;      // 1-based line of the clean source; 0 for a line only the bug has
    char op = ' ';           // ' ' unchanged, '-' only in the clean source, '+' only in the buggy one (diff view)
    std::string_view text;   // points into s.source: valid until the next trace
    bool bug = false;        // a switched-on bug changed or added this line (marked in the gutter)
    bool step = false;       // this line produced an event of the current step
    bool picked = false;     // the line clicked, or the line of the event clicked (s.source_line)
    bool error = false;      // a student's kernel did not compile: the first error is on this line
};

// The rows to draw: the source of the shown trace, or with s.source_diff (and a bug on) the diff against the clean
// source, the bug's lines marked '+' and the lines it replaced '-'.
std::vector<SourceRow> source_rows(const LabState& s);
// The lines of the cursor's step (sorted): the lines the panel highlights and scrolls to as the animation plays.
std::vector<int> current_step_lines(const LabState& s);
// The row to scroll into view: the picked line's when it is shown, else the first row of the current step, else -1.
int focus_row(const std::vector<SourceRow>& rows);
// True when the shown schedule has a bug switched on (the diff key means something).
bool has_bug_diff(const LabState& s);

// A click on a line: it becomes s.source_line, its events are marked in the canvas (s.line_marks; the
// selection is cleared), and when none of them is drawn yet the cursor moves to the step of the first one.
// Line 0 or a line without events clears the marks.
void pick_line(LabState& s, int line);
// After a click on an event (s.selected): its line becomes s.source_line and the line marks are cleared.
void line_of_selection(LabState& s);

// Source text size in pixels for a front end: its normal size, or at presenter size on a screen `screen_h` pixels
// high, never under 18 px at 1080 lines (the back row reads it), growing with taller screens.
float source_font_px(float normal_px, bool presenter, float screen_h);

}  // namespace rl::lab
