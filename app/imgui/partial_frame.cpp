// app/imgui/partial_frame.cpp — ImGui's triangles for the damage diff, clipped redraws and GLX sub-buffer copies.
#include <epoxy/gl.h>
#include <epoxy/glx.h>

#include "app/imgui/partial_frame.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace rl::lab {

std::optional<render::DrawnFrame> drawn_frame(const ImDrawData& d) {
    render::DrawnFrame out(size_t(std::max(0, d.CmdListsCount)));
    const ImVec2 off = d.DisplayPos, scale = d.FramebufferScale;
    for (int l = 0; l < d.CmdListsCount; ++l) {
        const ImDrawList& list = *d.CmdLists[l];
        std::vector<render::DrawnTriangle>& tris = out[size_t(l)];
        tris.reserve(size_t(list.IdxBuffer.Size / 3));
        for (const ImDrawCmd& c : list.CmdBuffer) {
            if (c.UserCallback) return std::nullopt;
            render::DrawnTriangle t;
            // As imgui_impl_opengl3 turns the clip rectangle into its scissor.
            t.clip[0] = (c.ClipRect.x - off.x) * scale.x, t.clip[1] = (c.ClipRect.y - off.y) * scale.y;
            t.clip[2] = (c.ClipRect.z - off.x) * scale.x, t.clip[3] = (c.ClipRect.w - off.y) * scale.y;
            t.texture = uint64_t(reinterpret_cast<uintptr_t>(c.TextureId));
            for (unsigned e = 0; e + 2 < c.ElemCount; e += 3) {
                for (int k = 0; k < 3; ++k) {
                    const ImDrawVert& v = list.VtxBuffer[int(c.VtxOffset + list.IdxBuffer[int(c.IdxOffset + e + unsigned(k))])];
                    t.x[k] = (v.pos.x - off.x) * scale.x, t.y[k] = (v.pos.y - off.y) * scale.y;
                    std::memcpy(&t.rest[k][0], &v.uv.x, 4), std::memcpy(&t.rest[k][1], &v.uv.y, 4);
                    t.rest[k][2] = v.col;
                }
                tris.push_back(t);
            }
        }
    }
    return out;
}

ClippedDrawer::ClippedDrawer() = default;
ClippedDrawer::~ClippedDrawer() {
    for (ImDrawList* l : lists_) IM_DELETE(l);
}

void ClippedDrawer::draw(const ImDrawData& d, const render::DamageRect& r) {
    const ImVec2 off = d.DisplayPos, scale = d.FramebufferScale;
    const ImVec4 lim{float(r.x0) / scale.x + off.x, float(r.y0) / scale.y + off.y, float(r.x1) / scale.x + off.x,
                     float(r.y1) / scale.y + off.y};
    std::vector<ImDrawList*> out;
    int vtx_total = 0, idx_total = 0;
    for (int l = 0; l < d.CmdListsCount; ++l) {
        const ImDrawList& src = *d.CmdLists[l];
        if (lists_.size() <= out.size()) lists_.push_back(IM_NEW(ImDrawList)(ImGui::GetDrawListSharedData()));
        ImDrawList& dst = *lists_[out.size()];
        dst.VtxBuffer.resize(0), dst.IdxBuffer.resize(0), dst.CmdBuffer.resize(0);
        if (remap_.size() < size_t(src.VtxBuffer.Size)) remap_.resize(size_t(src.VtxBuffer.Size)), stamped_.resize(remap_.size(), 0);
        for (const ImDrawCmd& c : src.CmdBuffer) {
            // As imgui_impl_opengl3 skips a command whose clip rectangle is empty.
            const ImVec4 clip{std::max(c.ClipRect.x, lim.x), std::max(c.ClipRect.y, lim.y), std::min(c.ClipRect.z, lim.z),
                              std::min(c.ClipRect.w, lim.w)};
            if (clip.z <= clip.x || clip.w <= clip.y || c.UserCallback) continue;
            ImDrawCmd nc = c;
            nc.ClipRect = clip;
            nc.VtxOffset = unsigned(dst.VtxBuffer.Size);  // this command's vertices start here: 16-bit indices suffice
            nc.IdxOffset = unsigned(dst.IdxBuffer.Size);
            ++stamp_;
            for (unsigned e = 0; e + 2 < c.ElemCount; e += 3) {
                const unsigned base = c.IdxOffset + e;
                const ImDrawVert* v[3];
                for (int k = 0; k < 3; ++k) v[k] = &src.VtxBuffer[int(c.VtxOffset + src.IdxBuffer[int(base + unsigned(k))])];
                // A triangle draws no pixel of `clip` when its bounding box (one pixel wider) misses it.
                const float x0 = std::min({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x}), x1 = std::max({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x});
                const float y0 = std::min({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y}), y1 = std::max({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y});
                if (!(x1 + 1.0f > clip.x && x0 - 1.0f < clip.z && y1 + 1.0f > clip.y && y0 - 1.0f < clip.w)) continue;
                for (int k = 0; k < 3; ++k) {
                    const unsigned vi = c.VtxOffset + src.IdxBuffer[int(base + unsigned(k))];
                    if (stamped_[vi] != stamp_) {
                        stamped_[vi] = stamp_;
                        remap_[vi] = dst.VtxBuffer.Size - int(nc.VtxOffset);
                        dst.VtxBuffer.push_back(src.VtxBuffer[int(vi)]);
                    }
                    dst.IdxBuffer.push_back(ImDrawIdx(remap_[vi]));
                }
            }
            nc.ElemCount = unsigned(dst.IdxBuffer.Size) - nc.IdxOffset;
            if (nc.ElemCount) dst.CmdBuffer.push_back(nc);
        }
        if (dst.CmdBuffer.Size == 0) continue;
        vtx_total += dst.VtxBuffer.Size, idx_total += dst.IdxBuffer.Size;
        out.push_back(&dst);
    }
    ImDrawData part = d;
    part.CmdLists = out.data();
    part.CmdListsCount = int(out.size());
    part.TotalVtxCount = vtx_total, part.TotalIdxCount = idx_total;
    ImGui_ImplOpenGL3_RenderDrawData(&part);
}

PartialPresenter::PartialPresenter(GLFWwindow* window) {
    if (const char* e = std::getenv("RLAB_FULL_REDRAW"); e && std::string(e) == "1") {
        why_not_ = "RLAB_FULL_REDRAW=1";
        return;
    }
    // The window's context is current: GLX names its display and drawable (none where GLFW runs on Wayland or EGL).
    glfwMakeContextCurrent(window);
    Display* dpy = glXGetCurrentDisplay();
    const GLXDrawable drawable = dpy ? glXGetCurrentDrawable() : 0;
    if (!dpy || !drawable) {
        why_not_ = "not a GLX window";
        return;
    }
    if (!epoxy_has_glx_extension(dpy, DefaultScreen(dpy), "GLX_MESA_copy_sub_buffer")) {
        why_not_ = "no GLX_MESA_copy_sub_buffer";
        return;
    }
    display_ = dpy, drawable_ = drawable, active_ = true;
}

bool PartialPresenter::drawable_is(int width, int height) const {
    unsigned w = 0, h = 0;
    glXQueryDrawable(static_cast<Display*>(display_), GLXDrawable(drawable_), GLX_WIDTH, &w);
    glXQueryDrawable(static_cast<Display*>(display_), GLXDrawable(drawable_), GLX_HEIGHT, &h);
    // Mesa's copy of a window taller or wider than the screen fails in MIT-SHM (X_ShmPutImage: BadValue, seen under
    // Xvfb with a 440x1138 window on a 1600x900 screen): such a window is swapped whole.
    Display* dpy = static_cast<Display*>(display_);
    const bool fits = width <= DisplayWidth(dpy, DefaultScreen(dpy)) && height <= DisplayHeight(dpy, DefaultScreen(dpy));
    return fits && int(w) == width && int(h) == height;
}

void PartialPresenter::present(const std::vector<render::DamageRect>& rects, int fb_height) const {
    // GLX counts rows from the bottom; the copy flushes the context first.
    for (const render::DamageRect& r : rects) {
        if (!r.empty()) glXCopySubBufferMESA(static_cast<Display*>(display_), GLXDrawable(drawable_), r.x0, fb_height - r.y1, r.x1 - r.x0, r.y1 - r.y0);
    }
}

}  // namespace rl::lab
