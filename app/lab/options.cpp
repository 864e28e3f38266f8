// app/lab/options.cpp — one CLI11 parser for the lab bench and the classroom; every value checked before a window.
#include "app/lab/options.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <filesystem>
#include "app/lab/exercise_links.h"
#include "app/lab/kernel_request.h"
#include "core/data_paths.h"
#include "core/emulator.h"
#include "core/file_io.h"
#include "core/version.h"
#include "student/cuda_source.h"

namespace rl::lab {
namespace {

// --exercise NAME: the exercise in the lessons folder, its working copy and flags as the kernel to open; "" or why not.
std::string open_exercise(Options& o) {
    for (char c : o.exercise)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
            return "expected an exercise's name (letters, digits, '-' and '_', e.g. partial-warp-mask)";
    const DataSearch found = search_lessons_dir();
    if (found.found.empty()) return found.not_found("lessons folder");
    std::vector<LessonError> errors;
    const std::optional<Exercise> ex = load_exercise(found.found, o.exercise, errors);
    if (!ex) {
        std::vector<LessonError> ignored;
        std::string names;
        for (const Exercise& e : load_exercises(found.found, ignored)) names += (names.empty() ? "" : ", ") + e.name;
        return errors.empty() || !std::filesystem::exists(found.found + "/exercises/" + o.exercise)
                   ? "no such exercise in " + found.found + "/exercises (there: " + names + ")"
                   : errors.front().str();
    }
    try {
        o.kernel_request = exercise_request(*ex, false, o.backend_choice, &o.kernel_note);
    } catch (const Error& e) {
        return e.what();
    }
    o.kernel = o.kernel_request.file;  // from here on it is a kernel like --kernel's (--edit, the watch)
    return {};
}

// The flags both GUIs take, in the words of the command-line contract.
void add_shared(CLI::App& app, Options& o) {
    add_schedule_options(app, o.schedule_flags);
    app.add_option("--backend", o.backend, "auto|cpu|cuda")->capture_default_str();
    app.add_option("--lesson", o.lesson, "open a lesson by name (its file's stem, e.g. eight-threads)");
    app.add_option("--trace", o.trace_file, "show a trace saved by `rlab trace --format json` instead of running a schedule");
    app.add_option("--view", o.view, "steps (one row per step) | time (one row per warp at GPU timestamps; T toggles)")
        ->capture_default_str();
    app.add_option("--step", o.step, "open at this step (0-based); with --lesson, the lesson's step K");
    app.add_option("--frames", o.frames, "show this many frames (with --quit: then exit)");
    app.add_option("--screenshot", o.screenshot, "save the window as a PNG after the frames");
    app.add_option("--dump-scene", o.dump_scene,
                   "write the canvas scene (boxes, arrows, labels) as JSON after the frames; the lab bench adds what "
                   "its timings and numerics panels drew");
    app.add_flag("--quit", o.quit, "exit after the frames");
    app.add_option("--bench-frames", o.bench_frames, "draw this many frames, print frame-time percentiles and exit");
    app.add_option("--size", o.size, "window size WxH")->capture_default_str();
    app.add_option("--theme", o.theme, "dark|light");
    app.add_option("--bench-file,--timings", o.bench_file,
                   "bench results JSON (`rlab bench --json`) for the timings view (default: $RLAB_BENCH_FILE, else the "
                   "newest docs/bench/*.json installed next to the program or in the source tree)");
    app.add_option("--kernel-timing", o.kernel_timing_file,
                   "a student's kernel timed on the GPU beside the fast path and CUB (`rlab run FILE.cu --backend cuda "
                   "--time --format json -o FILE`), shown as three rows in the timings view");
    app.add_flag("--time-on-gpu", o.time_on_gpu,
                 "with --kernel: start Time on GPU (Ctrl+T) at once, as the timings view's button does (for screenshots "
                 "and demonstrations; RLAB_CLI names the rlab it runs)");
    app.add_flag("--numerics", o.numerics, "show the numerics comparison of orders (N toggles it)");
    app.add_option("--kernel", o.kernel, "open a student's kernel (.cu with one RL_KERNEL, or plain CUDA; docs/student-kernels.md), run it "
                                         "with --n --block --grid --input --seed --op, and run it again on every save");
    app.add_option("--kernel-name", o.kernel_name,
                   "with --kernel FILE.cu of several plain CUDA kernels: the one to run, NAME or a template's instance "
                   "NAME<ARGS> (e.g. reduce6<256>); the kernel panel's field changes it")
        ->type_name("NAME");
    app.add_option("--launch", o.launch,
                   "with --kernel FILE.cu in plain CUDA: its launches as CUDA writes them, e.g. 'k<<<64, 256, 1024>>>(in, tmp, n); "
                   "k<<<1, 256, 1024>>>(tmp, out, 64)' (in, out, tmp, n or integers; docs/plain-cuda.md)")
        ->type_name("PLAN");
    app.add_option("--time-limit", o.time_limit_s,
                   "with --kernel: stop the kernel's run after S seconds (an endless loop, a hang; a plan at 2^23 elements "
                   "and up needs more than the default)")
        ->type_name("S")
        ->capture_default_str();
    app.add_option("--exercise", o.exercise, "open a lessons' exercise by name (`rlab lessons --exercise` lists them): "
                                             "its kernel with its own flags, in your own copy when the lessons are "
                                             "installed read-only");
    app.add_flag("--edit", o.edit, "with --kernel or --exercise: the source panel opens in its editor (Ctrl+E toggles "
                                   "it, Ctrl+S saves and runs)");
    app.add_flag("--source-diff", o.source_diff, "the source panel shows a bug's lines against the clean kernel (D toggles it)");
}

void add_lab_bench(CLI::App& app, Options& o) {
    app.add_option("--time-window", o.time_window, "FROM:TO cycles the time view first shows (e.g. 13500:17500, the barriers)");
    app.add_option("--progress", o.progress, "animation progress of that step, 0..1 (values in flight below 0.65)");
    app.add_option("--select", o.select, "select this event index (its details and dependency cone)");
    app.add_option("--font-scale", o.font_scale, "text size factor (Ctrl +/- in the window)")->capture_default_str();
    app.add_option("--zoom", o.zoom, "fit (the whole grid) | lane (one lane fills the canvas)")->capture_default_str();
    app.add_flag("--play", o.play, "start playing");
    app.add_flag("--enlarge-timings", o.enlarge_timings, "show the timings panel in the canvas's place (for screenshots)");
    app.add_flag("--presenter", o.presenter, "the canvas for a room: text of at least 18 px, zoomed to follow the step (F5 toggles)");
    app.add_option("--monkey", o.monkey,
                   "SEED:COUNT (for tests) feed COUNT random keys, clicks, drags, wheel turns, typed text, resizes, schedule "
                   "changes and lesson switches, print the slowest frame and exit (1 if a frame took over a second)");
}

void add_classroom(CLI::App& app, Options& o) {
    app.add_option("--msaa", o.msaa, "canvas multisampling, used where the scene has arrows or hatching (0 off; a software renderer spends ~8 ms "
                   "on a 4x canvas each time it is redrawn)")
        ->capture_default_str();
    app.add_flag("--play", o.play, "start playing (with --bench-frames: every timed frame is an animation tick)");
    app.add_flag("--depth-log", o.depth_log, "start the depth chart on a log scale (at large n serial dwarfs the tree)");
    app.add_flag("--timings-tab", o.timings_tab, "bring the measured-timings tab to the front (for screenshots)");
    app.add_option("--export-pdf", o.export_pdf, "write the lesson (or the schedule's steps) as a PDF handout and exit");
    app.add_flag("--presenter", o.presenter, "full screen, large type, high contrast (F5 toggles)");
    app.add_option("LESSON_FILE", o.lesson_file, "a lesson file (.toml) to open, from anywhere (instead of --lesson NAME)");
}

// The whole of [first, last) is one unsigned number in range (from_chars alone lets an overflow through).
template <class T> bool whole(const char* first, const char* last, T& out) {
    if (first == last || !std::isdigit(static_cast<unsigned char>(*first))) return false;
    auto [p, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && p == last;
}

// The checks after parsing: the first problem as one line, or empty.
std::string check(FrontEnd which, Options& o) {
    if (std::string e = check_size(o.size, 320, 240, o.width, o.height); !e.empty()) return e;
    if (std::string e = check_theme(o.theme); !e.empty()) return e;
    if (std::string e = check_backend(o.backend, o.backend_choice); !e.empty()) return e;
    if (std::string e = check_view(o.view); !e.empty()) return e;
    if (o.bench_frames < 0) return "--bench-frames " + std::to_string(o.bench_frames) + ": expected 0 or more frames";
    if (o.zoom != "fit" && o.zoom != "lane") return "--zoom " + o.zoom + ": expected fit or lane";
    if (!o.kernel_name.empty() && o.kernel.empty())
        return "--kernel-name " + one_line(o.kernel_name) + ": names a kernel of the --kernel FILE.cu: give --kernel too";
    if (!o.kernel_name.empty())
        if (std::string why = student::kernel_name_problem(o.kernel_name); !why.empty())
            return "--kernel-name " + one_line(o.kernel_name) + ": " + why;
    if (!o.launch.empty() && o.kernel.empty())
        return "--launch: runs the kernels of the --kernel FILE.cu: give --kernel too";
    if (o.edit && o.kernel.empty() && o.exercise.empty())
        return "--edit: edits a student's kernel in the source panel; give --kernel FILE.cu or --exercise NAME too";
    if (!o.lesson_file.empty() && !o.lesson.empty())
        return "LESSON_FILE " + o.lesson_file + " and --lesson " + o.lesson + ": open one lesson, not both";
    if (which == FrontEnd::Classroom && (o.msaa < 0 || o.msaa > 16))
        return "--msaa " + std::to_string(o.msaa) + ": expected 0 to 16";
    if (std::string e = check_font_scale(o.font_scale); !e.empty()) return e;
    if (!o.time_window.empty()) {
        // Strict: two whole numbers of cycles, 0 <= FROM < TO <= 2^53 (a GPU clock counter stays far below).
        const std::string w = o.time_window;
        const size_t colon = w.find(':');
        uint64_t from = 0, to = 0;
        const bool ok = colon != std::string::npos && whole(w.data(), w.data() + colon, from) &&
                        whole(w.data() + colon + 1, w.data() + w.size(), to) && from < to && to <= (1ull << 53);
        if (!ok) return "--time-window " + one_line(w) + ": expected FROM:TO cycles, FROM < TO (whole cycles, at most 2^53)";
        o.time_from = double(from);
        o.time_to = double(to);
    }
    if (!o.monkey.empty()) {
        const std::string& m = o.monkey;
        const size_t colon = m.find(':');
        const bool ok = colon != std::string::npos && whole(m.data(), m.data() + colon, o.monkey_seed) &&
                        whole(m.data() + colon + 1, m.data() + m.size(), o.monkey_events) && o.monkey_events >= 1 &&
                        o.monkey_events <= 1000000;
        if (!ok) return "--monkey " + one_line(m) + ": expected SEED:COUNT, whole numbers, COUNT from 1 to 1000000";
    }
    try {
        o.schedule = o.schedule_flags.build();
        if (!o.kernel.empty()) {
            if (!o.lesson.empty() || !o.lesson_file.empty() || !o.trace_file.empty())
                return "--kernel " + one_line(o.kernel) + ": open a kernel, a lesson or a trace, one of them";
            std::error_code ec;
            if (!std::filesystem::is_regular_file(o.kernel, ec))
                return "--kernel " + one_line(o.kernel) + ": no such file (a .cu file that includes <rlab/kernel.h>)";
            o.kernel_request = kernel_request({o.kernel, o.kernel_name, o.schedule_flags, o.backend, o.time_limit_s, o.launch}, &o.kernel_note);
        }
    } catch (const Error& e) {
        return (o.kernel.empty() ? "" : "--kernel " + one_line(o.kernel) + ": ") + e.what();
    }
    if (!o.exercise.empty()) {
        if (!o.kernel.empty() || !o.lesson.empty() || !o.lesson_file.empty() || !o.trace_file.empty())
            return "--exercise " + one_line(o.exercise) + ": open an exercise, a kernel, a lesson or a trace, one of them";
        if (std::string e = open_exercise(o); !e.empty()) return "--exercise " + one_line(o.exercise) + ": " + e;
    }
    if (o.frames < 0) o.frames = o.quit || !o.screenshot.empty() || !o.dump_scene.empty() ? 3 : 0;
    return {};
}

}  // namespace

int parse_options(FrontEnd which, int argc, const char* const* argv, Options& o, std::ostream& out, std::ostream& err) {
    const bool bench = which == FrontEnd::LabBench;
    const std::string program = bench ? "reduction-lab" : "reduction-lab-qt";
    CLI::App app{bench ? "reduction-lab — the lab bench: watch a GPU reduction schedule run, step by step, with every knob."
                       : "reduction-lab-qt — the classroom: lessons, narrative, charts, presenter mode and handouts."};
    add_shared(app, o);
    if (bench)
        add_lab_bench(app, o);
    else
        add_classroom(app, o);
    app.set_version_flag("--version", version_line(program));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e, out, err);
        err << program << ": " << e.what() << " (see --help)\n";
        return 2;
    }
    if (std::string e = check(which, o); !e.empty()) {
        err << program << ": " << e << "\n";
        return 2;
    }
    return -1;
}

std::string check_theme(const std::string& theme) {
    if (theme.empty() || theme == "dark" || theme == "light") return {};
    return "--theme " + theme + ": expected dark or light";
}

std::string check_view(const std::string& view) {
    if (view == "steps" || view == "time") return {};
    return "--view " + view + ": expected steps or time";
}

std::string check_backend(const std::string& text, BackendChoice& out) {
    if (parse_backend(text, out)) return {};
    return "--backend " + text + ": expected auto, cpu or cuda";
}

std::string check_size(const std::string& text, int min_w, int min_h, int& w, int& h) {
    // Strict: digits, 'x', digits and nothing else; bounded so a frame's pixels stay about 130 MB.
    constexpr int kMaxW = 7680, kMaxH = 4320;
    const size_t x = text.find('x');
    const char* end = text.data() + text.size();
    const bool ok = x != std::string::npos &&
                    whole(text.data(), text.data() + x, w) && whole(text.data() + x + 1, end, h);
    if (!ok || w < min_w || h < min_h || w > kMaxW || h > kMaxH)
        return "--size " + one_line(text) + ": expected WxH from " + std::to_string(min_w) + "x" + std::to_string(min_h) +
               " to " + std::to_string(kMaxW) + "x" + std::to_string(kMaxH);
    return {};
}

std::string check_font_scale(float scale) {
    if (std::isfinite(scale) && scale >= 0.5f && scale <= 3.0f) return {};
    return "--font-scale " + std::to_string(scale) + ": expected a number from 0.5 to 3";
}

}  // namespace rl::lab
