// app/qt/source_panel.cpp — the source dock: a legend with the diff switch over a scroll area of painted code rows,
// or, for a student's kernel in edit mode, a plain-text editor with Save and run and Revert.
#include "app/qt/source_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTextBlock>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include "app/lab/cuda_syntax.h"

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
    edit_ = new QPushButton("Edit (Ctrl+E)", this);
    edit_->setObjectName("sourceEdit");
    edit_->setCheckable(true);
    edit_->setToolTip("Ctrl+E: edit your kernel here; again: back to this step's lines lit");
    save_ = new QPushButton("Save and run (Ctrl+S)", this);
    save_->setObjectName("sourceSave");
    save_->setToolTip("Ctrl+S: write the text over the file and run it (the new trace replaces the shown one)");
    revert_ = new QPushButton("Revert", this);
    revert_->setObjectName("sourceRevert");
    revert_->setToolTip("drop the edits: the file as it is on disk");
    message_ = new QLabel(this);
    message_->setObjectName("sourceEditMessage");
    message_->setWordWrap(true);
    message_->setStyleSheet("color: #e8743b;");
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName("kernelEditor");
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setTabChangesFocus(false);
    auto* top = new QHBoxLayout;
    top->addWidget(edit_);
    top->addWidget(save_);
    top->addWidget(revert_);
    top->addWidget(diff_);
    top->addWidget(legend_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->addLayout(top);
    layout->addWidget(message_);
    layout->addWidget(view_, 1);
    layout->addWidget(editor_, 1);
    connect(edit_, &QPushButton::toggled, this, &SourcePanel::set_editing);
    connect(save_, &QPushButton::clicked, this, &SourcePanel::save_and_run);
    connect(revert_, &QPushButton::clicked, this, &SourcePanel::revert);
    connect(editor_, &QPlainTextEdit::textChanged, this, [this] {
        lab::KernelEditor& ed = c_.lab.kernel_editor;
        if (!ed.editing) return;
        ed.buffer = editor_->toPlainText().toStdString();
        if (ed.modified() != was_modified_) was_modified_ = ed.modified(), emit editChanged();
    });
    connect(view_, &SourceView::lineClicked, this, &SourcePanel::lineClicked);
    connect(diff_, &QCheckBox::toggled, this, [this](bool on) {
        if (on == c_.lab.source_diff) return;
        emit diffToggled(on);
    });
}

void SourcePanel::set_font_px(double px) {
    view_->set_font_px(px);
    editor_->setTabStopDistance(QFontMetricsF(code_font(px)).horizontalAdvance(' ') * 4);
    QFont f = font();
    f.setPixelSize(int(std::lround(std::max(13.0, px * 0.9))));  // 18 px beside presenter-size code
    for (QWidget* w : std::initializer_list<QWidget*>{legend_, diff_, edit_, save_, revert_, message_}) w->setFont(f);
    if (editing()) sync_editor();  // the editor's text as large as the lit view's, presenter size included
}

bool SourcePanel::editing() const { return c_.lab.kernel->active() && c_.lab.kernel_editor.editing; }

void SourcePanel::set_editing(bool on) {
    lab::KernelEditor& ed = c_.lab.kernel_editor;
    on = on && c_.lab.kernel->active();
    if (on && ed.file() != c_.lab.kernel->file()) ed.load(c_.lab.kernel->file());
    if (on == ed.editing) return refresh();
    ed.editing = on;
    refresh();
    if (on) editor_->setFocus();
    emit editChanged();
}

bool SourcePanel::save_and_run() {
    if (!editing()) return false;
    lab::KernelEditor& ed = c_.lab.kernel_editor;
    ed.buffer = editor_->toPlainText().toStdString();
    const bool ok = ed.save(*c_.lab.kernel);
    refresh();
    if (ok) emit saved();
    emit editChanged();
    return ok;
}

void SourcePanel::revert() {
    c_.lab.kernel_editor.revert();
    refresh();
    emit editChanged();
}

bool SourcePanel::settle_edits(const QString& doing) {
    lab::KernelEditor& ed = c_.lab.kernel_editor;
    if (!ed.modified()) return true;
    const auto answer = QMessageBox::question(
        this, "Unsaved kernel", QString("%1 has edits that are not saved. Save them before %2?").arg(QString::fromStdString(ed.file()), doing),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) {
        ed.revert();  // the file as it is on disk: opening another kernel or closing loses nothing now
        refresh();
        return true;
    }
    if (ed.save(*c_.lab.kernel)) return true;
    QMessageBox::warning(this, "Unsaved kernel", QString::fromStdString(ed.error));  // the edits stay in the editor
    refresh();
    return false;
}

void SourcePanel::show_line(int line) {
    if (!editing() || line <= 0) return;
    const QTextBlock b = editor_->document()->findBlockByLineNumber(line - 1);
    if (!b.isValid()) return;
    QTextCursor cur(b);
    editor_->setTextCursor(cur);
    editor_->centerCursor();
    editor_->setFocus();
}

QString SourcePanel::title() const {
    if (!c_.lab.kernel->active()) return "CUDA source";
    const lab::KernelEditor& ed = c_.lab.kernel_editor;
    return QString::fromStdString(ed.file() == c_.lab.kernel->file() ? ed.title() : c_.lab.kernel->file()) +
           (editing() ? "  (editing)" : "");
}

void SourcePanel::sync_editor() {
    const lab::KernelEditor& ed = c_.lab.kernel_editor;
    const QString text = QString::fromStdString(ed.buffer);
    if (editor_->toPlainText() != text) {  // loaded, reverted, or reloaded after a change on disk
        const int pos = editor_->textCursor().position();
        QSignalBlocker quiet(editor_);
        editor_->setPlainText(text);
        QTextCursor cur = editor_->textCursor();
        cur.setPosition(std::min(pos, int(text.size())));
        editor_->setTextCursor(cur);
    }
    was_modified_ = ed.modified();
    const lab::SourceColors& sc = lab::source_colors(c_.lab.dark);
    // Font and colours in the editor's own style sheet: the presenter's style sheet on the dock re-polishes its
    // children, which drops a font given by setFont.
    const QFont f = code_font(view_->font_px());
    const QString css = QString("QPlainTextEdit { font-family: '%1'; font-size: %2px; background: %3; color: %4; }")
                            .arg(f.family())
                            .arg(f.pixelSize())
                            .arg(rgb_color(sc.background).name(), rgb_color(sc.text).name());
    if (editor_->styleSheet() != css) editor_->setStyleSheet(css);  // a new style sheet re-polishes: only on change
    // The compile error's line lit in the editor too, as in the read-only view.
    QList<QTextEdit::ExtraSelection> marks;
    const lab::KernelSession& k = *c_.lab.kernel;
    if (!k.error.empty() && k.error_line > 0) {
        QTextEdit::ExtraSelection m;
        m.cursor = QTextCursor(editor_->document()->findBlockByLineNumber(k.error_line - 1));
        m.format.setBackground(rgb_color(sc.error_line));
        m.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks << m;
    }
    editor_->setExtraSelections(marks);
}

void SourcePanel::refresh() {
    const bool bug = lab::has_bug_diff(c_.lab);
    diff_->setVisible(bug);
    diff_->blockSignals(true);
    diff_->setChecked(c_.lab.source_diff);
    diff_->blockSignals(false);
    const bool kernel = c_.lab.kernel->active(), edit = editing();
    legend_->setText(edit ? QString("Editing: Ctrl+S saves and runs · Ctrl+E: back to this step's lines lit")
                          : QString("Lit: this step's lines · click a line: its events in the canvas%1")
                                .arg(bug && !c_.lab.source_diff ? " · red bar: the bug's lines" : ""));
    edit_->setVisible(kernel);
    edit_->blockSignals(true);
    edit_->setChecked(edit);
    edit_->blockSignals(false);
    save_->setVisible(edit);
    revert_->setVisible(edit);
    const std::string& msg = c_.lab.kernel_editor.message();
    message_->setText(QString::fromStdString(msg));
    message_->setVisible(kernel && !msg.empty());
    view_->setVisible(!edit);
    editor_->setVisible(edit);
    if (edit) sync_editor();
    else view_->refresh();
}

}  // namespace rl::qt
