// core/course.h — the course: the order in which lessons are taught (lessons/course.txt), and the next lesson.
#pragma once
#include <string>
#include <vector>
#include "core/lesson.h"

namespace rl {

// lessons/course.txt: one lesson name (a file stem) per line, in teaching order; '#' starts a comment.
struct Course {
    bool found = false;                 // the folder has a course file
    std::string file;                   // its path
    std::vector<std::string> order;     // lesson names, first taught first
    std::vector<int> lines;             // the line of each name, for messages
    std::vector<LessonError> errors;    // a name listed twice, a name that is not a file stem
    // The index of name in the order; order.size() when the course does not list it.
    size_t position(const std::string& name) const;
    // The lesson after name, or empty (the last one, or a lesson the course does not list).
    std::string next(const std::string& name) const;
};

inline constexpr const char* kCourseFile = "course.txt";

Course load_course(const std::string& lessons_dir);

}  // namespace rl
