// core/bench_report.cpp — bench results to and from JSON/CSV, the table, the crossover analysis.
#include "core/file_io.h"
#include "core/limits.h"
#include "core/bench_report.h"
#include "core/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"

namespace rl {
namespace {

using json = nlohmann::ordered_json;


// "2^20" for powers of two, the plain number otherwise.
std::string size_label(uint64_t n) {
    if (n && (n & (n - 1)) == 0) {
        int k = 0;
        while ((uint64_t(1) << k) != n) ++k;
        return "2^" + std::to_string(k);
    }
    return std::to_string(n);
}

bool known_variant(std::string_view v) {
    return std::find(std::begin(kBenchVariants), std::end(kBenchVariants), v) != std::end(kBenchVariants) ||
           std::find(std::begin(kHarrisVariants), std::end(kHarrisVariants), v) != std::end(kHarrisVariants);
}

template <class T> T field(const json& j, const char* name, const std::string& where) {
    auto it = j.find(name);
    if (it == j.end()) throw Error("bench JSON: " + where + " has no \"" + name + "\"");
    try {
        return it->get<T>();
    } catch (const std::exception&) {
        throw Error("bench JSON: " + where + " field \"" + name + "\" has the wrong type");
    }
}
template <class T> T optional_field(const json& j, const char* name, T fallback) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return fallback;
    try {
        return it->get<T>();
    } catch (const std::exception&) {
        return fallback;
    }
}

}  // namespace

const BenchResult* BenchReport::find(std::string_view variant, std::string_view dtype, uint64_t n,
                                     std::string_view cache, std::string_view op, uint32_t offset) const {
    for (const BenchResult& b : results)
        if (b.variant == variant && b.dtype == dtype && b.n == n && b.cache == cache && b.op == op && b.offset == offset)
            return &b;
    return nullptr;
}

std::vector<std::pair<uint64_t, double>> BenchReport::series(std::string_view variant, std::string_view dtype,
                                                             std::string_view cache, std::string_view op) const {
    std::vector<std::pair<uint64_t, double>> s;
    for (const BenchResult& b : results)
        if (b.variant == variant && b.dtype == dtype && b.cache == cache && b.op == op && b.offset == 0)
            s.emplace_back(b.n, b.median_us);
    std::sort(s.begin(), s.end());
    return s;
}

std::vector<std::string> BenchReport::caches() const {
    std::vector<std::string> c;
    for (const char* m : {"warm", "cold"})
        for (const BenchResult& b : results)
            if (b.cache == m) {
                c.emplace_back(m);
                break;
            }
    return c;
}

std::string bench_to_json(const BenchReport& r) {
    json j;
    j["device"] = r.device;
    j["driver"] = r.driver;
    j["cuda"] = r.cuda;
    j["date"] = r.date;
    j["copy_gbps"] = r.copy_gbps;
    j["datasheet_gbps"] = r.datasheet_gbps;
    j["sm_count"] = r.sm_count;
    j["l2_bytes"] = r.l2_bytes;
    j["method"] = r.method;
    json results = json::array();
    for (const BenchResult& b : r.results) {
        json e;
        e["variant"] = b.variant;
        e["dtype"] = b.dtype;
        e["op"] = b.op;
        e["n"] = b.n;
        e["cache"] = b.cache;
        if (b.offset) e["offset"] = b.offset;
        e["median_us"] = b.median_us;
        e["min_us"] = b.min_us;
        e["max_us"] = b.max_us;
        e["reps"] = b.reps;
        e["gbps"] = b.gbps;
        e["abs_error"] = b.abs_error;
        e["tolerance"] = b.tolerance;
        if (!b.round_medians_us.empty()) e["round_medians_us"] = b.round_medians_us;
        results.push_back(std::move(e));
    }
    j["results"] = std::move(results);
    if (!r.failures.empty()) j["failures"] = r.failures;
    return j.dump(1) + "\n";
}

BenchReport bench_from_json(std::string_view text) {
    check_json_nesting(text, "bench JSON", limits::kJsonDepth);  // nlohmann's document recurses by depth
    json j;
    try {
        j = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        throw Error(std::string("bench JSON: not valid JSON (") + one_line(e.what()) + ")");
    }
    if (!j.is_object()) throw Error("bench JSON: the top level must be an object with \"results\"");
    BenchReport r;
    r.device = field<std::string>(j, "device", "the file");
    r.driver = field<std::string>(j, "driver", "the file");
    r.cuda = field<std::string>(j, "cuda", "the file");
    r.date = field<std::string>(j, "date", "the file");
    r.copy_gbps = optional_field<double>(j, "copy_gbps", 0);
    r.datasheet_gbps = optional_field<double>(j, "datasheet_gbps", 0);
    r.sm_count = optional_field<int>(j, "sm_count", 0);
    r.l2_bytes = optional_field<uint64_t>(j, "l2_bytes", 0);
    r.method = optional_field<std::string>(j, "method", "");
    if (auto f = j.find("failures"); f != j.end() && f->is_array())
        for (const json& line : *f)
            if (line.is_string()) r.failures.push_back(line.get<std::string>());
    auto it = j.find("results");
    if (it == j.end() || !it->is_array()) throw Error("bench JSON: \"results\" must be an array");
    for (size_t i = 0; i < it->size(); ++i) {
        const json& e = (*it)[i];
        const std::string where = "result " + std::to_string(i);
        if (!e.is_object()) throw Error("bench JSON: " + where + " is not an object");
        BenchResult b;
        b.variant = field<std::string>(e, "variant", where);
        if (!known_variant(b.variant))
            throw Error("bench JSON: " + where + " has unknown variant \"" + b.variant +
                        "\" (allowed: atomic-element|atomic-block|two-pass|last-block|cooperative|fast|"
                        "fast-deterministic|cub|instrumented|harris-1|harris-2|harris-3|harris-4|harris-7)");
        b.dtype = field<std::string>(e, "dtype", where);
        b.n = field<uint64_t>(e, "n", where);
        b.median_us = field<double>(e, "median_us", where);
        b.min_us = field<double>(e, "min_us", where);
        b.max_us = field<double>(e, "max_us", where);
        b.gbps = field<double>(e, "gbps", where);
        b.op = optional_field<std::string>(e, "op", "sum");
        b.cache = optional_field<std::string>(e, "cache", "warm");
        b.reps = optional_field<int>(e, "reps", 0);
        b.abs_error = optional_field<double>(e, "abs_error", 0);
        b.tolerance = optional_field<double>(e, "tolerance", 0);
        b.offset = optional_field<uint32_t>(e, "offset", 0);
        b.round_medians_us = optional_field<std::vector<double>>(e, "round_medians_us", {});
        for (double m : b.round_medians_us)
            if (!(m > 0)) throw Error("bench JSON: " + where + " has a round median that is not a positive time");
        if (r.find(b.variant, b.dtype, b.n, b.cache, b.op, b.offset))
            throw Error("bench JSON: " + where + " repeats the cell " + b.variant + " " + b.dtype + " " + b.op + " n=" +
                        std::to_string(b.n) + " " + b.cache + (b.offset ? " offset " + std::to_string(b.offset) : "") +
                        ": one row per cell");
        if (b.n == 0 || !(b.median_us > 0) || b.min_us > b.median_us || b.median_us > b.max_us)
            throw Error("bench JSON: " + where + " needs n > 0 and 0 < min_us <= median_us <= max_us");
        r.results.push_back(std::move(b));
    }
    return r;
}

BenchReport load_bench_file(const std::string& path) {
    return bench_from_json(read_text_file(path, "bench results", limits::kBenchFileBytes));
}

std::string bench_to_csv(const BenchReport& r) {
    std::string out = "variant,dtype,op,n,cache,median_us,min_us,max_us,reps,gbps,abs_error,tolerance,offset\n";
    for (const BenchResult& b : r.results) {
        char line[256];
        snprintf(line, sizeof line, "%s,%s,%s,%llu,%s,%.3f,%.3f,%.3f,%d,%.2f,%.3g,%.3g,%u\n", b.variant.c_str(),
                 b.dtype.c_str(), b.op.c_str(), static_cast<unsigned long long>(b.n), b.cache.c_str(), b.median_us,
                 b.min_us, b.max_us, b.reps, b.gbps, b.abs_error, b.tolerance, b.offset);
        out += line;
    }
    return out;
}

std::string bench_table(const BenchReport& r, std::string_view dtype, std::string_view cache, std::string_view op) {
    std::vector<std::string_view> cols, names(std::begin(kBenchVariants), std::end(kBenchVariants));
    names.insert(names.end(), std::begin(kHarrisVariants), std::end(kHarrisVariants));
    std::map<uint64_t, bool> sizes;
    for (std::string_view v : names)
        for (const BenchResult& b : r.results)
            if (b.variant == v && b.dtype == dtype && b.cache == cache && b.op == op) {
                if (std::find(cols.begin(), cols.end(), v) == cols.end()) cols.push_back(v);
                sizes[b.n] = true;
            }
    if (cols.empty()) return "";
    std::string out = std::string(op) + " over " + std::string(dtype) + ", " + std::string(cache) +
                      " cache, median microseconds (fastest GB/s; % of copy; % of datasheet)\n";
    char buf[64];
    snprintf(buf, sizeof buf, "%-10s", "n");
    out += buf;
    for (std::string_view c : cols) {
        snprintf(buf, sizeof buf, " %*s", int(std::max<size_t>(10, c.size())), std::string(c).c_str());
        out += buf;
    }
    out += "   best\n";
    for (auto [n, _] : sizes) {
        snprintf(buf, sizeof buf, "%-10s", size_label(n).c_str());
        out += buf;
        const BenchResult* best = nullptr;
        for (std::string_view c : cols) {
            const BenchResult* b = r.find(c, dtype, n, cache, op);
            if (b && c != "instrumented" && (!best || b->median_us < best->median_us)) best = b;
            snprintf(buf, sizeof buf, " %*s", int(std::max<size_t>(10, c.size())),
                     b ? format_number("%.2f", b->median_us).c_str() : "-");
            out += buf;
        }
        if (best) {
            out += "   " + best->variant + " " + format_number("%.0f", best->gbps);
            if (r.copy_gbps > 0) out += format_number("; %.0f%%", 100.0 * best->gbps / r.copy_gbps);
            if (r.datasheet_gbps > 0) out += format_number("; %.1f%%", 100.0 * best->gbps / r.datasheet_gbps);
        }
        out += "\n";
    }
    return out;
}

std::optional<uint64_t> crossover(const BenchReport& r, std::string_view a, std::string_view b,
                                  std::string_view dtype, std::string_view cache) {
    auto sa = r.series(a, dtype, cache), sb = r.series(b, dtype, cache);
    std::map<uint64_t, double> mb(sb.begin(), sb.end());
    std::vector<std::pair<uint64_t, bool>> wins;  // (n, a faster than b) where both were measured
    for (auto [n, t] : sa)
        if (auto it = mb.find(n); it != mb.end()) wins.emplace_back(n, t < it->second);
    if (wins.empty() || !wins.back().second) return std::nullopt;
    size_t i = wins.size();
    while (i > 0 && wins[i - 1].second) --i;
    return wins[i].first;
}

std::vector<std::string> crossover_analysis(const BenchReport& r, std::string_view cache) {
    std::vector<std::string> lines;
    auto t = [&](std::string_view v, uint64_t n) {
        const BenchResult* b = r.find(v, "f32", n, cache);
        return b ? b->median_us : NAN;
    };
    auto sizes_of = [&](std::string_view v) {
        std::vector<uint64_t> ns;
        for (auto [n, _] : r.series(v, "f32", cache)) ns.push_back(n);
        return ns;
    };

    // Per-element against per-block atomics.
    if (auto ns = sizes_of("atomic-element"); !ns.empty() && !sizes_of("atomic-block").empty()) {
        auto c = crossover(r, "atomic-block", "atomic-element", "f32", cache);
        const uint64_t big = ns.back();
        const double per_elem_ns = 1000.0 * t("atomic-element", big) / double(big);
        std::string line = "One atomic per block beats one atomic per element ";
        if (!c) {
            line += "at no measured size for good";
        } else if (*c == ns.front()) {
            line += "at every measured size (from " + size_label(*c) + ")";
        } else {
            line += "from n = " + size_label(*c);
        }
        line += ": at " + size_label(big) + " per-element atomics take " + format_number("%.1f", t("atomic-element", big)) +
                " us, " + format_number("%.2f", per_elem_ns) +
                " ns per element, because every atomic on the one address waits for the previous one; per-block "
                "takes " + format_number("%.1f", t("atomic-block", big)) + " us.";
        lines.push_back(line);
    }

    // Two-pass against one atomic per block.
    if (auto ns = sizes_of("two-pass"); !ns.empty() && !sizes_of("atomic-block").empty()) {
        auto c = crossover(r, "two-pass", "atomic-block", "f32", cache);
        const uint64_t small = ns.front(), big = ns.back();
        const double launch = t("two-pass", small) - t("atomic-block", small);
        std::string line = "Two-pass beats one atomic per block ";
        std::string wins_at;
        for (uint64_t n : ns)
            if (t("two-pass", n) < t("atomic-block", n)) wins_at += (wins_at.empty() ? "" : ", ") + size_label(n);
        if (!c && wins_at.empty()) {
            line += "at no measured size: its second launch costs " + format_number("%.1f", launch) + " us at " +
                    size_label(small) + ", and at " + size_label(big) + " both read at the same bandwidth (" +
                    format_number("%.1f", t("two-pass", big)) + " against " + format_number("%.1f", t("atomic-block", big)) +
                    " us), so the block atomics never cost more than a launch.";
        } else if (!c) {
            line += "at " + wins_at + " but not at the largest size (" + size_label(big) + ": " +
                    format_number("%.1f", t("two-pass", big)) + " against " + format_number("%.1f", t("atomic-block", big)) +
                    " us), so there is no crossover for good; its second launch costs " + format_number("%.1f", launch) +
                    " us at " + size_label(small) + ".";
        } else {
            line += "from n = " + size_label(*c) + ": there the " + format_number("%.1f", t("atomic-block", *c)) +
                    " us of per-block atomics exceed two-pass's " + format_number("%.1f", t("two-pass", *c)) +
                    " us, its second launch included (it costs " + format_number("%.1f", launch) + " us at " +
                    size_label(small) + ").";
        }
        lines.push_back(line);
    }

    // The fast path against CUB, and what determinism costs.
    if (auto ns = sizes_of("fast"); !ns.empty() && !sizes_of("cub").empty()) {
        double worst = INFINITY, best = 0;
        uint64_t worst_n = 0;
        int counted = 0, wins = 0;
        for (uint64_t n : ns) {
            const double ratio = t("cub", n) / t("fast", n);
            if (std::isnan(ratio)) continue;
            ++counted;
            wins += ratio >= 1.0;
            if (ratio < worst) worst = ratio, worst_n = n;
            best = std::max(best, ratio);
        }
        if (counted)
            lines.push_back("The fast path against CUB (CUB time / fast time, above 1 is faster): from " +
                            format_number("%.2f", worst) + " at " + size_label(worst_n) + " to " + format_number("%.2f", best) +
                            "; at least as fast at " + std::to_string(wins) + " of " + std::to_string(counted) +
                            " sizes.");
        // What determinism costs, at the smallest and largest size; a difference inside both
        // variants' min..max spread is reported as such, not as a cost.
        for (uint64_t n : {ns.front(), ns.back()}) {
            const BenchResult* f = r.find("fast", "f32", n, cache);
            const BenchResult* d = r.find("fast-deterministic", "f32", n, cache);
            if (!f || !d) continue;
            const double diff = d->median_us - f->median_us;
            const bool within = d->median_us >= f->min_us && d->median_us <= f->max_us &&
                                f->median_us >= d->min_us && f->median_us <= d->max_us;
            std::string line = "Determinism (fixed tree, no float atomics) at " + size_label(n) + ": " +
                               format_number("%.2f", d->median_us) + " against " + format_number("%.2f", f->median_us) + " us, ";
            if (within) line += "a difference (" + format_number("%+.2f", diff) + " us) inside both runs' spread: no measurable cost.";
            else line += diff > 0 ? "it costs " + format_number("%.2f", diff) + " us." : "it is " + format_number("%.2f", -diff) + " us faster.";
            lines.push_back(line);
        }
    }

    // The worked example: bf16 in, f32 sum.
    for (const BenchResult& b : r.results) {
        if (b.dtype != "bf16" || b.variant != "fast" || b.cache != cache || b.op != "sum") continue;
        const BenchResult* c = r.find("cub", "bf16", b.n, cache);
        std::string line = "BF16 worked example, " + std::to_string(b.n) + " values summed in FP32: fast " +
                           format_number("%.2f", b.median_us) + " us (" + format_number("%.0f", b.gbps) + " GB/s";
        if (r.datasheet_gbps > 0) line += ", " + format_number("%.1f", 100.0 * b.gbps / r.datasheet_gbps) + "% of datasheet";
        line += ")";
        if (c) line += ", CUB TransformReduce " + format_number("%.2f", c->median_us) + " us: " +
                       format_number("%.2f", c->median_us / b.median_us) + "x";
        lines.push_back(line + ".");
    }
    return lines;
}

}  // namespace rl
