// app/qt/panels.h — the docks' widgets: lesson browser, narrative, charts, schedule form (one .cpp each).
#pragma once
#include <QWidget>
#include "app/imgui/timings.h"
#include "app/qt/classroom.h"

class QListWidget;
class QLabel;
class QTextBrowser;
class QChartView;
class QStackedWidget;
class QSpinBox;
class QComboBox;
class QCheckBox;
class QLineEdit;

namespace rl::qt {

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();            // re-lists c.lessons and marks the open one
    QListWidget* list() const { return list_; }
    QLabel* note() const { return note_; }
signals:
    void lessonChosen(const QString& name);
private:
    Classroom& c_;
    QListWidget* list_;
    QLabel* note_;
};

class NarrativePanel : public QWidget {
    Q_OBJECT
public:
    explicit NarrativePanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();
    void set_font_px(int px);
    QTextBrowser* browser() const { return text_; }
private:
    Classroom& c_;
    QTextBrowser* text_;
};

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();            // depth bars from the current analysis
    QChartView* depth_view() const { return depth_; }
    QChartView* timings_view() const { return timings_; }
    QLabel* timings_message() const { return no_timings_; }
private:
    Classroom& c_;
    QChartView* depth_;
    QChartView* timings_;
    QLabel* no_timings_;
    QLabel* summary_;
    lab::Timings data_;
};

class ScheduleForm : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleForm(Classroom& c, QWidget* parent = nullptr);
    void load();               // shows the classroom's schedule (no signal)
    void set_error(const QString& e);
signals:
    void scheduleEdited(const rl::Schedule& s, int backend);
private:
    void emit_edit();
    Classroom& c_;
    bool loading_ = false;
    QComboBox* backend_;
    QSpinBox *n_, *block_, *grid_, *items_, *seed_;
    QComboBox *assign_, *warp_, *block_stage_, *grid_stage_, *op_, *type_, *input_;
    QLineEdit* values_;
    std::vector<QCheckBox*> bugs_;
    QLabel* error_;
};

}  // namespace rl::qt
