// app/qt/source_panel.h — the classroom's source dock: the schedule's CUDA kernel, the current step's lines lit and
// scrolled into view as the lesson plays, the bug's lines marked (D: the diff), a click on a line marks its events;
// a student's kernel can be edited in place (Edit, Ctrl+E; Save and run, Ctrl+S; Revert: app/lab/kernel_editor).
#pragma once
#include <QAbstractScrollArea>
#include <QWidget>
#include <vector>
#include "app/lab/source_view.h"
#include "app/qt/classroom.h"
#include "app/qt/source_painter.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rl::qt {

// The code itself: rows painted by source_painter, one click target per row.
class SourceView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit SourceView(Classroom& c, QWidget* parent = nullptr);
    void refresh();                       // rows from the classroom's state; scrolls the focus into view when it moved
    void set_font_px(double px);
    double font_px() const { return font_.pixelSize(); }
    const std::vector<lab::SourceRow>& rows() const { return rows_; }
    int row_of_line(int line) const;      // -1 when the line is not shown
    QPoint point_of_row(int row);         // the row's centre in viewport coordinates (scrolled into view first)
    int first_visible_row() const;
    int visible_rows() const;
signals:
    void lineClicked(int line);
protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
private:
    void update_scroll_range();
    void ensure_visible(int row);
    Classroom& c_;
    std::vector<lab::SourceRow> rows_;
    QFont font_;
    SourceMetrics m_;
    qint64 focus_key_ = -1;
};

class SourcePanel : public QWidget {
    Q_OBJECT
public:
    explicit SourcePanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();
    void set_font_px(double px);          // the code's size (presenter mode: source_font_px)
    SourceView* view() const { return view_; }
    QCheckBox* diff_box() const { return diff_; }
    // A student's kernel in the editor (on) or the lit read-only view of its trace (off); nothing without a kernel.
    void set_editing(bool on);
    bool editing() const;
    bool save_and_run();                  // the editor's text over the file, then its run (false: the line says why)
    void revert();                        // the file as it is on disk
    void show_line(int line);             // the editor's cursor to a line (an error chosen in the kernel dock)
    QPlainTextEdit* editor() const { return editor_; }
    QLabel* edit_message() const { return message_; }
    QString title() const;                // the dock's title: the file, " *" while the editor holds unsaved edits
    // Before the edits would be lost (another kernel opened, the window closed): asks Save, Discard or Cancel when
    // the editor holds unsaved edits. True: go on.
    bool settle_edits(const QString& doing);
signals:
    void lineClicked(int line);
    void diffToggled(bool on);
    void editChanged();                   // editing switched, or the buffer became modified or saved: the title
    void saved();                         // a run started from the editor: the kernel dock shows "running…"
private:
    void sync_editor();                   // the editor's text, font colours and error line from the lab's state
    Classroom& c_;
    QLabel* legend_;
    QCheckBox* diff_;
    SourceView* view_;
    QPushButton* edit_;
    QPushButton* save_;
    QPushButton* revert_;
    QLabel* message_;
    QPlainTextEdit* editor_;
    bool was_modified_ = false;
};

}  // namespace rl::qt
