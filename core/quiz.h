// core/quiz.h — grading a knowledge check: a student's pick (a number or the choice's text) against the answer.
#pragma once
#include <optional>
#include <string>
#include "core/lesson.h"

namespace rl {

struct Grade {
    bool correct = false;
    std::string verdict;      // "Right." or "Not quite: the answer is ..."
    std::string explanation;  // the check's explain, filled from the trace
};

// Which choice a reply names: "2" (1-based) or the choice's text (case and spaces ignored); nullopt otherwise.
std::optional<size_t> parse_choice(const PlayedStep& p, const std::string& reply);
// The index of the right choice (nullopt for an open question).
std::optional<size_t> answer_index(const PlayedStep& p);
// Grades choice k (0-based) of step p's check.
Grade grade_choice(const PlayedStep& p, size_t k);

}  // namespace rl
