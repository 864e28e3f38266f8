// app/cli/bench_command.h — `rlab bench`: measure the reduction variants on the GPU, or show recorded results.
#pragma once
#include <string>
#include <cstdint>
#include <vector>

namespace CLI {
class App;
}

namespace rl::cli {

struct BenchArgs {
    std::string sizes = "10:28:2";  // first:last:step powers of two, or a comma list of powers
    std::string variants;           // comma list; empty: all
    std::string cache = "warm";     // warm | cold | both
    int reps = 100;
    bool no_worked_example = false;
    bool no_harris = false;
    bool extra_types = false;
    bool tune = false;
    bool fast_matrix = false;       // the fast path's matrix: fast, deterministic, CUB over every type and odd sizes
    std::string odd_sizes;          // comma list of element counts (misaligned start); default with --fast-matrix
    int rounds = 1;                 // the whole matrix this many times (the spread between rounds)
    std::string markdown;           // with --recorded: print the generated Markdown (summary | tables)
    bool recorded = false;          // show recorded results instead of measuring
    std::string file;               // --recorded FILE (default: docs/bench/*.json found above)
    std::string json, csv;
};

CLI::App* add_bench_command(CLI::App& app, BenchArgs& args);
// 0 measured (or shown), 1 a variant's result failed its check, 2 bad input or no GPU.
int run_bench(const BenchArgs& args);

// "10:28:2" -> 10,12,...,28; "10,20" -> 10,20. Throws rl::Error with a one-line reason.
std::vector<int> parse_sizes(const std::string& spec);
// "1000,1000000" -> element counts, each 1 .. 2^30. Throws rl::Error with a one-line reason.
std::vector<uint64_t> parse_counts(const std::string& spec);
// The odd sizes --fast-matrix measures by default: 2^k + 1, 10^k and 3 x 10^k up to 3 x 10^8.
std::string default_odd_sizes();

}  // namespace rl::cli
