// codegen/lesson_lines.cpp — lessons' {line:SITE}: the site's line in the step's generated source.
#include "codegen/lesson_lines.h"

#include "codegen/kernel_source.h"
#include "core/lesson.h"

namespace rl {

void install_lesson_lines() {
    set_source_line_lookup([](const Schedule& s, const std::string& site) { return kernel_source(s).line_of(site); });
}

}  // namespace rl
