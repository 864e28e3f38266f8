// tests/corpus.h — where the recorded GPU trace corpus lives and what its schedule list names.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rl::testing {

// tests/data/gpu-corpus, or $RLAB_GPU_CORPUS (a corpus-shaped folder made elsewhere, to test these tests).
inline std::string corpus_dir() {
    if (const char* d = std::getenv("RLAB_GPU_CORPUS"); d && *d) return d;
    return std::string(RLAB_SOURCE_DIR) + "/tests/data/gpu-corpus";
}

// The recorded traces (NAME.json), sorted by name.
inline std::vector<std::filesystem::path> corpus_traces() {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(corpus_dir(), ec))
        if (f.path().extension() == ".json") out.push_back(f.path());
    std::sort(out.begin(), out.end());
    return out;
}

// One line of tests/data/gpu-corpus/schedules.txt: a name and its `rlab trace` flags.
struct CorpusEntry {
    std::string name;
    std::vector<std::string> flags;
    std::string flag(const std::string& key) const {  // the value after `key`, or ""
        for (size_t i = 0; i + 1 < flags.size(); ++i)
            if (flags[i] == key) return flags[i + 1];
        return "";
    }
};

// The committed schedule list (always the source tree's, which the corpus was recorded from).
inline std::vector<CorpusEntry> corpus_schedules() {
    std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/data/gpu-corpus/schedules.txt");
    std::vector<CorpusEntry> out;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        CorpusEntry e;
        if (!(words >> e.name) || e.name[0] == '#') continue;
        for (std::string w; words >> w;) e.flags.push_back(w);
        out.push_back(e);
    }
    return out;
}

}  // namespace rl::testing
