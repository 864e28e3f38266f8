// app/render/renderer.h — the OpenGL 3.3 core renderer: draws a Scene with instanced boxes, arrows and glyphs.
// Includes no GL header: GLFW, Qt and headless contexts all call it through this interface.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "app/render/damage.h"
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

    // Sets the viewport to the whole framebuffer and clears it (only the rectangle `only`, when one is given).
    void begin_frame(int fb_width, int fb_height, Color clear, const DamageRect* only = nullptr);
    // Draws the scene into the rectangle (x, y_top, scene.width, scene.height) of a framebuffer of the given size.
    // `only`, when given, limits every pixel written (the scene's clear included) to that rectangle of window pixels:
    // a frame that redraws only what changed (app/render/damage.h).
    void draw(const Scene& scene, int x, int y_top, int fb_width, int fb_height, const DamageRect* only = nullptr);
    // What draw() would draw, written down instead of drawn (no GL call): the scene's clear, then every box, arrow
    // and glyph instance in drawing order with its scissor. Two frames' plans compared (render::changed_span) say
    // where the canvas changed.
    std::vector<DrawnInstance> plan(const Scene& scene, int x, int y_top, int fb_height);
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
