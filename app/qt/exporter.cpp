// app/qt/exporter.cpp — QSvgGenerator / QPdfWriter drawing through scene_painter; core/trace_io for trace files.
#include "app/qt/exporter.h"

#include <QBuffer>
#include <QImage>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <algorithm>
#include <fstream>
#include "app/lab/frame.h"
#include "app/qt/scene_painter.h"
#include "app/qt/source_painter.h"
#include "app/render/offscreen.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/trace_io.h"

namespace rl::qt {

render::Scene page_scene(Classroom& c, float width, float height, bool dark, float font_scale) {
    render::View v = lab::fitted_view(c.lab, width, height, font_scale);
    v.dark = dark;
    return lab::build_frame(c.lab, v);
}

namespace {

// Every file the classroom writes goes through core's checked, atomic write: an error line or empty.
std::string write_checked(const std::string& path, const std::function<void(std::ostream&)>& write) {
    try {
        write_file_atomically(path, write);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

std::string write_checked(const std::string& path, const QByteArray& bytes) {
    return write_checked(path, [&](std::ostream& out) { out.write(bytes.constData(), bytes.size()); });
}

}  // namespace

std::string export_svg(const std::string& path, const render::Scene& s) {
    QByteArray bytes;  // drawn in memory, then written checked (temporary name + rename)
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(QSize(int(s.width), int(s.height)));
    gen.setViewBox(QRect(0, 0, int(s.width), int(s.height)));
    gen.setTitle("Reduction Lab frame");
    QPainter p;
    if (!p.begin(&gen)) return path + ": cannot write SVG";
    paint_scene(p, s);
    p.end();
    buffer.close();
    return write_checked(path, bytes);
}

std::string export_png_offscreen(const std::string& path, const render::Scene& s) {
    render::Offscreen off;
    std::string err;
    if (!off.create(int(s.width), int(s.height), &err)) return "PNG: " + err;
    const std::vector<uint8_t> px = off.render(s);
    if (!render::write_png(path, int(s.width), int(s.height), px, &err)) return err;
    return "";
}


std::string save_png_checked(const QImage& img, const std::string& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (img.isNull() || !img.save(&buffer, "PNG")) return one_line(path) + ": cannot encode the PNG";
    return write_checked(path, bytes);
}

std::string export_trace_json(const std::string& path, const Trace& t) {
    return write_checked(path, [&](std::ostream& out) { write_trace_json(out, t); });
}

std::string export_chrome_trace(const std::string& path, const Trace& t) {
    return write_checked(path, [&](std::ostream& out) { write_chrome_trace(out, t); });
}

// The code beside a handout page: the schedule's source with this step's lines lit, as large as the column allows;
// when the whole source would print under `min_px`, the rows around this step's lines.
void paint_handout_code(QPainter& p, const lab::LabState& lab, const QRectF& area, double max_px, double min_px) {
    const std::vector<lab::SourceRow> rows = lab::source_rows(lab);
    if (rows.empty()) return;
    QFont label("DejaVu Sans");
    label.setPixelSize(int(min_px * 1.1));
    p.setFont(label);
    p.setPen(QColor(90, 90, 90));
    const double label_h = min_px * 1.8;
    p.drawText(QRectF(area.x(), area.y(), area.width(), label_h), Qt::AlignLeft | Qt::AlignVCenter,
               lab::has_bug_diff(lab) ? "CUDA source (lit: this step; red bar: the bug's lines)" : "CUDA source (lit: this step)");
    // Fit the width of nine lines in ten (the longest are comments: they may run into the margin and be cut).
    std::vector<size_t> lengths;
    for (const lab::SourceRow& r : rows) lengths.push_back(r.text.size());
    std::sort(lengths.begin(), lengths.end());
    const size_t typical = lengths[std::min(lengths.size() - 1, lengths.size() * 9 / 10)];
    const QRectF code(area.x(), area.y() + label_h, area.width(), area.height() - label_h);
    // Monospaced: advance ~0.602 em, line ~1.17 em (DejaVu Sans Mono) times the painter's 1.15 spacing.
    const double cols = double(typical) + 5.0 + double(std::to_string(rows.size()).size());
    double px = std::min({max_px, code.width() / (cols * 0.602), code.height() / (double(rows.size()) * 1.17 * 1.15)});
    px = std::max(px, min_px);
    const QFont font = code_font(px);
    const SourceMetrics m = source_metrics(font, rows, p.device());
    const int fit = std::max(1, int(code.height() / m.line_h));
    const int focus = lab::focus_row(rows);
    const int first = std::clamp(focus < 0 ? 0 : focus - fit / 3, 0, std::max(0, int(rows.size()) - fit));
    p.save();
    p.setClipRect(code);
    p.fillRect(code, rgb_color(lab::source_colors(false).background));
    paint_source_rows(p, rows, first, fit, code.topLeft(), code.width(), font, m, false);
    p.restore();
}

std::string export_pdf(const std::string& path, Classroom& c) {
    if (c.pages.empty()) return "nothing to export: no steps";
    QByteArray bytes;  // drawn in memory, then written checked: a full disk leaves no truncated PDF
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageOrientation(QPageLayout::Landscape);
    pdf.setPageMargins(QMarginsF(12, 10, 12, 10), QPageLayout::Millimeter);
    pdf.setResolution(150);
    pdf.setTitle(QString::fromStdString("Reduction Lab handout — " + c.title()));
    pdf.setCreator("reduction-lab-qt");
    QPainter p;
    if (!p.begin(&pdf)) return path + ": cannot write PDF";
    const int saved = c.page;
    const QRect area = p.viewport();
    const double W = area.width(), H = area.height();
    for (int k = 0; k <= c.last_page(); ++k) {
        if (k) pdf.newPage();
        c.go(k);
        // Header line: what this handout is about.
        QFont head("DejaVu Sans");
        head.setPixelSize(int(H * 0.028));
        p.setFont(head);
        p.setPen(QColor(90, 90, 90));
        const QString title = QFontMetrics(head, &pdf).elidedText(QString::fromStdString(c.title()), Qt::ElideRight, int(W * 0.8));
        p.drawText(QRectF(0, 0, W, H * 0.04), Qt::AlignLeft | Qt::AlignVCenter, title);
        p.drawText(QRectF(0, 0, W, H * 0.04), Qt::AlignRight | Qt::AlignVCenter,
                   QString("page %1 of %2").arg(k + 1).arg(c.last_page() + 1));
        // The picture, drawn as vectors, scaled into the left 54% of the top half; the code beside it.
        const float sw = 1600, sh = 900;
        const render::Scene s = page_scene(c, sw, sh, false, 1.25f);
        const double left_w = W * 0.54, pic_h = H * 0.52, scale = std::min(left_w / sw, pic_h / sh);
        p.save();
        p.translate((left_w - sw * scale) / 2, H * 0.05);
        p.scale(scale, scale);
        paint_scene(p, s);
        p.restore();
        paint_handout_code(p, c.lab, QRectF(W * 0.56, H * 0.05, W * 0.44, H * 0.95), H * 0.02, H * 0.0105);
        // The narrative below the picture.
        QTextDocument doc;
        QFont body("DejaVu Sans");
        body.setPixelSize(int(H * 0.02));
        doc.setDefaultFont(body);
        doc.setMarkdown(QString::fromStdString(c.current().markdown));
        doc.setTextWidth(left_w);
        p.save();
        p.translate(0, H * 0.05 + pic_h + H * 0.015);
        doc.drawContents(&p, QRectF(0, 0, left_w, H - (H * 0.065 + pic_h)));
        p.restore();
    }
    p.end();
    c.go(saved);
    buffer.close();
    return write_checked(path, bytes);
}

}  // namespace rl::qt
