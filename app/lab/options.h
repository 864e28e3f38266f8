// app/lab/options.h — the command line of both GUIs, parsed and checked in one place (the front-end contract:
// SCHEDULE flags or --lesson, --step, --frames, --screenshot, --dump-scene, --quit, --bench-frames, ...),
// and the checks of the values they share with `rlab render`.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include "app/backend/backend.h"
#include "app/lab/schedule_options.h"
#include "student/kernel_run.h"

namespace rl::lab {

enum class FrontEnd { LabBench, Classroom };

struct Options {
    ScheduleArgs schedule_flags;
    std::string backend = "auto", lesson, trace_file, view = "steps", theme, size = "1600x900";
    std::string screenshot, dump_scene, bench_file;
    std::string kernel_timing_file;  // --kernel-timing FILE: a saved rlab run --time --format json, shown in the timings view
    bool time_on_gpu = false;        // --time-on-gpu: start Time on GPU (Ctrl+T) for the --kernel at startup
    int step = -1;           // -1: not given
    int frames = -1;         // -1: not given (3 when --quit, --screenshot or --dump-scene ask for frames)
    int bench_frames = 0;
    bool quit = false, numerics = false;
    bool source_diff = false;  // the source panel shows the bug diff (D toggles it)
    std::string kernel;        // --kernel FILE.cu: a student's kernel, run with the size flags and watched for saves
    std::string kernel_name;   // --kernel-name NAME: which __global__ of a plain CUDA --kernel file runs
    std::string launch;        // --launch PLAN: a plain CUDA --kernel file's launches (student/launch_syntax.h)
    double time_limit_s = 10.0;  // --time-limit S: a --kernel run is stopped after this long (an endless loop, a hang)
    bool edit = false;         // --edit: with --kernel or --exercise, the source panel opens in its editor
    std::string exercise;      // --exercise NAME: an exercise's kernel (its working copy) with the exercise's flags
    // The lab bench only.
    std::string zoom = "fit", time_window;
    float progress = 1.0f, font_scale = 1.0f;
    long select = -1;
    bool play = false, enlarge_timings = false;  // --play: the classroom too
    std::string monkey;          // --monkey SEED:COUNT, a test's flag (docs/gui-monkey.md)
    uint64_t monkey_seed = 0;
    int monkey_events = 0;       // 0: no monkey
    // The classroom only.
    std::string export_pdf, lesson_file;  // LESSON_FILE: a lesson .toml anywhere (the desktop's Open With)
    int msaa = 4;
    bool presenter = false, timings_tab = false, depth_log = false;

    // Filled by parse_options from the text above once it is checked.
    Schedule schedule;
    BackendChoice backend_choice = BackendChoice::Auto;
    int width = 1600, height = 900;
    double time_from = 0, time_to = -1;  // --time-window in cycles (to < 0: not given)
    student::KernelRequest kernel_request;  // --kernel checked (lab/kernel_request.h); file empty when not given
    std::string kernel_note;   // --kernel or --exercise: the working copy's line and why the emulator runs it
};

// Parses and checks argv for `which` front end. Returns -1 to go on; else the exit code: 0 after --help (printed
// to `out`), 2 on bad input, with one line "PROGRAM: what was wrong and what is allowed" on `err`.
int parse_options(FrontEnd which, int argc, const char* const* argv, Options& o, std::ostream& out, std::ostream& err);

// Checks shared with `rlab render`: each returns an empty string, or one line naming the flag and what is allowed.
std::string check_theme(const std::string& theme);  // dark | light (empty: the front end's default)
std::string check_view(const std::string& view);    // steps | time
std::string check_backend(const std::string& text, BackendChoice& out);
std::string check_size(const std::string& text, int min_w, int min_h, int& w, int& h);
std::string check_font_scale(float scale);  // --font-scale: finite, 0.5 to 3

}  // namespace rl::lab
