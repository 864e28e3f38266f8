// app/imgui/partial_frame.h — drawing only the rectangles a lab bench frame changed, into a back buffer that is kept.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "app/render/damage.h"

struct ImDrawData;
struct ImDrawList;
struct GLFWwindow;

namespace rl::lab {

// ImGui's draw data as triangles in framebuffer pixels, in drawing order; nothing when a command is a callback,
// whose pixels the triangles do not say (the frame is then drawn whole).
std::optional<render::DrawnFrame> drawn_frame(const ImDrawData& d);

// Draws ImGui's draw data within `r` (framebuffer pixels): every command's clip rectangle limited to `r`, and only
// the triangles that can reach `r` handed to the GL (their vertices copied into lists of its own): a software
// rasteriser transforms and bins every vertex it is given, wherever the scissor is.
class ClippedDrawer {
public:
    ClippedDrawer();
    ~ClippedDrawer();
    ClippedDrawer(const ClippedDrawer&) = delete;
    ClippedDrawer& operator=(const ClippedDrawer&) = delete;
    void draw(const ImDrawData& d, const render::DamageRect& r);

private:
    std::vector<ImDrawList*> lists_;  // reused from frame to frame
    std::vector<int> remap_;                 // a vertex's index in the copy, stamped by `stamp_`
    std::vector<unsigned> stamped_;
    unsigned stamp_ = 0;
};

// Shows the back buffer's rectangles in the window without swapping, so the back buffer keeps this frame and the next
// one draws only what changed over it. GLX_MESA_copy_sub_buffer copies them (Mesa's drivers, llvmpipe under Xvfb
// included); where it is missing, or RLAB_FULL_REDRAW=1, `active()` is false and the caller draws every frame whole
// and swaps: a swap leaves the back buffer undefined.
class PartialPresenter {
public:
    explicit PartialPresenter(GLFWwindow* window);
    bool active() const { return active_; }
    const std::string& why_not() const { return why_not_; }
    void present(const std::vector<render::DamageRect>& rects, int fb_height) const;
    // Whether the X drawable is now of this size and fits on the screen: while a resize is under way GLFW's size and
    // the drawable's differ, and a copy computed from the one would reach outside the other; a window larger than
    // the screen makes Mesa's copy fail (an X error). Such a frame is swapped whole.
    bool drawable_is(int width, int height) const;

private:
    bool active_ = false;
    std::string why_not_;
    void* display_ = nullptr;
    unsigned long drawable_ = 0;
};

}  // namespace rl::lab
