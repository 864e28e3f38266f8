// student/launch_syntax.cpp — a --launch plan read token by token, every malformed plan one line saying where.
#include "student/launch_syntax.h"
#include <cctype>
#include "core/error.h"

namespace rl::student {
namespace {

constexpr const char* kShape = "each launch is KERNEL<<<GRID, BLOCK[, SHARED_BYTES]>>>(ARGS), launches separated by ';'";
constexpr const char* kArgs = "in, out, tmp, tmpi, n or an integer";

bool plan_word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool plan_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool plan_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    void skip_blanks() {
        while (p_ < s_.size() && plan_blank(s_[p_])) ++p_;
    }
    bool at_end() {
        skip_blanks();
        return p_ >= s_.size();
    }
    bool peek(std::string_view token) {
        skip_blanks();
        return s_.substr(p_, token.size()) == token;
    }
    bool accept(std::string_view token) {
        if (!peek(token)) return false;
        p_ += token.size();
        return true;
    }
    void expect(std::string_view token, const std::string& what) {
        if (!accept(token)) fail("expected " + what);
    }
    size_t column() const { return p_ + 1; }
    size_t& pos() { return p_; }
    std::string_view text() const { return s_; }
    void begin_launch(size_t number) { launch_ = number; }

    [[noreturn]] void fail(const std::string& what) const {
        std::string near = p_ >= s_.size() ? std::string("the end of the plan") : "`" + std::string(s_.substr(p_, 12)) + "`";
        for (char& c : near)
            if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        throw Error("launch " + std::to_string(launch_) + ", column " + std::to_string(p_ + 1) + " (at " + near + "): " + what);
    }

    // An unsigned decimal number below 2^32: grid, block, shared bytes.
    uint32_t number(const char* what) {
        skip_blanks();
        const size_t start = p_;
        uint64_t v = 0;
        while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
            v = v * 10 + uint64_t(s_[p_] - '0');
            if (v > 0xffffffffull) {
                p_ = start;
                fail(std::string("the ") + what + " is too large: at most 4294967295");
            }
            ++p_;
        }
        if (p_ == start || (p_ < s_.size() && plan_word_char(s_[p_]))) {
            p_ = start;
            fail(std::string("expected the ") + what + " as a number (decimal digits only: the plan takes no expressions or names)");
        }
        return uint32_t(v);
    }

    // NAME or NAME<ARGS> (ARGS may nest <>), then `<<<` follows. Blanks are dropped except one between two words.
    std::string kernel_name() {
        skip_blanks();
        if (p_ >= s_.size() || !(plan_word_start(s_[p_]) || s_[p_] == ':'))
            fail("expected a kernel's name (a template kernel with its arguments: reduce6<256>); " + std::string(kShape));
        std::string name;
        auto take_word = [&] {
            while (p_ < s_.size() && (plan_word_char(s_[p_]) || s_[p_] == ':')) name += s_[p_++];
        };
        take_word();
        if (peek("<<<") || !peek("<")) return name;
        int depth = 0;
        for (;;) {
            skip_blanks();
            if (p_ >= s_.size()) fail("the template arguments of " + name + " are not closed with '>'");
            const char c = s_[p_];
            if (c == '<') {
                ++depth;
                name += c;
                ++p_;
            } else if (c == '>') {
                --depth;
                name += c;
                ++p_;
                if (depth == 0) return name;
            } else if (c == ',') {
                name += ", ";
                ++p_;
            } else if (plan_word_char(c) || c == ':' || c == '-') {
                if (!name.empty() && (plan_word_char(name.back())) && (plan_word_char(c) || c == ':') && p_ > 0 && plan_blank(s_[p_ - 1]))
                    name += ' ';  // `unsigned int`
                name += c;
                ++p_;
            } else {
                fail(std::string("unexpected '") + c + "' in the template arguments of " + name.substr(0, name.find('<')) +
                     " (letters, digits, _, ::, '-' and ',' are allowed there)");
            }
        }
    }

    PlanArg argument() {
        skip_blanks();
        const size_t start = p_;
        PlanArg a;
        if (p_ < s_.size() && plan_word_start(s_[p_])) {
            while (p_ < s_.size() && plan_word_char(s_[p_])) ++p_;
            a.text = std::string(s_.substr(start, p_ - start));
            if (a.text == "in") a.kind = PlanArgKind::In;
            else if (a.text == "out") a.kind = PlanArgKind::Out;
            else if (a.text == "tmp") a.kind = PlanArgKind::Tmp;
            else if (a.text == "tmpi") a.kind = PlanArgKind::Tmpi;
            else if (a.text == "n") a.kind = PlanArgKind::N;
            else {
                p_ = start;
                fail("`" + a.text + "` is no argument the plan knows: an argument is " + std::string(kArgs) +
                     " (in: the input, out: the result, tmp: the scratch buffer, tmpi: argmax's scratch indices, n: the element count)");
            }
            return a;
        }
        const bool negative = p_ < s_.size() && s_[p_] == '-';
        if (negative) ++p_;
        const size_t digits = p_;
        uint64_t v = 0;
        while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
            v = v * 10 + uint64_t(s_[p_] - '0');
            if (v > (negative ? 0x8000000000000000ull : 0x7fffffffffffffffull)) {
                p_ = start;
                fail("the integer is too large for 64 bits");
            }
            ++p_;
        }
        if (p_ == digits || (p_ < s_.size() && plan_word_char(s_[p_]))) {
            p_ = start;
            fail("expected an argument: " + std::string(kArgs) + " (decimal digits, no expressions)");
        }
        a.kind = PlanArgKind::Literal;
        a.literal = negative ? int64_t(0 - v) : int64_t(v);
        a.text = std::string(s_.substr(start, p_ - start));
        return a;
    }

private:
    std::string_view s_;
    size_t p_ = 0;
    size_t launch_ = 1;
};

}  // namespace

const char* plan_arg_word(PlanArgKind kind) {
    switch (kind) {
        case PlanArgKind::In: return "in";
        case PlanArgKind::Out: return "out";
        case PlanArgKind::Tmp: return "tmp";
        case PlanArgKind::Tmpi: return "tmpi";
        case PlanArgKind::N: return "n";
        default: return "an integer";
    }
}

std::vector<PlannedLaunch> parse_launch_plan(std::string_view plan) {
    Reader r(plan);
    std::vector<PlannedLaunch> out;
    if (r.at_end()) r.fail("the plan is empty: " + std::string(kShape));
    while (!r.at_end()) {
        r.begin_launch(out.size() + 1);
        if (out.size() == kMaxPlanLaunches)
            r.fail("a plan has at most " + std::to_string(kMaxPlanLaunches) + " launches");
        if (r.peek(";")) r.fail("an empty launch (two ';' in a row, or one at the start); " + std::string(kShape));
        PlannedLaunch l;
        r.skip_blanks();
        l.column = r.column();
        l.kernel = r.kernel_name();
        r.expect("<<<", "'<<<' after the kernel's name; " + std::string(kShape));
        l.grid = r.number("grid (blocks)");
        r.expect(",", "',' and the block size after the grid: <<<GRID, BLOCK[, SHARED_BYTES]>>>");
        l.block = r.number("block (threads per block)");
        if (r.accept(",")) {
            l.shared_bytes = r.number("dynamic shared memory (bytes)");
            if (r.peek(","))
                r.fail("a fourth launch parameter (a stream) is not supported: <<<GRID, BLOCK[, SHARED_BYTES]>>>");
        }
        r.expect(">>>", "'>>>' to close <<<GRID, BLOCK[, SHARED_BYTES]>>>");
        r.expect("(", "'(' and the kernel's arguments after '>>>'");
        if (!r.accept(")")) {
            for (;;) {
                l.args.push_back(r.argument());
                if (r.accept(")")) break;
                r.expect(",", "',' or ')' after an argument (an argument is " + std::string(kArgs) + ")");
            }
        }
        out.push_back(std::move(l));
        if (r.at_end()) break;
        r.expect(";", "';' between two launches (or the end of the plan)");
    }
    return out;
}

std::string launch_text(const PlannedLaunch& l) {
    std::string s = l.kernel + "<<<" + std::to_string(l.grid) + ", " + std::to_string(l.block);
    if (l.shared_bytes) s += ", " + std::to_string(l.shared_bytes);
    s += ">>>(";
    for (size_t i = 0; i < l.args.size(); ++i) s += (i ? ", " : "") + l.args[i].text;
    return s + ")";
}

}  // namespace rl::student
