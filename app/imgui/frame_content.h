// app/imgui/frame_content.h — the bytes that decide a lab bench frame's pixels: when they repeat, the kept frame is shown.
#pragma once
#include <string>

struct ImDrawData;

namespace rl::lab {

// Appends everything ImGui's draw data will put on screen: the display rectangle and scale, and every draw list's
// vertices, indices and commands (clip rectangle, texture, offsets, counts, callback). Byte-equal data draws
// byte-equal pixels, so comparing these bytes is exact where a hash could collide.
void append_draw_data(std::string& out, const ImDrawData& d);

}  // namespace rl::lab
