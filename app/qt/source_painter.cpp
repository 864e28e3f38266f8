// app/qt/source_painter.cpp — one routine draws code rows for the source panel and the handout.
#include "app/qt/source_painter.h"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <algorithm>
#include <string>
#include "app/lab/cuda_syntax.h"

namespace rl::qt {

QColor rgb_color(uint32_t rgb) { return QColor(int((rgb >> 16) & 255), int((rgb >> 8) & 255), int(rgb & 255)); }

QFont code_font(double px) {
    QFont f("DejaVu Sans Mono");
    if (!QFontInfo(f).fixedPitch()) f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setStyleHint(QFont::Monospace);
    f.setPixelSize(std::max(1, int(std::lround(px))));
    return f;
}

SourceMetrics source_metrics(const QFont& font, const std::vector<lab::SourceRow>& rows, QPaintDevice* device) {
    const QFontMetricsF fm(font, device);
    SourceMetrics m;
    m.line_h = std::ceil(fm.height() * 1.15);
    m.char_w = fm.horizontalAdvance(QLatin1Char('0'));
    int largest = 1;
    for (const lab::SourceRow& r : rows) largest = std::max(largest, r.line);
    m.digits = int(std::to_string(largest).size());
    return m;
}

void paint_source_rows(QPainter& p, const std::vector<lab::SourceRow>& rows, int first, int count, QPointF top_left,
                       double width, const QFont& font, const SourceMetrics& m, bool dark) {
    const lab::SourceColors& sc = lab::source_colors(dark);
    const QFontMetricsF fm(font, p.device());
    p.save();
    p.setFont(font);
    // Block comments carry across lines: start the lexer's state at row 0.
    bool comment = false;
    for (int i = 0; i < first && i < int(rows.size()); ++i) lab::cuda_tokens(rows[size_t(i)].text, &comment);
    const double ascent = fm.ascent(), pad = (m.line_h - fm.height()) * 0.5;
    for (int i = first; i < std::min(int(rows.size()), first + count); ++i) {
        const lab::SourceRow& r = rows[size_t(i)];
        const double y = top_left.y() + double(i - first) * m.line_h;
        uint32_t bg = sc.background;
        if (r.error) bg = sc.error_line;
        else if (r.picked) bg = sc.picked_line;
        else if (r.step) bg = sc.step_line;
        else if (r.op == '-') bg = sc.removed_line;
        else if (r.bug) bg = sc.bug_line;
        if (bg != sc.background) p.fillRect(QRectF(top_left.x(), y, width, m.line_h), rgb_color(bg));
        const double base = y + pad + ascent;
        if (r.line > 0) {
            const QString num = QString::number(r.line);
            p.setPen(rgb_color(sc.line_number));
            p.drawText(QPointF(top_left.x() + m.char_w * (m.digits - num.size()), base), num);
        }
        const double mark_x = top_left.x() + m.char_w * (m.digits + 1);
        if (r.op != ' ') {
            p.setPen(rgb_color(r.op == '+' ? sc.bug_mark : sc.text));
            p.drawText(QPointF(mark_x, base), QString(QChar(r.op)));
        } else if (r.bug) {  // the bug's line outside the diff: a bar in the gutter
            p.fillRect(QRectF(mark_x + m.char_w * 0.15, y + 2, m.char_w * 0.7, m.line_h - 4), rgb_color(sc.bug_mark));
        }
        double x = top_left.x() + m.gutter();
        for (const lab::Token& t : lab::cuda_tokens(r.text, &comment)) {
            const QString w = QString::fromUtf8(t.text(r.text).data(), qsizetype(t.size));
            p.setPen(rgb_color(lab::token_color(t.kind, dark)));
            p.drawText(QPointF(x, base), w);
            x += fm.horizontalAdvance(w);
        }
    }
    p.restore();
}

}  // namespace rl::qt
