// app/qt/exporter.cpp — QSvgGenerator / QPdfWriter drawing through scene_painter; core/trace_io for trace files.
#include "app/qt/exporter.h"

#include <QBuffer>
#include <QImage>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <fstream>
#include "app/lab/frame.h"
#include "app/qt/scene_painter.h"
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
        // The picture, drawn as vectors, scaled into the top 58%.
        const float sw = 1600, sh = 900;
        const render::Scene s = page_scene(c, sw, sh, false, 1.25f);
        const double pic_h = H * 0.56, scale = std::min(W / sw, pic_h / sh);
        p.save();
        p.translate((W - sw * scale) / 2, H * 0.05);
        p.scale(scale, scale);
        paint_scene(p, s);
        p.restore();
        // The narrative below it.
        QTextDocument doc;
        QFont body("DejaVu Sans");
        body.setPixelSize(int(H * 0.022));
        doc.setDefaultFont(body);
        doc.setMarkdown(QString::fromStdString(c.current().markdown));
        doc.setTextWidth(W);
        p.save();
        p.translate(0, H * 0.05 + pic_h + H * 0.015);
        doc.drawContents(&p, QRectF(0, 0, W, H - (H * 0.065 + pic_h)));
        p.restore();
    }
    p.end();
    c.go(saved);
    buffer.close();
    return write_checked(path, bytes);
}

}  // namespace rl::qt
