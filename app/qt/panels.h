// app/qt/panels.h — the docks' widgets: lesson browser, narrative, depth chart, timings, schedule form (one .cpp each).
#pragma once
#include <QWidget>
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
class QPushButton;
class QProgressBar;
class QTimer;
class QTableWidget;

namespace rl::qt {

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();            // re-lists c.lessons and marks the open one
    QListWidget* list() const { return list_; }
    QLabel* note() const { return note_; }
    QListWidget* exercises() const { return exercises_; }  // the open lesson's exercises (lessons/exercises)
signals:
    void lessonChosen(const QString& name);
    void exerciseChosen(const QString& name);  // open its kernel (File > Open kernel with the exercise's flags)
private:
    Classroom& c_;
    QListWidget* list_;
    QLabel* note_;
    QListWidget* exercises_;
};

// The knowledge check of a lesson page: one button per choice (keys 1-4 pick), "Reveal the answer" for the
// teacher (key R): it grades the pick, if any, and shows the explanation; an open question shows its model
// answer. On a lesson's last page, the course's next lesson.
class QuizPanel : public QWidget {
    Q_OBJECT
public:
    explicit QuizPanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();            // the current page's check (hidden when it has none and it is not the last page)
    void pick(int k);          // 0-based; ignored when the page has no such choice
    void reveal();
    QLabel* result() const { return result_; }
    QPushButton* choice(int k) const { return k >= 0 && k < int(choices_.size()) ? choices_[size_t(k)] : nullptr; }
    QPushButton* reveal_button() const { return reveal_; }
    QPushButton* next_button() const { return next_; }
signals:
    void nextLessonChosen(const QString& name);
private:
    Classroom& c_;
    std::vector<QPushButton*> choices_;
    QPushButton *reveal_, *next_;
    QLabel* result_;
};

class NarrativePanel : public QWidget {
    Q_OBJECT
public:
    explicit NarrativePanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();
    void set_font_px(int px);
    QTextBrowser* browser() const { return text_; }
    QuizPanel* quiz() const { return quiz_; }
    QLabel* step_costs() const { return costs_; }  // the current step's bank conflicts, divergent warps, idle lanes
private:
    Classroom& c_;
    QTextBrowser* text_;
    QLabel* costs_;
    QuizPanel* quiz_;
};

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();            // depth bars from the current analysis
    void set_log_scale(bool on);
    QChartView* depth_view() const { return depth_; }
    QCheckBox* log_scale() const { return log_; }
private:
    Classroom& c_;
    QChartView* depth_;
    QCheckBox* log_;
    QLabel* summary_;
};

// Measured timings: the log-log plot of app/render's TimingsPlot in Qt Charts, the crossover sentences, the
// source labelled (recorded results / measured now), the empty state, and "Measure on this GPU".
class TimingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingsPanel(Classroom& c, QWidget* parent = nullptr);
    void set_timings(lab::Timings t);  // shows these results (or their empty state)
    void refresh();                    // redraws for the classroom's theme and the chosen cache
    QChartView* chart_view() const { return chart_; }
    QLabel* heading() const { return heading_; }
    QLabel* sentences() const { return sentences_; }
    QLabel* empty_message() const { return empty_; }
    QPushButton* measure_button() const { return measure_; }
    QComboBox* cache_choice() const { return cache_; }
    // Time on GPU (Ctrl+T, app/lab/kernel_time_job.h): starts it for the open kernel (or says why not), and keeps its
    // row (the button with its reason as tooltip, the elapsed seconds and Cancel, the failure line) up to date.
    void start_kernel_timing();
    void update_time_row();
    QPushButton* time_button() const { return time_; }
    QLabel* time_status() const { return time_status_; }
private:
    void poll();                       // progress of a running measurement; adopts its result
    Classroom& c_;
    QPushButton *time_, *time_cancel_;
    QLabel* time_status_;
    QTimer* time_timer_;
    QLabel *heading_, *sentences_, *empty_, *note_;
    QChartView* chart_;
    QComboBox* cache_;
    QPushButton *measure_, *cancel_;
    QProgressBar* progress_;
    QTimer* poll_timer_;
};

// The numerics comparison of the shown schedule (core/numerics.h via app/render/numerics_table): one row per
// order with its result bits, error in ULPs, guaranteed bound and whether it stayed within it.
class NumericsPanel : public QWidget {
    Q_OBJECT
public:
    explicit NumericsPanel(Classroom& c, QWidget* parent = nullptr);
    void refresh();            // recomputes when the schedule changed (large n: waits for "Compare now")
    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }
private:
    Classroom& c_;
    QLabel* summary_;
    QPushButton* compare_;
    QTableWidget* table_;
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
