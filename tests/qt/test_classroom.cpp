// tests/qt/test_classroom.cpp — the classroom window: eight-thread example, stepping, narrative, chart values, exports.
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include "app/qt/exporter.h"
#include "app/qt/main_window.h"
#include "core/analysis.h"

using namespace rl;

namespace {

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
        // No measurements exist: a clear message instead of an empty chart.
        QVERIFY(w.charts()->timings_message()->text().contains("No measurements yet"));
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
        QCOMPARE(w.export_png((dir + "/frame.png").toStdString()), std::string());
        QVERIFY(head(dir + "/frame.png", 8).startsWith("\x89PNG"));
        QCOMPARE(w.export_svg((dir + "/frame.svg").toStdString()), std::string());
        const QByteArray svg = head(dir + "/frame.svg", 1 << 20);
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("36") || svg.contains(">1<"));
        QCOMPARE(w.export_pdf((dir + "/handout.pdf").toStdString()), std::string());
        QVERIFY(head(dir + "/handout.pdf", 5) == "%PDF-");
        QCOMPARE(pdf_pages(dir + "/handout.pdf"), int(c.pages.size()));
        QCOMPARE(w.export_json((dir + "/trace.json").toStdString()), std::string());
        QVERIFY(head(dir + "/trace.json", 1 << 16).contains("\"events\""));
        QCOMPARE(w.export_chrome((dir + "/chrome.json").toStdString()), std::string());
        QVERIFY(head(dir + "/chrome.json", 1 << 16).contains("traceEvents"));
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

    void command_line() {
        const QString dir = RLAB_TEST_TMP;
        QProcess p;
        p.start(RLAB_QT_EXE, {"--export-pdf", dir + "/cli.pdf", "--n", "8", "--block", "8"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(pdf_pages(dir + "/cli.pdf") >= 2);
        p.start(RLAB_QT_EXE, {"--n", "0", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        QVERIFY(!err.contains('\n'));
        QVERIFY(err.startsWith("reduction-lab-qt:"));
    }
};

QTEST_MAIN(ClassroomTest)
#include "test_classroom.moc"
