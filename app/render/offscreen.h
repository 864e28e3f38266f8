// app/render/offscreen.h — rendering without a window: a headless GL context, an offscreen target, PNG files.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "app/render/scene.h"

namespace rl::render {

class Renderer;

// A GL 3.3 core context that needs no window: EGL surfaceless (Mesa) when available, else a hidden
// GLFW window (needs a display, e.g. Xvfb). Draws scenes into an offscreen framebuffer of a fixed size.
class Offscreen {
public:
    Offscreen();
    ~Offscreen();
    bool create(int width, int height, std::string* error);
    std::vector<uint8_t> render(const Scene& s);  // RGBA, top row first, scene.width x scene.height <= the size
    Renderer& renderer();
    std::string context_kind() const;  // "EGL surfaceless" or "GLFW hidden window"
    int width() const;
    int height() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

bool write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, std::string* error);
// Reads a PNG as RGBA (for tests).
bool read_png(const std::string& path, int& width, int& height, std::vector<uint8_t>& rgba);

}  // namespace rl::render
