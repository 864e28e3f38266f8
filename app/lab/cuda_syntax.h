// app/lab/cuda_syntax.h — CUDA C++ tokens of one source line and their colours, so both front ends colour code alike.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace rl::lab {

enum class TokenKind : uint8_t { Plain, Keyword, Type, Builtin, Number, Comment, String, Preproc };

// A run of one kind: [begin, begin + size) of the line. The tokens of a line cover it without gaps, in order,
// so a view can draw them one after another and get the line back.
struct Token {
    TokenKind kind = TokenKind::Plain;
    size_t begin = 0, size = 0;
    std::string_view text(std::string_view line) const { return line.substr(begin, size); }
};

// The tokens of one line. `in_block_comment` carries a /* ... */ comment across lines (nullptr: the line starts
// outside one and nothing is carried).
std::vector<Token> cuda_tokens(std::string_view line, bool* in_block_comment = nullptr);

// The colour of a kind as 0xRRGGBB, on a dark or a light background (both contrast at least 4.5:1 with the
// source panel's background, so code stays legible on a projector).
uint32_t token_color(TokenKind k, bool dark);
// The source panel's colours, shared by both front ends: background, line numbers, the current step's lines,
// a clicked line, a bug's lines ('+' in the diff), the clean lines a bug removed ('-').
struct SourceColors {
    uint32_t background, text, line_number, step_line, picked_line, bug_line, removed_line, bug_mark;
    uint32_t error_line;  // a student kernel's first compile error
};
const SourceColors& source_colors(bool dark);

}  // namespace rl::lab
