// app/render/drawn_panels.cpp — recording helpers for the panels' drawing code, and the record as JSON.
#include "app/render/drawn_panels.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>

namespace rl::render {
namespace {

const char* shape_name(MarkerShape s) {
    static const char* k[] = {"circle", "square", "triangle", "diamond"};
    return k[size_t(s)];
}

std::string rgb_text(uint32_t rgb) {
    char buf[8];
    snprintf(buf, sizeof buf, "#%06x", unsigned(rgb & 0xffffff));
    return buf;
}

using Json = nlohmann::ordered_json;  // keys in the order written: what a reader looks for first comes first

// Window pixels to a tenth, as the scene's boxes are written.
Json rect_json(const PixelRect& r) {
    auto tenth = [](float v) { return std::round(double(v) * 10.0) / 10.0; };
    return {tenth(r.x0), tenth(r.y0), tenth(r.x1), tenth(r.y1)};
}

std::string text(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

// An object with one member a line, and one element a line in its arrays of objects (series, rows), like the
// scene's boxes. Text that is not UTF-8 is replaced, not thrown on: the dump is for reading what was drawn.
void write_block(std::ostream& out, const Json& obj) {
    out << "{";
    const char* sep = "";
    for (const auto& [key, value] : obj.items()) {
        out << sep << "\n" << text(key) << ":";
        if (value.is_array() && !value.empty() && value.front().is_object()) {
            out << "[";
            for (size_t i = 0; i < value.size(); ++i) out << (i ? ",\n" : "\n") << text(value[i]);
            out << "]";
        } else {
            out << text(value);
        }
        sep = ",";
    }
    out << "}";
}

// A value read back from plot space, to 12 significant digits: 3.5, not 3.5000000000000004 (log10 and back). Far
// finer than any pixel, so a point drawn in the wrong place still reads wrong.
double legible(double v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.12g", v);
    return std::strtod(buf, nullptr);
}

}  // namespace

void DrawnSeries::drawn_at(double x, double y) {
    points.emplace_back(legible(std::exp2(x)), legible(std::pow(10.0, y)));
}

void DrawnTimings::axes(const TimingsPlot& p) {
    size_from = legible(std::exp2(p.x0)), size_to = legible(std::exp2(p.x1));
    us_from = legible(std::pow(10.0, p.y0)), us_to = legible(std::pow(10.0, p.y1));
}

DrawnSeries& DrawnTimings::add_series(const PlotSeries& s) {
    series.push_back({s.variant, s.rgb, s.shape, {}});
    return series.back();
}

void dump_panels_json(std::ostream& out, const DrawnPanels& p) {
    out << "{";
    if (p.timings) {
        const DrawnTimings& t = *p.timings;
        Json series = Json::array();
        for (const DrawnSeries& s : t.series)
            series.push_back({{"variant", s.variant}, {"rgb", rgb_text(s.rgb)}, {"shape", shape_name(s.shape)},
                              {"points", s.points}});
        out << "\n\"timings\":";
        write_block(out, {{"cache", t.cache},
                          {"plot", rect_json(t.plot)},
                          {"size_range", {t.size_from, t.size_to}},
                          {"us_range", {t.us_from, t.us_to}},
                          {"crossovers", t.crossovers},
                          {"series", std::move(series)}});
    }
    if (p.numerics) {
        const DrawnNumerics& n = *p.numerics;
        Json rows = Json::array();
        for (const DrawnRow& r : n.rows)
            rows.push_back({{"cells", r.cells}, {"chosen", r.chosen}, {"outside_bound", r.outside_bound},
                            {"visible", r.visible}});
        out << (p.timings ? "," : "") << "\n\"numerics\":";
        write_block(out, {{"window", rect_json(n.window)},
                          {"summary", n.summary},
                          {"header", n.header},
                          {"rows", std::move(rows)}});
    }
    if (p.kernel_timing) {
        const DrawnKernelTiming& k = *p.kernel_timing;
        Json rows = Json::array();
        for (const DrawnRow& r : k.rows) rows.push_back({{"cells", r.cells}, {"wrong", r.outside_bound}});
        out << (p.timings || p.numerics ? "," : "") << "\n\"kernel_timing\":";
        write_block(out, {{"heading", k.heading}, {"header", k.header}, {"rows", std::move(rows)}});
    }
    out << "}";
}

}  // namespace rl::render
