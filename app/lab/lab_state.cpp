// app/lab/lab_state.cpp — runs schedules, keeps the cursor in range and the selection's cone current.
#include "app/lab/lab_state.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include "core/emulator.h"
#include "core/trace_io.h"

namespace rl::lab {
namespace {

// A saved trace of a student's kernel names its file: the source panel shows it when it is still there.
std::string read_kernel_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

bool LabState::rerun() {
    if (std::string err = validate(schedule); !err.empty()) {
        error = err;
        return false;
    }
    if (std::string err = check_traceable(schedule); !err.empty()) {
        error = err;
        return false;
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
        BackendRun run = run_backend(schedule, backend);
        trace = std::move(run.trace);
        backend_note = run.note;
    } catch (const std::exception& e) {
        error = e.what();
        return false;
    }
    trace_file.clear();
    adopt_trace();
    run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return true;
}

bool LabState::load_trace(const std::string& path) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        trace = read_trace_file(path);
    } catch (const std::exception& e) {
        error = path + ": " + e.what();
        return false;
    }
    schedule = trace.schedule;  // the knobs show what produced the trace; changing one runs it here
    backend_note.clear();
    trace_file = path;
    adopt_trace();
    run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return true;
}

bool LabState::open_kernel(const student::KernelRequest& request) {
    if (request.file.empty()) {
        error = "no kernel file given";
        return false;
    }
    if (kernel_editor.modified()) {  // never drop a student's typing unasked (the classroom asks first, then reverts)
        error = kernel_editor.file() + " has edits that are not saved: Save and run (Ctrl+S) or Revert them first";
        return false;
    }
    kernel->open(request);
    kernel_editor.load(request.file);
    return true;
}

bool LabState::take_kernel_run() {
    std::optional<KernelRun> run = kernel->take();
    if (!run) return false;
    if (run->outcome.ok && run->request_error.empty()) {
        trace = std::move(run->outcome.trace);
        lesson = LessonPlayer{};  // the kernel's trace replaces the lesson (its steps would run their own schedules)
        kernel->note_result(*run, trace.events.size());
        schedule = trace.schedule;
        trace_file.clear();
        adopt_trace();
        finish_analysis();
    } else {
        kernel->note_result(*run, 0);
        source.show_text(kernel->text);  // the file as it failed, its error line marked (source_view.h)
        source_line = 0;
        line_marks.clear();
        shown_changed();
        error = kernel->status();
    }
    kernel_editor.file_read(kernel->file(), kernel->text);  // a change on disk reaches an unedited buffer
    return true;
}

bool LabState::poll_kernel() {
    if (!kernel->active()) return false;
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    if (now - kernel_polled_s >= 0.5) {  // twice a second: a save shows within half a second, a stat() costs nothing
        kernel_polled_s = now;
        kernel->poll_file();
    }
    return take_kernel_run();
}

std::string LabState::open_kernel_and_wait(const student::KernelRequest& request) {
    if (!open_kernel(request)) return error;
    kernel->wait();
    take_kernel_run();
    if (!trace.events.empty() && !trace.kernel_file.empty()) return {};
    const std::string failed_text = kernel->text;
    schedule = request.schedule;
    if (!rerun()) return error;
    source.show_text(failed_text);  // the student's file stays in the source panel, its error line marked
    error = kernel->status();
    return {};
}

bool LabState::set_time_view(bool on) {
    if (on) {
        if (std::string why = render::time_view_unavailable(trace); !why.empty()) {
            notice = why;
            time_view = false;
            return false;
        }
    }
    notice.clear();
    if (time_view != on) view_fitted = false;
    time_view = on;
    return true;
}

void LabState::adopt_trace() {
    if (trace.kernel_file.empty()) source.build(trace);
    else source.build_student(trace, kernel->active() ? kernel->text : read_kernel_text(trace.kernel_file));
    source_line = 0;
    layout = render::build_layout(trace);
    time_layout = render::build_time_layout(trace);
    if (time_view && time_layout.rows.empty()) {
        time_view = false;  // a new emulator run cannot stay in the time view
        notice = render::time_view_unavailable(trace);
    }
    analysis = Analysis{};
    costs = CostReport{};
    analysis_ready = false;
    error.clear();
    cursor.step = std::min(cursor.step, last());
    selected = kNoEvent;
    cone.clear();
    cone_size = 0;
    line_marks.clear();
    view_fitted = false;
    shown_changed();  // a new trace: the cached scene is the old one's
}

void LabState::finish_analysis() {
    if (analysis_ready) return;
    analysis = analyze(trace);
    // The source's line per event (codegen's line table for the lab's schedules) names the lines split or conflicted.
    costs = compute_costs(trace, source.event_line.size() == trace.events.size() ? source.event_line : std::vector<uint32_t>{});
    analysis_ready = true;
}

void LabState::select(uint32_t event) {
    shown_changed();  // the cone is edited in place below: its address stays, its content does not
    selected = event;
    cone.clear();
    cone_size = 0;
    if (event == kNoEvent || event >= trace.events.size()) {
        selected = kNoEvent;
        return;
    }
    cone.assign(trace.events.size(), 0);
    for (uint32_t e : dependency_cone(trace, event)) cone[e] = 1;
    cone_size = uint64_t(std::count(cone.begin(), cone.end(), uint8_t(1)));
}

void LabState::set_step(int step, float t) {
    cursor.step = std::clamp(step, 0, last());
    cursor.t = t;
}

void LabState::step_forward() {
    playing = false;
    if (cursor.t < 1.0f) cursor.t = 1.0f;
    else set_step(cursor.step + 1);
}

void LabState::step_back() {
    playing = false;
    set_step(cursor.step - 1);
}

void LabState::jump_next_hazard() {
    playing = false;
    const int s = render::next_hazard_step(layout, cursor.step);
    if (s < 0) return;
    set_step(s);
    select(render::first_hazard_event(trace, layout, s));
}

void LabState::advance(float dt) {
    if (!playing) return;
    cursor.t += dt * speed;
    while (cursor.t >= 1.0f) {
        if (cursor.step >= last()) {
            cursor.t = 1.0f;
            playing = false;
            return;
        }
        // A short hold on each finished row, then the next row's values start travelling.
        cursor.step += 1;
        cursor.t -= 1.0f;
    }
}

bool LabState::take_measurement() {
    if (!bench_job->finished()) return false;
    std::string err;
    if (std::optional<BenchReport> r = bench_job->take(&err)) {
        Timings fresh = measured_timings(std::move(*r));
        fresh.kernel = std::move(timings.kernel);  // a timed kernel's rows (--kernel-timing) stay above the new plot
        fresh.kernel_file = std::move(timings.kernel_file);
        timings = std::move(fresh);
        timings_note.clear();
    } else {
        timings_note = err;
    }
    return true;
}

bool LabState::start_kernel_timing() {
    return time_job->start(kernel->request(), find_rlab(), kernel->text);
}

bool LabState::take_kernel_timing() {
    std::optional<KernelTiming> t = time_job->take();
    if (!t) return false;
    timings.kernel = std::move(*t);
    timings.kernel_file.clear();  // timed now, not read from a file
    return true;
}

std::string LabState::backend_line() const {
    if (trace.backend == Backend::Cuda) return "CUDA: " + trace.device;
    return trace.device.empty() ? "CPU SIMT emulator" : trace.device;
}

}  // namespace rl::lab
