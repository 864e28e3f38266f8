// app/render/renderer.cpp — GL objects, shader programs and the three instanced passes (boxes, arrows, glyphs).
#include <epoxy/gl.h>

#include "app/render/renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include "app/render/glyph_atlas.h"
#include "core/data_paths.h"

namespace rl::render {
namespace {

const char* find_source(const char* name) {
    for (const ShaderSource& s : shader_sources())
        if (std::string(s.name) == name) return s.text;
    return nullptr;
}

GLuint compile(GLenum type, const char* name, std::string* error) {
    const char* src = find_source(name);
    if (!src) {
        if (error) *error = std::string("shader source missing: ") + name;
        return 0;
    }
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &src, nullptr);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(sh, sizeof log, nullptr, log);
        if (error) *error = std::string(name) + ": " + log;
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

GLuint link(const char* vs_name, const char* fs_name, std::string* error) {
    GLuint vs = compile(GL_VERTEX_SHADER, vs_name, error);
    if (!vs) return 0;
    GLuint fs = compile(GL_FRAGMENT_SHADER, fs_name, error);
    if (!fs) return glDeleteShader(vs), 0;
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        if (error) *error = std::string("link ") + vs_name + "+" + fs_name + ": " + log;
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

struct BoxInstance {
    float rect[4], fill[4], edge[4], params[4];
};
struct ArrowInstance {
    float line[4], color[4], params[2];
};
struct GlyphInstance {
    float rect[4], uv[4], color[4];
};

void put(float* d, const Color& c) { d[0] = c.r, d[1] = c.g, d[2] = c.b, d[3] = c.a; }

// Instanced float attributes: `sizes` components each, packed in one stride.
void setup_instanced(GLuint vao, GLuint vbo, std::initializer_list<int> sizes) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    GLsizei stride = 0;
    for (int s : sizes) stride += GLsizei(s * sizeof(float));
    size_t offset = 0;
    GLuint loc = 0;
    for (int s : sizes) {
        glEnableVertexAttribArray(loc);
        glVertexAttribPointer(loc, s, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offset));
        glVertexAttribDivisor(loc, 1);
        offset += size_t(s) * sizeof(float);
        ++loc;
    }
    glBindVertexArray(0);
}

}  // namespace

struct Renderer::Impl {
    GLuint box_prog = 0, arrow_prog = 0, text_prog = 0;
    GLuint box_vao = 0, arrow_vao = 0, text_vao = 0;
    GLuint box_vbo = 0, arrow_vbo = 0, text_vbo = 0;
    GLuint atlas_tex = 0;
    GlyphAtlas atlas;
    std::vector<BoxInstance> boxes;
    std::vector<ArrowInstance> arrows;
    std::vector<GlyphInstance> glyphs;
    uint64_t drawn = 0;
    bool ready = false;
    // plan(): the instances are written down (with the canvas's corner and the scissor) instead of drawn.
    std::vector<DrawnInstance>* plan = nullptr;
    int plan_x = 0, plan_y = 0;
    uint8_t plan_pass = 0;  // counts the flushes: each is one pass, drawn after the ones before
    // draw(..., only): instances that cannot reach `only` are left out (a software rasteriser transforms and bins
    // every instance it is given, wherever the scissor is); canvas pixels, as the instances are.
    const DamageRect* cull = nullptr;
    int cull_x = 0, cull_y = 0;

    template <class Instance>
    void cull_outside(std::vector<Instance>& v, InstanceKind kind) {
        if (!cull || plan) return;
        std::erase_if(v, [&](const Instance& in) {
            DrawnInstance d;
            d.kind = kind, d.x = cull_x, d.y = cull_y, d.clip = *cull;
            std::memcpy(d.data, &in, sizeof in);
            return covered(d).empty();  // the same reach the damage was found with
        });
    }
    DamageRect plan_clip;

    template <class Instance>
    bool planned(std::vector<Instance>& v, InstanceKind kind) {
        if (!plan) return false;
        static_assert(sizeof(Instance) <= sizeof(DrawnInstance::data));
        for (const Instance& in : v) {
            DrawnInstance d;
            d.kind = kind, d.pass = plan_pass, d.x = plan_x, d.y = plan_y, d.clip = plan_clip;
            std::memcpy(d.data, &in, sizeof in);
            plan->push_back(d);
        }
        drawn += v.size();
        v.clear();
        ++plan_pass;
        return true;
    }

    void add_boxes(const std::vector<SceneBox>& src, int layer) {
        for (const SceneBox& b : src) {
            if (layer >= 0 && b.layer != layer) continue;
            BoxInstance i;
            i.rect[0] = b.x, i.rect[1] = b.y, i.rect[2] = b.w, i.rect[3] = b.h;
            put(i.fill, b.fill);
            put(i.edge, b.edge);
            i.params[0] = b.edge_w, i.params[1] = b.radius, i.params[2] = float(b.pattern), i.params[3] = 0;
            boxes.push_back(i);
        }
    }

    void add_texts(const std::vector<SceneText>& src) {
        const float baked = atlas.baked_size();
        for (const SceneText& t : src) {
            const float scale = t.size / baked;
            float x = t.x;
            if (t.align != Align::Left) {
                const float w = atlas.measure(t.text, t.size);
                x -= t.align == Align::Center ? w * 0.5f : w;
            }
            x = std::round(x);
            // y is the text's vertical centre: put the baseline half a cap height below it.
            const float baseline = std::round(t.y + t.size * 0.31f);
            for (size_t k = 0; k < t.text.size();) {
                const Glyph* g = atlas.find(next_codepoint(t.text, k));
                if (!g) continue;
                if (g->x1 > g->x0) {
                    GlyphInstance gi;
                    gi.rect[0] = x + g->x0 * scale, gi.rect[1] = baseline + g->y0 * scale;
                    gi.rect[2] = (g->x1 - g->x0) * scale, gi.rect[3] = (g->y1 - g->y0) * scale;
                    gi.uv[0] = g->u0, gi.uv[1] = g->v0, gi.uv[2] = g->u1, gi.uv[3] = g->v1;
                    put(gi.color, t.color);
                    glyphs.push_back(gi);
                }
                x += g->advance * scale;
            }
        }
    }

    void flush(float vw, float vh) {
        if (planned(boxes, InstanceKind::Box)) return;
        cull_outside(boxes, InstanceKind::Box);
        if (!boxes.empty()) {
            glUseProgram(box_prog);
            glUniform2f(glGetUniformLocation(box_prog, "u_viewport"), vw, vh);
            glBindBuffer(GL_ARRAY_BUFFER, box_vbo);
            glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(boxes.size() * sizeof(BoxInstance)), boxes.data(), GL_STREAM_DRAW);
            glBindVertexArray(box_vao);
            glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(boxes.size()));
            drawn += boxes.size();
            boxes.clear();
        }
    }
    void flush_arrows(float vw, float vh) {
        if (planned(arrows, InstanceKind::Arrow) || arrows.empty()) return;
        cull_outside(arrows, InstanceKind::Arrow);
        if (arrows.empty()) return;
        glUseProgram(arrow_prog);
        glUniform2f(glGetUniformLocation(arrow_prog, "u_viewport"), vw, vh);
        glBindBuffer(GL_ARRAY_BUFFER, arrow_vbo);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(arrows.size() * sizeof(ArrowInstance)), arrows.data(), GL_STREAM_DRAW);
        glBindVertexArray(arrow_vao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 9, GLsizei(arrows.size()));
        drawn += arrows.size();
        arrows.clear();
    }
    void flush_glyphs(float vw, float vh) {
        if (planned(glyphs, InstanceKind::Glyph) || glyphs.empty()) return;
        cull_outside(glyphs, InstanceKind::Glyph);
        if (glyphs.empty()) return;
        glUseProgram(text_prog);
        glUniform2f(glGetUniformLocation(text_prog, "u_viewport"), vw, vh);
        glUniform1i(glGetUniformLocation(text_prog, "u_atlas"), 0);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, atlas_tex);
        glBindBuffer(GL_ARRAY_BUFFER, text_vbo);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(glyphs.size() * sizeof(GlyphInstance)), glyphs.data(), GL_STREAM_DRAW);
        glBindVertexArray(text_vao);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(glyphs.size()));
        drawn += glyphs.size();
        glyphs.clear();
    }
};

Renderer::Renderer() : impl_(std::make_unique<Impl>()) {}
Renderer::~Renderer() = default;  // GL objects are released by shutdown(), while the context is current
bool Renderer::ready() const { return impl_->ready; }
const GlyphAtlas& Renderer::atlas() const { return impl_->atlas; }
uint64_t Renderer::instances_drawn() const { return impl_->drawn; }

bool Renderer::init(std::string* error, const std::string& font_path) {
    Impl& m = *impl_;
    const std::string font = font_path.empty() ? default_font_path() : font_path;
    if (font.empty()) {
        if (error) *error = search_font().not_found("font") + " (install fonts-dejavu-core or set RLAB_FONT)";
        return false;
    }
    // Baked large and mipmapped so labels stay crisp on a projector at any zoom.
    if (!m.atlas.load(font, 44.0f, error)) return false;
    if (epoxy_gl_version() < 33) {
        if (error) *error = "OpenGL 3.3 core is needed; this context has " + std::to_string(epoxy_gl_version() / 10) + "." +
                            std::to_string(epoxy_gl_version() % 10);
        return false;
    }
    m.box_prog = link("box.vert", "box.frag", error);
    m.arrow_prog = link("arrow.vert", "arrow.frag", error);
    m.text_prog = link("text.vert", "text.frag", error);
    if (!m.box_prog || !m.arrow_prog || !m.text_prog) return false;
    GLuint vaos[3], vbos[3];
    glGenVertexArrays(3, vaos);
    glGenBuffers(3, vbos);
    m.box_vao = vaos[0], m.arrow_vao = vaos[1], m.text_vao = vaos[2];
    m.box_vbo = vbos[0], m.arrow_vbo = vbos[1], m.text_vbo = vbos[2];
    setup_instanced(m.box_vao, m.box_vbo, {4, 4, 4, 4});
    setup_instanced(m.arrow_vao, m.arrow_vbo, {4, 4, 2});
    setup_instanced(m.text_vao, m.text_vbo, {4, 4, 4});
    glGenTextures(1, &m.atlas_tex);
    glBindTexture(GL_TEXTURE_2D, m.atlas_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, m.atlas.width(), m.atlas.height(), 0, GL_RED, GL_UNSIGNED_BYTE,
                 m.atlas.pixels().data());
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    m.ready = true;
    return true;
}

void Renderer::shutdown() {
    Impl& m = *impl_;
    if (!m.ready) return;
    GLuint vaos[3] = {m.box_vao, m.arrow_vao, m.text_vao}, vbos[3] = {m.box_vbo, m.arrow_vbo, m.text_vbo};
    glDeleteVertexArrays(3, vaos);
    glDeleteBuffers(3, vbos);
    glDeleteTextures(1, &m.atlas_tex);
    glDeleteProgram(m.box_prog);
    glDeleteProgram(m.arrow_prog);
    glDeleteProgram(m.text_prog);
    m.ready = false;
}

void Renderer::begin_frame(int fb_width, int fb_height, Color clear, const DamageRect* only) {
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, fb_width, fb_height);
    if (only) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(only->x0, fb_height - only->y1, std::max(0, only->x1 - only->x0), std::max(0, only->y1 - only->y0));
    }
    glClearColor(clear.r, clear.g, clear.b, clear.a);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
}

namespace {
// glScissor limited to `only` (window pixels, top-down, ends exclusive) where one is given; while planning, the
// scissor (not limited) is written down instead.
void scissor_within(int x, int y_gl, int w, int h, int fb_height, const DamageRect* only, DamageRect* plan_clip) {
    if (plan_clip) {
        *plan_clip = {x, fb_height - (y_gl + h), x + w, fb_height - y_gl};
        return;
    }
    if (only) {
        const int ox0 = only->x0, oy0 = fb_height - only->y1, ox1 = only->x1, oy1 = fb_height - only->y0;
        const int x0 = std::max(x, ox0), y0 = std::max(y_gl, oy0), x1 = std::min(x + w, ox1), y1 = std::min(y_gl + h, oy1);
        x = x0, y_gl = y0, w = std::max(0, x1 - x0), h = std::max(0, y1 - y0);
    }
    glScissor(x, y_gl, w, h);
}
}  // namespace

std::vector<DrawnInstance> Renderer::plan(const Scene& s, int x, int y_top, int fb_height) {
    Impl& m = *impl_;
    std::vector<DrawnInstance> out;
    if (!m.ready) return out;
    m.plan = &out, m.plan_x = x, m.plan_y = y_top, m.plan_pass = 1;  // pass 0: the clear
    draw(s, x, y_top, 0, fb_height);
    m.plan = nullptr;
    return out;
}

void Renderer::draw(const Scene& s, int x, int y_top, int fb_width, int fb_height, const DamageRect* only) {
    Impl& m = *impl_;
    m.drawn = 0;
    if (!m.ready) return;
    (void)fb_width;
    const int w = int(s.width), h = int(s.height);
    const int y_gl = fb_height - (y_top + h);
    DamageRect* plan_clip = m.plan ? &m.plan_clip : nullptr;
    m.cull = only, m.cull_x = x, m.cull_y = y_top;
    if (m.plan) {
        scissor_within(x, y_gl, w, h, fb_height, only, plan_clip);
        DrawnInstance clear;
        clear.kind = InstanceKind::Clear, clear.x = x, clear.y = y_top, clear.clip = m.plan_clip;
        put(clear.data, s.background);
        m.plan->push_back(clear);
    } else {
        // Other front ends (ImGui, Qt) leave their own state behind: set everything this pass relies on.
        glViewport(x, y_gl, w, h);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_CULL_FACE);
        glEnable(GL_BLEND);
        glBlendEquation(GL_FUNC_ADD);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glEnable(GL_SCISSOR_TEST);
        scissor_within(x, y_gl, w, h, fb_height, only, nullptr);
        // The scene's own background, so it also works inside a larger window.
        Color bg = s.background;
        glClearColor(bg.r, bg.g, bg.b, bg.a);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    const float vw = s.width, vh = s.height;
    // Lanes area: clipped so nothing slides under the row labels or the header.
    scissor_within(x + int(s.clip_x), y_gl, std::max(0, w - int(s.clip_x)), std::max(0, h - int(s.clip_y)), fb_height, only,
                   plan_clip);
    m.add_boxes(s.boxes, 0);
    m.flush(vw, vh);
    for (const SceneArrow& a : s.arrows) {
        ArrowInstance ai;
        ai.line[0] = a.x0, ai.line[1] = a.y0, ai.line[2] = a.x1, ai.line[3] = a.y1;
        put(ai.color, a.color);
        ai.params[0] = a.width, ai.params[1] = a.head;
        m.arrows.push_back(ai);
    }
    m.flush_arrows(vw, vh);
    m.add_boxes(s.boxes, 1);
    m.flush(vw, vh);
    m.add_texts(s.texts);
    m.flush_glyphs(vw, vh);
    uint64_t drawn = m.drawn;
    scissor_within(x, y_gl, w, h, fb_height, only, plan_clip);
    m.add_boxes(s.overlay_boxes, -1);
    m.flush(vw, vh);
    m.add_texts(s.overlay_texts);
    m.flush_glyphs(vw, vh);
    m.drawn += drawn;
    m.cull = nullptr;
    if (m.plan) return;
    glDisable(GL_SCISSOR_TEST);
    glBindVertexArray(0);
    glUseProgram(0);
}

std::vector<uint8_t> Renderer::read_pixels(int x, int y_top, int w, int h, int fb_height) const {
    std::vector<uint8_t> px(size_t(w) * size_t(h) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(x, fb_height - (y_top + h), w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    // GL rows run bottom-up; images run top-down.
    std::vector<uint8_t> flipped(px.size());
    const size_t row = size_t(w) * 4;
    for (int r = 0; r < h; ++r)
        std::copy(px.begin() + long(size_t(h - 1 - r) * row), px.begin() + long(size_t(h - r) * row),
                  flipped.begin() + long(size_t(r) * row));
    return flipped;
}

void Renderer::finish() const { glFinish(); }

std::string Renderer::gl_version() const {
    const GLubyte* v = glGetString(GL_VERSION);
    const GLubyte* r = glGetString(GL_RENDERER);
    return std::string(v ? reinterpret_cast<const char*>(v) : "?") + " — " + (r ? reinterpret_cast<const char*>(r) : "?");
}

}  // namespace rl::render
