// core/version.cpp — the version string; RLAB_VERSION comes from project(VERSION) (core/CMakeLists.txt).
#include "core/version.h"

namespace rl {

const char* version() { return RLAB_VERSION; }

std::string version_line(const std::string& program) { return program + " " + RLAB_VERSION; }

}  // namespace rl
