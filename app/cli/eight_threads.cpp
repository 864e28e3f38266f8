// app/cli/eight_threads.cpp — the eight-thread example on the emulator, with a hint of what to try next.
#include "app/cli/eight_threads.h"

#include <iostream>

#include "app/cli/board_view.h"
#include "app/cli/schedule_run.h"
#include "core/analysis.h"
#include "core/emulator.h"

namespace rl::cli {

int run_eight_threads() {
    Schedule s;  // the defaults are the eight-thread example: 1..8 summed by one block of 8 threads
    Trace t = emulate(s);
    Analysis an = analyze(t);
    std::cout << "The eight-thread example: eight values, four pairs at once, then two, then one.\n";
    print_header(std::cout, t);
    print_board(std::cout, t);
    print_result(std::cout, t, an);
    print_depth_table(std::cout, t, an);
    std::cout << "\nSame " << an.work << " additions as the serial chain, but depth " << an.span << " instead of "
              << an.serial_depth << ". Try: rlab trace --n 40 --block 40 --bug full-mask-partial-warp\n";
    return 0;
}

}  // namespace rl::cli
