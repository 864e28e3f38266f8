// tests/gui/test_shaders.cpp — every shader in shaders/ compiles under glslangValidator and is the one embedded.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "app/render/renderer.h"
#include "../support/helpers.h"

using rl::test::slurp;

namespace {

int validate(const std::string& path) {
    const std::string cmd = std::string(RLAB_GLSLANG) + " '" + path + "' > /dev/null 2>&1";
    return std::system(cmd.c_str());
}

}  // namespace

TEST_CASE("shaders: every GLSL source compiles under glslangValidator") {
    int count = 0;
    for (const auto& e : std::filesystem::directory_iterator(RLAB_SHADER_DIR)) {
        const std::string ext = e.path().extension().string();
        if (ext != ".vert" && ext != ".frag") continue;
        CAPTURE(e.path().string());
        CHECK(validate(e.path().string()) == 0);
        ++count;
    }
    CHECK(count == 6);
}

TEST_CASE("shaders: the validator rejects a broken shader (so the check above can fail)") {
    const std::string path = std::string(RLAB_TEST_TMP) + "/broken.frag";
    std::ofstream(path) << "#version 330 core\nout vec4 c;\nvoid main() { c = vec3(1.0); }\n";
    CHECK(validate(path) != 0);
}

TEST_CASE("shaders: the renderer embeds exactly the files in shaders/") {
    const auto& sources = rl::render::shader_sources();
    CHECK(sources.size() == 6);
    for (const auto& s : sources) {
        CAPTURE(s.name);
        CHECK(std::string(s.text) == slurp(std::string(RLAB_SHADER_DIR) + "/" + s.name));
    }
}
