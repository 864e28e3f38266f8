// app/cli/eight_threads.h — what `rlab` with no command shows: the eight-thread example on the board.
#pragma once

namespace rl::cli {

int run_eight_threads();  // always 0

}  // namespace rl::cli
