// app/cli/render_command.h — `rlab render`: the lab bench's canvas written to a PNG without a window.
#pragma once
#include <string>
#include "app/lab/schedule_options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace rl::cli {

struct RenderArgs {
    lab::ScheduleArgs schedule;
    std::string backend = "auto";
    std::string lesson;
    int step = -1;               // -1: the last step (the finished reduction)
    std::string png;
    std::string size = "1280x720";
    std::string theme = "dark";
    float font_scale = 1.0f;
    std::string dump_scene;
    bool presenter = false;      // the presenter's canvas (app/render/presenter.h)
    std::string trace_file;      // a saved trace (rlab trace --format json) instead of running the schedule
    std::string view = "steps";  // steps | time (GPU traces only)
};

CLI::App* add_render_command(CLI::App& app, RenderArgs& args);
int run_render(const RenderArgs& args);

}  // namespace rl::cli
