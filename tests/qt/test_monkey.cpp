// tests/qt/test_monkey.cpp — the classroom under random use (Qt Test's event functions, seeded, bounded in time):
// keys, clicks, drags, wheel turns, resizes, schedule changes and lesson switches; no crash, no frame over a second,
// and after every action the lab's state invariants (app/lab/state_invariants.h: the trace a fresh emulation of the
// schedule shown, cursor, selection, cone, text size and view in range) and the classroom's: a page per step of the
// schedule (or of the lesson), the page shown one of them, the canvas drawing the lab's scene.
#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTest>
#include <QWheelEvent>
#include <cstdlib>
#include <random>
#include "app/lab/process_clock.h"
#include "app/lab/sanitized_build.h"
#include "app/lab/state_invariants.h"
#include "app/qt/canvas_widget.h"
#include "app/qt/main_window.h"

using namespace rl;

// Under the sanitizers (ten times slower, drawn by llvmpipe) no time is judged: the release build's run of this
// same monkey holds every frame and action to a second; this one looks for crashes and sanitizer reports.
constexpr bool kSanitized = lab::kSanitizedBuild;

class MonkeyTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void random_use() {
        const char* seed_env = std::getenv("RLAB_MONKEY_SEED");
        const unsigned seed = seed_env ? unsigned(std::strtoul(seed_env, nullptr, 10)) : 19u;
        const char* secs_env = std::getenv("RLAB_MONKEY_SECONDS");
        // 12 s by default: about 450 actions, in CI where the GUI tests hold one display in turn (RLAB_MONKEY_SECONDS).
        const qint64 budget_ms = 1000 * (secs_env ? std::atoll(secs_env) : 12);
        // RLAB_MONKEY_ACTIONS=N: exactly N actions, however long they take, instead of a time budget (the sanitizer
        // build, ten times slower, runs a fixed number: the same actions for the same seed on any machine).
        const char* actions_env = std::getenv("RLAB_MONKEY_ACTIONS");
        const int fixed_actions = actions_env ? std::atoi(actions_env) : 0;
        if (actions_env) QVERIFY2(fixed_actions > 200, "RLAB_MONKEY_ACTIONS: more than 200 actions");
        std::mt19937 rng(seed);
        auto pick = [&](int n) { return int(rng() % unsigned(n)); };
        if (fixed_actions) qDebug("monkey seed %u, %d actions", seed, fixed_actions);
        else qDebug("monkey seed %u, %lld ms", seed, budget_ms);

        qt::Classroom c;
        c.scan_lessons();
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        w.resize(1280, 760);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::setActiveWindow(&w);
        QWidget* canvas = w.canvas();
        // Keys without Ctrl: none of them opens a modal dialog that would wait for a person.
        const Qt::Key keys[] = {Qt::Key_Right, Qt::Key_Left, Qt::Key_Home, Qt::Key_End, Qt::Key_PageUp, Qt::Key_PageDown,
                                Qt::Key_Space, Qt::Key_Plus, Qt::Key_Minus, Qt::Key_T, Qt::Key_N, Qt::Key_H, Qt::Key_D,
                                Qt::Key_Up, Qt::Key_Down, Qt::Key_Escape};
        const char* lessons[] = {"eight-threads", "warp-shuffle", "block-reduction", "four-common-errors", "no-such-lesson"};
        QElapsedTimer total;
        total.start();
        qint64 worst_ms = 0, worst_frame_ms = 0;
        int actions = 0;
        lab::StateInvariants invariants;
        while (fixed_actions ? actions < fixed_actions : total.elapsed() < budget_ms) {
            QElapsedTimer one;
            one.start();
            const double cpu_start = lab::process_cpu_ms();
            const QPoint at(pick(std::max(1, canvas->width())), pick(std::max(1, canvas->height())));
            const int kind = pick(10);
            switch (kind) {
                case 0: case 1: case 2: QTest::keyClick(&w, keys[pick(int(std::size(keys)))]); break;
                case 3: QTest::mouseClick(canvas, pick(2) ? Qt::LeftButton : Qt::RightButton, {}, at); break;
                case 4: {  // a drag: press, a few moves, release
                    QTest::mousePress(canvas, Qt::LeftButton, {}, at);
                    for (int k = 0; k < 4; ++k) QTest::mouseMove(canvas, QPoint(pick(canvas->width() + 1), pick(canvas->height() + 1)));
                    QTest::mouseRelease(canvas, Qt::LeftButton, {}, QPoint(pick(canvas->width() + 1), pick(canvas->height() + 1)));
                    break;
                }
                case 5: {
                    const int delta = (pick(2) ? 1 : -1) * 120 * (1 + pick(5));
                    QWheelEvent wheel(at, canvas->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton,
                                      pick(3) == 0 ? Qt::ControlModifier : Qt::NoModifier, Qt::NoScrollPhase, false);
                    QApplication::sendEvent(canvas, &wheel);
                    break;
                }
                case 6: w.resize(200 + pick(1500), 150 + pick(900)); break;
                case 7: {  // a schedule change, small enough to run many times
                    Schedule s;
                    s.n = 1 + pick(3000);
                    s.block = 1 + pick(512);
                    const char* warps[] = {"shfl-down", "shfl-xor", "smem-divergent", "smem-sequential"};
                    set_field(s, "warp", warps[pick(4)]);
                    const char* grids[] = {"two-pass", "atomic-block", "last-block"};
                    set_field(s, "grid-stage", grids[pick(3)]);
                    if (validate(s).empty() && c.open_schedule(s)) w.refresh();
                    break;
                }
                case 8:
                    if (c.open_lesson(lessons[pick(int(std::size(lessons)))]).empty()) w.refresh();
                    break;
                default: w.step_forward(); break;
            }
            // Wall time, unless this process used less CPU (lab::frame_cost_ms: CI's cores are shared).
            const qint64 action_ms = qint64(lab::frame_cost_ms(double(one.elapsed()), lab::process_cpu_ms() - cpu_start));
            QElapsedTimer frame;
            frame.start();
            const double cpu_frame = lab::process_cpu_ms();
            canvas->repaint();  // the frame this action asked for, drawn now
            QApplication::processEvents();
            const qint64 frame_ms = qint64(lab::frame_cost_ms(double(frame.elapsed()), lab::process_cpu_ms() - cpu_frame));
            worst_ms = std::max(worst_ms, action_ms + frame_ms);
            worst_frame_ms = std::max(worst_frame_ms, frame_ms);
            if (!kSanitized)
                QVERIFY2(frame_ms < 1000, qPrintable(QString("the frame after action %1 (kind %2) took %3 ms (seed %4)")
                                                     .arg(actions).arg(kind).arg(frame_ms).arg(seed)));
            // A schedule change or lesson switch runs the emulator: in the release build it too stays under a second.
            if (!kSanitized)
                QVERIFY2(action_ms + frame_ms < 1000, qPrintable(QString("action %1 (kind %2) took %3 ms (seed %4)")
                                                                     .arg(actions).arg(kind).arg(action_ms + frame_ms).arg(seed)));
            std::string broken = invariants.check(c.lab);
            if (broken.empty() && c.pages.empty()) broken = "no page";
            if (broken.empty() && (c.page < 0 || c.page > c.last_page()))
                broken = "page " + std::to_string(c.page) + " shown of " + std::to_string(c.pages.size());
            if (broken.empty() && c.lesson.empty() && c.last_page() != c.lab.last())
                broken = std::to_string(c.pages.size()) + " pages for " + std::to_string(c.lab.last() + 1) + " steps";
            if (broken.empty() && &w.canvas()->last_scene() != &c.lab.last_scene)
                broken = "the canvas draws another scene than the lab's";
            QVERIFY2(broken.empty(), qPrintable(QString("after action %1 (kind %2, seed %3): %4")
                                                    .arg(actions).arg(kind).arg(seed).arg(QString::fromStdString(broken))));
            ++actions;
        }
        qDebug("monkey: %d actions in %lld ms, slowest %lld ms, slowest frame %lld ms; invariants held after each "
               "(%d fresh emulations, %d traces too large)", actions, total.elapsed(), worst_ms, worst_frame_ms,
               invariants.emulations(), invariants.skipped());
        QVERIFY(actions > 200);
        QCOMPARE(invariants.checks(), actions);
        QVERIFY(invariants.emulations() > 1);  // schedules and lessons changed, and each was emulated again
        QVERIFY(w.isVisible());
    }
};

QTEST_MAIN(MonkeyTest)
#include "test_monkey.moc"
