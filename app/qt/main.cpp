// app/qt/main.cpp — reduction-lab-qt: the classroom's command line (the front-end contract), then the window.
#include <CLI/CLI.hpp>
#include <QApplication>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTimer>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "app/cli/schedule_options.h"
#include "app/qt/exporter.h"
#include "app/qt/main_window.h"
#include "app/render/frame_stats.h"
#include "core/version.h"

namespace {

struct Options {
    rl::cli::ScheduleArgs schedule;
    std::string backend = "auto", lesson, screenshot, export_pdf, theme, dump_scene, bench_file;
    int step = -1, frames = -1, bench_frames = 0, msaa = 4;
    bool quit = false, presenter = false, timings_tab = false, depth_log = false, numerics = false;
};

int fail(const std::string& line) {
    std::cerr << "reduction-lab-qt: " << line << "\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"reduction-lab-qt — the classroom: lessons, narrative, charts, presenter mode and handouts."};
    rl::cli::add_schedule_options(app, o.schedule);
    app.add_option("--backend", o.backend, "auto|cpu|cuda")->capture_default_str();
    app.add_option("--lesson", o.lesson, "open a lesson by name (its file's stem, e.g. eight-threads)");
    app.add_option("--step", o.step, "open at this step (1 page per step; 0-based)");
    app.add_option("--frames", o.frames, "show this many frames (with --quit: then exit)");
    app.add_option("--screenshot", o.screenshot, "save the window as a PNG after the frames");
    app.add_flag("--quit", o.quit, "exit after the frames");
    app.add_option("--dump-scene", o.dump_scene, "write the canvas scene (boxes, arrows, labels) as JSON after the frames");
    app.add_option("--bench-frames", o.bench_frames, "draw this many frames, print frame-time percentiles and exit");
    app.add_option("--msaa", o.msaa, "canvas multisampling (0 off; on a software renderer 4x about doubles frame time)")
        ->capture_default_str();
    app.add_option("--bench-file", o.bench_file,
                   "bench results JSON (`rlab bench --json`) for the timings dock (default: $RLAB_BENCH_FILE, else the "
                   "newest docs/bench/*.json installed next to the program or in the source tree)");
    app.add_flag("--numerics", o.numerics, "show the numerics dock (the comparison of orders; N toggles it)");
    app.add_flag("--depth-log", o.depth_log, "start the depth chart on a log scale (at large n serial dwarfs the tree)");
    app.add_flag("--timings-tab", o.timings_tab, "bring the measured-timings dock to the front (for screenshots)");
    app.add_option("--export-pdf", o.export_pdf, "write the lesson (or the schedule's steps) as a PDF handout and exit");
    app.add_flag("--presenter", o.presenter, "full screen, large type, high contrast (F5 toggles)");
    app.add_option("--theme", o.theme, "dark|light (default: the remembered one)");
    app.set_version_flag("--version", rl::version_line("reduction-lab-qt"));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        return fail(std::string(e.what()) + " (see --help)");
    }
    if (o.msaa < 0 || o.msaa > 16) return fail("--msaa " + std::to_string(o.msaa) + ": expected 0 to 16");
    if (!o.theme.empty() && o.theme != "dark" && o.theme != "light") return fail("--theme " + o.theme + ": expected dark or light");
    rl::qt::Classroom c;
    if (!rl::parse_backend(o.backend, c.lab.backend)) return fail("--backend " + o.backend + ": expected auto, cpu or cuda");
    rl::Schedule schedule;
    try {
        schedule = o.schedule.build();
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    // A headless handout needs no display: Qt's offscreen platform paints PDFs without one.
    if (!o.export_pdf.empty())
        setenv("QT_QPA_PLATFORM", "offscreen", 0);
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setSamples(o.msaa);
    QSurfaceFormat::setDefaultFormat(fmt);
    QApplication qapp(argc, argv);
    QApplication::setOrganizationName("ReductionLab");
    QApplication::setApplicationName("reduction-lab-qt");

    bool given = !o.lesson.empty();
    for (const auto& raw : o.schedule.raw) given |= !raw.empty();
    QSettings st;
    std::string lesson = o.lesson;
    if (!given) {  // nothing on the command line: what was open last time
        lesson = st.value("lesson").toString().toStdString();
        rl::Schedule saved;
        bool ok = true;
        for (const QString& kv : st.value("schedule").toStringList()) {
            const qsizetype eq = kv.indexOf('=');
            ok = ok && eq > 0 && rl::set_field(saved, kv.left(eq).toStdString(), kv.mid(eq + 1).toStdString()).empty();
        }
        if (ok && !st.value("schedule").toStringList().isEmpty() && rl::validate(saved).empty()) schedule = saved;
    }
    c.scan_lessons();
    bool opened = false;
    if (!lesson.empty()) {
        const std::string err = c.open_lesson(lesson);
        if (!err.empty() && !o.lesson.empty()) return fail(err);
        opened = err.empty();
    }
    if (!opened && !c.open_schedule(schedule)) return fail(c.lab.error);
    c.lab.timings = rl::lab::load_timings(o.bench_file);
    if (!o.bench_file.empty() && !c.lab.timings.loaded) return fail("--bench-file: " + c.lab.timings.error);
    if (o.bench_frames < 0) return fail("--bench-frames must be positive");
    if (!c.lab.backend_note.empty()) std::cerr << "reduction-lab-qt: " << c.lab.backend_note << "\n";
    if (o.step >= 0) {
        if (o.step > c.last_page())
            return fail("--step " + std::to_string(o.step) + ": this has steps 0 to " + std::to_string(c.last_page()));
        c.go(o.step);
    }
    if (!o.export_pdf.empty()) {
        const std::string err = rl::qt::export_pdf(o.export_pdf, c);
        if (!err.empty()) return fail(err);
        std::cerr << "reduction-lab-qt: wrote " << o.export_pdf << " (" << c.pages.size() << " pages)\n";
        return 0;
    }

    rl::qt::MainWindow w(c);
    w.resize(1600, 900);
    w.restore_settings();
    if (!o.theme.empty()) w.set_dark(o.theme == "dark");
    w.refresh();
    if (o.presenter) w.set_presenter(true);
    else w.show();
    if (o.timings_tab) w.show_timings();
    if (o.depth_log) w.charts()->set_log_scale(true);
    if (o.numerics) w.show_numerics(true);
    int exit_code = 0;
    if (o.bench_frames > 0) {
        // Like the lab bench: five warm-up frames, then each frame timed from the start of the repaint to glFinish.
        QTimer::singleShot(200, &w, [&] {
            using Clock = std::chrono::steady_clock;
            std::vector<double> ms;
            for (int f = 0; f < o.bench_frames + 5; ++f) {
                const auto t0 = Clock::now();
                // What playback costs: the canvas repainted (scene built, drawn, composed into the window).
                w.canvas()->repaint();
                w.canvas()->finish_gl();
                QCoreApplication::processEvents();
                if (f >= 5) ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            const rl::render::FrameStats fs = rl::render::frame_stats(ms);
            const rl::render::Scene& sc = w.canvas()->last_scene();
            std::printf("reduction-lab-qt bench: %zu frames, window %dx%d, canvas %dx%d, %zu events\n", ms.size(),
                        w.width(), w.height(), w.canvas()->width(), w.canvas()->height(), c.lab.trace.events.size());
            std::printf("  frame ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f\n", fs.p50, fs.p90, fs.p99, fs.max,
                        fs.mean);
            std::printf("  last scene: %zu boxes, %zu arrows, %zu labels, %llu events folded\n", sc.boxes.size(),
                        sc.arrows.size(), sc.texts.size(), (unsigned long long)sc.folded_events);
            std::fflush(stdout);
            w.close();
            qapp.exit(0);
        });
    } else if (o.frames > 0 || o.quit || !o.screenshot.empty() || !o.dump_scene.empty()) {
        auto frames = std::make_shared<int>(o.frames > 0 ? o.frames : 3);
        auto* t = new QTimer(&w);
        t->setInterval(30);
        QObject::connect(t, &QTimer::timeout, &w, [&, frames, t] {
            w.canvas()->update();
            if (--*frames > 0) return;
            t->stop();
            if (!o.screenshot.empty()) {
                if (!w.grab().save(QString::fromStdString(o.screenshot), "PNG")) exit_code = 2, std::cerr << "reduction-lab-qt: cannot write " << o.screenshot << "\n";
                else std::cerr << "reduction-lab-qt: wrote " << o.screenshot << "\n";
            }
            if (!o.dump_scene.empty()) {
                std::ofstream out(o.dump_scene);
                rl::render::dump_scene_json(out, w.canvas()->last_scene());
                if (!out) exit_code = 2, std::cerr << "reduction-lab-qt: cannot write " << o.dump_scene << "\n";
            }
            if (o.quit) w.close(), qapp.exit(exit_code);
        });
        t->start();
    }
    const int rc = qapp.exec();
    return exit_code ? exit_code : rc;
}
