// tests/test_data_paths.cpp — core/data_paths: installed data next to the binary, then the source tree, and
// the environment variables; the not-found error names every place looked.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/data_paths.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {

// A scratch folder removed at the end of the test; the environment variables are unset while it lives.
struct Scratch {
    fs::path root;
    Scratch() {
        root = fs::temp_directory_path() / ("rlab-data-paths-" + std::to_string(::getpid()));
        fs::remove_all(root);
        fs::create_directories(root);
        ::unsetenv("RLAB_LESSONS_DIR");
        ::unsetenv("RLAB_BENCH_FILE");
    }
    ~Scratch() { fs::remove_all(root); }
    void touch(const fs::path& rel) const {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << "x";
    }
};

}  // namespace

TEST_CASE("data paths: an installed copy is found relative to its binary, under any prefix") {
    Scratch s;
    s.touch("prefix/share/reduction-lab/lessons/eight-threads.toml");
    s.touch("prefix/share/reduction-lab/docs/bench/h200-2026-11-29.json");
    s.touch("prefix/share/reduction-lab/docs/bench/h200-2026-12-01.json");
    const std::string exe = (s.root / "prefix" / "bin" / "rlab").string();
    CHECK(find_lessons_dir(exe) == (s.root / "prefix/share/reduction-lab/lessons").string());
    // The newest recorded results by name (DEVICE-DATE.json).
    CHECK(search_recorded_bench(exe).found == (s.root / "prefix/share/reduction-lab/docs/bench/h200-2026-12-01.json").string());
}

TEST_CASE("data paths: a build that is not installed finds the source tree above it") {
    Scratch s;
    s.touch("src/CMakeLists.txt");
    s.touch("src/lessons/README.md");
    s.touch("src/docs/bench/h200-2026-11-29.json");
    const std::string exe = (s.root / "src/build/default/app/cli/rlab").string();
    CHECK(find_lessons_dir(exe) == (s.root / "src/lessons").string());
    CHECK(search_recorded_bench(exe).found == (s.root / "src/docs/bench/h200-2026-11-29.json").string());
    // A copy installed inside that tree (cmake --install build --prefix build/stage) uses its own data.
    s.touch("src/build/stage/share/reduction-lab/lessons/a.toml");
    CHECK(find_lessons_dir((s.root / "src/build/stage/bin/rlab").string()) ==
          (s.root / "src/build/stage/share/reduction-lab/lessons").string());
    CHECK(find_lessons_dir(exe) == (s.root / "src/lessons").string());
}

TEST_CASE("data paths: the environment variables are an explicit choice and win") {
    Scratch s;
    s.touch("prefix/share/reduction-lab/lessons/a.toml");
    const std::string exe = (s.root / "prefix/bin/rlab").string();
    ::setenv("RLAB_LESSONS_DIR", "/my/lessons", 1);
    ::setenv("RLAB_BENCH_FILE", "/my/bench.json", 1);
    CHECK(find_lessons_dir(exe) == "/my/lessons");
    CHECK(search_recorded_bench(exe).found == "/my/bench.json");
    ::unsetenv("RLAB_LESSONS_DIR");
    ::unsetenv("RLAB_BENCH_FILE");
    CHECK(find_lessons_dir(exe) == (s.root / "prefix/share/reduction-lab/lessons").string());
}

TEST_CASE("data paths: nothing found names every place looked, in order") {
    Scratch s;
    const std::string exe = (s.root / "nowhere/bin/rlab").string();
    const DataSearch l = search_lessons_dir(exe);
    CHECK(l.found.empty());
    const std::string msg = l.not_found("lessons folder");
    CHECK(msg.rfind("no lessons folder found; looked in: $RLAB_LESSONS_DIR (not set); ", 0) == 0);
    CHECK(msg.find((s.root / "nowhere/share/reduction-lab/lessons/").string()) != std::string::npos);
    CHECK(msg.find("no source tree above " + exe) != std::string::npos);
    const DataSearch b = search_recorded_bench(exe);
    CHECK(b.found.empty());
    CHECK(b.not_found("recorded results").find((s.root / "nowhere/share/reduction-lab/docs/bench/*.json").string()) !=
          std::string::npos);
}

TEST_CASE("data paths: this test binary, in a build folder of the source tree, finds the real lessons") {
    ::unsetenv("RLAB_LESSONS_DIR");
    const std::string src = fs::path(RLAB_SOURCE_DIR).lexically_normal().string();
    if (executable_path().rfind(src + "/", 0) != 0) {
        // CTest reports this as skipped (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt)
        MESSAGE("SKIPPED: this test binary (" << executable_path() << ") is built outside the source tree " << src
                                              << ": there is no source tree above it to find");
        return;
    }
    const std::string dir = find_lessons_dir();
    REQUIRE_FALSE(dir.empty());
    CHECK(fs::exists(fs::path(dir) / "eight-threads.toml"));
    CHECK(fs::equivalent(fs::path(dir) / "..", fs::path(RLAB_SOURCE_DIR)));
}
