// core/quiz.cpp — grading knowledge checks, shared by `rlab lessons --quiz`, the lab bench and the classroom.
#include "core/quiz.h"

#include <algorithm>
#include <cctype>

namespace rl {
namespace {

std::string squeeze(const std::string& s) {
    std::string out;
    for (unsigned char c : s)
        if (!std::isspace(c)) out += char(std::tolower(c));
    return out;
}

}  // namespace

std::optional<size_t> parse_choice(const PlayedStep& p, const std::string& reply) {
    const std::string r = squeeze(reply);
    if (r.empty()) return std::nullopt;
    if (std::all_of(r.begin(), r.end(), [](unsigned char c) { return std::isdigit(c); }) && r.size() < 4) {
        const size_t k = size_t(std::stoi(r));
        if (k >= 1 && k <= p.choices.size()) return k - 1;
        return std::nullopt;
    }
    for (size_t k = 0; k < p.choices.size(); ++k)
        if (squeeze(p.choices[k]) == r) return k;
    return std::nullopt;
}

std::optional<size_t> answer_index(const PlayedStep& p) {
    for (size_t k = 0; k < p.choices.size(); ++k)
        if (p.choices[k] == p.answer) return k;
    return std::nullopt;
}

Grade grade_choice(const PlayedStep& p, size_t k) {
    Grade g;
    g.correct = answer_index(p) == k;
    g.verdict = g.correct ? "Right." : "Not quite: the answer is \"" + p.answer + "\".";
    g.explanation = p.explanation;
    return g;
}

}  // namespace rl
