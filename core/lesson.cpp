// core/lesson.cpp — lesson loader (toml++ with source positions) and player (trace, cursor, placeholders, checks).
// Sections: errors and names · loading (schedule, steps, expectations) · finding files · quantities ·
// placeholders · places in the trace · expectations · playing.
#include "core/lesson.h"
#include "core/lesson_bench.h"
#include "core/course.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "core/emulator.h"
#include "core/numerics.h"
#include "core/file_io.h"
#include "core/limits.h"

namespace rl {
namespace fs = std::filesystem;

// ---- errors and names ------------------------------------------------------------------------------

std::string LessonError::str() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
    return s + ": " + what;
}

namespace {

const std::vector<std::string> kScheduleKeys{"n", "block", "grid", "items", "assign", "warp", "block-stage",
                                              "grid-stage", "op", "type", "input", "seed", "bug", "accum"};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
}

std::string number_text(double v) {
    char buf[64];
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        snprintf(buf, sizeof buf, "%.0f", v);
    else
        snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string toml_scalar_text(const toml::node& n) {
    if (auto s = n.value<std::string>(); s && n.is_string()) return *s;
    if (n.is_integer()) return std::to_string(*n.value<int64_t>());
    if (n.is_floating_point()) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", *n.value<double>());
        return buf;
    }
    if (n.is_boolean()) return *n.value<bool>() ? "yes" : "no";
    return {};
}

bool is_quantity_syntax(const std::string& s) {
    if (s.empty() || !std::islower(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool is_known_quantity(const std::string& name) {
    const auto& names = quantity_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The words the lab itself writes as values (yes, none, the verdicts, the schedule's value names such as f32 or
// kahan): a bare word on the right of an expectation is read as text only when it is one of these; any other
// bare word must name a quantity, so a misspelt name is an error instead of a text that never matches.
const std::set<std::string>& value_words() {
    static const std::set<std::string> words = [] {
        std::set<std::string> w{"yes", "no", "none", "never", "nothing", "undefined"};
        for (int v = 0; v <= int(Verdict::OrderViolated); ++v) w.insert(std::string(to_string(Verdict(v))));
        for (const char* field : {"op", "type", "assign", "warp", "block-stage", "grid-stage", "input", "bug", "accum"}) {
            const std::string all = allowed_values(field);
            std::string word;
            for (char c : all + " ") {
                if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') word += c;
                else if (!word.empty()) { w.insert(word); word.clear(); }
            }
        }
        return w;
    }();
    return words;
}

std::string unknown_quantity(const std::string& name) {
    std::string known;
    for (const std::string& q : quantity_names())
        if (q.rfind("bench_", 0) != 0) known += (known.empty() ? "" : ", ") + q;
    return "unknown quantity '" + name + "' (known: " + known + ", bench_* as listed in core/lesson_bench.cpp)";
}

// "3, 8-31": a set of lanes 0-31 as a bit mask; nullopt when the text is not one.
std::optional<uint32_t> parse_lane_set(const std::string& text) {
    uint32_t mask = 0;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        part.erase(0, part.find_first_not_of(' '));
        part.erase(part.find_last_not_of(' ') + 1);
        unsigned lo = 0, hi = 0;
        char dash = 0, extra = 0;
        const int got = std::sscanf(part.c_str(), "%u %c %u %c", &lo, &dash, &hi, &extra);
        if (got == 1 && part.find_first_not_of("0123456789") == std::string::npos) hi = lo;
        else if (!(got == 3 && dash == '-')) return std::nullopt;
        if (lo > hi || hi > 31) return std::nullopt;
        for (unsigned l = lo; l <= hi; ++l) mask |= 1u << l;
    }
    if (mask == 0) return std::nullopt;
    return mask;
}

std::string lane_set_text(uint32_t mask) {
    std::string out;
    for (int l = 0; l < 32;) {
        if (!(mask >> l & 1u)) { ++l; continue; }
        int h = l;
        while (h + 1 < 32 && (mask >> (h + 1) & 1u)) ++h;
        out += (out.empty() ? "" : ", ") + std::to_string(l) + (h > l ? "-" + std::to_string(h) : "");
        l = h + 1;
    }
    return out.empty() ? "none" : out;
}

struct Loader {
    std::string file;
    std::vector<LessonError>& errors;
    size_t before;

    void error(const toml::source_region& r, std::string what) {
        errors.push_back({file, int(r.begin.line), int(r.begin.column), std::move(what)});
    }
    bool failed() const { return errors.size() > before; }

    // Applies a [schedule] table (or a step's override table) to s; records overrides when asked.
    void apply_schedule(const toml::table& t, Schedule& s, std::vector<std::pair<std::string, std::string>>* record,
                        bool override_bugs) {
        bool n_given = false, input_values = false;
        for (auto&& [k, v] : t) {
            const std::string key(k.str());
            if (std::find(kScheduleKeys.begin(), kScheduleKeys.end(), key) == kScheduleKeys.end()) {
                error(k.source(), "unknown schedule field '" + key + "'; expected one of " + join(kScheduleKeys));
                continue;
            }
            std::vector<std::string> values;
            if (auto* arr = v.as_array()) {
                if (key != "bug" && key != "input") {
                    error(v.source(), "schedule field '" + key + "' takes one value, not a list");
                    continue;
                }
                std::string joined;
                for (auto&& item : *arr) {
                    std::string one = toml_scalar_text(item);
                    if (one.empty() || (key == "input" && !(item.is_integer() || item.is_floating_point()))) {
                        error(item.source(), "schedule field '" + key + "': expected " +
                                                 (key == "bug" ? "bug names (" + allowed_values("bug") + ")" : "numbers"));
                        continue;
                    }
                    if (key == "bug")
                        values.push_back(one);
                    else
                        joined += (joined.empty() ? "" : ",") + one;
                }
                if (key == "input") values.push_back(joined);
            } else {
                std::string one = toml_scalar_text(v);
                if (one.empty() || v.is_boolean()) {
                    error(v.source(), "schedule field '" + key + "': expected " +
                                         (allowed_values(key).empty() ? "a whole number" : allowed_values(key)));
                    continue;
                }
                values.push_back(one);
            }
            if (key == "bug" && override_bugs) s.bugs = 0;
            if (key == "n") n_given = true;
            for (auto& val : values) {
                if (std::string e = set_field(s, key, val); !e.empty()) {
                    error(v.source(), e);
                } else if (record) {
                    record->push_back({key, val});
                }
            }
            if (key == "input" && s.input.kind == InputKind::Values) input_values = true;
        }
        if (input_values && !n_given) s.n = s.input.values.size();
    }

    static bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

    // Every {placeholder} must name a quantity; prev_ names only after the first step.
    void check_placeholders(const toml::node& n, const std::string& text, bool has_prev) {
        for (size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') { ++i; continue; }
            if (text[i] != '{') continue;
            size_t j = text.find('}', i);
            if (j == std::string::npos) {
                error(n.source(), "an unclosed '{' in the text (write {{ for a literal brace)");
                return;
            }
            std::string name = text.substr(i + 1, j - i - 1);
            if (name.rfind("line:", 0) == 0) {  // a source line: the site is checked when the step plays
                if (name.size() == 5) error(n.source(), "placeholder {line:} names no site, e.g. {line:shuffle}");
                i = j;
                continue;
            }
            std::string base = name.rfind("prev_", 0) == 0 ? name.substr(5) : name;
            const auto& names = quantity_names();
            if (std::find(names.begin(), names.end(), base) == names.end())
                error(n.source(), "unknown placeholder {" + name + "}; the names are listed in lessons/README.md");
            else if (base != name && !has_prev)
                error(n.source(), "placeholder {" + name + "} needs a previous step; the first step has none");
            i = j;
        }
    }

    bool parse_hazard_spec(const toml::node& v, Expectation& e) {
        const bool note = e.key == "note" || e.key == "no_note";
        const std::string expectation = note ? "note expectation" : "hazard expectation";
        if (auto s = v.value<std::string>(); s && v.is_string()) {
            e.hazard_kind = *s;
        } else if (auto* t = v.as_table()) {
            for (auto&& [k, x] : *t) {
                const std::string key(k.str());
                long* place = key == "block" ? &e.hazard_block : key == "warp" ? &e.hazard_warp : key == "lane" ? &e.hazard_lane
                            : key == "step" ? &e.hazard_step : key == "thread" ? &e.hazard_thread : nullptr;
                if (key == "kind" && x.is_string()) {
                    e.hazard_kind = *x.value<std::string>();
                } else if (place && x.is_integer() && *x.value<int64_t>() >= 0 && *x.value<int64_t>() <= 0x7fffffff &&
                           (key != "lane" || *x.value<int64_t>() <= 31)) {
                    *place = long(*x.value<int64_t>());
                } else if (key == "lanes") {
                    const std::string text = x.is_string() ? *x.value<std::string>() : "";
                    e.hazard_lanes = parse_lane_set(text);
                    if (!e.hazard_lanes) {
                        error(x.source(), expectation + ": lanes " + (x.is_string() ? "\"" + text + "\"" : std::string("here")) +
                                              " is not a set of lanes 0-31 of one warp, such as \"8-31\" or \"0, 4-7\"");
                        return false;
                    }
                } else {
                    error(k.source(), expectation + ": '" + key + "' is not one of kind (text), step, block, warp, thread, "
                                      "lane (0-31) (whole numbers), lanes (a text such as \"8-31\" or \"0, 4-7\")");
                    return false;
                }
            }
        } else {
            error(v.source(), expectation + ": expected a kind name or a table {kind, step, block, warp, thread, lane, lanes}");
            return false;
        }
        HazardKind hk;
        if (!parse_hazard_kind(e.hazard_kind, hk) || (note && !is_note(hk))) {
            std::string kinds;
            for (int k = 0; k < kHazardKindCount; ++k)
                if (!note || is_note(HazardKind(k))) kinds += (kinds.empty() ? "" : ", ") + std::string(to_string(HazardKind(k)));
            error(v.source(), std::string(note ? "unknown note kind '" : "unknown hazard kind '") + e.hazard_kind +
                                  "'; expected one of " + kinds);
            return false;
        }
        // A finding of the right kind anywhere proves little: the lesson says where the trace shows it.
        if ((e.key == "hazard" || e.key == "note") && e.hazard_step < 0 && e.hazard_thread < 0 && e.hazard_lane < 0 && !e.hazard_lanes) {
            error(v.source(), expectation + " '" + e.hazard_kind + "' names no place: give its step, thread, lane or "
                              "lanes, e.g. { kind = \"" + e.hazard_kind + "\", step = 3 } (lessons/README.md)");
            return false;
        }
        if (e.hazard_thread >= 0 && (e.hazard_warp >= 0 || e.hazard_lane >= 0 || e.hazard_lanes)) {
            error(v.source(), expectation + ": 'thread' already names the warp and the lane; give thread, or warp with lane or lanes");
            return false;
        }
        if (e.hazard_lane >= 0 && e.hazard_lanes) {
            error(v.source(), expectation + ": give 'lane' (one lane among the hazard's) or 'lanes' (all of them), not both");
            return false;
        }
        e.written = e.key + " " + e.hazard_kind;
        if (e.hazard_step >= 0) e.written += " step " + std::to_string(e.hazard_step);
        if (e.hazard_block >= 0) e.written += " block " + std::to_string(e.hazard_block);
        if (e.hazard_warp >= 0) e.written += " warp " + std::to_string(e.hazard_warp);
        if (e.hazard_thread >= 0) e.written += " thread " + std::to_string(e.hazard_thread);
        if (e.hazard_lane >= 0) e.written += " lane " + std::to_string(e.hazard_lane);
        if (e.hazard_lanes) e.written += " lanes " + lane_set_text(*e.hazard_lanes);
        return true;
    }

    void parse_expect(const toml::table& t, LessonStep& step, bool has_prev, bool emulator_only = false) {
        const auto& names = quantity_names();
        for (auto&& [k, v] : t) {
            const std::string key(k.str());
            if (key == "emulator" && v.is_table() && !emulator_only) {
                parse_expect(*v.as_table(), step, has_prev, true);
                continue;
            }
            Expectation e;
            e.key = key;
            e.emulator_only = emulator_only;
            e.line = int(k.source().begin.line);
            e.column = int(k.source().begin.column);
            if (key == "hazard" || key == "no_hazard" || key == "note" || key == "no_note") {
                if (auto* arr = v.as_array()) {
                    for (auto&& item : *arr) {
                        Expectation one = e;
                        if (parse_hazard_spec(item, one)) step.expect.push_back(one);
                    }
                } else if (parse_hazard_spec(v, e)) {
                    step.expect.push_back(e);
                }
                continue;
            }
            if (std::find(names.begin(), names.end(), key) == names.end()) {
                error(k.source(), unknown_quantity(key));
                continue;
            }
            std::string rhs = toml_scalar_text(v);
            if (rhs.empty() && !v.is_string()) {
                error(v.source(), "expectation '" + key + "': expected a number, a text or \"OP NAME\" such as \"< serial_depth\"");
                continue;
            }
            e.op = "==";
            if (v.is_string()) {
                for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
                    if (rhs.rfind(op, 0) == 0) {
                        e.op = op;
                        rhs = rhs.substr(std::string(op).size());
                        break;
                    }
                }
                while (!rhs.empty() && rhs.front() == ' ') rhs.erase(rhs.begin());
            }
            e.rhs = rhs;
            e.written = key + " " + e.op + " " + rhs;
            // The right-hand side: a number, a quantity (prev_NAME: the previous step's), one of the words the lab
            // writes as values, or any other text (one with spaces, commas or signs, such as "x0+x1, x2+x3").
            char* end = nullptr;
            std::strtod(rhs.c_str(), &end);
            const bool number = !v.is_string() || (!rhs.empty() && end && *end == 0);
            const bool prev_name = rhs.rfind("prev_", 0) == 0;
            const std::string base = prev_name ? rhs.substr(5) : rhs;
            const bool named = !number && is_quantity_syntax(rhs) && is_known_quantity(base);
            if (!number && is_quantity_syntax(rhs) && !named && (prev_name || !value_words().count(rhs))) {
                error(v.source(), unknown_quantity(rhs));
                continue;
            }
            if (named && prev_name && !has_prev) {
                error(v.source(), "expectation '" + key + "' uses " + rhs + " but the first step has no previous step");
                continue;
            }
            if (named && rhs == key) {
                error(v.source(), "expectation '" + e.written + "' compares " + key + " with itself: it can never fail");
                continue;
            }
            if (quantity_kind(key) == QuantityKind::Schedule && (!named || quantity_kind(base) == QuantityKind::Schedule)) {
                error(v.source(), "expectation '" + e.written + "' can never fail: " + key + " and " + rhs +
                                      " are fixed by the schedule, not measured from the trace (lessons/README.md, Quantities)");
                continue;
            }
            e.rhs_is_quantity = named;
            step.expect.push_back(e);
        }
    }

    void parse_step(const toml::table& t, const Lesson& lesson, LessonStep& step, size_t index) {
        step.line = int(t.source().begin.line);
        step.schedule = lesson.schedule;
        bool has_text = false;
        for (auto&& [k, v] : t) {
            const std::string key(k.str());
            if (key == "at") {
                if (!v.is_string()) error(v.source(), "'at' expects a text such as \"shuffle offset 4\" or \"step 2\"");
                else step.at = *v.value<std::string>();
            } else if (key == "text") {
                if (!v.is_string()) {
                    error(v.source(), "'text' expects a (Markdown) string");
                } else {
                    step.text = *v.value<std::string>();
                    has_text = true;
                    check_placeholders(v, step.text, index > 0);
                }
            } else if (key == "schedule") {
                if (auto* st = v.as_table()) apply_schedule(*st, step.schedule, &step.overrides, true);
                else error(v.source(), "'schedule' in a step expects a table of schedule fields to change");
            } else if (key == "expect") {
                if (auto* et = v.as_table()) parse_expect(*et, step, index > 0);
                else error(v.source(), "'expect' expects a table such as { span = \"tree_depth\" }");
            } else if (key == "emulator_only") {
                if (!v.is_string() || v.value<std::string>()->empty())
                    error(v.source(), "'emulator_only' expects a text saying why the step cannot run on a GPU");
                else step.emulator_only = *v.value<std::string>();
            } else if (key == "check") {
                auto* ct = v.as_table();
                if (!ct) {
                    error(v.source(), "'check' expects a table with question, answer and optional choices");
                    continue;
                }
                KnowledgeCheck kc;
                for (auto&& [ck, cv] : *ct) {
                    const std::string ckey(ck.str());
                    if ((ckey == "question" || ckey == "answer" || ckey == "explain") && cv.is_string()) {
                        (ckey == "question" ? kc.question : ckey == "answer" ? kc.answer : kc.explain) =
                            *cv.value<std::string>();
                        check_placeholders(cv, *cv.value<std::string>(), index > 0);
                    } else if (ckey == "choices" && cv.is_array()) {
                        for (auto&& c : *cv.as_array()) {
                            if (c.is_string()) kc.choices.push_back(*c.value<std::string>());
                            else error(c.source(), "check choices must be texts");
                        }
                    } else {
                        error(ck.source(), "check: '" + ckey + "' is not one of question, answer, explain (texts), choices (list of texts)");
                    }
                }
                if (kc.question.empty() || kc.answer.empty())
                    error(v.source(), "check needs both a question and an answer");
                else if (!kc.choices.empty() &&
                         std::find(kc.choices.begin(), kc.choices.end(), kc.answer) == kc.choices.end())
                    error(v.source(), "check: the answer must be one of the choices");
                else if (kc.choices.size() > kMaxChoices)
                    error(v.source(), "check: at most " + std::to_string(kMaxChoices) + " choices (a student picks with keys 1 to " +
                                          std::to_string(kMaxChoices) + ")");
                else if (!kc.choices.empty() && kc.explain.empty())
                    error(v.source(), "check: a question with choices needs 'explain' (why the answer is right, shown after grading)");
                step.check = kc;
            } else {
                error(k.source(), "unknown step field '" + key + "'; expected at, text, schedule, expect, check, emulator_only");
            }
        }
        if (!has_text) error(t.source(), "step " + std::to_string(index + 1) + " has no text");
        if (std::string e = validate(step.schedule); !e.empty())
            error(t.source(), "step " + std::to_string(index + 1) + ": " + e);
        else if (step.schedule.n > limits::kLessonN)
            error(t.source(), "step " + std::to_string(index + 1) + ": n = " + std::to_string(step.schedule.n) +
                                  " is over the " + std::to_string(limits::kLessonN) +
                                  " elements a lesson step may show (docs/limits.md); use `rlab trace` for larger runs");
        else if (std::string e2 = check_traceable(step.schedule, 256u << 20); !e2.empty())
            error(t.source(), "step " + std::to_string(index + 1) + ": " + e2);
    }
};

}  // namespace

// ---- loading ---------------------------------------------------------------------------------------

std::optional<Lesson> parse_lesson(const std::string& text, const std::string& name, const std::string& file,
                                   std::vector<LessonError>& errors) {
    Loader L{file, errors, errors.size()};
    toml::table root;
    // toml++ parses nested tables and arrays recursively: bound the nesting before it sees the text.
    if (text.size() > limits::kLessonFileBytes) {
        L.error({{1, 1}, {1, 1}, nullptr}, "the file is over the " + std::to_string(limits::kLessonFileBytes >> 20) +
                                               " MiB limit for a lesson (docs/limits.md)");
        return std::nullopt;
    }
    if (toml_nesting_depth(text, limits::kTomlDepth) > limits::kTomlDepth) {
        L.error({{1, 1}, {1, 1}, nullptr}, "nested deeper than " + std::to_string(limits::kTomlDepth) +
                                               " levels of tables, arrays and dotted keys (docs/limits.md); lessons need at most 3");
        return std::nullopt;
    }
    try {
        root = toml::parse(text, file);
    } catch (const toml::parse_error& e) {
        L.error(e.source(), "TOML syntax: " + std::string(e.description()));
        return std::nullopt;
    }
    Lesson lesson;
    lesson.name = name;
    lesson.file = file;
    const toml::source_region top{{1, 1}, {1, 1}, nullptr};
    bool has_schedule = false;
    const toml::array* steps = nullptr;
    for (auto&& [k, v] : root) {
        const std::string key(k.str());
        if (key == "title" || key == "summary") {
            if (!v.is_string()) L.error(v.source(), "'" + key + "' expects a text");
            else (key == "title" ? lesson.title : lesson.summary) = *v.value<std::string>();
        } else if (key == "schedule") {
            if (auto* t = v.as_table()) {
                L.apply_schedule(*t, lesson.schedule, nullptr, false);
                has_schedule = true;
                if (std::string e = validate(lesson.schedule); !e.empty() && !L.failed()) L.error(v.source(), e);
            } else {
                L.error(v.source(), "'schedule' expects a table of schedule fields");
            }
        } else if (key == "exercises") {
            const toml::array* a = v.as_array();
            if (!a) L.error(v.source(), "'exercises' expects a list of exercise names (folders of lessons/exercises)");
            else
                for (auto&& item : *a) {
                    if (!item.is_string() || item.value<std::string>()->empty()) L.error(item.source(), "'exercises' holds exercise names");
                    else lesson.exercises.push_back(*item.value<std::string>());
                }
        } else if (key == "step") {
            steps = v.as_array();
            if (!steps || !steps->is_array_of_tables()) {
                L.error(v.source(), "'step' expects [[step]] tables");
                steps = nullptr;
            }
        } else {
            L.error(k.source(), "unknown top-level field '" + key + "'; expected title, summary, schedule, exercises, [[step]]");
        }
    }
    if (lesson.title.empty()) L.error(top, "missing 'title' (a text at the top of the file)");
    if (!has_schedule) L.error(top, "missing [schedule] table");
    if (!steps || steps->empty()) L.error(top, "no [[step]] tables: a lesson needs at least one step");
    else if (steps->size() > limits::kLessonSteps)
        L.error(top, std::to_string(steps->size()) + " steps: a lesson has at most " + std::to_string(limits::kLessonSteps) +
                         " (docs/limits.md); split it into two lessons");
    if (L.failed()) return std::nullopt;
    uint64_t total_n = 0;
    for (size_t i = 0; i < steps->size(); ++i) {
        LessonStep st;
        L.parse_step(*(*steps)[i].as_table(), lesson, st, i);
        total_n += st.schedule.n;
        lesson.steps.push_back(std::move(st));
    }
    if (!L.failed() && total_n > limits::kLessonTotalN)
        L.error(top, "the steps hold " + std::to_string(total_n) + " elements in all, over the " +
                         std::to_string(limits::kLessonTotalN) + " a lesson may hold (docs/limits.md); use smaller n");
    if (L.failed()) return std::nullopt;
    return lesson;
}

std::optional<Lesson> load_lesson_file(const std::string& path, std::vector<LessonError>& errors) {
    std::string text;
    try {
        text = read_text_file(path, "lesson", limits::kLessonFileBytes);
    } catch (const Error& e) {
        errors.push_back({path, 0, 0, e.what()});
        return std::nullopt;
    }
    return parse_lesson(text, fs::path(path).stem().string(), path, errors);
}

LessonSet load_lessons(const std::string& dir) {
    LessonSet set;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        set.errors.push_back({dir, 0, 0, "no lessons folder here (set RLAB_LESSONS_DIR)"});
        return set;
    }
    std::vector<fs::path> files;
    for (auto& ent : fs::directory_iterator(dir, ec))
        if (ent.path().extension() == ".toml") files.push_back(ent.path());
    std::sort(files.begin(), files.end());
    for (auto& f : files)
        if (auto l = load_lesson_file(f.string(), set.errors)) set.lessons.push_back(std::move(*l));
    for (const Lesson& l : set.lessons)  // a link to an exercise that is not there is a broken lesson
        for (const std::string& ex : l.exercises)
            if (!fs::is_regular_file(fs::path(dir) / "exercises" / ex / "exercise.toml", ec))
                set.errors.push_back({l.file, 0, 0, "exercise '" + ex + "' has no exercises/" + ex + "/exercise.toml"});
    // The course order (lessons/course.txt) when there is one; lessons it does not list follow by name.
    const Course course = load_course(dir);
    set.errors.insert(set.errors.end(), course.errors.begin(), course.errors.end());
    auto rank = [&](const Lesson& l) { return course.position(l.name); };
    std::stable_sort(set.lessons.begin(), set.lessons.end(), [&](const Lesson& a, const Lesson& b) { return rank(a) < rank(b); });
    if (course.found) {
        for (const Lesson& l : set.lessons)
            if (rank(l) == course.order.size())
                set.errors.push_back({l.file, 0, 0, "not in the course (" + course.file + "): add its name where it belongs"});
        for (size_t i = 0; i < course.order.size(); ++i)
            if (std::none_of(set.lessons.begin(), set.lessons.end(), [&](const Lesson& l) { return l.name == course.order[i]; }) &&
                !fs::exists(fs::path(dir) / (course.order[i] + ".toml"), ec))
                set.errors.push_back({course.file, course.lines[i], 1, "no lesson file " + course.order[i] + ".toml"});
    }
    return set;
}

// ---- quantities ------------------------------------------------------------------------------------

namespace {

// Every quantity a placeholder or an expectation may name, and where its value comes from (QuantityKind in
// core/lesson.h; lessons/README.md lists them). The recorded bench results (core/lesson_bench.cpp) are
// measured, except the ones listed here: constants and values derived from the datasheet.
struct QuantityInfo {
    const char* name;
    QuantityKind kind;
};
constexpr QuantityKind kFixed = QuantityKind::Schedule, kMeasured = QuantityKind::Measured;
const QuantityInfo kQuantities[] = {
    // fixed by the schedule: sizes, the schedule's fields, depths computed from n, the inputs and their reference
    {"n", kFixed}, {"block", kFixed}, {"grid", kFixed}, {"items", kFixed}, {"warps", kFixed}, {"threads", kFixed},
    {"op", kFixed}, {"type", kFixed}, {"assign", kFixed}, {"warp", kFixed}, {"block_stage", kFixed},
    {"grid_stage", kFixed}, {"accum", kFixed}, {"input", kFixed}, {"bugs", kFixed}, {"commutative", kFixed},
    {"serial_depth", kFixed}, {"tree_depth", kFixed}, {"inputs", kFixed}, {"reference", kFixed},
    {"reference_bits", kFixed}, {"exact_reference", kFixed},
    // fixed by the hardware, or named constants
    {"warp_size", kFixed}, {"worked_n", kFixed}, {"bench_harris_n", kFixed}, {"harris2007_1_gbps", kFixed},
    {"harris2007_7_gbps", kFixed}, {"harris2007_speedup", kFixed}, {"bench_device", kFixed}, {"bench_date", kFixed},
    {"bench_datasheet_gbps", kFixed}, {"bench_worked_mb", kFixed}, {"bench_worked_bound_us", kFixed},
    // measured: the trace and its analysis
    {"events", kMeasured}, {"steps", kMeasured}, {"work", kMeasured}, {"span", kMeasured}, {"saved_depth", kMeasured},
    {"span_thread", kMeasured}, {"span_warp", kMeasured}, {"span_block", kMeasured}, {"span_grid", kMeasured},
    {"work_thread", kMeasured}, {"work_warp", kMeasured}, {"work_block", kMeasured}, {"work_grid", kMeasured},
    {"identity_combines", kMeasured}, {"redundant_combines", kMeasured}, {"result", kMeasured},
    {"result_bits", kMeasured}, {"abs_error", kMeasured}, {"exact_error", kMeasured}, {"rel_error", kMeasured},
    {"ulps", kMeasured}, {"error_bound", kMeasured}, {"bound_formula", kMeasured}, {"verdict", kMeasured},
    {"hazards", kMeasured}, {"hazard_kinds", kMeasured}, {"first_hazard", kMeasured}, {"hazard_rule", kMeasured},
    {"notes", kMeasured}, {"note_kinds", kMeasured}, {"first_note", kMeasured},
    {"atomics", kMeasured}, {"atomic_chain", kMeasured}, {"barriers", kMeasured}, {"shuffles", kMeasured},
    {"shared_stores", kMeasured}, {"shared_loads", kMeasured}, {"warp_syncs", kMeasured},
    {"block_partials", kMeasured}, {"partial_loads", kMeasured}, {"tickets", kMeasured}, {"grid_syncs", kMeasured},
    {"identity_fills", kMeasured}, {"undefined_events", kMeasured}, {"step", kMeasured}, {"where", kMeasured},
    {"offset", kMeasured}, {"offsets", kMeasured}, {"row", kMeasured}, {"lane0", kMeasured},
    {"combines_here", kMeasured}, {"event_value", kMeasured}, {"pairs", kMeasured}, {"lane_first_read", kMeasured},
    {"element_first_pair", kMeasured},
    // measured: the numerics lab's replay of the atomic grid stage's legal completion orders
    {"atomic_orders", kMeasured}, {"atomic_patterns", kMeasured}, {"atomic_bits", kMeasured},
    {"atomic_within_bound", kMeasured},
};

}  // namespace

const std::vector<std::string>& quantity_names() {
    static const std::vector<std::string> all = [] {
        std::vector<std::string> v;
        for (const QuantityInfo& q : kQuantities) v.push_back(q.name);
        for (const std::string& b : bench_quantity_names())
            if (std::find(v.begin(), v.end(), b) == v.end()) v.push_back(b);
        return v;
    }();
    return all;
}

QuantityKind quantity_kind(const std::string& name) {
    for (const QuantityInfo& q : kQuantities)
        if (name == q.name) return q.kind;
    return QuantityKind::Measured;
}

namespace {

std::string describe_place(const Trace& t, int step) {
    std::string words = describe_step(t, uint16_t(step));
    return words.empty() ? "step " + std::to_string(step) : words;
}

// An operator whose value is a pair (argmax's index, sum-count's count, the witness's range end) keeps the second
// field in the high word: its bits, and its equality, take all 64 bits and the whole text, not only the number.
bool pair_valued(Op op) { return op == Op::ArgMax || op == Op::SumCount || op == Op::Witness; }

std::string hex_bits(uint64_t bits, DType type, Op op) {
    char buf[32];
    if (type == DType::F64 || pair_valued(op)) snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)bits);
    else snprintf(buf, sizeof buf, "0x%08llx", (unsigned long long)(bits & 0xffffffffull));
    return buf;
}

}  // namespace

Quantities compute_quantities(const Trace& t, const Analysis& a, int cursor, uint32_t event) {
    Quantities q;
    const Schedule& s = t.schedule;
    auto num = [&](const char* k, double v) { q[k] = {number_text(v), v}; };
    auto txt = [&](const char* k, std::string v) { q[k] = {std::move(v), std::nullopt}; };
    auto sci = [&](const char* k, double v) {
        char buf[48];
        snprintf(buf, sizeof buf, v == 0 ? "%.0f" : "%.3g", v);
        q[k] = {buf, v};
    };
    num("n", double(s.n));
    num("block", s.block);
    num("grid", t.grid);
    num("items", s.items);
    num("warps", s.warps_per_block());
    num("threads", double(uint64_t(t.grid) * s.block));
    txt("op", std::string(to_string(s.op)));
    txt("type", std::string(to_string(s.type)));
    txt("assign", std::string(to_string(s.effective_assign())));
    txt("warp", std::string(to_string(s.effective_warp())));
    txt("block_stage", std::string(to_string(s.block_stage)));
    txt("grid_stage", std::string(to_string(s.effective_grid_stage())));
    txt("accum", std::string(to_string(s.accum)));
    txt("input", std::string(to_string(s.input.kind)));
    std::vector<std::string> bugs;
    for (Bug b : bug_list(s.bugs)) bugs.push_back(std::string(to_string(b)));
    txt("bugs", bugs.empty() ? "none" : join(bugs));
    txt("commutative", is_commutative(s.op) ? "yes" : "no");
    num("events", double(t.events.size()));
    num("steps", t.step_count);
    num("work", double(a.work));
    num("span", a.span);
    num("serial_depth", double(a.serial_depth));
    num("tree_depth", a.tree_depth);
    num("saved_depth", double(a.serial_depth) - double(a.span));
    const char* span_names[4] = {"span_thread", "span_warp", "span_block", "span_grid"};
    const char* work_names[4] = {"work_thread", "work_warp", "work_block", "work_grid"};
    for (int i = 0; i < 4; ++i) {
        num(span_names[i], a.span_by_scope[i]);
        num(work_names[i], double(a.work_by_scope[i]));
    }
    num("identity_combines", double(a.identity_combines));
    num("redundant_combines", double(a.redundant_combines));
    const bool undefined = (t.result_flags & kUndefined) != 0;
    q["result"] = {format_value(s.op, s.type, t.result_value, t.result_flags),
                   undefined || pair_valued(s.op) ? std::nullopt : std::optional<double>(numeric_value(s.op, s.type, t.result_value))};
    txt("result_bits", undefined ? "undefined" : hex_bits(t.result_value, s.type, s.op));
    q["reference"] = {format_value(s.op, s.type, t.reference_value),
                      pair_valued(s.op) ? std::nullopt : std::optional<double>(numeric_value(s.op, s.type, t.reference_value))};
    txt("reference_bits", hex_bits(t.reference_value, s.type, s.op));
    {
        char buf[48];
        snprintf(buf, sizeof buf, "%.17g", t.reference_exact);
        q["exact_reference"] = {buf, t.reference_exact};
    }
    sci("abs_error", a.abs_error);
    sci("exact_error", a.has_result ? std::fabs(a.result - t.reference_exact) : 0.0);
    sci("rel_error", a.rel_error);
    {
        char buf[48];
        snprintf(buf, sizeof buf, "%.2f", a.ulps);
        q["ulps"] = {buf, a.ulps};
    }
    sci("error_bound", a.error_bound);
    txt("bound_formula", a.bound_formula.empty() ? "none (this operator does not round)" : a.bound_formula);
    txt("verdict", std::string(to_string(a.verdict)));
    auto kinds_of = [](const std::vector<Hazard>& findings) {
        std::vector<std::string> kinds;
        for (const Hazard& h : findings) {
            std::string k(to_string(h.kind));
            if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
        }
        return kinds.empty() ? std::string("none") : join(kinds);
    };
    num("hazards", double(t.hazards.size()));
    txt("hazard_kinds", kinds_of(t.hazards));
    txt("first_hazard", t.hazards.empty() ? "none" : t.hazards.front().what);
    txt("hazard_rule", t.hazards.empty() ? "none" : std::string(rule_of(t.hazards.front().kind)));
    // Notes (cost findings) apart: a note is no hazard, so `hazards = 0` holds beside one.
    num("notes", double(t.notes.size()));
    txt("note_kinds", kinds_of(t.notes));
    txt("first_note", t.notes.empty() ? "none" : t.notes.front().what);

    uint64_t count[kEventKindCount] = {};
    uint64_t undefined_events = 0;
    for (const Event& e : t.events) {
        ++count[size_t(e.kind)];
        if (e.flags & kUndefined) ++undefined_events;
    }
    num("atomics", double(count[size_t(EventKind::Atomic)]));
    num("barriers", double(count[size_t(EventKind::Barrier)]));
    num("shuffles", double(count[size_t(EventKind::Shuffle)]));
    num("shared_stores", double(count[size_t(EventKind::SharedStore)]));
    num("shared_loads", double(count[size_t(EventKind::SharedLoad)]));
    num("warp_syncs", double(count[size_t(EventKind::WarpSync)]));
    num("block_partials", double(count[size_t(EventKind::BlockPartial)]));
    num("partial_loads", double(count[size_t(EventKind::PartialLoad)]));
    num("tickets", double(count[size_t(EventKind::Ticket)]));
    num("grid_syncs", double(count[size_t(EventKind::GridSync)]));
    num("identity_fills", double(count[size_t(EventKind::IdentityFill)]));
    num("undefined_events", double(undefined_events));
    // The longest chain of atomics, each waiting for the one before it (dep[0]) at the same address.
    {
        // A GPU trace lists atomics in slot order, not in the order they happened, so dep[0] may
        // point forward: follow the links with a memo instead of relying on index order.
        std::vector<uint32_t> chain(t.events.size(), 0);
        auto is_atomic = [&](uint32_t i) { return i != kNoEvent && i < t.events.size() && t.events[i].kind == EventKind::Atomic; };
        uint32_t longest = 0;
        std::vector<uint32_t> path;
        for (uint32_t i = 0; i < t.events.size(); ++i) {
            if (!is_atomic(i) || chain[i]) continue;
            path.clear();
            uint32_t j = i;
            while (is_atomic(j) && !chain[j] && path.size() <= t.events.size()) {
                path.push_back(j);
                j = t.events[j].dep[0];
            }
            uint32_t length = is_atomic(j) ? chain[j] : 0;
            for (auto it = path.rbegin(); it != path.rend(); ++it) chain[*it] = ++length;
            longest = std::max(longest, chain[i]);
        }
        num("atomic_chain", longest);
    }
    // The cursor: what happens at that step, and the values block 0's threads hold there.
    num("step", cursor);
    txt("where", describe_place(t, cursor));
    std::vector<std::string> offs;
    int offset = -1;
    std::vector<std::string> row;
    uint64_t combines_here = 0;
    std::map<uint32_t, std::string> by_thread;
    std::string lane0;
    for (const Event& e : t.events) {
        if (e.step == cursor && e.kind == EventKind::Combine) ++combines_here;
        if (e.block != 0) continue;
        if (e.kind == EventKind::Shuffle) {
            std::string o = std::to_string(e.shuffle_offset());
            if (std::find(offs.begin(), offs.end(), o) == offs.end()) offs.push_back(o);
            if (e.step == cursor && offset < 0) offset = int(e.shuffle_offset());
        }
        if (!holds_thread_value(e.kind)) continue;
        std::string v = format_value(s.op, s.type, e.value, e.flags);
        if (e.step == cursor && e.thread < 16) by_thread[e.thread] = v;
        if (e.thread == 0 && e.step <= cursor) lane0 = v;
    }
    for (auto& [th, v] : by_thread) row.push_back(v);
    txt("offsets", offs.empty() ? "none" : join(offs));
    if (offset >= 0) num("offset", offset);
    else txt("offset", "none");
    txt("row", row.empty() ? "nothing" : join(row));
    txt("lane0", lane0.empty() ? "nothing yet" : lane0);
    num("combines_here", double(combines_here));
    if (event != kNoEvent && event < t.events.size()) {
        const Event& e = t.events[event];
        q["event_value"] = {format_value(s.op, s.type, e.value, e.flags),
                            (e.flags & kUndefined) || pair_valued(s.op) ? std::nullopt
                                                                        : std::optional<double>(numeric_value(s.op, s.type, e.value))};
    } else {
        txt("event_value", "none");
    }
    // Which inputs each combine at the cursor joins (block 0, up to eight): "x0+x1, x2+x3" for adjacent pairs,
    // "x0+x4, ..." for a down-shuffle's first level, "x0..x1+x2..x3" a level later.
    {
        std::vector<std::pair<int64_t, int64_t>> range(t.events.size(), {-2, -2});  // -2: not computed, -1: no input
        std::function<std::pair<int64_t, int64_t>(uint32_t, int)> covers = [&](uint32_t i, int depth) -> std::pair<int64_t, int64_t> {
            if (i == kNoEvent || i >= t.events.size() || depth > 4096) return {-1, -1};
            if (range[i].first != -2) return range[i];
            const Event& e = t.events[i];
            std::pair<int64_t, int64_t> r{-1, -1};
            if (e.kind == EventKind::Load) r = {int64_t(e.aux), int64_t(e.aux)};
            for (uint32_t d : e.dep) {
                auto x = covers(d, depth + 1);
                if (x.first < 0) continue;
                r = r.first < 0 ? x : std::pair<int64_t, int64_t>{std::min(r.first, x.first), std::max(r.second, x.second)};
            }
            return range[i] = r;
        };
        auto words = [](std::pair<int64_t, int64_t> r) {
            return r.first == r.second ? "x" + std::to_string(r.first)
                                       : "x" + std::to_string(r.first) + "..x" + std::to_string(r.second);
        };
        std::vector<std::string> pairs;
        bool more = false;
        for (uint32_t i = 0; i < t.events.size() && !more; ++i) {
            const Event& e = t.events[i];
            if (e.kind != EventKind::Combine || e.step != cursor || e.block != 0) continue;
            auto left = covers(e.dep[0], 0), right = covers(e.dep[1], 0);
            if (left.first < 0 || right.first < 0) continue;
            if (pairs.size() == 8) { more = true; break; }
            if (pairs.empty()) num("element_first_pair", double(right.first));
            pairs.push_back(words(left) + "+" + words(right));
        }
        if (more) pairs.push_back("...");
        txt("pairs", pairs.empty() ? "none" : join(pairs));
        if (pairs.empty()) txt("element_first_pair", "none");
    }
    // The lane that lane 0 reads first (a down-shuffle's first offset), and the warp width of the hardware.
    num("warp_size", 32);
    {
        std::string first = "none";
        for (const Event& e : t.events)
            if (e.kind == EventKind::Shuffle && e.block == 0 && e.thread == 0) {
                first = std::to_string(e.source_lane());
                q["lane_first_read"] = {first, double(e.source_lane())};
                break;
            }
        if (first == "none") txt("lane_first_read", first);
    }
    std::vector<std::string> ins;
    for (size_t i = 0; i < t.inputs.size() && i < 16; ++i) ins.push_back(number_text(t.inputs[i]));
    if (t.inputs.size() > 16) ins.push_back("...");
    txt("inputs", join(ins));
    return q;
}

// ---- placeholders ----------------------------------------------------------------------------------

namespace {

SourceLineLookup& source_line_lookup() {
    static SourceLineLookup lookup;
    return lookup;
}

// Every {line:SITE} of `text` as a quantity "line N" of the step's schedule's source, or a problem.
void resolve_source_lines(const std::string& text, const Schedule& s, Quantities& q, std::vector<std::string>& problems) {
    for (size_t i = text.find("{line:"); i != std::string::npos; i = text.find("{line:", i + 1)) {
        if (i > 0 && text[i - 1] == '{') continue;  // {{line:...}} is literal
        const size_t j = text.find('}', i);
        if (j == std::string::npos) return;
        const std::string name = text.substr(i + 1, j - i - 1), site = name.substr(5);
        if (q.count(name)) continue;
        const SourceLineLookup& lookup = source_line_lookup();
        const int line = lookup ? lookup(s, site) : 0;
        if (line > 0) q[name] = Quantity{"line " + std::to_string(line), double(line)};
        else if (!lookup) problems.push_back("{" + name + "}: no source generator is linked to look the line up");
        else problems.push_back("{" + name + "}: the CUDA source of this step's schedule has no site " + site);
    }
}

}  // namespace

void set_source_line_lookup(SourceLineLookup lookup) { source_line_lookup() = std::move(lookup); }

std::string fill_placeholders(const std::string& text, const Quantities& q, const Quantities* prev,
                              std::vector<std::string>* problems) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        const size_t j = text.find('}', i);
        if (j == std::string::npos) {
            out += text.substr(i);
            break;
        }
        const std::string name = text.substr(i + 1, j - i - 1);
        const bool is_prev = name.rfind("prev_", 0) == 0;
        const Quantities* src = is_prev ? prev : &q;
        const std::string key = is_prev ? name.substr(5) : name;
        auto it = src ? src->find(key) : q.end();
        if (src && it != src->end()) {
            out += it->second.text;
        } else {
            out += "{" + name + "?}";
            if (problems) problems->push_back("placeholder {" + name + "} has no value here");
        }
        i = j;
    }
    return out;
}

// ---- places in the trace ---------------------------------------------------------------------------

namespace {

// Resolves `at` to a step (and an event when the place names one); returns an error line, or empty.
std::string resolve_place(const Trace& t, const std::string& at, int& step, uint32_t& event) {
    std::istringstream in(at);
    std::string word, arg, arg2;
    in >> word >> arg >> arg2;
    const int last = t.step_count > 0 ? int(t.step_count) - 1 : 0;
    event = kNoEvent;
    auto first_step = [&](auto pred) -> bool {
        for (uint32_t i = 0; i < t.events.size(); ++i)
            if (pred(t.events[i])) {
                step = t.events[i].step;
                event = i;
                return true;
            }
        return false;
    };
    auto to_int = [](const std::string& s, long& v) {
        char* end = nullptr;
        v = std::strtol(s.c_str(), &end, 10);
        return !s.empty() && end && *end == 0;
    };
    long k = 0;
    if (word == "start") { step = 0; return {}; }
    if (word == "end") { step = last; return {}; }
    if (word == "result") {
        if (t.result_event == kNoEvent) return "the trace has no result event";
        step = t.events[t.result_event].step;
        event = t.result_event;
        return {};
    }
    if (word == "step") {
        if (!to_int(arg, k) || k < 0) return "'at = \"" + at + "\"': expected step K with K a step number";
        if (k > last) return "'at = \"" + at + "\"': the trace has steps 0 to " + std::to_string(last);
        step = int(k);
        return {};
    }
    if (word == "level") {
        if (!to_int(arg, k) || k < 1) return "'at = \"" + at + "\"': expected level K with K = 1, 2, ...";
        std::set<int> steps;
        for (const Event& e : t.events)
            if (e.kind == EventKind::Combine && !(e.flags & kFinisher)) steps.insert(e.step);
        if (long(steps.size()) < k)
            return "'at = \"" + at + "\"': the trace has " + std::to_string(steps.size()) + " steps with combines";
        step = *std::next(steps.begin(), k - 1);
        return {};
    }
    if (word == "shuffle") {
        if (arg != "offset" || !to_int(arg2, k)) return "'at = \"" + at + "\"': expected shuffle offset K";
        if (!first_step([&](const Event& e) { return e.kind == EventKind::Shuffle && long(e.shuffle_offset()) == k; }))
            return "'at = \"" + at + "\"': no shuffle with offset " + arg2 + " in this trace";
        return {};
    }
    if (word == "event") {
        EventKind kind;
        if (!parse_event_kind(arg, kind)) return "'at = \"" + at + "\"': unknown event kind '" + arg + "'";
        if (!first_step([&](const Event& e) { return e.kind == kind; }))
            return "'at = \"" + at + "\"': no " + arg + " event in this trace";
        return {};
    }
    if (word == "hazard" || word == "note") {
        // The first finding (of that kind) in the list its kind belongs to: "hazard atomic-contention" still
        // finds the note, as before notes were kept apart.
        HazardKind kind{};
        if (!arg.empty() && (!parse_hazard_kind(arg, kind) || (word == "note" && !is_note(kind))))
            return "'at = \"" + at + "\"': unknown " + word + " kind '" + arg + "'";
        const bool in_notes = arg.empty() ? word == "note" : is_note(kind);
        for (const Hazard& h : in_notes ? t.notes : t.hazards)
            if (arg.empty() || h.kind == kind) {
                event = h.event;
                step = t.events[h.event].step;
                return {};
            }
        return "'at = \"" + at + "\"': this trace has no " + (arg.empty() ? word : arg + " " + (in_notes ? "note" : "hazard"));
    }
    if (word == "scope") {
        for (int i = 0; i < 4; ++i)
            if (arg == to_string(Scope(i))) {
                step = std::min<int>(t.scope_start[i], last);
                return {};
            }
        return "'at = \"" + at + "\"': expected scope thread, warp, block or grid";
    }
    return "'at = \"" + at + "\"': expected start, end, result, step K, level K, shuffle offset K, event KIND, "
           "hazard [KIND], note [KIND] or scope SCOPE";
}

// ---- expectations ----------------------------------------------------------------------------------

ExpectationResult evaluate(const Expectation& e, const Trace& t, const Quantities& q, const Quantities* prev) {
    ExpectationResult r;
    r.written = e.written;
    r.line = e.line;
    r.column = e.column;
    if (e.key == "hazard" || e.key == "no_hazard" || e.key == "note" || e.key == "no_note") {
        HazardKind kind{};
        parse_hazard_kind(e.hazard_kind, kind);
        const bool in_notes = is_note(kind);
        const std::string noun = in_notes ? "note" : "hazard";
        size_t found = 0;
        std::string seen;  // the findings of this kind and where they are, for the message
        size_t same_kind = 0;
        for (const Hazard& h : in_notes ? t.notes : t.hazards) {
            if (h.kind != kind) continue;
            const long step = h.event < t.events.size() ? long(t.events[h.event].step) : -1;
            if (++same_kind <= 4)
                seen += std::string(seen.empty() ? "" : "; ") + "step " + std::to_string(step) + " block " +
                        std::to_string(h.block) + " warp " + std::to_string(h.warp) + " lanes " + lane_set_text(h.lanes);
            if (e.hazard_step >= 0 && step != e.hazard_step) continue;
            if (e.hazard_block >= 0 && long(h.block) != e.hazard_block) continue;
            if (e.hazard_warp >= 0 && long(h.warp) != e.hazard_warp) continue;
            if (e.hazard_lane >= 0 && !(h.lanes >> e.hazard_lane & 1u)) continue;
            if (e.hazard_lanes && h.lanes != *e.hazard_lanes) continue;
            if (e.hazard_thread >= 0 && (long(h.warp) != e.hazard_thread / 32 || !(h.lanes >> (e.hazard_thread % 32) & 1u))) continue;
            ++found;
        }
        if (same_kind > 4) seen += "; " + std::to_string(same_kind - 4) + " more";
        std::string where = e.written.substr(e.key.size() + 1);
        const std::string a = std::string("aeiou").find(where[0]) != std::string::npos ? "an " : "a ";
        if (e.key == "hazard" || e.key == "note") {
            r.ok = found > 0;
            r.message = r.ok ? a + where + " " + noun + " is reported"
                             : "expected " + a + where + " " + noun + ", but the trace reports none like it (" +
                                   (seen.empty() ? noun + "s: " + q.at(noun + "_kinds").text
                                                 : e.hazard_kind + " at: " + seen) + ")";
        } else {
            r.ok = found == 0;
            r.message = r.ok ? "no " + where + " " + noun + ", as expected"
                             : "expected no " + where + " " + noun + ", but the trace reports " + std::to_string(found) + " (at: " + seen + ")";
        }
        return r;
    }
    auto lookup = [&](const std::string& name) -> const Quantity* {
        if (name.rfind("prev_", 0) == 0) {
            if (!prev) return nullptr;
            auto it = prev->find(name.substr(5));
            return it == prev->end() ? nullptr : &it->second;
        }
        auto it = q.find(name);
        return it == q.end() ? nullptr : &it->second;
    };
    const Quantity* lhs = lookup(e.key);
    Quantity rhs;
    std::string rhs_desc = e.rhs;
    if (e.rhs_is_quantity) {
        const Quantity* named = lookup(e.rhs);
        if (!named) {
            r.message = e.rhs + " has no value here";
            return r;
        }
        rhs = *named;
        rhs_desc = e.rhs + " (" + named->text + ")";
    } else {
        char* end = nullptr;
        double v = std::strtod(e.rhs.c_str(), &end);
        rhs.text = e.rhs;
        if (!e.rhs.empty() && end && *end == 0) rhs.number = v;
    }
    if (!lhs) {
        r.message = e.key + " has no value here";
        return r;
    }
    if (lhs->number && rhs.number) {
        const double a = *lhs->number, b = *rhs.number;
        r.ok = e.op == "==" ? a == b : e.op == "!=" ? a != b : e.op == "<" ? a < b : e.op == "<=" ? a <= b
             : e.op == ">"  ? a > b : a >= b;
    } else if (e.op == "==" || e.op == "!=") {
        r.ok = (lhs->text == rhs.text) == (e.op == "==");
    } else {
        r.message = e.written + ": cannot compare " + lhs->text + " and " + rhs.text + " by size";
        return r;
    }
    static const std::map<std::string, std::string> words{{"==", "equal to"}, {"!=", "different from"},
                                                          {"<", "less than"}, {"<=", "at most"},
                                                          {">", "greater than"}, {">=", "at least"}};
    r.message = e.key + " is " + lhs->text + (r.ok ? "" : ", but the lesson expects it") + " " + words.at(e.op) + " " +
                rhs_desc;
    return r;
}

}  // namespace

// ---- playing ---------------------------------------------------------------------------------------

namespace {

// The atomic_* names run the numerics lab (core/numerics.h) over many legal completion orders: costly, so only
// for steps whose text or expectations use them.
bool uses_atomic_orders(const LessonStep& st) {
    auto mentions = [](const std::string& t) {
        return t.find("{atomic_orders}") != std::string::npos || t.find("{atomic_patterns}") != std::string::npos ||
               t.find("{atomic_bits}") != std::string::npos || t.find("{atomic_within_bound}") != std::string::npos;
    };
    if (mentions(st.text)) return true;
    for (const Expectation& e : st.expect)
        if (e.key.rfind("atomic_", 0) == 0 && e.key != "atomic_chain") return true;
    return false;
}

// The distinct result bits of the schedule's atomic grid stage over the numerics lab's legal completion orders.
void add_atomic_orders(const Schedule& s, Quantities& q, std::vector<std::string>& problems) {
    if (std::string why = numerics_supported(s); !why.empty()) {
        problems.push_back("atomic_patterns: " + why);
        return;
    }
    try {
        const NumericsReport r = compare_numerics(s);
        for (const NumericsRow& row : r.rows) {
            if (!row.chosen) continue;
            if (row.deterministic) {
                problems.push_back("atomic_patterns: the schedule's grid stage has a fixed order (no atomics)");
                return;
            }
            q["atomic_orders"] = {std::to_string(row.runs), double(row.runs)};
            q["atomic_patterns"] = {std::to_string(row.patterns.size()), double(row.patterns.size())};
            std::string bits;
            for (size_t i = 0; i < row.patterns.size() && i < 6; ++i)
                bits += (i ? ", " : "") + hex_bits(row.patterns[i].bits, s.type, s.op) + " ×" + std::to_string(row.patterns[i].count);
            if (row.patterns.size() > 6) bits += ", …";
            q["atomic_bits"] = {bits, std::nullopt};
            q["atomic_within_bound"] = {row.within_bound ? "yes" : "no", std::nullopt};
            return;
        }
    } catch (const std::exception& ex) {
        problems.push_back(std::string("atomic_patterns: ") + ex.what());
    }
}

}  // namespace

bool PlayedStep::ok() const {
    if (!problems.empty()) return false;
    return std::all_of(results.begin(), results.end(), [](const ExpectationResult& r) { return r.ok; });
}

PlayedStep play_step(const Lesson& lesson, size_t k, const Quantities* prev, const ScheduleRunner& run) {
    PlayedStep p;
    const LessonStep& st = lesson.steps.at(k);
    try {
        const bool on_gpu = run && st.emulator_only.empty();
        if (run && !on_gpu) p.played_on_emulator = st.emulator_only;
        p.trace = on_gpu ? run(st.schedule) : emulate(st.schedule);
    } catch (const DeviceHung&) {
        throw;  // the hung kernel holds the GPU: no later step can run, so the caller must end the process
    } catch (const std::exception& ex) {
        p.problems.push_back(std::string("the schedule does not run: ") + ex.what());
        return p;
    }
    p.analysis = analyze(p.trace);
    if (std::string err = resolve_place(p.trace, st.at, p.cursor_step, p.event); !err.empty()) p.problems.push_back(err);
    p.values = compute_quantities(p.trace, p.analysis, p.cursor_step, p.event);
    if (const Quantities* bench = recorded_bench_quantities(lesson.file))
        for (const auto& [name, value] : *bench) p.values[name] = value;
    if (uses_atomic_orders(st)) add_atomic_orders(st.schedule, p.values, p.problems);
    p.where = p.values["where"].text;
    resolve_source_lines(st.text, st.schedule, p.values, p.problems);
    if (st.check) {
        resolve_source_lines(st.check->question, st.schedule, p.values, p.problems);
        resolve_source_lines(st.check->answer, st.schedule, p.values, p.problems);
        resolve_source_lines(st.check->explain, st.schedule, p.values, p.problems);
        for (auto& c : st.check->choices) resolve_source_lines(c, st.schedule, p.values, p.problems);
    }
    if (auto d = p.values.find("bench_duplicates"); d != p.values.end() && d->second.text != "none" &&
        st.text.find("{bench_") != std::string::npos)
        p.problems.push_back("the recorded bench file has more than one row for: " + d->second.text +
                             " (a lesson reads one measurement per cell; keep one run per cell)");
    p.narrative = fill_placeholders(st.text, p.values, prev, &p.problems);
    if (st.check) {
        p.question = fill_placeholders(st.check->question, p.values, prev, &p.problems);
        p.answer = fill_placeholders(st.check->answer, p.values, prev, &p.problems);
        p.explanation = fill_placeholders(st.check->explain, p.values, prev, &p.problems);
        for (auto& c : st.check->choices) p.choices.push_back(fill_placeholders(c, p.values, prev, &p.problems));
    }
    for (const Expectation& e : st.expect)
        if (!(e.emulator_only && run && st.emulator_only.empty())) p.results.push_back(evaluate(e, p.trace, p.values, prev));
    return p;
}

std::vector<PlayedStep> play_lesson(const Lesson& lesson, const ScheduleRunner& run) {
    std::vector<PlayedStep> out;
    for (size_t k = 0; k < lesson.steps.size(); ++k)
        out.push_back(play_step(lesson, k, k ? &out.back().values : nullptr, run));
    return out;
}

void play_lesson_steps(const Lesson& lesson, const ScheduleRunner& run,
                       const std::function<void(size_t, const PlayedStep&)>& each) {
    Quantities prev;
    for (size_t k = 0; k < lesson.steps.size(); ++k) {
        PlayedStep p = play_step(lesson, k, k ? &prev : nullptr, run);
        each(k, p);
        prev = std::move(p.values);  // the trace goes here: only one step's trace is alive at a time
    }
}

}  // namespace rl
