// app/render/renderer.h — the OpenGL 3.3 core renderer: draws a Scene with instanced boxes, arrows and glyphs.
// Includes no GL header: GLFW, Qt and headless contexts all call it through this interface.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "app/render/scene.h"

namespace rl::render {

class GlyphAtlas;

class Renderer {
public:
    Renderer();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Compiles the shaders and bakes the glyph atlas; needs a current GL 3.3 core context.
    bool init(std::string* error, const std::string& font_path = {});
    void shutdown();  // releases GL objects; the context must still be current
    bool ready() const;

    // Sets the viewport to the whole framebuffer and clears it.
    void begin_frame(int fb_width, int fb_height, Color clear);
    // Draws the scene into the rectangle (x, y_top, scene.width, scene.height) of a framebuffer of the given size.
    void draw(const Scene& scene, int x, int y_top, int fb_width, int fb_height);
    // RGBA pixels of a rectangle of the bound framebuffer, top row first.
    std::vector<uint8_t> read_pixels(int x, int y_top, int w, int h, int fb_height) const;
    void finish() const;  // waits for the GPU (for honest frame timings)

    const GlyphAtlas& atlas() const;
    std::string gl_version() const;   // "4.5 (Core Profile) Mesa ... llvmpipe"
    uint64_t instances_drawn() const;  // in the last draw(): boxes + arrows + glyphs

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Shader sources embedded from shaders/ at build time.
struct ShaderSource {
    const char* name;
    const char* text;
};
const std::vector<ShaderSource>& shader_sources();

}  // namespace rl::render
