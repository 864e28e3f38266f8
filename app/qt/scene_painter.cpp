// app/qt/scene_painter.cpp — QPainter drawing of a Scene: same boxes, patterns, arrows and labels as the renderer.
#include "app/qt/scene_painter.h"

#include <QPainterPath>
#include <cmath>

namespace rl::qt {
namespace {

QColor qc(const render::Color& c) { return QColor::fromRgbF(c.r, c.g, c.b, c.a); }

void box(QPainter& p, const render::SceneBox& b) {
    const QRectF r(b.x, b.y, b.w, b.h);
    QPen pen(qc(b.edge), std::max(0.5f, b.edge_w));
    if (b.pattern == render::Pattern::Dashed) pen.setStyle(Qt::DashLine);
    if (b.edge.a <= 0.0f || b.edge_w <= 0.0f) pen = Qt::NoPen;
    p.setPen(pen);
    QBrush brush(qc(b.fill));
    if (b.pattern == render::Pattern::Dashed) brush = Qt::NoBrush;
    p.setBrush(brush);
    p.drawRoundedRect(r, b.radius, b.radius);
    if (b.pattern == render::Pattern::Hatched || b.pattern == render::Pattern::Bars ||
        b.pattern == render::Pattern::Dotted) {
        p.save();
        p.setClipRect(r);
        QColor line = qc(b.fill).lighter(150);
        line.setAlphaF(0.7);
        p.setPen(QPen(line, 2));
        if (b.pattern == render::Pattern::Hatched)
            for (float x = b.x - b.h; x < b.x + b.w; x += 8) p.drawLine(QPointF(x, b.y + b.h), QPointF(x + b.h, b.y));
        else if (b.pattern == render::Pattern::Bars)
            for (float x = b.x + 3; x < b.x + b.w; x += 6) p.drawLine(QPointF(x, b.y), QPointF(x, b.y + b.h));
        else
            for (float x = b.x + 4; x < b.x + b.w; x += 8) p.drawPoint(QPointF(x, b.y + b.h / 2));
        p.restore();
    }
}

void arrow(QPainter& p, const render::SceneArrow& a) {
    const QColor c = qc(a.color);
    const QPointF from(a.x0, a.y0), to(a.x1, a.y1);
    const double dx = a.x1 - a.x0, dy = a.y1 - a.y0, len = std::hypot(dx, dy);
    if (len < 0.5) return;
    const double ux = dx / len, uy = dy / len;
    const QPointF base(a.x1 - ux * a.head, a.y1 - uy * a.head);
    p.setPen(QPen(c, a.width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(from, base);
    QPainterPath head;
    head.moveTo(to);
    head.lineTo(base.x() - uy * a.head * 0.55, base.y() + ux * a.head * 0.55);
    head.lineTo(base.x() + uy * a.head * 0.55, base.y() - ux * a.head * 0.55);
    head.closeSubpath();
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawPath(head);
}

void text(QPainter& p, const render::SceneText& t) {
    QFont f("DejaVu Sans");
    f.setPixelSize(std::max(4, int(std::lround(t.size))));
    p.setFont(f);
    p.setPen(qc(t.color));
    const QFontMetricsF m(f);
    const double w = m.horizontalAdvance(QString::fromStdString(t.text));
    double x = t.x;
    if (t.align == render::Align::Center) x -= w / 2;
    if (t.align == render::Align::Right) x -= w;
    p.drawText(QPointF(x, t.y + (m.ascent() - m.descent()) / 2), QString::fromStdString(t.text));
}

}  // namespace

void paint_scene(QPainter& p, const render::Scene& s) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setClipRect(QRectF(0, 0, s.width, s.height), Qt::IntersectClip);  // nothing outside the frame (PDF pages)
    p.fillRect(QRectF(0, 0, s.width, s.height), qc(s.background));
    p.save();
    p.setClipRect(QRectF(s.clip_x, s.clip_y, s.width - s.clip_x, s.height - s.clip_y));
    for (const auto& b : s.boxes)
        if (b.layer == 0) box(p, b);
    for (const auto& a : s.arrows) arrow(p, a);
    for (const auto& b : s.boxes)
        if (b.layer != 0) box(p, b);
    for (const auto& t : s.texts) text(p, t);
    p.restore();
    for (const auto& b : s.overlay_boxes) box(p, b);
    for (const auto& t : s.overlay_texts) text(p, t);
    p.restore();
}

}  // namespace rl::qt
