// tests/lab/test_exercise_copy.cpp — an exercise opened from a read-only (installed) lesson tree is edited in the
// student's own copy under the XDG data folder: made once, writable, kept with its edits, and named in the note.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "app/lab/exercise_links.h"
#include "app/lab/user_dirs.h"
#include "core/file_io.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {

// An exercise folder whose kernel is read-only (mode 0444), as a package installs it, under a fresh temp folder.
struct Installed {
    fs::path root = fs::temp_directory_path() / ("rlab-exercise-copy-" + std::to_string(::getpid()));
    Exercise ex;
    Installed() {
        fs::remove_all(root);
        ex.name = "partial-warp-mask";
        ex.dir = (root / "share" / "exercises" / ex.name).string();
        fs::create_directories(ex.dir);
        std::ofstream(ex.kernel_file()) << "// the planted bug\n";
        std::ofstream(ex.solution_file()) << "// the fix\n";
        fs::permissions(ex.kernel_file(), fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
        ::setenv("XDG_DATA_HOME", (root / "data").c_str(), 1);
    }
    ~Installed() {
        ::unsetenv("XDG_DATA_HOME");
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

}  // namespace

TEST_CASE("user folders: XDG data home, else ~/.local/share; relative values ignored") {
    const char* home = std::getenv("HOME");
    const std::string saved_home = home ? home : "";
    ::setenv("XDG_DATA_HOME", "/x/data", 1);
    CHECK(lab::data_dir() == "/x/data/reduction-lab");
    ::setenv("XDG_DATA_HOME", "relative", 1);
    ::setenv("HOME", "/home/student", 1);
    CHECK(lab::data_dir() == "/home/student/.local/share/reduction-lab");
    ::unsetenv("XDG_DATA_HOME");
    ::unsetenv("HOME");
    CHECK(lab::data_dir().empty());
    if (home) ::setenv("HOME", saved_home.c_str(), 1);
}

TEST_CASE("a read-only exercise is edited in the student's copy, made once and kept with its edits") {
    Installed t;
    std::string note;
    const std::string copy = lab::exercise_working_kernel(t.ex, &note, false);
    const fs::path want = t.root / "data" / "reduction-lab" / "exercises" / "partial-warp-mask" / "kernel.cu";
    CHECK(copy == want.string());
    CHECK(read_text_file(copy, "kernel", 1000) == "// the planted bug\n");
    // The original's read-only mode is not copied: the student may save over the copy.
    CHECK((fs::status(copy).permissions() & fs::perms::owner_write) != fs::perms::none);
    CHECK(note.find(want.string()) != std::string::npos);
    CHECK(note.find("read-only") != std::string::npos);

    // The student's edits survive the next opening.
    std::ofstream(copy) << "// my fix\n";
    CHECK(lab::exercise_working_kernel(t.ex, &note, false) == copy);
    CHECK(read_text_file(copy, "kernel", 1000) == "// my fix\n");

    // A writable original (a source checkout) is edited in place, with nothing to say.
    note = "stale";
    CHECK(lab::exercise_working_kernel(t.ex, &note, true) == t.ex.kernel_file());
    CHECK(note == "stale");
}

TEST_CASE("no copy can be made: the original, and a line saying why") {
    Installed t;
    // The data folder's place is a plain file: no folder can be made there, not even by root.
    std::ofstream((t.root / "blocker").string()) << "x";
    ::setenv("XDG_DATA_HOME", (t.root / "blocker").c_str(), 1);
    std::string note;
    CHECK(lab::exercise_working_kernel(t.ex, &note, false) == t.ex.kernel_file());
    CHECK(note.find("cannot be made") != std::string::npos);
    CHECK(note.find("edits cannot be saved") != std::string::npos);
}

TEST_CASE("opening an exercise runs the copy; its solution is opened where it lies") {
    Installed t;
    t.ex.run = {"--n", "40", "--block", "40"};
    std::string note;
    const student::KernelRequest solution = lab::exercise_request(t.ex, true, BackendChoice::Cpu, &note);
    CHECK(solution.file == t.ex.solution_file());
    CHECK(note.empty());
    if (::geteuid() != 0) {  // root may write the 0444 original: only another user sees it read-only
        const student::KernelRequest r = lab::exercise_request(t.ex, false, BackendChoice::Cpu, &note);
        CHECK(r.file != t.ex.kernel_file());
        CHECK(note.find("your copy of exercise partial-warp-mask") != std::string::npos);
        CHECK(r.schedule.n == 40);
    }
}
