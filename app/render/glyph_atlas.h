// app/render/glyph_atlas.h — a TrueType font baked into one coverage bitmap, with the metrics to lay text out.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rl::render {

struct Glyph {
    float x0, y0, x1, y1;   // quad relative to the pen on the baseline, at the baked size
    float u0, v0, u1, v1;   // texture coordinates
    float advance;          // at the baked size
};

class GlyphAtlas {
public:
    // Bakes ASCII and the few symbols the scene uses (× · … ← → ↓ ≤ ≥) at pixel_height.
    bool load(const std::string& font_path, float pixel_height, std::string* error);
    const Glyph* find(uint32_t codepoint) const;
    float measure(std::string_view utf8, float size) const;  // width in pixels at `size`
    float baked_size() const { return baked_; }
    int width() const { return width_; }
    int height() const { return height_; }
    const std::vector<uint8_t>& pixels() const { return pixels_; }

private:
    float baked_ = 0;
    int width_ = 0, height_ = 0;
    std::vector<uint8_t> pixels_;
    std::unordered_map<uint32_t, Glyph> glyphs_;
};

// Next code point of a UTF-8 string (advances i); invalid bytes come back as '?'.
uint32_t next_codepoint(std::string_view s, size_t& i);
// DejaVu Sans (core/data_paths search_font: $RLAB_FONT, else fonts-dejavu-core), or empty when not found.
std::string default_font_path();
// DejaVu Sans Mono beside that font (code in the source panel), else the default font, else empty.
std::string mono_font_path();

}  // namespace rl::render
