// app/render/scene.h — the picture of one frame as plain data: a pure function of (trace, cursor, view).
// Sections: colours and styles · the layout index (built once per trace) · cursor and view · the scene ·
// build_scene / pick / navigation helpers. No GL here: tests read scenes without a context.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>
#include "core/trace.h"

namespace rl::render {

// ---- colours and styles -------------------------------------------------------------------------
struct Color {
    float r = 0, g = 0, b = 0, a = 1;
    bool operator==(const Color&) const = default;
};
Color rgb(uint32_t hex, float alpha = 1.0f);

// Box fill patterns: shape and pattern carry meaning, colour only repeats it (colour-blind safe).
enum class Pattern : uint8_t {
    Solid = 0,     // an ordinary value
    Hatched = 1,   // undefined value: diagonal stripes
    Dashed = 2,    // identity only (tail lane without data): hollow box, dashed border
    Bars = 3,      // a barrier: vertical bars, "everyone waits here"
    Dotted = 4,    // folded group of many events (level of detail)
};

// What a box stands for; tests and picking use it.
// TimeMark and Wait belong to the time view (time_scene.h): an event at its timestamp, a barrier wait.
enum class BoxRole : uint8_t { Value, Travelling, Folded, Barrier, MaskLane, WarpBand, RowHighlight, Badge, LabelBack, TimeMark, Wait };

struct Palette {
    Color background, text, text_dim, grid_line, warp_band, row_current;
    Color value, value_text, store, partial, atomic, identity_edge, undefined, hazard, arrow, arrow_text;
    Color mask_on, mask_off, barrier, cone, selected, folded;
    Color line_mark;  // events of the source line clicked in the source panel
};
const Palette& palette(bool dark);

// ---- the layout index: where every event goes, built once per trace ------------------------------
struct Cell {
    uint32_t col;    // column (see Layout::column)
    uint32_t event;  // the value this thread holds after this step
};
struct ArrowRef {
    uint32_t src_col, dst_col;
    uint32_t event;      // the shuffle (or the load that read another thread's value)
    uint32_t src_event;  // the event whose value travels
    uint16_t src_row;
};
struct Mark {            // a barrier / sync arrival of one warp or block
    uint32_t col0, col1;  // columns it spans
    uint32_t event;
};
struct Row {
    uint16_t step = 0;
    Scope scope = Scope::Thread;
    std::string label;     // "shfl_down offset 4"
    uint32_t mask = 0;     // the first shuffle's mask (shuffle rows)
    bool mixed_masks = false;
    bool has_hazard = false;
    std::vector<Cell> cells;      // sorted by column
    std::vector<uint32_t> undefined_prefix, identity_prefix, hazard_prefix;  // prefix counts over cells, for folding
    std::vector<ArrowRef> arrows; // sorted by min(src, dst) column
    uint32_t max_arrow_span = 0;
    std::vector<Mark> marks;      // sorted by col0
    std::vector<uint32_t> marks_end;    // prefix maximum of marks' col1: a folded run of marks is measured without a walk
    std::vector<uint32_t> mask_events;  // one shuffle per (block, warp) in this row: its mask is drawn; sorted by mask_cols
    std::vector<uint32_t> mask_cols;    // the column of each mask's lane 0: the warps in view are found by binary search
    std::vector<uint32_t> hazard_cols;  // columns with a hazard at this step (sorted): their boxes get a badge
};
struct Layout {
    uint32_t threads = 1;      // columns per block (threads of the widest block)
    uint32_t gap = 1;          // empty columns between blocks
    uint32_t blocks = 1;       // block slots (grid, plus one for a second launch)
    uint64_t columns = 1;
    std::vector<Row> rows;     // one per step
    std::vector<uint32_t> event_row;  // row of each event
    std::vector<uint32_t> hazard_rows;  // rows with a hazard, ascending
    uint64_t column(uint32_t block, uint32_t thread) const { return uint64_t(block) * (threads + gap) + thread; }
};
Layout build_layout(const Trace& t);

// ---- cursor and view ------------------------------------------------------------------------------
struct Cursor {
    int step = 0;      // rows before `step` are complete
    float t = 1.0f;    // progress of row `step`: 0 nothing yet, 1 complete (values travel in between)
    bool operator==(const Cursor&) const = default;
};

struct View {
    float width = 1280, height = 720;  // pixels
    double x0 = 0;                     // column at the left edge of the lanes area
    double px_per_col = 64;            // horizontal zoom
    float row_h = 64;                  // vertical zoom (pixels per step row)
    float y0 = 0;                      // vertical scroll in pixels
    float font_scale = 1.0f;           // Ctrl +/- for projectors
    bool dark = true;
    uint32_t selected = kNoEvent;      // clicked event
    const std::vector<uint8_t>* cone = nullptr;  // 1 per event in the selected event's dependency cone
    const std::vector<uint8_t>* marked = nullptr;  // 1 per event of the source line clicked (edged in line_mark)
    bool is_marked(uint32_t ev) const { return marked && ev < marked->size() && (*marked)[ev]; }
    float gutter() const { return 210.0f * font_scale; }   // row labels on the left
    float header() const { return 58.0f * font_scale; }    // block / warp / lane labels on top
    // Field by field, the cone and marks by address: app/lab's scene cache compares views (their contents are versioned there).
    bool operator==(const View&) const = default;
};

// Whole grid in view (rows fit the height within legible bounds).
View fit_view(const Layout& l, float width, float height, float font_scale = 1.0f);
// Zoom around a screen point by a factor (>1 zooms in).
void zoom_view(View& v, const Layout& l, float factor, float sx, float sy);
// The zoom both views share: the column under (sx, sy) stays put with px_per_col clamped to
// [min_ppc, max_ppc]; rows zoom by sqrt(factor), slower, so their labels stay legible.
void zoom_about(View& v, float factor, float sx, float sy, double min_ppc, double max_ppc);
// One lane fills the lanes area (the deepest zoom).
View lane_view(const Layout& l, float width, float height, uint32_t block, uint32_t thread, float font_scale = 1.0f);

// ---- the scene ------------------------------------------------------------------------------------
struct SceneBox {
    float x, y, w, h;
    Color fill, edge;
    float edge_w = 1.0f;
    float radius = 3.0f;
    Pattern pattern = Pattern::Solid;
    BoxRole role = BoxRole::Value;
    uint8_t layer = 1;         // 0 under the arrows, 1 over them
    uint32_t event = kNoEvent;
    uint32_t count = 1;        // events folded into this box
};
struct SceneArrow {
    float x0, y0, x1, y1;
    Color color;
    float width = 2.0f;
    float head = 8.0f;
    uint32_t event = kNoEvent;
    uint32_t offset = 0;       // shuffle offset (0 when not a shuffle)
};
enum class Align : uint8_t { Left, Center, Right };
struct SceneText {
    float x, y;                // anchor: baseline-free, y is the vertical centre of the text
    float size;                // pixel height
    Color color;
    std::string text;
    Align align = Align::Center;
    uint32_t event = kNoEvent;
};
struct Scene {
    float width = 0, height = 0;
    Color background;
    std::vector<SceneBox> boxes;
    std::vector<SceneArrow> arrows;
    std::vector<SceneText> texts;
    std::vector<SceneBox> overlay_boxes;  // gutter and header: drawn last, not clipped to the lanes area
    std::vector<SceneText> overlay_texts;
    uint64_t folded_events = 0;  // events drawn inside folded boxes (level of detail)
    // Lanes area (for clipping): x >= clip_x, y >= clip_y.
    float clip_x = 0, clip_y = 0;
};

Scene build_scene(const Trace& t, const Layout& l, const Cursor& c, const View& v);
Scene build_scene(const Trace& t, const Cursor& c, const View& v);  // builds the layout: tests

// ---- pieces both views (steps here, time in time_scene.h) are built from --------------------------
// An empty scene of the view's size: its background, and content clipped to the right of the gutter, below the header.
Scene empty_scene(const View& v);
// An unpatterned, square box of one colour (backgrounds, rules, ticks).
SceneBox flat_box(float x, float y, float w, float h, Color c, BoxRole role, uint8_t layer = 1);
// The gutter and header backgrounds over the content, with the rule along the gutter (overlays).
void add_margins(Scene& s, const View& v, const Palette& P);
// Row labels in the gutter: one line, or a second smaller line when rows are tall enough (min_two_lines_px).
struct RowLabels {
    bool two_lines;
    float size;   // the first line's text size
    int every;    // label every k-th row, so labels never overlap
    RowLabels(const View& v, float min_two_lines_px, float size_of_row);
    float first_y(float row_top, const View& v, float two_line_pos) const;
};

// The event under a screen point (top-most value box), or kNoEvent.
uint32_t pick(const Scene& s, float x, float y);

// Whether multisampling would change the picture: the shaders smooth box outlines, shafts and glyphs themselves,
// so only arrow heads (plain triangles) and the diagonal stripes of hatched boxes have hard edges. The classroom
// draws with --msaa samples only then (on a software renderer 4x costs ~8 ms of a redrawn canvas).
bool has_hard_edges(const Scene& s);

// Text shown in a value box for an event ("36", "(0)", "?").
std::string box_text(const Trace& t, const Event& e);

// Playback helpers: the last step, and the first row after `step` that holds a hazard (-1 when none).
int last_step(const Layout& l);
int next_hazard_step(const Layout& l, int step);
int prev_hazard_step(const Layout& l, int step);
// Event in the given row with a hazard (for selection when jumping), or kNoEvent.
uint32_t first_hazard_event(const Trace& t, const Layout& l, int step);

// The scene as JSON (for --dump-scene and debugging). With `panels`, a "panels" key after the scene's own holds what
// the lab bench's panels drew that frame (drawn_panels.h); the scene's keys are the same either way.
struct DrawnPanels;
void dump_scene_json(std::ostream& out, const Scene& s, const DrawnPanels* panels = nullptr);

}  // namespace rl::render
