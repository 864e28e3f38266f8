// app/render/retained_frame.h — a picture kept in an offscreen framebuffer, drawn again only when what it shows changed.
// Includes no GL header (like renderer.h): the classroom keeps its canvas in one and paints the image read back.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include "app/render/damage.h"

namespace rl::render {

// A software renderer (llvmpipe) spends a frame's time filling pixels, not building scenes: drawing a picture again
// when nothing in it changed is most of a frame. The caller describes what the picture shows by bytes (`content`:
// the scene's build, the theme); while they and the size stay the same, the kept pixels serve (read_rgba, present).
// Needs the same current GL 3.3 core context for every call; release() before the context goes.
class RetainedFrame {
public:
    RetainedFrame() = default;
    ~RetainedFrame();  // GL objects are released by release(), which needs the context; the destructor cannot
    RetainedFrame(const RetainedFrame&) = delete;
    RetainedFrame& operator=(const RetainedFrame&) = delete;

    // True when the kept picture is not of this size and content (or there is none yet): draw it again.
    bool stale(int width, int height, std::string_view content) const;
    // Binds the offscreen framebuffer (made or resized as needed; `samples` > 1 draws multisampled) as the target of
    // the drawing that follows, and remembers `content` as what it will show. false (and one line in `error`) when
    // this GL cannot make it: draw straight into the window then.
    bool begin_redraw(int width, int height, int samples, std::string_view content, std::string* error = nullptr);
    // After the drawing: resolves the samples into the kept picture; framebuffer 0 is bound again.
    void end_redraw();
    // Redrawing in part: true when a picture of this size and multisampling is kept; binds its framebuffer (which
    // still holds that picture) and remembers `content`. The drawing that follows keeps to some rectangles (its
    // scissor), and end_redraw(rects) resolves only those. false: draw it whole (begin_redraw).
    bool begin_partial(int width, int height, int samples, std::string_view content);
    void end_redraw(const std::vector<DamageRect>& rects);
    // One rectangle (top-down pixels) of the kept picture into the same place of `out` (read_argb32's layout).
    void read_argb32(uint8_t* out, size_t stride, const DamageRect& r) const;
    // Copies the kept picture into framebuffer `target` (0: the window's back buffer) at its lower-left corner.
    void present(unsigned target = 0) const;
    // The kept picture as RGBA, top row first (screenshots, tests).
    std::vector<uint8_t> read_rgba() const;
    // The kept picture into `out`: height() rows of `stride` bytes (at least width() * 4), top row first, as 32-bit
    // 0xAARRGGBB words in this machine's byte order, the layout of QImage::Format_RGB32: read straight into the
    // classroom's image, with no conversion pass.
    void read_argb32(uint8_t* out, size_t stride) const;
    void release();  // deletes the GL objects; the context must be current

    bool ready() const { return drawn_ && fbo_ != 0; }  // a picture is kept
    int width() const { return w_; }
    int height() const { return h_; }
    uint64_t redraws() const { return redraws_; }  // how many times the picture was drawn again

private:
    unsigned fbo_ = 0, color_ = 0, ms_fbo_ = 0, ms_color_ = 0;
    int w_ = 0, h_ = 0, samples_ = 0;
    bool drawn_ = false;
    std::string content_;
    uint64_t redraws_ = 0;
};

}  // namespace rl::render
