// core/data_paths.h — the one place that finds the app's data files: lessons, recorded bench results, the font.
#pragma once
#include <string>
#include <vector>

namespace rl {

// Where a data file or folder was looked for, and what was found (empty when nothing was).
struct DataSearch {
    std::string found;
    std::vector<std::string> searched;  // each place looked, in order, in words a user can act on
    // "no WHAT found; looked in: A; B; C" — the one-line error when nothing was found.
    std::string not_found(const std::string& what) const;
};

// The running program's own path (/proc/self/exe), or empty where it cannot be read.
std::string executable_path();

// The data roots for a program at `exe` (default: this program), in the order they are searched:
//   1. EXE/../share/reduction-lab        an installed copy (cmake --install, the Debian package)
//   2. the source tree above EXE         a build that is not installed (build/X/app/cli/rlab)
// A root holds lessons/ and docs/bench/ laid out as in the source tree.
std::vector<std::string> data_roots(const std::string& exe = "");

// The lessons folder: $RLAB_LESSONS_DIR when set (an explicit choice wins), else ROOT/lessons of the
// first data root that has one.
DataSearch search_lessons_dir(const std::string& exe = "");
std::string find_lessons_dir(const std::string& exe = "");  // search_lessons_dir(exe).found

// The recorded bench results: $RLAB_BENCH_FILE when set, else the newest ROOT/docs/bench/*.json of the
// first data root that has any.
DataSearch search_recorded_bench(const std::string& exe = "");

// The newest docs/bench/*.json in `start_dir` or a folder above it ($RLAB_BENCH_FILE when set): the results
// that belong with a lesson folder (ROOT/lessons -> ROOT/docs/bench, also for lesson folders of one's own).
std::string find_recorded_bench(const std::string& start_dir = ".");

// The renderer's font, DejaVu Sans: $RLAB_FONT when set, else where fonts-dejavu-core (or another
// distribution's DejaVu package) puts it. Fonts are the system's: the package depends on fonts-dejavu-core.
DataSearch search_font();

}  // namespace rl
