// app/lab/source_model.cpp — builds the source, the clean source, their diff and the event -> line table.
#include "app/lab/source_model.h"

#include <algorithm>
#include <exception>

namespace rl::lab {

void SourceModel::build(const Trace& t) {
    *this = SourceModel{};
    try {
        source = kernel_source(t.schedule);
        Schedule plain = t.schedule;
        plain.bugs = 0;
        clean = t.schedule.bugs ? kernel_source(plain) : source;
        diff = rl::diff(clean, source);
        event_line = line_table(source, t);
    } catch (const std::exception& e) {
        *this = SourceModel{};
        error = e.what();
    }
}

std::vector<int> SourceModel::lines_of_step(const Trace& t, uint16_t step) const {
    std::vector<int> out;
    for (size_t i = 0; i < t.events.size() && i < event_line.size(); ++i)
        if (t.events[i].step == step && event_line[i] != 0) out.push_back(int(event_line[i]));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<uint32_t> SourceModel::events_of_line(int line) const {
    std::vector<uint32_t> out;
    if (line <= 0) return out;
    for (uint32_t i = 0; i < event_line.size(); ++i)
        if (int(event_line[i]) == line) out.push_back(i);
    return out;
}

}  // namespace rl::lab
