// app/qt/source_panel.h — the classroom's source dock: the schedule's CUDA kernel, the current step's lines lit and
// scrolled into view as the lesson plays, the bug's lines marked (D: the diff), a click on a line marks its events.
#pragma once
#include <QAbstractScrollArea>
#include <QWidget>
#include <vector>
#include "app/lab/source_view.h"
#include "app/qt/classroom.h"
#include "app/qt/source_painter.h"

class QCheckBox;
class QLabel;

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
signals:
    void lineClicked(int line);
    void diffToggled(bool on);
private:
    Classroom& c_;
    QLabel* legend_;
    QCheckBox* diff_;
    SourceView* view_;
};

}  // namespace rl::qt
