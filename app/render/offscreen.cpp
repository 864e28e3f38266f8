// app/render/offscreen.cpp — headless contexts (EGL surfaceless, then hidden GLFW window) and PNG I/O.
#include <epoxy/gl.h>
#include <epoxy/egl.h>

#include "app/render/offscreen.h"

#include <GLFW/glfw3.h>
#include <cstdlib>
#include <stb_image.h>
#include <stb_image_write.h>
#include "app/render/renderer.h"
#include "core/error.h"
#include "core/file_io.h"

namespace rl::render {

struct Offscreen::Impl {
    int w = 0, h = 0;
    std::string kind;
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext ctx = EGL_NO_CONTEXT;
    GLFWwindow* window = nullptr;
    GLuint fbo = 0, color = 0;
    Renderer renderer;

    bool try_egl() {
        if (const char* env = std::getenv("RLAB_HEADLESS"); env && std::string(env) == "glfw") return false;
        if (!epoxy_has_egl()) return false;
        const char* exts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
        if (!exts || !epoxy_extension_in_string(exts, "EGL_MESA_platform_surfaceless")) return false;
        dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        EGLint major = 0, minor = 0;
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) return false;
        if (!eglBindAPI(EGL_OPENGL_API)) return false;
        const EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
        if (ctx == EGL_NO_CONTEXT) return false;
        if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return false;
        kind = "EGL surfaceless";
        return true;
    }

    bool try_glfw(std::string* error) {
        if (!glfwInit()) {
            if (error) *error = "no headless GL: EGL surfaceless is unavailable and GLFW found no display (run under xvfb-run)";
            return false;
        }
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        window = glfwCreateWindow(64, 64, "rlab offscreen", nullptr, nullptr);
        if (!window) {
            if (error) *error = "cannot create a hidden GL 3.3 core window";
            return false;
        }
        glfwMakeContextCurrent(window);
        kind = "GLFW hidden window";
        return true;
    }

    ~Impl() {
        if (fbo) {
            renderer.shutdown();
            glDeleteFramebuffers(1, &fbo);
            glDeleteRenderbuffers(1, &color);
        }
        if (ctx != EGL_NO_CONTEXT) {
            eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            eglDestroyContext(dpy, ctx);
        }
        if (dpy != EGL_NO_DISPLAY) eglTerminate(dpy);
        if (window) glfwDestroyWindow(window);
    }
};

Offscreen::Offscreen() : impl_(std::make_unique<Impl>()) {}
Offscreen::~Offscreen() = default;
Renderer& Offscreen::renderer() { return impl_->renderer; }
std::string Offscreen::context_kind() const { return impl_->kind; }
int Offscreen::width() const { return impl_->w; }
int Offscreen::height() const { return impl_->h; }

bool Offscreen::create(int width, int height, std::string* error) {
    Impl& m = *impl_;
    m.w = width;
    m.h = height;
    if (!m.try_egl() && !m.try_glfw(error)) return false;
    glGenFramebuffers(1, &m.fbo);
    glGenRenderbuffers(1, &m.color);
    glBindRenderbuffer(GL_RENDERBUFFER, m.color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, m.fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m.color);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        if (error) *error = "offscreen framebuffer incomplete";
        return false;
    }
    return m.renderer.init(error);
}

std::vector<uint8_t> Offscreen::render(const Scene& s) {
    Impl& m = *impl_;
    glBindFramebuffer(GL_FRAMEBUFFER, m.fbo);
    m.renderer.begin_frame(m.w, m.h, s.background);
    m.renderer.draw(s, 0, 0, m.w, m.h);
    return m.renderer.read_pixels(0, 0, int(s.width), int(s.height), m.h);
}

bool write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, std::string* error) {
    // Encoded in memory, then written checked under a temporary name: a full disk leaves no truncated PNG.
    std::string bytes;
    auto append = [](void* ctx, void* data, int size) { static_cast<std::string*>(ctx)->append(static_cast<char*>(data), size_t(size)); };
    if (!stbi_write_png_to_func(append, &bytes, width, height, 4, rgba.data(), width * 4)) {
        if (error) *error = one_line(path) + ": cannot encode the PNG";
        return false;
    }
    try {
        write_file_atomically(path, bytes);
    } catch (const Error& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}

bool read_png(const std::string& path, int& width, int& height, std::vector<uint8_t>& rgba) {
    int comp = 0;
    unsigned char* data = stbi_load(path.c_str(), &width, &height, &comp, 4);
    if (!data) return false;
    rgba.assign(data, data + size_t(width) * size_t(height) * 4);
    stbi_image_free(data);
    return true;
}

}  // namespace rl::render
