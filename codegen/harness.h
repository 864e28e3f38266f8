// codegen/harness.h — the optional main() of a generated kernel: the input as rlab makes it, the launches,
// the result and its bits.
#pragma once
#include "codegen/source_writer.h"
#include "core/schedule.h"

namespace rl::codegen {

void harness_includes(SourceWriter& w);
void write_harness(const Schedule& s, SourceWriter& w);

}  // namespace rl::codegen
