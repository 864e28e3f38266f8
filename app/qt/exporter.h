// app/qt/exporter.h — exports: the frame as SVG or PNG, the trace as JSON or Chrome trace, the steps as a PDF handout.
#pragma once
#include <string>
#include "app/qt/classroom.h"

class QImage;

namespace rl::qt {

// The scene of the classroom's current page at a given size (light theme for paper when dark is false).
render::Scene page_scene(Classroom& c, float width, float height, bool dark, float font_scale = 1.0f);

// Each returns an empty string on success, else a one-line reason.
std::string export_svg(const std::string& path, const render::Scene& s);
std::string export_png_offscreen(const std::string& path, const render::Scene& s);  // headless GL (app/render)
std::string export_trace_json(const std::string& path, const Trace& t);
std::string export_chrome_trace(const std::string& path, const Trace& t);
// One landscape A4 page per classroom page: title, picture (vector) and narrative. Restores the current page.
std::string export_pdf(const std::string& path, Classroom& c);
// A PNG of img written checked (temporary name + rename): an error line or empty.
std::string save_png_checked(const QImage& img, const std::string& path);

}  // namespace rl::qt
