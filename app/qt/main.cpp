// app/qt/main.cpp — reduction-lab-qt: the classroom. Options and state are app/lab's; this opens the window
// (or writes the PDF handout without one) and starts the scripted runs the command line asks for.
#include <QApplication>
#include <QDockWidget>
#include <QIcon>
#include <QSurfaceFormat>
#include <cstdlib>
#include <iostream>

#include "app/qt/exporter.h"
#include "app/qt/main_window.h"
#include "app/qt/recent_files.h"
#include "app/qt/scripted.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/version.h"

namespace {

int fail(const std::string& line) {
    std::cerr << "reduction-lab-qt: " << line << "\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace rl;
    lab::Options o;
    if (int rc = lab::parse_options(lab::FrontEnd::Classroom, argc, argv, o, std::cout, std::cerr); rc >= 0) return rc;
    // A headless handout needs no display: Qt's offscreen platform paints PDFs without one.
    if (!o.export_pdf.empty()) setenv("QT_QPA_PLATFORM", "offscreen", 0);
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setSamples(o.msaa);
    QSurfaceFormat::setDefaultFormat(fmt);
    QApplication qapp(argc, argv);
    QApplication::setOrganizationName("ReductionLab");
    QApplication::setApplicationName("reduction-lab-qt");
    QApplication::setApplicationVersion(QString::fromUtf8(version()));
    QGuiApplication::setDesktopFileName("org.reductionlab.Classroom");  // Wayland: the menu entry and its icon
    QApplication::setWindowIcon(QIcon::fromTheme("reduction-lab"));

    qt::Classroom c;
    // A scripted run (frames, a screenshot, a scene dump, --bench-frames) neither reads nor keeps the last session's
    // settings: it shows what its arguments say, and a 2^24 benchmark does not become the next session's schedule.
    const bool scripted = o.frames > 0 || o.quit || !o.screenshot.empty() || !o.dump_scene.empty() || o.bench_frames > 0;
    const std::optional<Schedule> remembered = scripted ? std::nullopt : qt::remembered_schedule();
    if (std::string err = c.start(o, scripted ? std::string() : qt::remembered_lesson(), remembered ? &*remembered : nullptr);
        !err.empty())
        return fail(err);
    c.lab.source_diff = o.source_diff;
    c.lab.kernel_editor.editing = o.edit && c.lab.kernel->active();
    if (!o.lesson_file.empty()) qt::remember_recent_file(QString::fromStdString(o.lesson_file));
    if (!c.lab.backend_note.empty()) std::cerr << "reduction-lab-qt: " << c.lab.backend_note << "\n";
    if (!o.export_pdf.empty()) {
        if (std::string err = qt::export_pdf(o.export_pdf, c); !err.empty()) return fail(err);
        std::cerr << "reduction-lab-qt: wrote " << o.export_pdf << " (" << c.pages.size() << " pages)\n";
        return 0;
    }

    qt::MainWindow w(c);
    w.resize(o.width, o.height);
    if (scripted) w.keep_no_settings();
    w.restore_settings();
    // --kernel: its status and errors in front; without one the dock stays closed whatever the last session left.
    if (c.lab.kernel->active()) w.kernel_dock()->show(), w.kernel_dock()->raise();
    else w.kernel_dock()->hide();
    if (!o.theme.empty()) w.set_dark(o.theme == "dark");
    w.refresh();
    if (o.presenter) w.set_presenter(true);
    else w.show();
    if (o.timings_tab) w.show_timings();
    if (o.depth_log) w.charts()->set_log_scale(true);
    if (o.numerics) w.show_numerics(true);
    if (o.play) w.toggle_play();
    int exit_code = 0;
    if (o.bench_frames > 0) qt::bench_frames(w, c, o.bench_frames);
    else if (o.frames > 0 || o.quit) qt::script_frames(w, o, exit_code);
    const int rc = qapp.exec();
    try {
        flush_stdout_checked();  // --bench-frames' report: a full or closed standard output is exit 2
    } catch (const Error& e) {
        return fail(e.what());
    }
    return exit_code ? exit_code : rc;
}
