// app/lab/source_model.cpp — builds the source, the clean source, their diff and the event -> line table.
#include "app/lab/source_model.h"

#include <algorithm>
#include <exception>

namespace rl::lab {
namespace {

std::vector<std::vector<int>> lines_per_step(const Trace& t, const std::vector<uint32_t>& event_line) {
    std::vector<std::vector<int>> out;
    for (size_t i = 0; i < t.events.size() && i < event_line.size(); ++i) {
        if (event_line[i] == 0) continue;
        const size_t step = t.events[i].step;
        if (step >= out.size()) out.resize(step + 1);
        std::vector<int>& lines = out[step];
        if (lines.empty() || lines.back() != int(event_line[i])) lines.push_back(int(event_line[i]));  // runs are common
    }
    for (std::vector<int>& lines : out) {
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    }
    return out;
}

}  // namespace

void SourceModel::build(const Trace& t) {
    *this = SourceModel{};
    try {
        source = kernel_source(t.schedule);
        Schedule plain = t.schedule;
        plain.bugs = 0;
        clean = t.schedule.bugs ? kernel_source(plain) : source;
        diff = rl::diff(clean, source);
        event_line = line_table(source, t);
        step_lines = lines_per_step(t, event_line);
    } catch (const std::exception& e) {
        *this = SourceModel{};
        error = e.what();
    }
}

void SourceModel::show_text(const std::string& text) {
    *this = SourceModel{};
    size_t at = 0;
    while (at < text.size()) {
        size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        std::string line = text.substr(at, nl - at);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        source.lines.push_back({std::move(line), "", false});
        at = nl + 1;
    }
    clean = source;
}

void SourceModel::build_student(const Trace& t, const std::string& text) {
    show_text(text);
    event_line.assign(t.events.size(), 0);
    for (size_t i = 0; i < t.events.size() && i < t.lines.size(); ++i)
        if (t.lines[i] <= source.lines.size()) event_line[i] = t.lines[i];  // a line past the text: the file changed
    step_lines = lines_per_step(t, event_line);
}

std::vector<int> SourceModel::lines_of_step(uint16_t step) const {
    return step < step_lines.size() ? step_lines[step] : std::vector<int>{};
}

std::vector<uint32_t> SourceModel::events_of_line(int line) const {
    std::vector<uint32_t> out;
    if (line <= 0) return out;
    for (uint32_t i = 0; i < event_line.size(); ++i)
        if (int(event_line[i]) == line) out.push_back(i);
    return out;
}

}  // namespace rl::lab
