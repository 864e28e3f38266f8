// app/qt/classroom.h — what the classroom shows: a run (the lab bench's LabState) cut into pages, each a picture + narrative.
#pragma once
#include <string>
#include <vector>
#include "app/imgui/lab_state.h"

namespace rl::qt {

// One page of the handout and one stop of the transport: a place in a trace and what to say about it.
struct Page {
    std::string title;      // "Step 3 of 5: shfl_down offset 2"
    std::string markdown;   // the narrative, every number from the trace
    int trace_index = 0;    // which trace (lessons may change the schedule between steps)
    int cursor_step = 0;    // the trace step shown
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
    // Loads the lesson by name; returns an error line, empty on success.
    std::string open_lesson(const std::string& name);
    void scan_lessons();              // fills lessons / lessons_note
    void go(int page);                // moves to a page (clamped) and the cursor to its place
    int last_page() const { return int(pages.size()) - 1; }
    const Page& current() const { return pages[size_t(page)]; }
    // Page whose step is the next hazard after the current one, or -1.
    int next_hazard_page() const;
    std::string title() const;        // "eight-threads: ..." or the schedule in one line
    static bool lessons_available();

private:
    std::vector<Trace> traces_;        // lessons: one trace per distinct step schedule
    std::vector<Analysis> analyses_;
    int shown_trace_ = -1;
    void make_schedule_pages();
    void show_trace(int index);
};

// The narrative of one trace step, in Markdown, from the trace and its analysis (schedules without a lesson).
std::string step_narrative(const Trace& t, const render::Layout& l, const Analysis& a, int step);

}  // namespace rl::qt
