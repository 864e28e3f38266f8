// app/render/glyph_atlas.cpp — bakes the font with stb_truetype's packer (implementation from libstb).
#include "app/render/glyph_atlas.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stb_rect_pack.h>
#include <stb_truetype.h>

#include "core/data_paths.h"

namespace rl::render {

uint32_t next_codepoint(std::string_view s, size_t& i) {
    const auto b = [&](size_t k) { return uint32_t(uint8_t(s[k])); };
    const uint32_t c = b(i);
    if (c < 0x80) return ++i, c;
    int extra = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (extra < 0 || i + size_t(extra) >= s.size()) return ++i, uint32_t('?');
    uint32_t cp = c & (0x3fu >> extra);
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (b(i + size_t(k)) & 0x3f);
    i += size_t(extra) + 1;
    return cp;
}

std::string default_font_path() { return search_font().found; }

std::string mono_font_path() {
    const std::string sans = default_font_path();
    const size_t slash = sans.find_last_of('/');
    for (const std::string& p : {(slash == std::string::npos ? std::string() : sans.substr(0, slash + 1)) + "DejaVuSansMono.ttf",
                                 std::string("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")})
        if (std::ifstream(p).good()) return p;
    return sans;
}

bool GlyphAtlas::load(const std::string& font_path, float pixel_height, std::string* error) {
    std::ifstream in(font_path, std::ios::binary);
    if (!in) {
        if (error) *error = "cannot open font " + font_path + " (install fonts-dejavu-core or set RLAB_FONT)";
        return false;
    }
    std::vector<unsigned char> ttf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<int> cps;
    for (int c = 32; c < 127; ++c) cps.push_back(c);
    for (int c : {0xb7, 0xd7, 0x2026, 0x2190, 0x2191, 0x2192, 0x2193, 0x2264, 0x2265, 0x2212}) cps.push_back(c);
    width_ = 1024;
    height_ = 512;
    pixels_.assign(size_t(width_) * size_t(height_), 0);
    std::vector<stbtt_packedchar> packed(cps.size());
    stbtt_pack_context pc;
    if (!stbtt_PackBegin(&pc, pixels_.data(), width_, height_, 0, 2, nullptr)) {
        if (error) *error = "stbtt_PackBegin failed";
        return false;
    }
    stbtt_pack_range range{};
    range.font_size = pixel_height;
    range.array_of_unicode_codepoints = cps.data();
    range.num_chars = int(cps.size());
    range.chardata_for_range = packed.data();
    const int ok = stbtt_PackFontRanges(&pc, ttf.data(), 0, &range, 1);
    stbtt_PackEnd(&pc);
    if (!ok) {
        if (error) *error = "font " + font_path + " did not fit the glyph atlas";
        return false;
    }
    baked_ = pixel_height;
    for (size_t k = 0; k < cps.size(); ++k) {
        float x = 0, y = 0;
        stbtt_aligned_quad q;
        stbtt_GetPackedQuad(packed.data(), width_, height_, int(k), &x, &y, &q, 0);
        glyphs_[uint32_t(cps[k])] = {q.x0, q.y0, q.x1, q.y1, q.s0, q.t0, q.s1, q.t1, packed[k].xadvance};
    }
    return true;
}

const Glyph* GlyphAtlas::find(uint32_t cp) const {
    auto it = glyphs_.find(cp);
    if (it != glyphs_.end()) return &it->second;
    it = glyphs_.find('?');
    return it == glyphs_.end() ? nullptr : &it->second;
}

float GlyphAtlas::measure(std::string_view s, float size) const {
    if (baked_ <= 0) return 0;
    float w = 0;
    for (size_t i = 0; i < s.size();)
        if (const Glyph* g = find(next_codepoint(s, i))) w += g->advance;
    return w * size / baked_;
}

}  // namespace rl::render
