// app/cli/lessons_command.h — `rlab lessons [--check] [--show NAME] [--quiz NAME]`: list, play and verify the lessons.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace rl::cli {

struct LessonsArgs {
    bool check = false;   // play every lesson on the emulator and verify each expectation
    std::string show;     // print one lesson's steps with the narrative filled from the trace
    std::string quiz;     // ask one lesson's knowledge checks on stdin, grade each answer
    std::string exercise; // print one exercise's task, hint and files (lessons/exercises/NAME)
    std::string record;   // record every lesson step's trace (--backend cuda on a GPU) under DIR/NAME/
    size_t max_events = 16000;   // --record: steps with more events are not recorded (committed files stay small)
    std::string only;     // --lesson NAME: check or list only this lesson
    std::string dir;      // --dir: the lessons folder (default: core/data_paths search_lessons_dir)
    std::string backend = "cpu";  // cpu (the emulator) or cuda: where each step's schedule runs
};

CLI::App* add_lessons_command(CLI::App& app, LessonsArgs& args);
// 0 all good, 1 an expectation failed (or a step could not be played), 2 a malformed lesson or no lessons folder.
int run_lessons(const LessonsArgs& args);

}  // namespace rl::cli
