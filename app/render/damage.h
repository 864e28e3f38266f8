// app/render/damage.h — which rectangles of a window a new frame changes, found by comparing its triangles with the last frame's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rl::render {

// Window pixels, top row 0, ends exclusive.
struct DamageRect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool empty() const { return x1 <= x0 || y1 <= y0; }
    long long area() const { return empty() ? 0 : (long long)(x1 - x0) * (y1 - y0); }
    bool operator==(const DamageRect&) const = default;
};

DamageRect intersect(const DamageRect& a, const DamageRect& b);
DamageRect unite(const DamageRect& a, const DamageRect& b);  // the smallest rectangle holding both (an empty one adds nothing)

// One triangle as a front end draws it: its three corners (position, then whatever else decides its pixels, such as
// texture coordinates and colour, as opaque words), the clip rectangle it is drawn under and its texture.
struct DrawnTriangle {
    float x[3] = {}, y[3] = {};
    uint32_t rest[3][3] = {};  // per corner: u, v (as bits) and the packed colour
    float clip[4] = {};        // x0, y0, x1, y1 in window pixels
    uint64_t texture = 0;
    bool operator==(const DrawnTriangle&) const = default;
};

// A frame as a list of draw lists, each drawn in order, each a sequence of triangles drawn in order.
using DrawnFrame = std::vector<std::vector<DrawnTriangle>>;

// One instance the scene renderer draws (app/render/renderer.cpp), or the clear of the scene's background.
enum class InstanceKind : uint8_t { Clear, Box, Arrow, Glyph };
struct DrawnInstance {
    InstanceKind kind = InstanceKind::Box;
    uint8_t pass = 0;     // the renderer's passes in drawing order: the clear, boxes under arrows, arrows, ...
    float data[16] = {};  // the attributes the shader reads (canvas pixels), in its order; the colour of a clear
    int x = 0, y = 0;     // the canvas's top-left corner in the window
    DamageRect clip;      // the scissor it is drawn under, window pixels
    bool operator==(const DrawnInstance&) const = default;
};

// The pixels a triangle can touch: its bounding box, widened to whole pixels, within its clip rectangle.
DamageRect covered(const DrawnTriangle& t);
// The pixels an instance can touch, from what its shader draws (shaders/box.vert, arrow.vert, text.vert), within its
// scissor; a clear covers its scissor.
DamageRect covered(const DrawnInstance& i);

// Where two sequences drawn in order can differ: the items both share at the start and at the end are left out and
// the rest's pixels (in `before` and in `now`) are united. Every pixel outside is covered by the same items in the
// same order in both, so it keeps its colour.
template <class Item>
DamageRect changed_span(const std::vector<Item>& before, const std::vector<Item>& now) {
    const std::vector<Item>& a = before;
    const std::vector<Item>& b = now;
    const std::size_t n = a.size() < b.size() ? a.size() : b.size();
    std::size_t head = 0;
    while (head < n && a[head] == b[head]) ++head;
    std::size_t tail = 0;
    while (tail < n - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
    DamageRect r;
    for (std::size_t i = head; i < a.size() - tail; ++i) r = unite(r, covered(a[i]));
    for (std::size_t i = head; i < b.size() - tail; ++i) r = unite(r, covered(b[i]));
    return r;
}

// Where a scene drawn as `now` can differ from `before`: changed_span of each pass (a changed row highlight early in
// the boxes and the step's marker late in the gutter's overlay do not make the whole canvas damaged).
std::vector<DamageRect> scene_damage(const std::vector<DrawnInstance>& before, const std::vector<DrawnInstance>& now);

// Where `now` can differ from `before` on screen: changed_span of each draw list. Draw lists that differ in number make the whole
// `window` damaged. Rectangles are merged while there are more than `max_rects` or two overlap.
std::vector<DamageRect> damage(const DrawnFrame& before, const DrawnFrame& now, const DamageRect& window, int max_rects = 6);

// Merges overlapping rectangles, then the pair whose union adds the fewest pixels until at most `max_rects` remain;
// each result is clipped to `window` and empty ones are dropped.
std::vector<DamageRect> merge_rects(std::vector<DamageRect> rects, const DamageRect& window, int max_rects);

}  // namespace rl::render
