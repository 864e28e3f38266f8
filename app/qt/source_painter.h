// app/qt/source_painter.h — paints source rows (app/lab/source_view) with QPainter: the classroom's source panel and
// the PDF handout draw code the same way, in the colours of app/lab/cuda_syntax.
#pragma once
#include <QFont>
#include <QPainter>
#include <vector>
#include "app/lab/cuda_syntax.h"
#include "app/lab/source_view.h"

namespace rl::qt {

// The monospaced font of code at a pixel size (DejaVu Sans Mono, else the system's fixed font).
QFont code_font(double px);

struct SourceMetrics {
    double line_h = 0;   // pixels per row
    double char_w = 0;   // advance of one character (monospaced)
    int digits = 1;      // of the largest line number
    double gutter() const { return char_w * (digits + 3); }  // number, a space, the mark, a space
};
SourceMetrics source_metrics(const QFont& font, const std::vector<lab::SourceRow>& rows, QPaintDevice* device = nullptr);

// Paints rows [first, first + count) with row `first` at `top_left`, each `width` wide: the line's background
// (picked, current step, bug, removed), its number, the bug mark or diff sign, and the coloured tokens.
void paint_source_rows(QPainter& p, const std::vector<lab::SourceRow>& rows, int first, int count, QPointF top_left,
                       double width, const QFont& font, const SourceMetrics& m, bool dark);

QColor rgb_color(uint32_t rgb);

}  // namespace rl::qt
