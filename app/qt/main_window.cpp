// app/qt/main_window.cpp — docks, toolbar, shortcuts, presenter mode, exports and remembered settings.
// Sections: construction · transport · presenter and style · exports · settings.
#include "app/qt/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QScreen>
#include <QToolBar>
#include "app/qt/exporter.h"
#include "app/qt/help_menu.h"
#include "app/qt/recent_files.h"
#include "app/lab/exercise_links.h"
#include "app/lab/source_view.h"

namespace rl::qt {

// ---- construction -----------------------------------------------------------------------------------
MainWindow::MainWindow(Classroom& c, QWidget* parent) : QMainWindow(parent), c_(c) {
    setObjectName("classroom");
    canvas_ = new CanvasWidget(c_, this);
    central_ = new QTabWidget(this);
    central_->setObjectName("centralTabs");
    central_->setDocumentMode(true);
    central_->setTabPosition(QTabWidget::South);
    setCentralWidget(central_);
    // The status bar from the start: created by its first message after the window is shown, it is not laid out
    // and that message (a step's unreadable recording, a failed export) is not seen.
    statusBar();
    lessons_ = new LessonPanel(c_);
    form_ = new ScheduleForm(c_);
    narrative_ = new NarrativePanel(c_);
    charts_ = new ChartPanel(c_);
    if (!c_.lab.timings.loaded && c_.lab.timings.searched.empty()) c_.lab.timings = lab::load_timings();
    timings_ = new TimingsPanel(c_);
    numerics_ = new NumericsPanel(c_);
    central_->addTab(canvas_, "Reduction");
    central_->addTab(timings_, "Measured timings");
    lesson_dock_ = dock("Lessons", "lessonsDock", lessons_, Qt::LeftDockWidgetArea);
    form_dock_ = dock("Schedule", "scheduleDock", form_, Qt::LeftDockWidgetArea);
    narrative_dock_ = dock("Narrative", "narrativeDock", narrative_, Qt::RightDockWidgetArea);
    chart_dock_ = dock("Depth", "chartDock", charts_, Qt::RightDockWidgetArea);
    // Hidden until asked for (N): the comparison runs the schedule a dozen times more.
    numerics_dock_ = dock("Numerics: one input, many orders", "numericsDock", numerics_, Qt::BottomDockWidgetArea);
    numerics_dock_->hide();
    // The kernel's CUDA source under the canvas: full lines, and the canvas keeps its width.
    source_ = new SourcePanel(c_);
    source_dock_ = dock("CUDA source", "sourceDock", source_, Qt::BottomDockWidgetArea);
    connect(source_, &SourcePanel::lineClicked, this, &MainWindow::pick_source_line);
    // A student's kernel: its status, errors and result beside the lessons; hidden until one is open.
    kernel_ = new KernelPanel(c_);
    kernel_dock_ = dock("Your kernel", "kernelDock", kernel_, Qt::LeftDockWidgetArea);
    kernel_dock_->setVisible(c_.lab.kernel->active());
    connect(kernel_, &KernelPanel::traceChanged, this, &MainWindow::after_kernel_run);
    connect(kernel_, &KernelPanel::errorLineChosen, this, [this](int line) { source_->refresh(), source_->show_line(line); });
    connect(source_, &SourcePanel::editChanged, this, [this] { source_dock_->setWindowTitle(source_->title()); });
    connect(source_, &SourcePanel::saved, this, [this] { kernel_->refresh(), statusBar()->showMessage("saved; running…"); });
    connect(source_, &SourcePanel::diffToggled, this, &MainWindow::set_source_diff);
    connect(numerics_dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible) return;
        numerics_->refresh();
        if (!numerics_dock_->property("sized").toBool()) {  // first time: room for the whole table, later the user's
            numerics_dock_->setProperty("sized", true);
            QTimer::singleShot(0, this, [this] { resizeDocks({numerics_dock_}, {int(height() * 0.45)}, Qt::Vertical); });
        }
    });
    // The side docks keep the full height; the numerics dock sits under the canvas only.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    tabifyDockWidget(lesson_dock_, form_dock_);
    tabifyDockWidget(lesson_dock_, kernel_dock_);
    (c_.lab.kernel->active() ? kernel_dock_ : lesson_dock_)->raise();
    resizeDocks({lesson_dock_, narrative_dock_}, {300, 420}, Qt::Horizontal);
    resizeDocks({narrative_dock_, chart_dock_}, {400, 380}, Qt::Vertical);
    resizeDocks({source_dock_}, {300}, Qt::Vertical);
    build_actions();

    connect(narrative_->quiz(), &QuizPanel::nextLessonChosen, lessons_, &LessonPanel::lessonChosen);
    connect(lessons_, &LessonPanel::lessonChosen, this, [this](const QString& name) {
        if (name.toStdString() == c_.lesson) return;
        if (std::string err = c_.open_lesson(name.toStdString()); !err.empty())
            statusBar()->showMessage(QString::fromStdString(err));
        lessons_->refresh();
        form_->load();
        canvas_->refit();
        refresh();
    });
    connect(lessons_, &LessonPanel::exerciseChosen, this, [this](const QString& name) {
        if (!source_->settle_edits("opening the exercise")) return;
        for (const Exercise& ex : lab::lesson_exercises(c_.lab.lesson.lesson())) {
            if (ex.name != name.toStdString()) continue;
            QString err;
            std::string file = ex.kernel_file();
            try {
                std::string note;
                const student::KernelRequest r = lab::exercise_request(ex, false, c_.lab.backend, &note);
                file = r.file;  // the student's copy when the lesson tree is read-only
                err = kernel_->open_request(r, note);
            } catch (const std::exception& e) {
                err = QString::fromStdString(e.what());
            }
            if (err.isEmpty()) kernel_dock_->show(), kernel_dock_->raise();
            statusBar()->showMessage(err.isEmpty() ? "running " + QString::fromStdString(file) + "…" : err);
        }
    });
    connect(form_, &ScheduleForm::scheduleEdited, this, [this](const Schedule& s, int backend) {
        c_.lab.backend = BackendChoice(backend);
        if (!c_.open_schedule(s)) {
            form_->set_error(QString::fromStdString(c_.lab.error));
            return;
        }
        canvas_->refit();
        refresh();
        lessons_->refresh();
    });
    connect(canvas_, &CanvasWidget::selectionChanged, this, [this] {
        lab::line_of_selection(c_.lab);  // the source panel lights the event's line
        source_->refresh();
        const uint32_t e = c_.lab.selected;
        if (e == kNoEvent) return statusBar()->clearMessage();
        statusBar()->showMessage(QString("event %1: depends on %2 events (the highlighted cone)")
                                     .arg(e)
                                     .arg(qulonglong(c_.lab.cone_size)));
    });
    timer_.setInterval(33);
    connect(&timer_, &QTimer::timeout, this, &MainWindow::tick);
    form_->load();
    lessons_->refresh();
    refresh();
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::dock(const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
}

void MainWindow::build_actions() {
    auto* bar = transport_ = addToolBar("Transport");
    bar->setObjectName("transport");
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto add = [&](const QString& text, QList<QKeySequence> keys, auto fn) {
        auto* a = new QAction(text, this);
        a->setShortcuts(keys);
        a->setToolTip(text + (keys.isEmpty() ? QString() : " (" + keys.front().toString() + ")"));
        connect(a, &QAction::triggered, this, fn);
        bar->addAction(a);
        addAction(a);
        return a;
    };
    add("|◀ Start", {Qt::Key_Home}, [this] { go_home(); });
    add("◀ Back", {Qt::Key_Left, Qt::Key_PageUp}, [this] { step_back(); });
    play_ = add("▶ Play", {Qt::Key_Space}, [this] { toggle_play(); });
    add("Next ▶", {Qt::Key_Right, Qt::Key_PageDown}, [this] { step_forward(); });
    add("End ▶|", {Qt::Key_End}, [this] { go_end(); });
    add("Next hazard (H)", {Qt::Key_H}, [this] { next_hazard(); });
    bar->addSeparator();
    step_label_ = new QLabel(this);
    step_label_->setObjectName("stepLabel");
    bar->addWidget(step_label_);
    bar->addSeparator();
    presenter_action_ = add("Presenter (F5)", {Qt::Key_F5}, [this] { set_presenter(!presenter_); });
    presenter_action_->setCheckable(true);
    // The knowledge check: keys 1-4 pick a choice, R reveals the answer (window-wide, presenter mode too).
    for (int k = 0; k < int(kMaxChoices); ++k) {
        auto* a = new QAction(QString("Pick choice %1").arg(k + 1), this);
        a->setShortcut(QKeySequence(Qt::Key_1 + k));
        connect(a, &QAction::triggered, this, [this, k] { narrative_->quiz()->pick(k); });
        addAction(a);
    }
    auto* reveal = new QAction("Reveal the answer", this);
    reveal->setShortcut(Qt::Key_R);
    connect(reveal, &QAction::triggered, this, [this] { narrative_->quiz()->reveal(); });
    addAction(reveal);
    auto* recorded = new QAction("Recorded GPU trace of the step (G)", this);  // lessons/recorded, when there is one
    recorded->setShortcut(Qt::Key_G);
    connect(recorded, &QAction::triggered, this, [this] {
        if (!c_.lab.lesson.recorded().any()) return statusBar()->showMessage("this lesson has no recorded GPU traces");
        c_.lab.lesson.show_recorded = !c_.lab.lesson.show_recorded;
        c_.go(c_.page);
        canvas_->refit();
        refresh();
    });
    addAction(recorded);
    auto* exit_presenter = new QAction("Leave presenter mode", this);
    exit_presenter->setShortcut(Qt::Key_Escape);
    connect(exit_presenter, &QAction::triggered, this, [this] { set_presenter(false); });
    addAction(exit_presenter);

    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("Open &kernel…", QKeySequence::Open, this, [this] {
        if (!source_->settle_edits("opening another kernel")) return;
        const QString path = QFileDialog::getOpenFileName(this, "Open kernel", QString(), "CUDA kernels (*.cu *.cuh);;All files (*)");
        if (path.isEmpty()) return;
        const QString err = open_kernel_file(path);
        statusBar()->showMessage(err.isEmpty() ? "running " + path + "…" : err);
    });
    // A student's kernel edited in the source dock (app/lab/kernel_editor): Ctrl+E in and out, Ctrl+S saves and runs.
    file->addAction("&Edit kernel in the source panel", QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] {
        if (!c_.lab.kernel->active()) return statusBar()->showMessage("no kernel open: File › Open kernel… (Ctrl+O)");
        source_dock_->show();
        source_->set_editing(!source_->editing());
    });
    file->addAction("Save kernel and run", QKeySequence(Qt::CTRL | Qt::Key_S), this, [this] {
        if (!source_->editing()) return statusBar()->showMessage("Ctrl+S saves the kernel's editor: Ctrl+E opens it");
        if (!source_->save_and_run()) statusBar()->showMessage(QString::fromStdString(c_.lab.kernel_editor.error));
    });
    // Time on GPU: the open kernel timed beside the fast path and CUB, shown on the timings tab (its progress there).
    QAction* time_gpu = file->addAction("&Time kernel on GPU", QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] {
        show_timings();
        timings_->start_kernel_timing();
    });
    time_gpu->setToolTip("rlab run --backend cuda --time for the open kernel, with its sizes and plan (Ctrl+T)");
    addAction(time_gpu);
    add_open_actions(file, this, [this](const QString& path) { return open_lesson_file(path); });
    file->addAction("Open &trace…", this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open trace", QString(), "Traces (*.json)");
        if (!path.isEmpty()) statusBar()->showMessage(open_trace_file(path));
    });
    auto save_as = [this](const QString& filter, const QString& suffix, std::string (MainWindow::*fn)(const std::string&)) {
        const QString path = QFileDialog::getSaveFileName(this, "Export", "reduction" + suffix, filter);
        if (path.isEmpty()) return;
        const std::string err = (this->*fn)(path.toStdString());
        statusBar()->showMessage(err.empty() ? "wrote " + path : QString::fromStdString(err));
    };
    file->addAction("Export frame as &PNG…", this, [=] { save_as("PNG (*.png)", ".png", &MainWindow::export_png); });
    file->addAction("Export frame as &SVG…", this, [=] { save_as("SVG (*.svg)", ".svg", &MainWindow::export_svg); });
    file->addAction("Export handout as P&DF…", this, [=] { save_as("PDF (*.pdf)", ".pdf", &MainWindow::export_pdf); });
    file->addAction("Export trace as &JSON…", this, [=] { save_as("JSON (*.json)", ".json", &MainWindow::export_json); });
    file->addAction("Export &Chrome trace…", this, [=] { save_as("JSON (*.json)", ".chrome.json", &MainWindow::export_chrome); });
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu("&View");
    view->addAction("&Dark theme", this, [this] { set_dark(true); });
    view->addAction("&Light theme", this, [this] { set_dark(false); });
    view->addAction("Larger text", QKeySequence::ZoomIn, this, [this] { set_font_scale(c_.lab.font_scale + 0.25f); });
    view->addAction("Smaller text", QKeySequence::ZoomOut, this, [this] { set_font_scale(c_.lab.font_scale - 0.25f); });
    view->addAction("Fit (F)", QKeySequence(Qt::Key_F), this, [this] { canvas_->refit(); });
    view->addAction("Time view: warps at GPU timestamps (W)", QKeySequence(Qt::Key_W), this, [this] { toggle_time_view(); });
    view->addSeparator();
    for (QDockWidget* d : {lesson_dock_, form_dock_, narrative_dock_, chart_dock_}) view->addAction(d->toggleViewAction());
    QAction* source = source_dock_->toggleViewAction();
    source->setText("CUDA &source (S)");
    source->setShortcut(Qt::Key_S);
    source->setToolTip("Show / hide the kernel's CUDA source beside the canvas (S)");
    view->addAction(source);
    addAction(source);
    transport_->addAction(source);
    diff_action_ = new QAction("Bug &diff: clean kernel against the buggy one (D)", this);
    diff_action_->setShortcut(Qt::Key_D);
    diff_action_->setCheckable(true);
    diff_action_->setToolTip("D: the bug's lines beside the clean lines they replace");
    connect(diff_action_, &QAction::triggered, this, [this] { set_source_diff(!c_.lab.source_diff); });
    view->addAction(diff_action_);
    addAction(diff_action_);
    QAction* numerics = numerics_dock_->toggleViewAction();
    numerics->setText("&Numerics (N)");
    numerics->setShortcut(Qt::Key_N);
    view->addAction(numerics);
    addAction(numerics);
    view->addAction("&Measured timings", QKeySequence(Qt::Key_T), this, [this] {
        central_->setCurrentIndex(central_->currentIndex() == 0 ? 1 : 0);  // T: the timings tab and back
    });
    add_help_menu(this);
}

// ---- transport --------------------------------------------------------------------------------------
void MainWindow::refresh() {
    narrative_->refresh();
    source_->refresh();
    diff_action_->setChecked(c_.lab.source_diff);
    source_dock_->setWindowTitle(source_->title());
    kernel_->refresh();
    charts_->refresh();
    timings_->update_time_row();  // Time on GPU's button follows the open kernel
    if (numerics_dock_->isVisible()) numerics_->refresh();  // recomputes only when the schedule changed
    const QString title = QString::fromStdString(c_.title());
    setWindowTitle("Reduction Lab classroom — " + title);
    if (const std::string e = c_.recorded_error(); !e.empty()) statusBar()->showMessage(QString::fromStdString(e));
    if (!c_.pages.empty())
        step_label_->setText(QString("  %1  ").arg(QString::fromStdString(c_.current().title)));
    play_->setText(c_.lab.playing ? "⏸ Pause" : "▶ Play");
    canvas_->update();
}

QString MainWindow::open_kernel_file(const QString& path) {
    const QString err = kernel_->open(path);
    if (!err.isEmpty()) return err;
    kernel_dock_->show();
    kernel_dock_->raise();
    return {};
}

void MainWindow::after_kernel_run() {
    kernel_dock_->show();
    lessons_->refresh();
    form_->load();
    if (c_.lab.kernel->error.empty()) canvas_->refit();
    else statusBar()->showMessage(QString::fromStdString(c_.lab.kernel->status()));
    refresh();
}

void MainWindow::show_numerics(bool on) {
    numerics_dock_->setVisible(on);
    if (on) numerics_->refresh();
}

void MainWindow::toggle_time_view() {
    if (!c_.lab.set_time_view(!c_.lab.time_view)) statusBar()->showMessage(QString::fromStdString(c_.lab.notice));
    canvas_->refit();
}

void MainWindow::pick_source_line(int line) {
    timer_.stop();
    const int before = c_.lab.cursor.step;
    lab::pick_line(c_.lab, line);
    // pick_line moved the cursor to the line's first event: the page that shows that step (same trace).
    if (c_.lab.cursor.step != before && !c_.pages.empty()) {
        const int step = c_.lab.cursor.step, trace = c_.current().trace_index;
        for (int k = 0; k <= c_.last_page(); ++k)
            if (c_.pages[size_t(k)].trace_index == trace && c_.page_at(k).cursor_step >= step) {  // played if need be
                c_.go(k);
                break;
            }
    }
    statusBar()->showMessage(QString("line %1: %2 events marked in the canvas")
                                 .arg(c_.lab.source_line)
                                 .arg(qulonglong(std::count(c_.lab.line_marks.begin(), c_.lab.line_marks.end(), uint8_t(1)))));
    refresh();
}

void MainWindow::set_source_diff(bool on) {
    c_.lab.source_diff = on;
    if (on && !lab::has_bug_diff(c_.lab)) statusBar()->showMessage("no bug is switched on: the source has no diff");
    refresh();
}

void MainWindow::show_timings() { central_->setCurrentWidget(timings_); }

void MainWindow::step_forward() {
    timer_.stop();
    c_.lab.playing = false;
    c_.go(c_.page + 1);
    refresh();
}
void MainWindow::step_back() {
    timer_.stop();
    c_.lab.playing = false;
    c_.go(c_.page - 1);
    refresh();
}
void MainWindow::go_home() {
    timer_.stop();
    c_.go(0);
    refresh();
}
void MainWindow::go_end() {
    timer_.stop();
    c_.go(c_.last_page());
    refresh();
}
void MainWindow::next_hazard() {
    const int p = c_.next_hazard_page();
    if (p < 0) {
        statusBar()->showMessage("no hazard after this step");
        return;
    }
    c_.go(p);
    c_.lab.select(render::first_hazard_event(c_.lab.trace, c_.lab.layout, c_.lab.cursor.step));
    refresh();
}

void MainWindow::toggle_play() {
    if (c_.lab.playing || timer_.isActive()) {
        timer_.stop();
        c_.lab.playing = false;
        refresh();
        return;
    }
    if (c_.page >= c_.last_page()) c_.go(0);  // replay from the start
    // Values travel from the start of the next step; a lesson moves one page at a time.
    c_.go(c_.page + 1);
    c_.lab.cursor.t = 0.0f;
    c_.lab.playing = true;
    last_tick_ = QDateTime::currentMSecsSinceEpoch();
    timer_.start();
    refresh();
}

void MainWindow::tick() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const float dt = float(now - last_tick_) / 1000.0f;
    last_tick_ = now;
    c_.lab.cursor.t += dt * c_.lab.speed;
    if (c_.lab.cursor.t >= 1.0f) {
        c_.lab.cursor.t = 1.0f;
        if (c_.page >= c_.last_page()) {
            timer_.stop();
            c_.lab.playing = false;
        } else {
            c_.go(c_.page + 1);
            c_.lab.cursor.t = 0.0f;  // the next step's values start travelling
            c_.lab.playing = true;
        }
        refresh();
    }
    canvas_->update();
}

// ---- presenter and style ----------------------------------------------------------------------------
void MainWindow::set_presenter(bool on) {
    if (on == presenter_) return;
    presenter_ = on;
    c_.lab.presenter = on;  // the canvas: text >= 18 px, zoomed to follow the step (app/render/presenter.h)
    presenter_action_->setChecked(on);
    if (on) {
        normal_state_ = saveState();
        lesson_dock_->hide();
        form_dock_->hide();
        chart_dock_->hide();
        numerics_dock_->hide();
        central_->setCurrentWidget(canvas_);  // the class sees the reduction; the tab bar goes with the docks
        central_->tabBar()->hide();
        removeDockWidget(narrative_dock_);
        addDockWidget(Qt::BottomDockWidgetArea, narrative_dock_);
        narrative_dock_->show();
        resizeDocks({narrative_dock_}, {int(height() * 0.3)}, Qt::Vertical);
        if (!source_dock_->isHidden()) {  // the code beside the canvas, at presenter size (the window may not be shown yet)
            removeDockWidget(source_dock_);
            addDockWidget(Qt::RightDockWidgetArea, source_dock_);
            source_dock_->show();
            resizeDocks({source_dock_}, {int(screen()->geometry().width() * 0.42)}, Qt::Horizontal);  // the eight lanes still fit
        }
        menuBar()->hide();
        showFullScreen();
    } else {
        menuBar()->show();
        central_->tabBar()->show();
        showNormal();
        restoreState(normal_state_);
    }
    apply_style();
    canvas_->refit();
}

void MainWindow::set_dark(bool dark) {
    c_.lab.dark = dark;
    apply_style();
    canvas_->update();
}

void MainWindow::set_font_scale(float s) {
    c_.lab.font_scale = std::clamp(s, 0.75f, 3.0f);
    apply_style();
    canvas_->refit();
}

void MainWindow::apply_style() {
    // Presenter: high contrast (black and white) and large type for the back row.
    const bool dark = presenter_ || c_.lab.dark;
    const float scale = presenter_ ? std::max(c_.lab.font_scale, 1.6f) : c_.lab.font_scale;
    c_.lab.view.font_scale = scale;
    narrative_->set_font_px(int(std::lround((presenter_ ? 22.0f : 15.0f) * scale)));
    source_->set_font_px(lab::source_font_px(14.0f * c_.lab.font_scale, presenter_, float(screen()->geometry().height())));
    const QString fg = dark ? "#ffffff" : "#111111", bg = dark ? (presenter_ ? "#000000" : "#1e2127") : "#fafafa";
    narrative_->browser()->setStyleSheet(QString("QTextBrowser { color: %1; background: %2; border: none; }").arg(fg, bg));
    QFont f = QApplication::font();
    f.setPixelSize(int(std::lround(14 * scale)));
    step_label_->setFont(f);
    // The toolbar too: white on black with outlined buttons, the checked one inverted (yellow), large enough to
    // read from the back row. Outside presenter mode the platform style returns.
    if (presenter_) {
        const int px = int(std::lround(12.5f * scale));
        transport_->setStyleSheet(QString(
            "QToolBar { background: #000000; border: none; border-bottom: 2px solid #ffffff; spacing: 6px; padding: 4px; }"
            "QToolButton { color: #ffffff; background: #000000; border: 2px solid #ffffff; border-radius: 4px;"
            "  padding: 3px 8px; font-size: %1px; font-weight: bold; }"
            "QToolButton:hover { background: #333333; }"
            "QToolButton:checked, QToolButton:pressed { background: #ffd400; color: #000000; border-color: #ffd400; }"
            "QLabel { color: #ffffff; background: #000000; font-size: %2px; font-weight: bold; }"
            "QToolBar::separator { background: #ffffff; width: 2px; margin: 4px 6px; }").arg(px).arg(int(px * 1.15)));
        narrative_dock_->setStyleSheet("QDockWidget { color: #ffffff; } QDockWidget::title { background: #000000; }");
        source_dock_->setStyleSheet("QDockWidget { color: #ffffff; font-size: 18px; } QDockWidget::title { background: #000000; }"
                                    "QLabel, QCheckBox { color: #ffffff; background: #000000; }");
    } else {
        transport_->setStyleSheet(QString());
        narrative_dock_->setStyleSheet(QString());
        source_dock_->setStyleSheet(QString());
    }
}

// ---- exports ----------------------------------------------------------------------------------------
std::string MainWindow::export_png(const std::string& path) {
    return save_png_checked(canvas_->image(), path);
}
std::string MainWindow::export_svg(const std::string& path) { return qt::export_svg(path, canvas_->last_scene()); }
std::string MainWindow::export_pdf(const std::string& path) {
    const std::string err = qt::export_pdf(path, c_);
    refresh();
    return err;
}
QString MainWindow::open_lesson_file(const QString& path) {
    if (std::string err = c_.open_lesson_file(path.toStdString()); !err.empty()) return QString::fromStdString(err);
    form_->load();
    canvas_->refit();
    refresh();
    return {};
}

QString MainWindow::open_trace_file(const QString& path) {
    if (!c_.open_trace(path.toStdString())) return QString::fromStdString(c_.lab.error);
    form_->load();
    lessons_->refresh();
    canvas_->refit();
    refresh();
    return "opened " + path;
}

std::string MainWindow::export_json(const std::string& path) { return export_trace_json(path, c_.lab.trace); }
std::string MainWindow::export_chrome(const std::string& path) { return export_chrome_trace(path, c_.lab.trace); }

// ---- settings ---------------------------------------------------------------------------------------
void MainWindow::restore_settings() {
    QSettings st;
    if (persist_) {  // (a scripted run starts from the defaults, as on a first start)
        restoreGeometry(st.value("window/geometry").toByteArray());
        restoreState(st.value("window/state").toByteArray());
    }
    // A layout saved by an older version puts the bottom dock under the side docks; keep them full height.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    c_.lab.dark = !persist_ || st.value("theme", "dark").toString() != "light";
    c_.lab.font_scale = persist_ ? std::clamp(st.value("font_scale", 1.0).toFloat(), 0.75f, 3.0f) : 1.0f;
    apply_style();
}

void MainWindow::save_settings() {
    QSettings st;
    st.setValue("window/geometry", saveGeometry());
    st.setValue("window/state", presenter_ ? normal_state_ : saveState());
    st.setValue("theme", c_.lab.dark ? "dark" : "light");
    st.setValue("font_scale", c_.lab.font_scale);
    st.setValue("lesson", QString::fromStdString(c_.lesson));
    QStringList flags;  // every field (core's list), read back by set_field
    for (const auto& [name, value] : schedule_fields(c_.lab.schedule))
        flags << QString("%1=%2").arg(QString::fromStdString(name), QString::fromStdString(value));
    st.setValue("schedule", flags);
}

std::string remembered_lesson() { return QSettings().value("lesson").toString().toStdString(); }

std::optional<Schedule> remembered_schedule() {
    const QStringList flags = QSettings().value("schedule").toStringList();
    if (flags.isEmpty()) return std::nullopt;
    Schedule s;
    for (const QString& kv : flags) {
        const qsizetype eq = kv.indexOf('=');
        if (eq <= 0 || !set_field(s, kv.left(eq).toStdString(), kv.mid(eq + 1).toStdString()).empty()) return std::nullopt;
    }
    if (!validate(s).empty()) return std::nullopt;
    return s;
}

void MainWindow::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Right: case Qt::Key_PageDown: step_forward(); break;
        case Qt::Key_Left: case Qt::Key_PageUp: step_back(); break;
        case Qt::Key_Home: go_home(); break;
        case Qt::Key_End: go_end(); break;
        case Qt::Key_Space: toggle_play(); break;
        case Qt::Key_H: next_hazard(); break;
        case Qt::Key_S: source_dock_->setVisible(!source_dock_->isVisible()); break;
        case Qt::Key_D: set_source_diff(!c_.lab.source_diff); break;
        case Qt::Key_F5: set_presenter(!presenter_); break;
        case Qt::Key_Escape: set_presenter(false); break;
        default: QMainWindow::keyPressEvent(e); return;
    }
    e->accept();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!source_->settle_edits("closing the classroom")) return e->ignore();  // Cancel: the edits stay open
    if (persist_) save_settings();
    QMainWindow::closeEvent(e);
}

}  // namespace rl::qt
