// app/qt/scripted.cpp — timers that drive the window as the test options ask, then save, report or quit.
#include "app/qt/scripted.h"

#include <QApplication>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include "app/lab/frame_bench.h"
#include "app/lab/startup.h"
#include "app/qt/exporter.h"

namespace rl::qt {

void script_frames(MainWindow& w, const lab::Options& o, int& exit_code) {
    auto frames = std::make_shared<int>(o.frames > 0 ? o.frames : 3);
    auto* t = new QTimer(&w);
    t->setInterval(30);
    QObject::connect(t, &QTimer::timeout, &w, [&w, &o, &exit_code, frames, t] {
        w.canvas()->update();
        if (--*frames > 0) return;
        t->stop();
        if (!o.screenshot.empty()) {
            const std::string err = save_png_checked(w.grab().toImage(), o.screenshot);
            std::cerr << "reduction-lab-qt: " << (err.empty() ? "wrote " + o.screenshot : err) << "\n";
            if (!err.empty()) exit_code = 2;
        }
        if (!o.dump_scene.empty())
            if (std::string e = lab::write_scene(o.dump_scene, w.canvas()->last_scene()); !e.empty())
                exit_code = 2, std::cerr << "reduction-lab-qt: " << e << "\n";
        if (o.quit) w.close(), QCoreApplication::exit(exit_code);
    });
    t->start();
}

void bench_frames(MainWindow& w, Classroom& c, int n) {
    const bool steps = std::getenv("RLAB_BENCH_STEPS") && std::string(std::getenv("RLAB_BENCH_STEPS")) == "1";
    QTimer::singleShot(200, &w, [&w, &c, n, steps] {
        using Clock = std::chrono::steady_clock;
        lab::FrameBench b;
        uint64_t builds_before_timed = 0, redraws_before_timed = 0;
        for (int f = 0; f < n + 5; ++f) {
            if (f == 5) builds_before_timed = c.lab.scene_builds, redraws_before_timed = w.canvas()->redraws();  // after the warm-up
            const auto t0 = Clock::now();
            if (steps)  // RLAB_BENCH_STEPS=1: every frame the next step (the first after the last)
                c.page >= c.last_page() ? w.go_home() : w.step_forward();
            else if (c.lab.playing)
                w.tick();  // --play: a frame of playback, the step advanced by the time gone by
            // What a frame costs: the canvas repainted (its scene built and drawn when it changed, its image copied
            // into the window).
            w.canvas()->repaint();
            w.canvas()->finish_gl();
            QCoreApplication::processEvents();
            if (f >= 5) b.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        b.window_w = w.width(), b.window_h = w.height();
        b.canvas_w = float(w.canvas()->width()), b.canvas_h = float(w.canvas()->height());
        b.events = c.lab.trace.events.size(), b.scene = &w.canvas()->last_scene();
        b.scene_build_ms = c.lab.scene_build_ms, b.scene_builds = (long long)(c.lab.scene_builds - builds_before_timed);
        b.redraws = (long long)(w.canvas()->redraws() - redraws_before_timed);
        lab::print_frame_bench(stdout, "reduction-lab-qt", b);
        if (steps) std::printf("  every frame showed the next step (RLAB_BENCH_STEPS=1)\n");
        std::printf("  canvas drawn in part: %llu times\n", (unsigned long long)w.canvas()->partial_redraws());
        if (w.canvas()->partial_checked())
            std::fprintf(stderr, "reduction-lab-qt: canvases drawn in part checked against a whole redraw: %llu, pixels differing: %llu\n",
                         (unsigned long long)w.canvas()->partial_checked(), (unsigned long long)w.canvas()->partial_differing());
        w.close();
        QCoreApplication::exit(0);
    });
}

}  // namespace rl::qt
