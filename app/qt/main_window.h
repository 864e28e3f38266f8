// app/qt/main_window.h — the classroom window: canvas in the middle, docks around it, transport toolbar, presenter mode.
#pragma once
#include <QMainWindow>
#include <QTimer>
#include <optional>
#include <string>
#include "app/qt/canvas_widget.h"
#include "app/qt/kernel_panel.h"
#include "app/qt/classroom.h"
#include "app/qt/panels.h"
#include "app/qt/source_panel.h"

class QAction;
class QLabel;
class QDockWidget;
class QToolBar;
class QTabWidget;

namespace rl::qt {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(Classroom& c, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Transport (also bound to keys: space, Left/Right, Page Up/Down, Home/End, H).
    void step_forward();
    void step_back();
    void go_home();
    void go_end();
    void next_hazard();
    void toggle_play();
    void set_presenter(bool on);
    bool presenter() const { return presenter_; }
    void set_dark(bool dark);
    void set_font_scale(float s);
    void toggle_time_view();           // steps <-> warps at GPU timestamps (GPU traces only; else says why)

    // Exports; an empty string on success, else the reason (also shown in the status bar).
    std::string export_png(const std::string& path);
    std::string export_svg(const std::string& path);
    std::string export_pdf(const std::string& path);
    std::string export_json(const std::string& path);
    std::string export_chrome(const std::string& path);

    void refresh();                    // everything after the page or the run changed
    QString open_lesson_file(const QString& path);  // File > Open, Open recent; an error line or empty
    // File > Open trace: a trace saved by `rlab trace --format json` (or recorded on a GPU), as --trace opens it.
    // "opened PATH", or the one-line error.
    QString open_trace_file(const QString& path);
    // File > Open kernel… (Ctrl+O): a student's kernel, watched and run again on save. An error line or empty.
    QString open_kernel_file(const QString& path);
    KernelPanel* kernel() const { return kernel_; }
    QDockWidget* kernel_dock() const { return kernel_dock_; }
    void show_timings();               // brings the measured-timings tab to the front
    void restore_settings();           // window layout, theme and font (the defaults after keep_no_settings)
    void keep_no_settings() { persist_ = false; }  // a scripted run: reads and saves no settings
    CanvasWidget* canvas() const { return canvas_; }
    NarrativePanel* narrative() const { return narrative_; }
    ChartPanel* charts() const { return charts_; }
    TimingsPanel* timings() const { return timings_; }
    NumericsPanel* numerics() const { return numerics_; }
    void show_numerics(bool on);       // the numerics dock (N, View menu, --numerics)
    LessonPanel* lessons() const { return lessons_; }
    ScheduleForm* form() const { return form_; }
    SourcePanel* source() const { return source_; }
    QDockWidget* source_dock() const { return source_dock_; }
    void pick_source_line(int line);   // a click on a source line: its events marked in the canvas
    void tick();                       // one animation tick while playing (the timer's; --bench-frames --play, per frame)
    void set_source_diff(bool on);     // D: the bug diff in the source panel

protected:
    void closeEvent(QCloseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;  // the transport keys when no shortcut fired (window not active)

private:
    void build_actions();
    void save_settings();
    QDockWidget* dock(const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area);
    void apply_style();

    Classroom& c_;
    CanvasWidget* canvas_;
    NarrativePanel* narrative_;
    ChartPanel* charts_;
    TimingsPanel* timings_;
    NumericsPanel* numerics_;
    LessonPanel* lessons_;
    ScheduleForm* form_;
    SourcePanel* source_;
    QDockWidget* source_dock_;
    KernelPanel* kernel_;
    QDockWidget* kernel_dock_;
    void after_kernel_run();           // a kernel run finished: pages, docks and the source dock's title
    QAction* diff_action_;
    QDockWidget *lesson_dock_, *form_dock_, *narrative_dock_, *chart_dock_, *numerics_dock_;
    QTabWidget* central_;  // the canvas and, as a second tab, the timings plot (it needs the room)
    QLabel* step_label_;
    QToolBar* transport_;
    QAction *play_, *presenter_action_;
    QTimer timer_;
    qint64 last_tick_ = 0;
    bool presenter_ = false;
    bool persist_ = true;  // closing saves the layout, theme, lesson and schedule (QSettings)
    QByteArray normal_state_;
};

// What the last session had open (QSettings): its lesson, and its schedule when that is still valid.
std::string remembered_lesson();
std::optional<Schedule> remembered_schedule();

}  // namespace rl::qt
