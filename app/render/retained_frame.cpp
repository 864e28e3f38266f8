// app/render/retained_frame.cpp — the kept picture: an RGBA8 renderbuffer (and a multisampled one to draw into).
#include <epoxy/gl.h>
#include "app/render/retained_frame.h"

#include <algorithm>
#include <cstring>

namespace rl::render {

RetainedFrame::~RetainedFrame() = default;

bool RetainedFrame::stale(int width, int height, std::string_view content) const {
    return !drawn_ || width != w_ || height != h_ || content != content_;
}

namespace {

bool make_target(GLuint& fbo, GLuint& rb, int w, int h, int samples) {
    if (!fbo) glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    if (samples > 1) {
        if (!rb) glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, 0);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    } else {
        // A texture given as BGRA: Mesa then stores it in the window's byte order, and presenting it is a plain
        // copy of rows instead of a textured quad drawn over the window (llvmpipe: ~1 ms against ~8 at 1600x900).
        if (!rb) glGenTextures(1, &rb);
        glBindTexture(GL_TEXTURE_2D, rb);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindTexture(GL_TEXTURE_2D, 0);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, rb, 0);
    }
    const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok;
}

}  // namespace

bool RetainedFrame::begin_redraw(int width, int height, int samples, std::string_view content, std::string* error) {
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    samples = samples > 1 ? std::min(samples, int(max_samples)) : 0;
    if (!fbo_ || width != w_ || height != h_ || samples != samples_) {
        if (!make_target(fbo_, color_, width, height, 0) ||
            (samples > 1 && !make_target(ms_fbo_, ms_color_, width, height, samples))) {
            if (error) *error = "cannot make an offscreen framebuffer of " + std::to_string(width) + "x" + std::to_string(height);
            release();
            return false;
        }
        w_ = width, h_ = height, samples_ = samples;
    }
    content_.assign(content.data(), content.size());
    drawn_ = true;
    ++redraws_;
    glBindFramebuffer(GL_FRAMEBUFFER, samples_ > 1 ? ms_fbo_ : fbo_);
    return true;
}

bool RetainedFrame::begin_partial(int width, int height, int samples, std::string_view content) {
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    samples = samples > 1 ? std::min(samples, int(max_samples)) : 0;
    if (!ready() || width != w_ || height != h_ || samples != samples_) return false;
    content_.assign(content.data(), content.size());
    ++redraws_;
    glBindFramebuffer(GL_FRAMEBUFFER, samples_ > 1 ? ms_fbo_ : fbo_);
    return true;
}

void RetainedFrame::end_redraw(const std::vector<DamageRect>& rects) {
    if (samples_ > 1) {  // only the redrawn rectangles are resolved: the rest of the kept picture is already
        glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fbo_);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
        glDisable(GL_SCISSOR_TEST);
        for (const DamageRect& r : rects) {
            const DamageRect c = intersect(r, {0, 0, w_, h_});
            if (!c.empty()) glBlitFramebuffer(c.x0, h_ - c.y1, c.x1, h_ - c.y0, c.x0, h_ - c.y1, c.x1, h_ - c.y0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void RetainedFrame::end_redraw() {
    if (samples_ > 1) {  // the resolve: the kept picture is single-sampled, so presenting it is a plain copy
        glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fbo_);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
        glBlitFramebuffer(0, 0, w_, h_, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void RetainedFrame::present(unsigned target) const {
    if (!fbo_) return;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    glDisable(GL_SCISSOR_TEST);  // a blit is clipped by the scissor box
    glBlitFramebuffer(0, 0, w_, h_, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, target);
}

namespace {

// glReadPixels of the whole picture into rows of `stride` bytes, then the rows swapped top for bottom in place
// (GL rows run bottom-up, images top-down).
void read_rows(unsigned fbo, int w, int h, unsigned format, unsigned type, uint8_t* out, size_t stride) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ROW_LENGTH, GLint(stride / 4));
    glReadPixels(0, 0, w, h, format, type, out);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    const size_t row = size_t(w) * 4;
    std::vector<uint8_t> tmp(row);
    for (int y = 0; y < h / 2; ++y) {
        uint8_t* a = out + size_t(y) * stride;
        uint8_t* b = out + size_t(h - 1 - y) * stride;
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
}

}  // namespace

std::vector<uint8_t> RetainedFrame::read_rgba() const {
    std::vector<uint8_t> px(size_t(w_) * size_t(h_) * 4);
    if (fbo_) read_rows(fbo_, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, px.data(), size_t(w_) * 4);
    return px;
}

void RetainedFrame::read_argb32(uint8_t* out, size_t stride) const {
    // BGRA as 8_8_8_8_REV packs each pixel as the native word 0xAARRGGBB, whatever the byte order.
    if (fbo_ && stride % 4 == 0 && stride >= size_t(w_) * 4)
        read_rows(fbo_, w_, h_, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, out, stride);
}

void RetainedFrame::read_argb32(uint8_t* out, size_t stride, const DamageRect& r) const {
    const DamageRect c = intersect(r, {0, 0, w_, h_});
    if (!fbo_ || c.empty() || stride % 4 != 0 || stride < size_t(w_) * 4) return;
    const int w = c.x1 - c.x0, h = c.y1 - c.y0;
    std::vector<uint8_t> px(size_t(w) * size_t(h) * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(c.x0, h_ - c.y1, w, h, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, px.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    for (int y = 0; y < h; ++y)  // GL rows run bottom-up
        std::memcpy(out + size_t(c.y0 + y) * stride + size_t(c.x0) * 4, px.data() + size_t(h - 1 - y) * size_t(w) * 4, size_t(w) * 4);
}

void RetainedFrame::release() {
    if (fbo_) glDeleteFramebuffers(1, &fbo_);
    if (color_) glDeleteTextures(1, &color_);
    if (ms_fbo_) glDeleteFramebuffers(1, &ms_fbo_);
    if (ms_color_) glDeleteRenderbuffers(1, &ms_color_);
    fbo_ = color_ = ms_fbo_ = ms_color_ = 0;
    w_ = h_ = samples_ = 0;
    drawn_ = false;
    content_.clear();
}

}  // namespace rl::render
