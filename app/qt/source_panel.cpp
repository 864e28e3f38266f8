// app/qt/source_panel.cpp — the source dock: a legend with the diff switch over a scroll area of painted code rows.
#include "app/qt/source_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace rl::qt {

// ---- the code --------------------------------------------------------------------------------------
SourceView::SourceView(Classroom& c, QWidget* parent) : QAbstractScrollArea(parent), c_(c) {
    setObjectName("sourceView");
    viewport()->setCursor(Qt::PointingHandCursor);
    set_font_px(15);
}

void SourceView::set_font_px(double px) {
    font_ = code_font(px);
    m_ = source_metrics(font_, rows_);
    update_scroll_range();
    focus_key_ = -1;  // the focus stays in view at the new size
    refresh();
}

void SourceView::refresh() {
    rows_ = lab::source_rows(c_.lab);
    m_ = source_metrics(font_, rows_);
    update_scroll_range();
    // Scroll only when what is in focus changed (another step, a click, the diff), so a paused class can read on.
    const int focus = lab::focus_row(rows_);
    const qint64 key = (qint64(c_.lab.cursor.step) << 32) ^ (qint64(c_.lab.source_line) << 1) ^ qint64(c_.lab.source_diff) ^
                       (qint64(c_.lab.trace.events.size()) << 44) ^ qint64(rows_.size() << 20);
    if (key != focus_key_) {
        focus_key_ = key;
        ensure_visible(focus);
    }
    viewport()->update();
}

void SourceView::update_scroll_range() {
    size_t longest = 0;
    for (const lab::SourceRow& r : rows_) longest = std::max(longest, r.text.size());
    const int content_w = int(std::ceil(m_.gutter() + m_.char_w * double(longest + 1)));
    horizontalScrollBar()->setRange(0, std::max(0, content_w - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    verticalScrollBar()->setRange(0, std::max(0, int(rows_.size()) - visible_rows()));
    verticalScrollBar()->setPageStep(std::max(1, visible_rows()));
}

int SourceView::visible_rows() const { return std::max(1, int(double(viewport()->height()) / m_.line_h)); }
int SourceView::first_visible_row() const { return verticalScrollBar()->value(); }

void SourceView::ensure_visible(int row) {
    if (row < 0) return;
    // Near an edge counts as out of view: the lines above the lit ones give them their context.
    const int first = first_visible_row(), n = visible_rows(), margin = std::min(2, n / 4);
    if (row < first + margin || row >= first + n - margin) verticalScrollBar()->setValue(std::max(0, row - n / 3));
}

int SourceView::row_of_line(int line) const {
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].line == line) return int(i);
    return -1;
}

QPoint SourceView::point_of_row(int row) {
    ensure_visible(row);
    return QPoint(int(m_.gutter() + m_.char_w * 4), int((double(row - first_visible_row()) + 0.5) * m_.line_h));
}

void SourceView::resizeEvent(QResizeEvent* e) {
    QAbstractScrollArea::resizeEvent(e);
    focus_key_ = -1;  // the window got its size (or another one): bring the focus into view at this size
    refresh();
}

void SourceView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const bool dark = c_.lab.dark;
    p.fillRect(viewport()->rect(), rgb_color(lab::source_colors(dark).background));
    const int first = first_visible_row();
    paint_source_rows(p, rows_, first, visible_rows() + 1, QPointF(-horizontalScrollBar()->value(), 0),
                      std::max<double>(viewport()->width() + horizontalScrollBar()->value(), 1), font_, m_, dark);
}

void SourceView::mousePressEvent(QMouseEvent* e) {
    const int row = first_visible_row() + int(e->position().y() / m_.line_h);
    if (row < 0 || row >= int(rows_.size()) || rows_[size_t(row)].line <= 0) return;
    emit lineClicked(rows_[size_t(row)].line);
}

// ---- the dock's widget -----------------------------------------------------------------------------
SourcePanel::SourcePanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    legend_ = new QLabel(this);
    legend_->setObjectName("sourceLegend");
    legend_->setWordWrap(true);
    diff_ = new QCheckBox("Diff against the clean kernel (D)", this);
    diff_->setObjectName("sourceDiff");
    diff_->setToolTip("D: the bug's lines (red, +) beside the clean lines they replace (green, -)");
    view_ = new SourceView(c, this);
    auto* top = new QHBoxLayout;
    top->addWidget(diff_);
    top->addWidget(legend_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->addLayout(top);
    layout->addWidget(view_, 1);
    connect(view_, &SourceView::lineClicked, this, &SourcePanel::lineClicked);
    connect(diff_, &QCheckBox::toggled, this, [this](bool on) {
        if (on == c_.lab.source_diff) return;
        emit diffToggled(on);
    });
}

void SourcePanel::set_font_px(double px) {
    view_->set_font_px(px);
    QFont f = font();
    f.setPixelSize(int(std::lround(std::max(13.0, px * 0.9))));  // 18 px beside presenter-size code
    legend_->setFont(f);
    diff_->setFont(f);
}

void SourcePanel::refresh() {
    const bool bug = lab::has_bug_diff(c_.lab);
    diff_->setVisible(bug);
    diff_->blockSignals(true);
    diff_->setChecked(c_.lab.source_diff);
    diff_->blockSignals(false);
    legend_->setText(QString("Lit: this step's lines · click a line: its events in the canvas%1")
                         .arg(bug && !c_.lab.source_diff ? " · red bar: the bug's lines" : ""));
    view_->refresh();
}

}  // namespace rl::qt
