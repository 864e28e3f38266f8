// app/lab/lab_state.h — the state of the lab (run, playback, lesson, jobs) that both front ends show and change.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "app/backend/backend.h"
#include "app/lab/bench_job.h"
#include "app/lab/kernel_editor.h"
#include "app/lab/kernel_session.h"
#include "app/lab/kernel_time_job.h"
#include "app/lab/lesson_player.h"
#include "app/lab/source_model.h"
#include "app/lab/numerics_state.h"
#include "app/lab/timings.h"
#include "app/render/drawn_panels.h"
#include "app/render/scene.h"
#include "app/render/time_scene.h"
#include "core/analysis.h"
#include "core/costs.h"
#include "core/trace.h"

namespace rl::lab {

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
};

// Everything the canvas's scene is a function of, as frame_scene() (frame.h) sees it each frame: the scene is built
// again only when this differs from the key of the scene kept, so an unchanged frame costs only its drawing. What a
// view and a cursor cannot say (a new trace, a new cone, new source-line marks) is `shown`, LabState's shown_version.
struct SceneKey {
    uint64_t shown = 0;
    bool time_view = false;
    bool presenter = false;     // its scene drops small texts
    render::Cursor cursor;
    render::View view;          // size, zoom, scroll, text size, theme, selection, cone and marks (by address)
    bool operator==(const SceneKey&) const = default;
};

struct LabState {
    // What runs.
    Schedule schedule;
    BackendChoice backend = BackendChoice::Auto;
    std::string backend_note;     // e.g. "no usable GPU (...): using the CPU emulator"
    std::string error;            // last bad configuration, shown in the config panel
    Trace trace;
    render::Layout layout;
    Analysis analysis;
    bool analysis_ready = false;  // analysed after the first frame is shown: a large trace appears sooner
    CostReport costs;             // bank conflicts, divergence, idle lanes per step: with the analysis, once a trace
    double run_ms = 0;            // how long the last run took (emulator or GPU, plus analysis)
    std::string trace_file;       // the saved trace shown (--trace), empty when the schedule was run here
    render::TimeLayout time_layout;  // rows per warp at GPU timestamps (empty for emulator traces)

    // What is seen.
    render::Cursor cursor;
    render::View view;
    bool view_fitted = false;     // fit the view to the canvas on the next frame
    bool playing = false;
    float speed = 1.0f;           // steps per second
    uint32_t selected = kNoEvent;
    std::vector<uint8_t> cone;    // 1 per event in the selected event's dependency cone
    uint64_t cone_size = 0;
    std::vector<uint8_t> line_marks;  // 1 per event of the source line clicked (source_view.h's pick_line), else empty
    bool dark = true;
    float font_scale = 1.0f;
    bool presenter = false;       // the canvas for a room: text >= 18 px, zoomed and panned to follow the step
    bool font_dirty = true;
    Rect canvas;                  // where the canvas is in the window this frame
    std::string zoom = "fit";     // start view: fit | lane
    double time_from = 0, time_to = -1;  // --time-window: the time view's first fit (cycles)
    bool time_view = false;       // the canvas shows time per warp instead of steps (GPU traces only)
    std::string notice;           // a one-line message for the transport panel (e.g. why the time view is off)

    Timings timings;              // recorded results (or --bench-file), replaced by a fresh measurement
    std::string timings_note;     // why the last measurement gave nothing (failed or cancelled)
    bool timings_large = false;   // the timings panel takes the canvas's place
    std::shared_ptr<BenchJob> bench_job = std::make_shared<BenchJob>();  // shared: LabState stays copyable
    NumericsState numerics;       // the comparison of `schedule` (computed while the numerics view is open)
    bool numerics_open = false;   // the numerics table takes the canvas's place
    bool source_open = true;      // the lab bench's source panel under the canvas (S)
    render::Scene last_scene;     // the scene drawn last frame: clicks pick from it
    // The scene cache, owned here and kept by frame_scene() alone: last_scene's key (empty: none built yet), how many
    // scenes were built (tests and --bench-frames check that unchanged frames build none) and what the last one cost.
    std::optional<SceneKey> scene_key;
    uint64_t scene_builds = 0;
    double scene_build_ms = 0;
    // Counts changes of what the canvas shows that no view or cursor field says: adopt_trace(), select() and the
    // source line's marks (source_view.h) call shown_changed(). Anything else that edits trace, layout, cone or
    // line_marks in place must call it too, or the canvas keeps the old picture.
    uint64_t shown_version = 0;
    void shown_changed() { ++shown_version; }
    render::DrawnPanels drawn;    // what the lab bench's panels drew this frame, as they drew it (--dump-scene)
    LessonPlayer lesson;          // the lesson open (--lesson), if any
    std::shared_ptr<KernelSession> kernel = std::make_shared<KernelSession>();  // a student's kernel (--kernel, Open kernel)
    std::shared_ptr<KernelTimeJob> time_job = std::make_shared<KernelTimeJob>();  // Time on GPU (Ctrl+T) of that kernel
    KernelEditor kernel_editor;   // its text edited in the source panel (Ctrl+E), saved and run on Ctrl+S
    SourceModel source;           // the CUDA source of the trace's schedule, rebuilt in adopt_trace()
    int source_line = 0;          // the source line clicked (1-based), 0 = none
    bool source_diff = false;     // show the clean-vs-buggy diff instead of the source

    uint32_t pending_pick(float x, float y) const { return render::pick(last_scene, x, y); }

    // Runs the current schedule on the backend; on bad input keeps the old trace and sets `error`.
    bool rerun();
    // Shows a trace saved by `rlab trace --format json`; on a bad file keeps the old trace and sets `error`.
    bool load_trace(const std::string& path);
    // Opens a student's kernel file and starts its run (the trace arrives through take_kernel_run). On a bad
    // request, or while the kernel editor holds unsaved edits, keeps everything and sets `error`.
    bool open_kernel(const student::KernelRequest& request);
    // Once the kernel's run finished: its trace is shown (true), or its diagnostics are kept and the source panel
    // shows the file that did not compile, the last trace staying in the canvas (true). False: nothing new.
    bool take_kernel_run();
    // The lab bench's frame: polls the kernel file's modification time about twice a second (a save re-runs it) and
    // takes a finished run. True when the shown state changed.
    bool poll_kernel();
    // Opens the kernel and waits for its first run (startup, --kernel): the first frame shows its trace. When it does
    // not compile, the schedule of the size flags is run so the canvas has a trace, and the source panel shows the
    // student's file with its error. An error line (a bad request), or empty.
    std::string open_kernel_and_wait(const student::KernelRequest& request);
    double kernel_polled_s = -1;  // when poll_kernel last looked at the file (steady clock, seconds)
    // Switches the canvas between steps and time; refuses time for traces without timestamps (sets `notice`).
    bool set_time_view(bool on);
    void adopt_trace();           // layouts and selection for a new trace
    void finish_analysis();       // runs analyze() if the current trace has not been analysed yet
    void select(uint32_t event);
    void set_step(int step, float t = 1.0f);
    void step_forward();
    void step_back();
    void jump_next_hazard();
    void advance(float dt);       // playback
    // Once the bench job has finished: its report becomes the timings shown, or its error `timings_note`.
    // True when a job finished since the last call.
    bool take_measurement();
    // Time on GPU (Ctrl+T): starts `rlab run FILE --backend cuda --time` for the open kernel with its sizes, plan and
    // operator (app/lab/kernel_time_job.h). False while one runs.
    bool start_kernel_timing();
    // Once it finished with a result: the three rows replace timings.kernel (true). False: nothing new.
    bool take_kernel_timing();
    int last() const { return render::last_step(layout); }
    std::string backend_line() const;  // "CPU SIMT emulator" or "CUDA: NVIDIA H200"
};

}  // namespace rl::lab
