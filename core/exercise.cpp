// core/exercise.cpp — exercise.toml read with toml++ and checked: known keys and run flags only, a real hazard kind,
// both files there.
#include "core/exercise.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <toml++/toml.h>

#include "core/error.h"
#include "core/file_io.h"
#include "core/limits.h"

namespace fs = std::filesystem;

namespace rl {
namespace {

// A name is a folder under exercises/: lower-case words joined by '-', so that it can never leave the folder.
bool valid_name(const std::string& name) {
    return !name.empty() && name.size() <= 64 &&
           std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

// The flags of `rlab run FILE.cu` that say what runs (not how it is shown): what the CLI, both front ends
// (app/lab/exercise_links) and CI grade an exercise with. Each takes a value.
constexpr const char* kRunFlags[] = {"--n", "--block", "--grid", "--input", "--seed", "--op", "--launch", "--kernel"};

std::string run_flags_problem(const std::vector<std::string>& run) {
    for (size_t i = 0; i < run.size(); i += 2) {
        const bool known = std::any_of(std::begin(kRunFlags), std::end(kRunFlags), [&](const char* f) { return run[i] == f; });
        if (!known)
            return "'run' flag '" + run[i] + "' is not one an exercise takes: --n, --block, --grid, --input, --seed, --op, "
                   "--launch or --kernel, each followed by its value";
        if (i + 1 == run.size()) return "'run' flag '" + run[i] + "' has no value after it";
    }
    return {};
}

}  // namespace

std::optional<Exercise> load_exercise(const std::string& lessons_dir, const std::string& name, std::vector<LessonError>& errors) {
    const size_t before = errors.size();
    const std::string dir = lessons_dir + "/exercises/" + name;
    const std::string file = dir + "/exercise.toml";
    auto fail = [&](int line, int column, std::string what) { errors.push_back({file, line, column, std::move(what)}); };
    if (!valid_name(name)) {
        errors.push_back({lessons_dir + "/exercises", 0, 0, "'" + name + "' is no exercise name: lower-case letters, digits and '-'"});
        return std::nullopt;
    }
    std::string text;
    try {
        text = read_text_file(file, "exercise", limits::kLessonFileBytes);
    } catch (const Error& e) {
        fail(0, 0, e.what());
        return std::nullopt;
    }
    toml::table root;
    try {
        root = toml::parse(text, file);
    } catch (const toml::parse_error& e) {
        fail(int(e.source().begin.line), int(e.source().begin.column), "TOML syntax: " + std::string(e.description()));
        return std::nullopt;
    }
    Exercise ex;
    ex.name = name;
    ex.dir = dir;
    bool has_hazard = false;
    for (auto&& [k, v] : root) {
        const std::string key(k.str());
        const int line = int(k.source().begin.line), column = int(k.source().begin.column);
        std::string* text_field = key == "title" ? &ex.title : key == "task" ? &ex.task : key == "hint" ? &ex.hint : nullptr;
        if (text_field) {
            if (!v.is_string()) fail(line, column, "'" + key + "' expects a text");
            else *text_field = *v.value<std::string>();
        } else if (key == "run") {
            const toml::array* a = v.as_array();
            if (!a) fail(line, column, "'run' expects a list of flags, e.g. [\"--n\", \"40\", \"--block\", \"40\"]");
            else
                for (auto&& item : *a) {
                    if (!item.is_string()) fail(line, column, "'run' holds texts only (flags and their values)");
                    else ex.run.push_back(*item.value<std::string>());
                }
            if (const std::string why = run_flags_problem(ex.run); !why.empty()) fail(line, column, why);
        } else if (key == "hazard") {
            // A note (atomic-contention) is correct code: it never makes `rlab run` fail, so it grades nothing.
            has_hazard = v.is_string() && parse_hazard_kind(*v.value<std::string>(), ex.hazard) && !is_note(ex.hazard);
            if (!has_hazard) fail(line, column, "'hazard' expects a hazard kind the checker reports (e.g. \"shared-memory-race\")");
        } else {
            fail(line, column, "unknown field '" + key + "'; expected title, task, hint, run, hazard");
        }
    }
    for (const char* need : {"title", "task", "hint", "hazard"})
        if (!root.contains(need)) fail(1, 1, std::string("missing '") + need + "'");
    std::error_code ec;
    for (const std::string& f : {ex.kernel_file(), ex.solution_file()})
        if (!fs::is_regular_file(f, ec)) errors.push_back({f, 0, 0, "missing: an exercise has kernel.cu (the bug) and solution.cu"});
    if (errors.size() != before) return std::nullopt;
    return ex;
}

std::vector<Exercise> load_exercises(const std::string& lessons_dir, std::vector<LessonError>& errors) {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto& ent : fs::directory_iterator(lessons_dir + "/exercises", ec))
        if (ent.is_directory(ec)) names.push_back(ent.path().filename().string());
    std::sort(names.begin(), names.end());
    std::vector<Exercise> out;
    for (const std::string& n : names)
        if (auto ex = load_exercise(lessons_dir, n, errors)) out.push_back(std::move(*ex));
    return out;
}

}  // namespace rl
