// app/qt/classroom.cpp — runs a schedule or plays a lesson, and writes each step's narrative from the trace.
#include "app/qt/classroom.h"

#include <algorithm>
#include <sstream>
#include "core/emulator.h"
#include "core/lesson.h"

namespace rl::qt {
namespace {

std::string scope_words(Scope s) {
    switch (s) {
        case Scope::Thread: return "Each thread works alone on its own elements";
        case Scope::Warp: return "Lanes of one warp exchange values through registers, with no shared memory";
        case Scope::Block: return "The warps of a block combine through shared memory";
        case Scope::Grid: return "The blocks' partial results are combined";
    }
    return "";
}

}  // namespace

std::string step_narrative(const Trace& t, const render::Layout& l, const Analysis& a, int step) {
    std::ostringstream md;
    if (step < 0 || size_t(step) >= l.rows.size()) return "*No step here.*";
    const render::Row& row = l.rows[size_t(step)];
    md << "## Step " << step + 1 << " of " << l.rows.size() << ": " << row.label << "\n\n";
    md << scope_words(row.scope) << " (" << to_string(row.scope) << " scope).\n\n";
    size_t combines = 0, shuffles = 0, barriers = 0, stores = 0;
    for (const Event& e : t.events) {
        if (e.step != step) continue;
        combines += e.kind == EventKind::Combine;
        shuffles += e.kind == EventKind::Shuffle;
        barriers += e.kind == EventKind::Barrier;
        stores += e.kind == EventKind::SharedStore;
    }
    if (shuffles) md << "- **" << shuffles << "** values travel between lanes (the orange arrows).\n";
    if (combines) md << "- **" << combines << "** combines run at the same time: one step of depth.\n";
    if (stores) md << "- **" << stores << "** values are stored to shared memory.\n";
    if (barriers) md << "- **" << barriers << "** warps wait at `__syncthreads()`.\n";
    // The values held after this step (the first few threads).
    std::string held;
    size_t shown = 0;
    for (const render::Cell& c : row.cells) {
        if (shown == 12) {
            held += ", …";
            break;
        }
        held += (shown ? ", " : "") + render::box_text(t, t.events[c.event]);
        ++shown;
    }
    if (!held.empty()) md << "- Values after this step: " << held << "\n";
    for (const Hazard& h : t.hazards) {
        if (h.event < t.events.size() && t.events[h.event].step == step)
            md << "\n**Hazard** (" << to_string(h.kind) << "): " << h.what << "\n";
    }
    for (const Hazard& h : t.notes) {  // cost, not correctness: a plain note, not in bold
        if (h.event < t.events.size() && t.events[h.event].step == step)
            md << "\n*Note* (" << to_string(h.kind) << ", about cost; the result is correct): " << h.what << "\n";
    }
    if (step == int(l.rows.size()) - 1) {
        md << "\n### Result\n\n";
        md << "Result **" << format_value(t.schedule.op, t.schedule.type, t.result_value, t.result_flags)
           << "**, reference " << format_value(t.schedule.op, t.schedule.type, t.reference_value) << " — verdict **"
           << to_string(a.verdict) << "**.\n\n";
        md << "Depth: a serial loop needs **" << a.serial_depth << "** combines one after another; an ideal tree **"
           << a.tree_depth << "**; this schedule **" << a.span << "**.\n";
    }
    return md.str();
}

bool Classroom::open_schedule(const Schedule& s) {
    const Schedule old = lab.schedule;
    lab.schedule = s;
    if (adopt_run(lab.rerun())) return true;
    lab.schedule = old;
    return false;
}

std::string Classroom::open_kernel(const student::KernelRequest& request) {
    if (!lab.open_kernel(request)) return lab.error;
    return {};
}

bool Classroom::take_kernel_run() {
    if (!lab.take_kernel_run()) return false;
    if (lab.kernel->error.empty()) adopt_run(true);  // the new trace's pages; a failed run keeps the last ones
    return true;
}

bool Classroom::open_trace(const std::string& path) { return adopt_run(lab.load_trace(path)); }

bool Classroom::adopt_run(bool ok) {
    if (!ok) return false;
    lab.finish_analysis();
    lesson.clear();
    lesson_title.clear();
    shown_trace_ = -1;
    make_schedule_pages();
    go(std::min(page, last_page()));
    return true;
}

std::string Classroom::start(const lab::Options& o, const std::string& remembered_lesson, const Schedule* remembered_schedule) {
    lab.backend = o.backend_choice;
    const bool given = !o.lesson.empty() || !o.lesson_file.empty() || !o.trace_file.empty() || o.schedule_flags.given() || !o.kernel.empty();
    const std::string name = given ? o.lesson : remembered_lesson;
    scan_lessons();
    bool opened = false;
    if (!o.lesson_file.empty()) {
        if (std::string err = open_lesson_file(o.lesson_file); !err.empty()) return err;
        opened = true;
    } else if (!name.empty()) {
        const std::string err = open_lesson(name);
        if (!err.empty() && !o.lesson.empty()) return err;
        opened = err.empty();  // a remembered lesson since removed: the schedule instead
    }
    if (!o.kernel_request.file.empty()) {  // --kernel: its first run before the window opens
        if (std::string err = lab.open_kernel_and_wait(o.kernel_request); !err.empty()) return err;
        const std::string failed = lab.error;
        adopt_run(true);
        if (!lab.kernel->error.empty()) lab.source.show_text(lab.kernel->text), lab.error = failed;
        lab.backend_note = o.kernel_note;
        opened = true;
    }
    if (!opened && !o.trace_file.empty() && !open_trace(o.trace_file)) return lab.error;
    const Schedule& s = !given && remembered_schedule ? *remembered_schedule : o.schedule;
    if (!opened && o.trace_file.empty() && !open_schedule(s)) return lab.error;
    if (o.view == "time" && !lab.set_time_view(true)) return "--view time: " + lab.notice;
    lab.timings = lab::load_timings(o.bench_file);
    if (!o.bench_file.empty() && !lab.timings.loaded) return "--bench-file: " + lab.timings.error;
    if (!o.kernel_timing_file.empty())
        if (std::string why = lab::load_kernel_timing(lab.timings, o.kernel_timing_file); !why.empty())
            return "--kernel-timing: " + why;
    if (o.time_on_gpu) lab.start_kernel_timing();  // the timings tab shows its progress (TimingsPanel polls the job)
    if (o.step >= 0) {
        if (o.step > last_page())
            return "--step " + std::to_string(o.step) + ": this has steps 0 to " + std::to_string(last_page());
        go(o.step);
    }
    return {};
}

void Classroom::make_schedule_pages() {
    pages.clear();
    for (int k = 0; k <= lab.last(); ++k) {
        Page p;
        p.cursor_step = k;
        p.title = "Step " + std::to_string(k + 1) + " of " + std::to_string(lab.last() + 1) + ": " +
                  lab.layout.rows[size_t(k)].label;
        p.markdown = step_narrative(lab.trace, lab.layout, lab.analysis, k);
        pages.push_back(std::move(p));
    }
}

void Classroom::fill_page(int k, const PlayedStep& ps) {
    Page& p = pages[size_t(k)];
    p.cursor_step = ps.cursor_step;
    p.title = "Step " + std::to_string(k + 1) + " of " + std::to_string(pages.size()) + ": " + ps.where;
    std::string md = "## " + p.title + "\n\n" + ps.narrative + "\n";
    if (!ps.question.empty()) {
        md += "\n### Check your understanding\n\n" + ps.question + "\n\n";
        for (size_t i = 0; i < ps.choices.size(); ++i) md += std::to_string(i + 1) + ". " + ps.choices[i] + "\n";
    }
    for (const std::string& pr : ps.problems) md += "\n> problem: " + pr + "\n";
    p.markdown = md;
    p.played = true;
}

const Page& Classroom::page_at(int k) {
    if (!lesson.empty() && !pages[size_t(k)].played) fill_page(k, lab.lesson.played(size_t(k)));
    return pages[size_t(k)];
}

void Classroom::go(int p) {
    if (pages.empty()) return;
    page = std::clamp(p, 0, last_page());
    if (!lesson.empty()) {  // one page per lesson step, played when shown: its trace, its text, its check
        lab.lesson.show(size_t(page));
        const PlayedStep& ps = lab.lesson.step();
        fill_page(page, ps);
        const Trace* rec = lab.lesson.show_recorded ? lab.lesson.recorded_trace(size_t(page)) : nullptr;
        shown_recorded_ = rec != nullptr;
        if (rec) {  // the GPU's trace of this step (lessons/recorded), labelled in the title
            lab.trace = *rec;
            lab.schedule = rec->schedule;
            lab.adopt_trace();
            lab.analysis_ready = false;
            lab.finish_analysis();
            shown_trace_ = -1;
        } else if (shown_trace_ != pages[size_t(page)].trace_index) {  // a step on another schedule (or input)
            lab.trace = ps.trace;
            lab.schedule = ps.trace.schedule;
            lab.adopt_trace();
            lab.analysis = ps.analysis;
            lab.analysis_ready = true;
            shown_trace_ = pages[size_t(page)].trace_index;
        }
    }
    lab.playing = false;
    lab.set_step(pages[size_t(page)].cursor_step);
}

int Classroom::next_hazard_page() {
    if (pages.empty()) return -1;
    const int s = render::next_hazard_step(lab.layout, pages[size_t(page)].cursor_step);
    if (s < 0) return -1;
    for (int k = page + 1; k <= last_page(); ++k)  // a lesson's later steps on the same trace (played one at a time)
        if (pages[size_t(k)].trace_index == current().trace_index && page_at(k).cursor_step >= s) return k;
    return -1;
}

std::string Classroom::title() const {
    if (!lesson.empty() && shown_recorded_)
        return lesson + ": " + lesson_title + " (GPU trace " + lab.lesson.recorded().label() + ")";
    if (!lesson.empty()) return lesson + ": " + lesson_title;
    return describe(lab.schedule);
}

std::string Classroom::recorded_error() const {
    const auto& p = lab.lesson;
    const bool tried = !lesson.empty() && p.show_recorded && !shown_recorded_ && p.recorded_step() == size_t(page);
    return tried ? p.recorded_error() : std::string();
}

void Classroom::scan_lessons() {
    lessons.clear();
    lessons_note.clear();
    const DataSearch found = search_lessons_dir();
    const std::string& dir = found.found;
    if (dir.empty()) {
        lessons_note = found.not_found("lessons folder");
        return;
    }
    LessonSet set = load_lessons(dir);
    for (const Lesson& l : set.lessons) lessons.push_back({l.name, l.title, l.summary});  // in course order
    for (const LessonError& e : set.errors) lessons_note += e.str() + "\n";
    if (lessons.empty() && lessons_note.empty()) lessons_note = "No lessons yet in " + dir + ".";
}

std::string Classroom::open_lesson(const std::string& name) {
    if (std::string err = lab.lesson.open(name); !err.empty()) return err;
    adopt_lesson();
    return "";
}

std::string Classroom::open_lesson_file(const std::string& path) {
    if (std::string err = lab.lesson.open_file(path); !err.empty()) return err;
    adopt_lesson();
    return "";
}

void Classroom::adopt_lesson() {
    pages.clear();
    const std::vector<LessonStep>& steps = lab.lesson.lesson().steps;
    for (size_t k = 0; k < steps.size(); ++k) {
        // Steps on the same schedule in every field share a trace (a step may change only its input).
        Page p;
        p.trace_index = int(k);
        for (size_t j = 0; j < k; ++j)
            if (steps[j].schedule == steps[k].schedule) {
                p.trace_index = int(j);
                break;
            }
        p.title = "Step " + std::to_string(k + 1) + " of " + std::to_string(steps.size());
        pages.push_back(std::move(p));
    }
    lesson = lab.lesson.lesson().name;
    lesson_title = lab.lesson.lesson().title;
    lab.error.clear();
    shown_trace_ = -1;
    page = 0;
    go(0);
}

}  // namespace rl::qt
