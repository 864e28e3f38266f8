// app/qt/classroom.h — what the classroom shows: a run (app/lab's LabState) cut into pages, each a picture + narrative.
#pragma once
#include <string>
#include <vector>
#include "app/lab/lab_state.h"
#include "app/lab/options.h"

namespace rl::qt {

// One page of the handout and one stop of the transport: a place in a trace and what to say about it.
struct Page {
    std::string title;      // "Step 3 of 5: shfl_down offset 2"
    std::string markdown;   // the narrative, every number from the trace
    int trace_index = 0;    // which trace (lessons may change the schedule between steps): the first step on it
    int cursor_step = 0;    // the trace step shown
    bool played = false;    // a lesson page is written when its step is first played (lessons play one step at a time)
};

struct LessonInfo {
    std::string name, title, summary;
};

class Classroom {
public:
    lab::LabState lab;                // the run being shown (trace, layout, analysis, cursor, view)
    std::vector<Page> pages;
    int page = 0;
    std::string lesson;               // the lesson's name, empty for a schedule
    std::string lesson_title;
    std::vector<LessonInfo> lessons;  // what the lesson browser lists
    std::string lessons_note;         // why the list is empty (or the problems in lesson files)

    // Runs the schedule and makes one page per trace step. Returns false (lab.error set) on bad input.
    bool open_schedule(const Schedule& s);
    // Shows a trace saved by `rlab trace --format json`, one page per step. Returns false (lab.error set) on a bad file.
    bool open_trace(const std::string& path);
    // Loads the lesson by name (app/lab's player); returns an error line, empty on success.
    std::string open_lesson(const std::string& name);
    // A lesson file from anywhere (LESSON_FILE, File > Open, a recent file); an error line naming it, or empty.
    std::string open_lesson_file(const std::string& path);
    // Opens what the command line asks for: --lesson, --trace or the SCHEDULE flags; with none of them, the
    // remembered lesson or schedule. Then --view, --step and the timings. An error line, or empty.
    std::string start(const lab::Options& o, const std::string& remembered_lesson, const Schedule* remembered_schedule);
    // A student's kernel (File > Open kernel, --kernel): starts its run; the trace arrives through take_kernel_run.
    // An error line (a bad request), or empty.
    std::string open_kernel(const student::KernelRequest& request);
    // A finished kernel run: a good one becomes the pages shown (true); a failed one keeps the pages and leaves
    // the diagnostics in lab.kernel (true). False: nothing finished.
    bool take_kernel_run();
    void scan_lessons();              // fills lessons / lessons_note
    void go(int page);                // moves to a page (clamped) and the cursor to its place
    int last_page() const { return int(pages.size()) - 1; }
    const Page& current() const { return pages[size_t(page)]; }
    // Page k, its lesson step played first if it never was (its text and place come from its trace).
    const Page& page_at(int k);
    // Page whose step is the next hazard after the current one, or -1.
    int next_hazard_page();
    std::string title() const;        // "eight-threads: ..." or the schedule in one line
    // Why the step's recorded GPU trace is not shown although G asks for it (its file does not read), one line;
    // empty otherwise.
    std::string recorded_error() const;

private:
    void adopt_lesson();               // a page per step of the lesson the player just opened, written when shown
    void fill_page(int k, const PlayedStep& ps);
    int shown_trace_ = -1;             // the trace_index whose trace the lab holds (-1: none, or a recorded trace)
    bool shown_recorded_ = false;      // the lab holds the step's recorded GPU trace (lessons/recorded)
    void make_schedule_pages();
    bool adopt_run(bool ok);           // after lab.rerun() or lab.load_trace(): pages per step
};

// The narrative of one trace step, in Markdown, from the trace and its analysis (schedules without a lesson).
std::string step_narrative(const Trace& t, const render::Layout& l, const Analysis& a, int step);

}  // namespace rl::qt
