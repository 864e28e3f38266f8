// tests/qt/test_classroom.cpp — the classroom window: stepping, narrative, depth chart (linear/log), timings, exports, CLI.
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QCategoryAxis>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QValueAxis>
#include <QXYSeries>
#include <QStatusBar>
#include <cmath>
#include <filesystem>
#include <fstream>
#include "app/qt/exporter.h"
#include "app/qt/main_window.h"
#include <QListWidget>
#include "core/analysis.h"
#include "core/course.h"
#include "core/emulator.h"
#include "core/quiz.h"
#include "core/numerics.h"
#include <QTableWidget>
#include <QImage>
#include <QXmlStreamReader>
#include <set>
#include "app/qt/canvas_widget.h"
#include "core/trace_io.h"
#include "../support/helpers.h"

using namespace rl;

namespace {

// The bench fixture: made-up numbers named as such (device "FIXTURE GPU"); the apps show it only when passed.
const std::string kFixture = std::string(RLAB_SOURCE_DIR) + "/tests/data/bench-fixture.json";

int pdf_pages(const QString& path) {
    QProcess p;
    p.start(RLAB_PDFINFO, {path});
    if (!p.waitForFinished(20000)) return -1;
    for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split('\n'))
        if (line.startsWith("Pages:")) return line.mid(6).trimmed().toInt();
    return -1;
}

QByteArray head(const QString& path, int n) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.read(n);
}

// The values each page of the eight-thread handout lists, worked by hand from the inputs 1..8: the loads, shfl_down
// offset 4 (1+5, 2+6, 3+7, 4+8), offset 2 (6+10, 8+12), offset 1 (16+20), the final store.
const char* const kEightThreadsPages[] = {
    "Values after this step: 1, 2, 3, 4, 5, 6, 7, 8", "Values after this step: 6, 8, 10, 12",
    "Values after this step: 16, 20", "Values after this step: 36", "Values after this step: 36"};

// The text of each page of a PDF (pdftotext; pages end with a form feed), or {} when it cannot be read.
QStringList pdf_page_texts(const QString& path) {
    QProcess p;
    p.start("pdftotext", {"-layout", path, "-"});
    if (!p.waitForFinished(20000) || p.exitCode() != 0) return {};
    QStringList pages = QString::fromUtf8(p.readAllStandardOutput()).split('\f');
    if (!pages.isEmpty() && pages.back().trimmed().isEmpty()) pages.pop_back();
    return pages;
}

// The texts of an SVG's <text> elements, and its viewBox.
QStringList svg_texts(const QByteArray& svg, QString* view_box) {
    QStringList out;
    QXmlStreamReader r(svg);
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement()) continue;
        if (r.name() == QLatin1String("svg")) *view_box = r.attributes().value("viewBox").toString();
        if (r.name() == QLatin1String("text")) out << r.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    return r.hasError() ? QStringList{"<not valid XML: " + r.errorString() + ">"} : out;
}

// Shortcuts reach a window only when it is active (Xvfb has no window manager to activate it).
void activate(QWidget& w) {
    QApplication::setActiveWindow(&w);
    QTest::qWait(20);
}

}  // namespace

class ClassroomTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void steps_and_narrative() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));  // the eight-thread example: n 8, block 8
        QCOMPARE(int(c.pages.size()), c.lab.last() + 1);
        qt::MainWindow w(c);
        w.resize(1400, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        activate(w);
        w.go_home();
        const QString first = w.narrative()->browser()->toPlainText();
        QVERIFY(first.contains("Step 1 of"));
        w.step_forward();
        const QString second = w.narrative()->browser()->toPlainText();
        QVERIFY(second != first);
        QCOMPARE(c.lab.cursor.step, 1);
        QTest::keyClick(&w, Qt::Key_End);
        QCOMPARE(c.page, c.last_page());
        QCOMPARE(c.lab.cursor.step, c.lab.last());
        const QString last = w.narrative()->browser()->toPlainText();
        QVERIFY(last.contains("Result"));
        QVERIFY(last.contains("36"));  // 1 + 2 + ... + 8
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(c.page, c.last_page() - 1);
        QTest::keyClick(&w, Qt::Key_Home);
        QCOMPARE(c.page, 0);
        QTest::qWait(50);
        QVERIFY(!w.canvas()->last_scene().boxes.empty());
    }

    void chart_has_the_analysis_values() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        const Analysis a = analyze(c.lab.trace);
        QChart* chart = w.charts()->depth_view()->chart();
        QCOMPARE(chart->series().size(), 1);
        auto* bars = qobject_cast<QHorizontalStackedBarSeries*>(chart->series().front());
        QVERIFY(bars);
        QBarSet* whole = bars->barSets().front();
        QCOMPARE(whole->at(2), double(a.serial_depth));  // serial: n - 1 = 7
        QCOMPARE(whole->at(1), double(a.tree_depth));    // ideal tree: ceil(log2 8) = 3
        QCOMPARE(a.serial_depth, uint64_t(7));
        QCOMPARE(a.tree_depth, 3u);
        double span = 0;
        for (int k = 1; k < bars->count(); ++k) span += bars->barSets()[k]->at(0);
        QCOMPARE(span, double(a.span));
    }

    void depth_log_scale() {
        // n = 1,000,000: the serial chain (999,999) dwarfs the span; the log scale keeps both readable.
        qt::Classroom c;
        Schedule s;
        s.n = 1000000;
        s.block = 256;
        s.items = 8;
        QVERIFY(c.open_schedule(s));
        c.lab.finish_analysis();
        qt::MainWindow w(c);
        const Analysis& a = c.lab.analysis;
        auto bars = [&] {
            return qobject_cast<QHorizontalStackedBarSeries*>(w.charts()->depth_view()->chart()->series().front());
        };
        QVERIFY(!w.charts()->log_scale()->isChecked());
        QCOMPARE(bars()->barSets().front()->at(2), double(a.serial_depth));
        QVERIFY(qobject_cast<QValueAxis*>(w.charts()->depth_view()->chart()->axes(Qt::Horizontal).front()));
        w.charts()->log_scale()->setChecked(true);
        QHorizontalStackedBarSeries* log_bars = bars();
        QCOMPARE(log_bars->barSets().front()->at(2), std::log10(1.0 + double(a.serial_depth)));
        QCOMPARE(log_bars->barSets().front()->at(1), std::log10(1.0 + double(a.tree_depth)));
        double span = 0;
        for (int k = 1; k < log_bars->count(); ++k) span += log_bars->barSets()[k]->at(0);
        QVERIFY(std::abs(span - std::log10(1.0 + double(a.span))) < 1e-9);  // scopes keep their share of the bar
        auto* axis = qobject_cast<QCategoryAxis*>(w.charts()->depth_view()->chart()->axes(Qt::Horizontal).front());
        QVERIFY(axis);
        QVERIFY(axis->titleText().contains("log"));
        QVERIFY(axis->categoriesLabels().contains("1k"));
        QVERIFY(axis->categoriesLabels().contains("1M"));
        w.charts()->set_log_scale(false);
        QCOMPARE(bars()->barSets().front()->at(2), double(a.serial_depth));
    }

    void timings_from_the_fixture() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        const lab::Timings t = lab::load_timings(kFixture);
        QVERIFY(t.loaded);
        w.timings()->set_timings(t);
        QVERIFY(w.timings()->chart_view()->isVisibleTo(w.timings()));
        QVERIFY(!w.timings()->empty_message()->isVisibleTo(w.timings()));
        const QString heading = w.timings()->heading()->text();
        QVERIFY(heading.contains("recorded results"));
        QVERIFY(heading.contains("FIXTURE GPU"));
        QVERIFY(heading.contains("2026-01-01"));
        // One line and one set of points per f32 warm variant in the fixture (cooperative and instrumented are absent).
        QStringList lines, points, crossovers;
        for (QAbstractSeries* s : w.timings()->chart_view()->chart()->series()) {
            if (s->objectName() == "timingLine") lines << s->name();
            if (s->objectName() == "timingPoints") points << s->name();
            if (s->objectName() == "crossover") crossovers << s->name();
        }
        const QStringList expected = {"atomic-element", "atomic-block", "two-pass", "last-block", "fast", "fast-deterministic", "cub"};
        QCOMPARE(lines, expected);
        QCOMPARE(points, expected);
        QCOMPARE(crossovers, QStringList({"atomic-block faster from 2^16", "two-pass faster from 2^22"}));
        for (QAbstractSeries* s : w.timings()->chart_view()->chart()->series())
            if (s->objectName() == "timingPoints" && s->name() == "two-pass") {
                auto* xy = qobject_cast<QXYSeries*>(s);
                QCOMPARE(xy->count(), 8);
                QCOMPARE(xy->at(5), QPointF(20, std::log10(11.0)));  // 2^20: 11.0 us
            }
        const QString text = w.timings()->sentences()->text();
        QVERIFY(text.contains("One atomic per block beats one atomic per element from n = 2^16"));
        QVERIFY(text.contains("Two-pass beats one atomic per block from n = 2^22"));
        // The fixture has cold results too: the choice appears and changes the plot.
        QComboBox* cache = w.timings()->cache_choice();
        QVERIFY(cache->isVisibleTo(w.timings()));
        cache->setCurrentText("cold");
        QCOMPARE(c.lab.timings.cache, std::string("cold"));
        lines.clear();
        for (QAbstractSeries* s : w.timings()->chart_view()->chart()->series())
            if (s->objectName() == "timingLine") lines << s->name();
        QCOMPARE(lines, QStringList({"atomic-block", "two-pass", "fast"}));
        QVERIFY(w.timings()->chart_view()->chart()->title().contains("cold"));
    }

    // rlab run --time's saved result (tests/data/kernel-timing-fixture.json, made-up numbers named as such): the three
    // rows above the plot, the figures derived here by hand from the fixture's n = 2^24 ints (67108864 bytes) and
    // medians: 67108864 B / 180 us = 372.8 GB/s = 7.8% of the H200's 4800; / 17.5 us = 3834.8 (79.9%); / 18.2 us = 3687.3
    // (76.8%).
    void timings_show_a_timed_kernel() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        auto* rows = w.timings()->findChild<QLabel*>("kernelTimingRows");
        QVERIFY(rows);
        lab::Timings t = lab::load_timings(kFixture);
        w.timings()->set_timings(t);
        QVERIFY(!rows->isVisibleTo(w.timings()));  // no timed kernel: no rows
        QCOMPARE(lab::load_kernel_timing(t, std::string(RLAB_SOURCE_DIR) + "/tests/data/kernel-timing-fixture.json"),
                 std::string());
        w.timings()->set_timings(t);
        QVERIFY(rows->isVisibleTo(w.timings()));
        const QString html = rows->text();
        QVERIFY(html.contains("Your kernel timed on NVIDIA H200 (FIXTURE"));
        for (const char* cell : {"your kernel", "180.00", ">373<", "7.8%", "fast path", "17.50", ">3835<", "79.9%", "CUB",
                                 "18.20", ">3687<", "76.8%", "30/30 exact"})
            QVERIFY2(html.contains(cell), cell);
        t.kernel->rows[0].wrong = 3;  // a kernel whose result was wrong in 3 of its 30 repetitions says so, in red
        w.timings()->set_timings(t);
        QVERIFY(rows->text().contains("<span style='color:#be1e00'><b>3 of 30 WRONG</b></span>"));
        std::string why = lab::load_kernel_timing(t, kFixture);  // a bench file is not a kernel timing: one line
        QVERIFY(why.find("{\"kernel_timing\"") != std::string::npos);
    }

    // Time on GPU (Ctrl+T): File's action starts rlab run --time for the open kernel as a child; the timings tab shows
    // the seconds and Cancel, then the three rows (the fixture's, from a fake rlab that writes it where -o says), or
    // the child's one line. The fakes stand in for rlab: this machine may have no GPU, and a test must not time one.
    void time_on_gpu_from_the_menu() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();  // Ctrl+T is a window action: shortcuts reach the active window only
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QPushButton* button = w.timings()->time_button();
        QLabel* status = w.timings()->time_status();
        QVERIFY(!button->isEnabled());  // no kernel open: disabled, the tooltip says why
        QVERIFY(button->toolTip().contains("no kernel open"));
        QTest::keyClick(&w, Qt::Key_T, Qt::ControlModifier);  // the shortcut anyway: the reason in red, no child
        QCOMPARE(c.lab.time_job->state(), lab::KernelTimeJob::State::Failed);
        QVERIFY(w.timings()->isVisible());
        QVERIFY(status->isVisibleTo(w.timings()));
        QVERIFY(status->text().startsWith("Time on GPU failed: no kernel open"));

        const QString dir = RLAB_TEST_TMP;
        auto fake = [&](const QString& name, const QByteArray& body) {
            QFile f(dir + "/" + name);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return QString();
            f.write("#!/bin/sh\n" + body);
            f.close();
            f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            return f.fileName();
        };
        c.lab.kernel->request().file = (dir + "/timed.cu").toStdString();  // open as far as the action looks
        w.timings()->update_time_row();
        QVERIFY(button->isEnabled());
        const QByteArray fixture = QByteArray(RLAB_SOURCE_DIR) + "/tests/data/kernel-timing-fixture.json";
        qputenv("RLAB_CLI", fake("fake-rlab-slow-ok.sh", "sleep 1\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && cp '" + fixture +
                                                         "' \"$2\"; shift; done\n").toUtf8());
        QTest::keyClick(&w, Qt::Key_T, Qt::ControlModifier);
        QVERIFY(c.lab.time_job->running());
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains("Timing timed.cu on the GPU… 0."), 5000);
        QVERIFY(!button->isVisibleTo(w.timings()));  // Cancel in its place
        auto* cancel = w.timings()->findChild<QPushButton*>("timeOnGpuCancel");
        QVERIFY(cancel->isVisibleTo(w.timings()));
        auto* rows = w.timings()->findChild<QLabel*>("kernelTimingRows");
        QTRY_VERIFY_WITH_TIMEOUT(rows->isVisibleTo(w.timings()), 20000);
        for (const char* cell : {"Your kernel timed on NVIDIA H200 (FIXTURE", "180.00", ">373<", "7.8%", "17.50", ">3835<",
                                 "18.20", ">3687<", "30/30 exact"})
            QVERIFY2(rows->text().contains(cell), cell);
        QVERIFY(!status->isVisibleTo(w.timings()));  // done: the rows say it
        QVERIFY(button->isVisibleTo(w.timings()) && !cancel->isVisibleTo(w.timings()));

        // No GPU: the child's last line, without rlab's prefix, in red; the last rows stay.
        qputenv("RLAB_CLI", fake("fake-rlab-no-gpu.sh", "echo 'rlab: --time needs a usable GPU: no usable GPU (fake)' >&2\nexit 2\n").toUtf8());
        w.timings()->start_kernel_timing();
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.time_job->running(), 20000);
        w.timings()->update_time_row();
        QCOMPARE(status->text(), QString("Time on GPU failed: --time needs a usable GPU: no usable GPU (fake)"));
        QVERIFY(status->styleSheet().contains("#be1e00"));
        QVERIFY(rows->isVisibleTo(w.timings()));

        // A hung child: Cancel kills it within a second, and says so.
        qputenv("RLAB_CLI", fake("fake-rlab-hung.sh", "exec sleep 300\n").toUtf8());
        w.timings()->start_kernel_timing();
        QVERIFY(cancel->isVisibleTo(w.timings()));
        QTest::qWait(300);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.time_job->running(), 2000);
        w.timings()->update_time_row();
        QVERIFY(status->text().startsWith("Timing of timed.cu cancelled after "));
        qunsetenv("RLAB_CLI");
    }

    void timings_empty_state() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        lab::Timings none;
        none.searched = {"docs/bench/*.json in /nowhere and the folders above it"};
        w.timings()->set_timings(none);
        QVERIFY(!w.timings()->chart_view()->isVisibleTo(w.timings()));
        const QString msg = w.timings()->empty_message()->text();
        QVERIFY(msg.contains("No recorded results yet"));
        QVERIFY(msg.contains("docs/bench/h200-2026-11-29.json"));
        QVERIFY(msg.contains("/nowhere"));
        QVERIFY(msg.contains("--bench-file"));
        // Without a usable GPU benchmark the action is disabled and says why.
        std::string reason;
        if (!lab::BenchJob::available(&reason)) {
            QVERIFY(!w.timings()->measure_button()->isEnabled());
            QCOMPARE(w.timings()->measure_button()->toolTip().toStdString(), reason);
            QVERIFY(!reason.empty() && reason.find('\n') == std::string::npos);
        }
        // A file that is not bench results: its one-line error instead of a plot.
        const lab::Timings bad = lab::load_timings(std::string(RLAB_SOURCE_DIR) + "/README.md");
        QVERIFY(!bad.loaded);
        w.timings()->set_timings(bad);
        QVERIFY(w.timings()->empty_message()->text().contains("bench JSON"));
    }

    void exports_are_valid() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        w.resize(1400, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(100);
        const QString dir = RLAB_TEST_TMP;
        const render::Scene& scene = w.canvas()->last_scene();
        QCOMPARE(w.export_png((dir + "/frame.png").toStdString()), std::string());
        QVERIFY(head(dir + "/frame.png", 8).startsWith("\x89PNG"));
        // The PNG is the canvas as drawn: its size, and each value box of the scene in the box's colour (a band
        // along the box's left edge, clear of the centred text).
        const QImage png(dir + "/frame.png");
        QCOMPARE(png.size(), w.canvas()->size() * w.canvas()->devicePixelRatio());
        const double dpr = w.canvas()->devicePixelRatio();
        int value_boxes = 0;
        for (const render::SceneBox& b : scene.boxes) {
            if (b.role != render::BoxRole::Value || b.pattern != render::Pattern::Solid) continue;
            ++value_boxes;
            int matching = 0, sampled = 0;
            for (float y = b.y + b.h * 0.3f; y < b.y + b.h * 0.7f; y += 1.0f, ++sampled) {
                const QColor px = png.pixelColor(int((b.x + 4) * dpr), int(y * dpr));
                matching += std::abs(px.redF() - b.fill.r) < 0.02 && std::abs(px.greenF() - b.fill.g) < 0.02 &&
                            std::abs(px.blueF() - b.fill.b) < 0.02;
            }
            QVERIFY2(sampled > 0 && matching * 2 > sampled, qPrintable(QString("value box of event %1").arg(b.event)));
        }
        QCOMPARE(value_boxes, 8);  // page 0: the eight loads
        // The SVG is the same scene: its view box, and every text of the scene, no other.
        QCOMPARE(w.export_svg((dir + "/frame.svg").toStdString()), std::string());
        QString view_box;
        QStringList svg = svg_texts(head(dir + "/frame.svg", 1 << 22), &view_box);
        QCOMPARE(view_box, QString("0 0 %1 %2").arg(int(scene.width)).arg(int(scene.height)));
        QStringList scene_texts;
        for (const auto* texts : {&scene.texts, &scene.overlay_texts})
            for (const render::SceneText& t : *texts) scene_texts << QString::fromStdString(t.text).trimmed();
        svg.sort();
        scene_texts.sort();
        QCOMPARE(svg, scene_texts);
        for (const char* load : {"1", "2", "3", "4", "5", "6", "7", "8"}) QVERIFY(svg.contains(load));
        // The handout: one page per step of the example (load, shfl_down 4, 2, 1, the final store), each the step's.
        QCOMPARE(w.export_pdf((dir + "/handout.pdf").toStdString()), std::string());
        QVERIFY(head(dir + "/handout.pdf", 5) == "%PDF-");
        const Trace fresh = emulate(Schedule{});
        QCOMPARE(int(fresh.step_count), 5);
        QCOMPARE(int(c.pages.size()), 5);
        QCOMPARE(pdf_pages(dir + "/handout.pdf"), 5);
        const QStringList pages = pdf_page_texts(dir + "/handout.pdf");
        QCOMPARE(pages.size(), 5);
        for (int k = 0; k < pages.size(); ++k) {
            QVERIFY2(pages[k].contains(kEightThreadsPages[k]), qPrintable(QString("page %1 lacks '%2'").arg(k + 1).arg(kEightThreadsPages[k])));
            QVERIFY(pages[k].contains(QString("Step %1 of 5").arg(k + 1)));
        }
        // The trace read back is the one the classroom holds, event for event, and a fresh emulation's.
        QCOMPARE(w.export_json((dir + "/trace.json").toStdString()), std::string());
        const Trace back = read_trace_file((dir + "/trace.json").toStdString());
        QVERIFY(test::identical_events(back, c.lab.trace));
        QVERIFY(test::identical_events(back, fresh));
        QCOMPARE(back.result_value, fresh.result_value);
        QCOMPARE(back.result_event, fresh.result_event);
        QCOMPARE(back.events[back.result_event].kind, EventKind::FinalStore);
        QCOMPARE(double(back.reference_exact), 36.0);  // 1 + 2 + ... + 8
        // The Chrome trace: valid JSON, one complete event per trace event.
        QCOMPARE(w.export_chrome((dir + "/chrome.json").toStdString()), std::string());
        QJsonParseError perr;
        const QJsonDocument chrome = QJsonDocument::fromJson(head(dir + "/chrome.json", 1 << 24), &perr);
        QCOMPARE(perr.error, QJsonParseError::NoError);
        int complete = 0;
        for (const QJsonValue& e : chrome.object()["traceEvents"].toArray()) complete += e.toObject()["ph"].toString() == "X";
        QCOMPARE(complete, int(fresh.events.size()));
    }

    void presenter_mode() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        activate(w);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(w.presenter());
        QVERIFY(w.narrative()->isVisible());
        QVERIFY(!w.charts()->isVisible());
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(c.page, 1);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(!w.presenter());
    }

    void numerics_dock() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        w.resize(1400, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.numerics()->isVisible());  // hidden until asked for
        w.show_numerics(true);
        QVERIFY(w.numerics()->isVisible());
        const NumericsReport r = compare_numerics(Schedule{});
        QTableWidget* t = w.numerics()->table();
        QCOMPARE(t->rowCount(), int(r.rows.size()));
        QCOMPARE(t->columnCount(), 8);
        QCOMPARE(t->horizontalHeaderItem(4)->text(), QString("error (ULPs)"));
        int chosen = -1;
        for (int i = 0; i < t->rowCount(); ++i)
            if (t->item(i, 0)->text() == "chosen schedule") chosen = i;
        QVERIFY(chosen >= 0);
        QVERIFY(t->item(chosen, 0)->font().bold());
        QCOMPARE(t->item(chosen, 2)->text().toStdString(), r.rows[size_t(chosen)].bits_hex);
        QCOMPARE(t->item(chosen, 6)->text(), QString("yes"));
        QVERIFY(w.numerics()->summary()->text().startsWith("exact sum 36"));
        // A schedule without a comparison (max is exact in any order): one line saying why, no table.
        Schedule mx;
        mx.op = Op::Max;
        QVERIFY(c.open_schedule(mx));
        w.refresh();
        QCOMPARE(t->rowCount(), 0);
        QVERIFY(w.numerics()->summary()->text().startsWith("No numerics comparison for this schedule"));
    }

    // Skips where a GPU benchmark can run: CTest runs it alone (rlab_qt_classroom_bench_job_without_a_gpu), so it
    // counts the skip.
    void bench_job_without_a_gpu() {
        // Where no GPU benchmark can run, a started job ends with that one-line reason and no results
        // (the worker thread, progress and take() are exercised all the same).
        std::string reason;
        if (lab::BenchJob::available(&reason)) QSKIP("a GPU benchmark can run here");
        lab::BenchJob job;
        QVERIFY(job.start());
        QTRY_VERIFY_WITH_TIMEOUT(job.finished(), 20000);
        QVERIFY(!job.running());
        std::string err;
        QVERIFY(!job.take(&err).has_value());
        QVERIFY(!err.empty());
        QVERIFY(err.find('\n') == std::string::npos);
        QVERIFY(!job.take(&err).has_value());  // taken once
    }

    void dump_scene_and_bench_frames() {
        const QString dir = RLAB_TEST_TMP;
        QProcess p;
        p.start(RLAB_QT_EXE, {"--n", "64", "--block", "32", "--step", "2", "--dump-scene", dir + "/scene.json", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QFile f(dir + "/scene.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QVERIFY(doc.isObject());
        QVERIFY(doc.object().contains("boxes"));
        QVERIFY(!doc.object()["boxes"].toArray().isEmpty());
        // The scene is the trace's at step 2: every load and the shuffle sums of steps 1-2 drawn as value boxes,
        // nothing later.
        const Trace t = test::run({{"n", "64"}, {"block", "32"}});
        std::multiset<int> want_values, values, offsets;
        for (uint32_t i = 0; i < t.events.size(); ++i) {
            const Event& e = t.events[i];
            if (e.step <= 2 && e.kind != EventKind::Shuffle && e.kind != EventKind::Barrier) want_values.insert(int(i));
        }
        for (const QJsonValue& b : doc.object()["boxes"].toArray())
            if (b.toObject()["role"].toString() == "value") values.insert(b.toObject()["event"].toInt());
        for (const QJsonValue& a : doc.object()["arrows"].toArray()) offsets.insert(a.toObject()["offset"].toInt());
        QCOMPARE(values, want_values);
        QCOMPARE(values.size(), size_t(64 + 32 + 16));  // 64 loads; 16 sums per block at offset 16, 8 at offset 8
        // An arrow for each value that is used: lanes 0-15 of both warps at offset 16, lanes 0-7 at offset 8.
        QCOMPARE(offsets.count(16), size_t(32));
        QCOMPARE(offsets.count(8), size_t(16));
        QCOMPARE(offsets.size(), size_t(48));
        p.start(RLAB_QT_EXE, {"--n", "64", "--block", "32", "--bench-frames", "5"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY(out.contains("reduction-lab-qt bench: 5 frames"));
        QVERIFY(out.contains("frame ms: p50"));
        // Repaints that change nothing draw the scene kept: the trace is not folded again (app/lab/frame.h).
        QVERIFY(out.contains("scenes built during the timed frames: 0\n"));
        QVERIFY(out.contains("frames drawn during the timed frames: 0 "));  // the kept canvas image was painted
        // --play: each timed frame is an animation tick, so each builds and draws the canvas once.
        p.start(RLAB_QT_EXE, {"--n", "64", "--block", "32", "--bench-frames", "5", "--play"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString playing = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(playing.contains("scenes built during the timed frames: 5\n"), qPrintable(playing));
        QVERIFY2(playing.contains("frames drawn during the timed frames: 5 "), qPrintable(playing));
        // A new step every frame (RLAB_BENCH_STEPS=1): the canvas is drawn again only where its scene changed, and each
        // picture drawn in part equals the whole one (RLAB_CHECK_PARTIAL=1 draws it whole too and counts differing
        // pixels); these steps have arrows, so multisampled pictures are drawn in part and resolved in part too.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("RLAB_BENCH_STEPS", "1");
        env.insert("RLAB_CHECK_PARTIAL", "1");
        p.setProcessEnvironment(env);
        p.start(RLAB_QT_EXE, {"--n", "64", "--block", "32", "--bench-frames", "12"});
        QVERIFY(p.waitForFinished(60000));
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        QCOMPARE(p.exitCode(), 0);
        const QString steps = QString::fromUtf8(p.readAllStandardOutput());
        const QString steps_err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(steps.contains("every frame showed the next step"), qPrintable(steps));
        const QRegularExpressionMatch m =
            QRegularExpression("checked against a whole redraw: (\\d+), pixels differing: (\\d+)").match(steps_err);
        QVERIFY2(m.hasMatch(), qPrintable(steps_err));
        QVERIFY2(m.captured(1).toInt() >= 5, qPrintable(steps_err));
        QCOMPARE(m.captured(2).toInt(), 0);
        // --bench-file with a file that is not there: exit 2, one line.
        p.start(RLAB_QT_EXE, {"--bench-file", dir + "/missing.json", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("--bench-file"));
    }

    // A scripted run neither takes the last session's settings nor leaves its own: a benchmark at 2^24 must not
    // become the schedule the classroom opens with next time, and a screenshot shows what its arguments say.
    void scripted_runs_keep_no_settings() {
        const QString home = QString(RLAB_TEST_TMP) + "/scripted-settings";
        QDir(home).removeRecursively();
        const QString conf = home + "/ReductionLab/reduction-lab-qt.conf";
        {
            QSettings st(conf, QSettings::IniFormat);  // what a session of n = 12, block 4, light theme left
            st.setValue("schedule", QStringList{"n=12", "block=4"});
            st.setValue("theme", "light");
        }
        QFile before(conf);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray kept = before.readAll();
        before.close();
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", home);
        p.setProcessEnvironment(env);
        p.start(RLAB_QT_EXE, {"--dump-scene", home + "/scene.json", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QFile f(home + "/scene.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        int values = 0;
        for (const QJsonValue& b : QJsonDocument::fromJson(f.readAll()).object()["boxes"].toArray())
            values += b.toObject()["role"].toString() == "value";
        QCOMPARE(values, 8);  // the eight-thread example's loads at step 0, not the remembered 12
        QFile after(conf);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), kept);
    }

    void command_line() {
        const QString dir = RLAB_TEST_TMP;
        QProcess p;
        p.start(RLAB_QT_EXE, {"--export-pdf", dir + "/cli.pdf", "--n", "8", "--block", "8"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        // Eight threads: load, three shuffles, the final store; a page each, the page's step named on it.
        QCOMPARE(pdf_pages(dir + "/cli.pdf"), 5);
        const QStringList pages = pdf_page_texts(dir + "/cli.pdf");
        QCOMPARE(pages.size(), 5);
        for (int k = 0; k < pages.size(); ++k) QVERIFY(pages[k].contains(kEightThreadsPages[k]));
        p.start(RLAB_QT_EXE, {"--n", "0", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        QVERIFY(!err.contains('\n'));
        QVERIFY(err.startsWith("reduction-lab-qt:"));
        QVERIFY2(err.contains("--n 0"), qPrintable(err));
    }

    // The lesson browser follows lessons/course.txt; the last page offers the next lesson.
    void course_order_and_next_lesson() {
        const std::string dir = std::string(RLAB_SOURCE_DIR) + "/lessons";
        qputenv("RLAB_LESSONS_DIR", QByteArray::fromStdString(dir));
        const Course course = load_course(dir);
        QVERIFY(course.found);
        qt::Classroom c;
        c.scan_lessons();
        QCOMPARE(c.lessons.size(), course.order.size());
        for (size_t i = 0; i < course.order.size(); ++i) QCOMPARE(c.lessons[i].name, course.order[i]);
        QCOMPARE(c.open_lesson("eight-threads"), std::string());
        // One step at a time: opening plays the first step only, each page is written when its step is shown.
        QCOMPARE(c.lab.lesson.plays(), size_t(1));
        QVERIFY(c.pages.size() >= 4 && c.pages[0].played && !c.pages[1].played);
        qt::MainWindow w(c);
        w.resize(1400, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString pdf = QString(RLAB_TEST_TMP) + "/lesson-handout.pdf";  // every page, two steps held at most
        QCOMPARE(w.export_pdf(pdf.toStdString()), std::string());
        QCOMPARE(pdf_pages(pdf), int(c.pages.size()));
        for (const qt::Page& p : c.pages) QVERIFY(p.played && p.markdown.find("## Step") == 0);
        QVERIFY(c.lab.lesson.held_steps().size() <= lab::LessonPlayer::kHeldSteps);
        auto* list = w.findChild<QListWidget*>("lessonList");
        QVERIFY(list && list->count() == int(course.order.size()));
        QVERIFY(list->item(0)->text().startsWith("1. Eight threads"));
        auto* next = w.findChild<QPushButton*>("nextLesson");
        QVERIFY(next);
        w.go_home();
        QVERIFY(!next->isVisible());
        w.go_end();
        QVERIFY(next->isVisible());
        next->click();
        QCOMPARE(c.lesson, course.order[1]);
        QCOMPARE(c.page, 0);
        qunsetenv("RLAB_LESSONS_DIR");
    }

    // Keys 1-4 pick a choice; R reveals it graded with the explanation; an open question gets its model answer.
    void knowledge_check_graded() {
        const std::string dir = std::string(RLAB_SOURCE_DIR) + "/lessons";
        qputenv("RLAB_LESSONS_DIR", QByteArray::fromStdString(dir));
        qt::Classroom c;
        c.scan_lessons();
        QCOMPARE(c.open_lesson("eight-threads"), std::string());
        qt::MainWindow w(c);
        w.resize(1400, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        activate(w);
        w.go_end();
        const PlayedStep& step = c.lab.lesson.step();
        const std::optional<size_t> right = answer_index(step);
        QVERIFY(right && step.choices.size() >= 2);
        qt::QuizPanel* quiz = w.narrative()->quiz();
        QVERIFY(quiz->isVisible() && quiz->choice(0)->isVisible() && !quiz->choice(int(step.choices.size()))->isVisible());
        QVERIFY(!quiz->result()->text().contains(QString::fromStdString(step.explanation)));  // nothing given away
        QTest::keyClick(&w, Qt::Key(Qt::Key_1 + int(*right)));
        QVERIFY(quiz->choice(int(*right))->isChecked());
        QVERIFY(quiz->result()->text().contains("picked"));
        QTest::keyClick(&w, Qt::Key_R);
        QVERIFY(quiz->result()->text().startsWith("Right."));
        QVERIFY(quiz->result()->text().contains(QString::fromStdString(step.explanation)));
        const int wrong = int((*right + 1) % step.choices.size());
        quiz->choice(wrong)->click();
        QVERIFY(!quiz->result()->text().contains("Right."));
        quiz->reveal_button()->click();
        QVERIFY(quiz->result()->text().startsWith("Not quite: the answer is"));
        QVERIFY(quiz->result()->text().contains(QString::fromStdString(step.answer)));
        w.step_back();  // another page: the pick and the reveal are gone
        QVERIFY(!c.lab.lesson.picked && !c.lab.lesson.show_answer);
        // An open question: the model answer on request.
        QCOMPARE(c.open_lesson("knowledge-check"), std::string());
        c.go(0);
        w.refresh();
        QVERIFY(c.lab.lesson.step().choices.empty());
        QVERIFY(quiz->reveal_button()->isVisible() && !quiz->choice(0)->isVisible());
        quiz->reveal_button()->click();
        QVERIFY(quiz->result()->text().startsWith("Model answer:"));
        qunsetenv("RLAB_LESSONS_DIR");
    }

    // File > Open trace and --trace FILE: a saved trace, one page per step; a bad file is one line.
    void recorded_traces_one_step_at_a_time() {
        // A two-step lesson recorded on the H200 (docs/gpu/traces), step 2's file broken: the lesson opens, G shows
        // step 1's GPU trace (read then, the only one held), and step 2 names its file in the status bar at step 2.
        namespace fs = std::filesystem;
        const fs::path dir = fs::path(RLAB_TEST_TMP) / "qt-recorded";
        fs::remove_all(dir);
        fs::create_directories(dir / "recorded" / "two");
        std::ofstream(dir / "two.toml") << "title = \"two recorded steps\"\n[schedule]\nn = 8\nblock = 8\ntype = \"f32\"\n"
                                           "input = \"iota\"\n[[step]]\nat = \"end\"\ntext = \"one\"\n[[step]]\nat = \"end\"\ntext = \"two\"\n";
        fs::copy_file(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json", dir / "recorded" / "two" / "step-1.json");
        std::ofstream(dir / "recorded" / "two" / "step-2.json") << "{\"version\": 1, \"events\": [";
        std::ofstream(dir / "recorded" / "two" / "recorded.txt") << "device: NVIDIA H200\ndate: 2026-12-01T10:00Z\n";
        qt::Classroom c;
        QCOMPARE(c.open_lesson_file((dir / "two.toml").string()), std::string());
        QCOMPARE(c.lab.lesson.recorded_reads(), size_t(0));
        qt::MainWindow w(c);
        w.resize(1400, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::setActiveWindow(&w);  // shortcuts go to the active window
        QTest::keyClick(&w, Qt::Key_G);
        QVERIFY(c.lab.trace.device.find("H200") != std::string::npos);
        QVERIFY(w.windowTitle().contains("GPU trace recorded on NVIDIA H200, 2026-12-01"));
        QCOMPARE(c.lab.lesson.recorded_held(), size_t(1));
        c.go(1);
        w.refresh();
        QCOMPARE(c.lab.lesson.recorded_reads(), size_t(2));
        QCOMPARE(c.lab.lesson.recorded_held(), size_t(0));
        QVERIFY(c.lab.trace.device.find("H200") == std::string::npos);  // the emulator's trace instead
        QVERIFY(!w.windowTitle().contains("GPU trace"));
        const QString msg = w.statusBar()->currentMessage();
        QVERIFY2(msg.contains("step-2.json: step 2's recording does not read: "), qPrintable(msg));
        QVERIFY(!msg.contains('\n'));
        QTest::qWait(100);
        QCOMPARE(w.statusBar()->currentMessage(), msg);  // still there once the window has drawn
        QVERIFY(w.statusBar()->grab().save(QString(RLAB_TEST_TMP) + "/recorded-step-error-status.png"));
    }

    void opens_trace_files() {
        Schedule s;
        s.n = 40;
        s.block = 64;
        const Trace t = emulate(s);
        const QString path = QString(RLAB_TEST_TMP) + "/opened-trace.json";
        QCOMPARE(qt::export_trace_json(path.toStdString(), t), std::string());
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        QCOMPARE(w.open_trace_file(path), "opened " + path);
        QCOMPARE(c.lab.trace.events.size(), t.events.size());
        QCOMPARE(int(c.pages.size()), int(t.step_count));
        const QString bad = QString(RLAB_TEST_TMP) + "/not-a-trace.json";
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"version\": 1}");
        f.close();
        QVERIFY(!w.open_trace_file(bad).startsWith("opened"));
        QCOMPARE(c.lab.trace.events.size(), t.events.size());  // the trace open before stays
        QProcess p;
        p.start(RLAB_QT_EXE, {"--trace", path, "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        p.start(RLAB_QT_EXE, {"--trace", bad, "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        // One line from the program naming the file (Qt's own warnings, such as XDG_RUNTIME_DIR, are not ours).
        const QStringList ours = QString::fromUtf8(p.readAllStandardError()).split('\n').filter("reduction-lab-qt:");
        QCOMPARE(ours.size(), 1);
        QVERIFY(ours.front().contains(bad));
    }
};

QTEST_MAIN(ClassroomTest)
#include "test_classroom.moc"
