// app/imgui/frame_content.cpp — ImGui's draw data written out as bytes, field by field (no struct padding).
#include "app/imgui/frame_content.h"

#include <imgui.h>

namespace rl::lab {

namespace {

template <class T>
void put(std::string& out, const T& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

void append_draw_data(std::string& out, const ImDrawData& d) {
    put(out, d.DisplayPos.x), put(out, d.DisplayPos.y), put(out, d.DisplaySize.x), put(out, d.DisplaySize.y);
    put(out, d.FramebufferScale.x), put(out, d.FramebufferScale.y), put(out, d.CmdListsCount);
    for (int i = 0; i < d.CmdListsCount; ++i) {
        const ImDrawList& l = *d.CmdLists[i];
        put(out, l.VtxBuffer.Size), put(out, l.IdxBuffer.Size), put(out, l.CmdBuffer.Size);
        // ImDrawVert is three packed fields (pos, uv, col: 20 bytes, no padding); indices are plain integers.
        static_assert(sizeof(ImDrawVert) == 2 * sizeof(ImVec2) + sizeof(ImU32));
        out.append(reinterpret_cast<const char*>(l.VtxBuffer.Data), size_t(l.VtxBuffer.Size) * sizeof(ImDrawVert));
        out.append(reinterpret_cast<const char*>(l.IdxBuffer.Data), size_t(l.IdxBuffer.Size) * sizeof(ImDrawIdx));
        for (const ImDrawCmd& c : l.CmdBuffer) {
            put(out, c.ClipRect.x), put(out, c.ClipRect.y), put(out, c.ClipRect.z), put(out, c.ClipRect.w);
            put(out, c.TextureId), put(out, c.VtxOffset), put(out, c.IdxOffset), put(out, c.ElemCount);
            put(out, c.UserCallback), put(out, c.UserCallbackData);
        }
    }
}

}  // namespace rl::lab
