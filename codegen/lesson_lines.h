// codegen/lesson_lines.h — installs the {line:SITE} lookup of lessons (core/lesson.h) over the generator.
#pragma once

namespace rl {

// Sets core's source-line lookup to kernel_source(schedule).line_of(site). Idempotent; call it before
// playing lessons (rlab's main and app/lab's lesson player do).
void install_lesson_lines();

}  // namespace rl
