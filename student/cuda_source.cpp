// student/cuda_source.cpp — a kernel file's text read as tokens (no compiler): plain or dialect, its __global__
// functions, and the --kernel NAME check.
#include "student/cuda_source.h"
#include <cctype>
#include <sstream>

namespace rl::student {

namespace {

bool word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
    std::string text;
    int line = 0;
};

// The text's tokens: words (identifiers, keywords, numbers), `::`, and every other character on its own. Comments
// and string and character literals are left out; so are preprocessor lines (with their continuations) unless
// `directives`, since `#define KERNEL __global__` declares nothing.
std::vector<Token> tokens_of(std::string_view s, bool directives) {
    std::vector<Token> out;
    int line = 1;
    bool line_start = true;  // only blanks so far on this line: a '#' here starts a directive
    size_t i = 0;
    auto skip_to_line_end = [&](bool continuations) {
        while (i < s.size() && s[i] != '\n') {
            if (continuations && s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') ++line, ++i;
            ++i;
        }
    };
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            ++line, ++i;
            line_start = true;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            skip_to_line_end(false);
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            const size_t end = s.find("*/", i + 2);
            const size_t stop = end == std::string_view::npos ? s.size() : end + 2;
            for (; i < stop; ++i) line += s[i] == '\n';
        } else if (c == '#' && line_start && !directives) {
            skip_to_line_end(true);
        } else if (c == '"' || c == '\'') {
            for (++i; i < s.size() && s[i] != c && s[i] != '\n'; ++i)
                if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] != '\n') ++i;
            if (i < s.size() && s[i] == c) ++i;
            line_start = false;
        } else {
            const size_t start = i;
            if (word_char(c)) {
                while (i < s.size() && word_char(s[i])) ++i;
            } else {
                i += c == ':' && i + 1 < s.size() && s[i + 1] == ':' ? 2 : 1;
            }
            out.push_back({std::string(s.substr(start, i - start)), line});
            line_start = false;
        }
    }
    return out;
}

// `#include <rlab/kernel.h>` (or "rlab/kernel.h") on a line of its own.
bool includes_dialect(std::string_view source) {
    std::istringstream lines{std::string(source)};
    for (std::string line; std::getline(lines, line);) {
        size_t at = line.find_first_not_of(" \t");
        if (at == std::string::npos || line[at] != '#') continue;
        at = line.find_first_not_of(" \t", at + 1);
        if (at == std::string::npos || line.compare(at, 7, "include") != 0) continue;
        at = line.find_first_not_of(" \t", at + 7);
        if (at != std::string::npos && (line[at] == '<' || line[at] == '"') && line.compare(at + 1, 13, "rlab/kernel.h") == 0)
            return true;
    }
    return false;
}

// The index of the bracket that closes the one at `open` ("(" or "<" going forward), or tokens.size().
size_t closing(const std::vector<Token>& t, size_t open) {
    const std::string o = t[open].text, c = o == "(" ? ")" : o == "[" ? "]" : ">";
    int depth = 0;
    for (size_t j = open; j < t.size(); ++j) {
        if (t[j].text == o) ++depth;
        if (t[j].text == c && --depth == 0) return j;
        if (o == "<" && (t[j].text == ";" || t[j].text == "{")) break;  // a less-than, not a template's bracket
    }
    return t.size();
}

// The index of the bracket that opens the one at `close` (")", "]" or ">" going back), or npos.
size_t opening(const std::vector<Token>& t, size_t close) {
    const std::string c = t[close].text, o = c == ")" ? "(" : c == "]" ? "[" : "<";
    int depth = 0;
    for (size_t j = close + 1; j-- > 0;) {
        if (t[j].text == c) ++depth;
        if (t[j].text == o && --depth == 0) return j;
        if (t[j].text == ";" || t[j].text == "{" || t[j].text == "}") break;
    }
    return std::string::npos;
}

bool is_attribute_word(const std::string& w) {
    return w == "__launch_bounds__" || w == "__attribute__" || w == "__declspec" || w == "alignas" || w == "__align__";
}

bool is_specifier(const std::string& w) {
    return w == "static" || w == "inline" || w == "extern" || w == "__forceinline__" || w == "__inline__" ||
           w == "__host__" || w == "__device__" || w == "__noinline__" || w == "constexpr";
}

// Tokens [from, to) as written: a space between two words and after a comma, none elsewhere.
std::string joined(const std::vector<Token>& t, size_t from, size_t to) {
    std::string out;
    for (size_t j = from; j < to; ++j) {
        const bool space = !out.empty() && ((word_char(out.back()) && word_char(t[j].text[0])) || out.back() == ',' ||
                                            t[j].text == "=" || out.back() == '=');
        out += (space ? " " : "") + t[j].text;
    }
    return out;
}

}  // namespace

bool is_plain_cuda(std::string_view source) {
    for (const Token& t : tokens_of(source, true))
        if (t.text == "RL_KERNEL") return false;
    return !includes_dialect(source);
}

int main_function_line(std::string_view source) {
    const std::vector<Token> t = tokens_of(source, false);
    int depth = 0;  // braces: main() is defined at namespace scope (not in a namespace: ::main only)
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i].text == "{") ++depth;
        if (t[i].text == "}") --depth;
        if (depth == 0 && t[i].text == "main" && i > 0 && t[i - 1].text == "int" && i + 1 < t.size() && t[i + 1].text == "(")
            return t[i].line;
    }
    return 0;
}

std::vector<CudaKernelDecl> cuda_kernel_declarations(std::string_view source) {
    const std::vector<Token> t = tokens_of(source, false);
    std::vector<CudaKernelDecl> out;
    for (size_t g = 0; g < t.size(); ++g) {
        if (t[g].text != "__global__") continue;
        // Forward to the parameter list: the name is the last word before it. Attributes with arguments
        // (__launch_bounds__(256)) are stepped over; `NAME<64>(` is an explicit instantiation or specialization.
        CudaKernelDecl k;
        bool instance = false;
        size_t j = g + 1;
        for (; j < t.size(); ++j) {
            const std::string& w = t[j].text;
            if (is_attribute_word(w) && j + 1 < t.size() && t[j + 1].text == "(") {
                j = closing(t, j + 1);
            } else if (w == "[" && j + 1 < t.size() && t[j + 1].text == "[") {
                j = closing(t, j);
            } else if (w == "<" && !k.name.empty()) {
                instance = true;
                j = closing(t, j);
            } else if (w == "(" || w == ";" || w == "{" || w == "}" || w == "=") {
                break;
            } else if (word_start(w[0])) {
                k.name = w;
                k.line = t[j].line;
            }
        }
        if (instance || k.name.empty() || j >= t.size() || t[j].text != "(") continue;
        // Back from __global__ over specifiers and attributes: `template <...>` makes it a template; a bare
        // `template` before it is an explicit instantiation.
        size_t b = g;
        while (b > 0) {
            const std::string& w = t[b - 1].text;
            const size_t open = w == ")" || w == "]" ? opening(t, b - 1) : std::string::npos;
            if (is_specifier(w)) {
                --b;
            } else if (w == "]" && open != std::string::npos) {
                b = open;  // [[attribute]]
            } else if (w == ")" && open != std::string::npos && open > 0 && is_attribute_word(t[open - 1].text)) {
                b = open - 1;  // __launch_bounds__(256)
            } else {
                break;
            }
        }
        if (b > 0 && t[b - 1].text == "template") continue;
        if (b > 0 && t[b - 1].text == ">") {
            const size_t open = opening(t, b - 1);
            if (open != std::string::npos && open > 0 && t[open - 1].text == "template") {
                if (open + 1 == b - 1) continue;  // template <>: a specialization of a template listed already
                k.is_template = true;
                k.template_params = joined(t, open + 1, b - 1);
            }
        }
        bool seen = false;
        for (const CudaKernelDecl& d : out) seen |= d.name == k.name && d.is_template == k.is_template;
        if (!seen) out.push_back(std::move(k));
    }
    return out;
}

std::string kernel_name_example(const CudaKernelDecl& k, uint32_t block) {
    if (!k.is_template) return k.name;
    const std::string& p = k.template_params;
    const bool one_integer = !p.empty() && p.find(',') == std::string::npos && p.find("...") == std::string::npos &&
                             p.rfind("typename", 0) != 0 && p.rfind("class", 0) != 0 && p.rfind("template", 0) != 0;
    return k.name + "<" + (one_integer ? std::to_string(block) : std::string("ARGS")) + ">";
}

std::string declared_kernel_list(const std::vector<CudaKernelDecl>& declared) {
    std::string out;
    for (const CudaKernelDecl& k : declared) out += (out.empty() ? "" : ", ") + k.name + (k.is_template ? "<...> (a template)" : "");
    return out;
}

std::string kernel_instance_problem(const std::string& name, const std::vector<CudaKernelDecl>& declared, uint32_t block) {
    const size_t lt = name.find('<');
    std::string base = name.substr(0, lt);
    while (!base.empty() && base.back() == ' ') base.pop_back();
    const std::string args = lt == std::string::npos ? std::string() : name.substr(lt);
    for (const CudaKernelDecl& k : declared) {
        if (k.name != base) continue;
        if (!k.is_template) return "--kernel " + name + ": " + base + " is not a template kernel: name it --kernel " + base;
        return "--kernel " + name + ": " + base + " does not take the template arguments " + args + " (template <" +
               k.template_params + ">): e.g. --kernel " + kernel_name_example(k, block);
    }
    const std::string list = declared_kernel_list(declared);
    return "--kernel " + name + ": the file has no kernel " + base + " (" + (list.empty() ? "it declares none" : "its kernels: " + list) + ")";
}

std::string kernel_name_problem(std::string_view name) {
    const std::string what = "expected a kernel's name, or a template kernel's name with its arguments (reduce6<256>): "
                             "letters, digits, _ and ::, and <, > and , around the arguments";
    if (name.empty() || name.size() > 200 || !(word_start(name[0]) || name[0] == ':')) return what;
    int depth = 0;
    bool closed = false;  // the outermost <...> ended: only blanks may follow
    for (char c : name) {
        if (closed && c != ' ') return what;
        if (c == '<') {
            ++depth;
        } else if (c == '>') {
            if (--depth < 0) return what;
            closed = depth == 0;
        } else if ((c == ',' || c == '-') && depth == 0) {
            return what;
        } else if (!word_char(c) && c != ':' && c != ',' && c != ' ' && c != '-') {
            return what;
        }
    }
    return depth == 0 ? std::string() : what;
}

}  // namespace rl::student
