// student/diagnostics.cpp — compiler messages with file and line, parsed without regular expressions (one pass).
#include "student/diagnostics.h"
#include <cctype>

namespace rl::student {

namespace {

bool read_int(std::string_view s, size_t& pos, int& out) {
    size_t start = pos;
    long v = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) && pos - start < 9) v = v * 10 + (s[pos++] - '0');
    out = int(v);
    return pos > start;
}

// One line: FILE:LINE:COL: KIND: MSG or FILE:LINE: KIND: MSG or FILE(LINE): KIND: MSG.
bool parse_line(std::string_view line, Diagnostic& d) {
    static constexpr std::string_view kinds[] = {"fatal error: ", "error: ", "warning: "};
    for (std::string_view kind : kinds) {
        const size_t at = line.find(": " + std::string(kind));
        if (at == std::string_view::npos || at == 0) continue;
        std::string_view head = line.substr(0, at);
        int ln = 0, col = 0;
        if (head.back() == ')') {  // NVRTC: FILE(LINE)
            const size_t open = head.rfind('(');
            if (open == std::string_view::npos || open == 0) continue;
            size_t p = open + 1;
            if (!read_int(head, p, ln) || p != head.size() - 1) continue;
            d.file = std::string(head.substr(0, open));
        } else {
            // FILE:LINE:COL or FILE:LINE (the file may hold ':' itself: read the numbers from the end).
            size_t c2 = head.rfind(':');
            if (c2 == std::string_view::npos) continue;
            size_t p = c2 + 1;
            int last = 0;
            if (!read_int(head, p, last) || p != head.size()) continue;
            size_t c1 = c2 == 0 ? std::string_view::npos : head.rfind(':', c2 - 1);
            int first = 0;
            size_t q = c1 == std::string_view::npos ? 0 : c1 + 1;
            if (c1 != std::string_view::npos && read_int(head, q, first) && q == c2) {
                ln = first;
                col = last;
                d.file = std::string(head.substr(0, c1));
            } else {
                ln = last;
                d.file = std::string(head.substr(0, c2));
            }
        }
        if (d.file.empty()) continue;
        d.line = ln;
        d.column = col;
        d.message = std::string(kind) + std::string(line.substr(at + 2 + kind.size()));
        return true;
    }
    return false;
}

}  // namespace

std::vector<Diagnostic> parse_diagnostics(std::string_view log) {
    std::vector<Diagnostic> out;
    size_t start = 0;
    while (start < log.size()) {
        size_t end = log.find('\n', start);
        if (end == std::string_view::npos) end = log.size();
        std::string_view line = log.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        Diagnostic d;
        if (parse_line(line, d)) out.push_back(std::move(d));
        start = end + 1;
    }
    return out;
}

std::string first_error_line(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.message.rfind("warning: ", 0) != 0)
            return d.file + ":" + std::to_string(d.line) + (d.column ? ":" + std::to_string(d.column) : "") + ": " + d.message;
    return {};
}

}  // namespace rl::student
