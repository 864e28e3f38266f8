// core/course.cpp — reads lessons/course.txt: the teaching order every front end lists lessons in.
#include "core/course.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace rl {

size_t Course::position(const std::string& name) const {
    return size_t(std::find(order.begin(), order.end(), name) - order.begin());
}

std::string Course::next(const std::string& name) const {
    const size_t i = position(name);
    return i + 1 < order.size() ? order[i + 1] : std::string();
}

Course load_course(const std::string& lessons_dir) {
    Course c;
    c.file = (std::filesystem::path(lessons_dir) / kCourseFile).string();
    std::ifstream in(c.file);
    if (!in) return c;
    c.found = true;
    std::string line;
    for (int no = 1; std::getline(in, line); ++no) {
        if (size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        const size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
        if (a == std::string::npos) continue;
        const std::string name = line.substr(a, b - a + 1);
        const bool stem = std::all_of(name.begin(), name.end(), [](unsigned char ch) {
            return std::isalnum(ch) || ch == '-' || ch == '_';
        });
        if (!stem) {
            c.errors.push_back({c.file, no, int(a) + 1, "'" + name + "' is not a lesson name (a file stem: letters, digits, - and _)"});
        } else if (c.position(name) < c.order.size()) {
            c.errors.push_back({c.file, no, int(a) + 1, "'" + name + "' is listed twice (first on line " +
                                                            std::to_string(c.lines[c.position(name)]) + ")"});
        } else {
            c.order.push_back(name);
            c.lines.push_back(no);
        }
    }
    return c;
}

}  // namespace rl
