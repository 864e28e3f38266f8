// tests/qt/test_source_panel.cpp — the classroom's source dock: it shows the schedule's generated source, a click on
// a line marks exactly that line's events in the canvas, a click on an event picks its line, D shows the bug diff,
// presenter mode makes the code large, and the PDF handout prints the code. Expectations come from codegen directly
// (kernel_source, line_table), not from the panel's model.
#include <QApplication>
#include <QCheckBox>
#include <QRegularExpression>
#include <QDockWidget>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <set>
#include "app/qt/help_menu.h"
#include "app/qt/main_window.h"
#include "codegen/kernel_source.h"
#include "tests/support/source_view.h"

using namespace rl;

namespace {

void activate(QWidget& w) {
    QApplication::setActiveWindow(&w);
    QTest::qWait(20);
}

// The window at the size these tests use, shown; false when it never appeared.
bool show_at_test_size(qt::MainWindow& w) {
    w.resize(1500, 850);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

}  // namespace

class SourcePanelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void shows_the_schedules_source_and_links_lines_and_events() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(test::two_warps()));
        qt::MainWindow w(c);
        QVERIFY(show_at_test_size(w));
        activate(w);
        QVERIFY(w.source_dock()->isVisible());
        qt::SourceView* view = w.source()->view();

        // The panel shows exactly the generated source of the schedule.
        const KernelSource src = kernel_source(c.lab.trace.schedule);
        QCOMPARE(view->rows().size(), src.lines.size());
        for (size_t i = 0; i < src.lines.size(); ++i) QCOMPARE(std::string(view->rows()[i].text), src.lines[i].text);

        // A click on the shuffle line marks exactly its events (line_table recomputed here).
        const std::vector<uint32_t> table = line_table(src, c.lab.trace);
        const int shuffle = src.line_of("shuffle");
        QVERIFY(shuffle > 0);
        std::set<uint32_t> of_line;
        for (uint32_t e = 0; e < table.size(); ++e)
            if (int(table[e]) == shuffle) of_line.insert(e);
        QVERIFY(!of_line.empty());
        const std::vector<uint32_t> model = c.lab.source.events_of_line(shuffle);
        QCOMPARE(std::set<uint32_t>(model.begin(), model.end()), of_line);
        w.go_home();
        const QPoint at = view->point_of_row(view->row_of_line(shuffle));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(c.lab.source_line, shuffle);
        std::set<uint32_t> marked;
        for (uint32_t e = 0; e < c.lab.line_marks.size(); ++e)
            if (c.lab.line_marks[e]) marked.insert(e);
        QCOMPARE(marked, of_line);
        // ... and the canvas draws them so: every drawn box of the line edged, no other.
        w.go_end();
        w.canvas()->repaint();
        QApplication::processEvents();
        std::set<uint32_t> drawn, edged, expected;
        test::line_marked_events(w.canvas()->last_scene(), c.lab.dark, edged, drawn);
        for (uint32_t e : drawn)
            if (of_line.count(e)) expected.insert(e);
        QVERIFY(!expected.empty());
        QCOMPARE(edged, expected);

        // A click on an event in the canvas picks its line in the panel: a value box (another line than the shuffle).
        const render::SceneBox* target = nullptr;
        for (const render::SceneBox& b : w.canvas()->last_scene().boxes)
            if (b.role == render::BoxRole::Value && b.event != kNoEvent && table[b.event] && int(table[b.event]) != shuffle &&
                b.w >= 4 && b.h >= 4) {
                target = &b;
                break;
            }
        QVERIFY(target);
        const int box_line = int(table[target->event]);
        const uint32_t ev = target->event;
        const double dpr = w.canvas()->devicePixelRatioF();
        const QPoint centre(int((target->x + target->w / 2) / dpr), int((target->y + target->h / 2) / dpr));
        QTest::mouseClick(w.canvas(), Qt::LeftButton, {}, centre);
        QCOMPARE(c.lab.selected, ev);
        QCOMPARE(c.lab.source_line, box_line);
        QVERIFY(c.lab.line_marks.empty());
        int picked = -1;
        for (size_t i = 0; i < view->rows().size(); ++i)
            if (view->rows()[i].picked) picked = view->rows()[i].line;
        QCOMPARE(picked, box_line);
        const int row = view->row_of_line(box_line);
        QVERIFY(row >= view->first_visible_row() && row < view->first_visible_row() + view->visible_rows());

        // S hides and shows the panel.
        QTest::keyClick(&w, Qt::Key_S);
        QVERIFY(!w.source_dock()->isVisible());
        QTest::keyClick(&w, Qt::Key_S);
        QVERIFY(w.source_dock()->isVisible());
    }

    void bug_diff_key_and_help() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(test::two_warps(uint16_t(Bug::FullMaskPartialWarp))));
        qt::MainWindow w(c);
        QVERIFY(show_at_test_size(w));
        activate(w);
        const auto& rows = w.source()->view()->rows();
        int bug = 0;
        for (const lab::SourceRow& r : rows) bug += r.bug;
        QVERIFY(bug > 0);
        QVERIFY(w.source()->diff_box()->isVisible());
        QTest::keyClick(&w, Qt::Key_D);
        QVERIFY(c.lab.source_diff);
        const KernelSource clean = kernel_source([&] { Schedule s = c.lab.trace.schedule; s.bugs = 0; return s; }());
        size_t minus = 0, plus = 0, clean_rows = 0;
        for (const lab::SourceRow& r : w.source()->view()->rows()) {
            minus += r.op == '-';
            plus += r.op == '+';
            clean_rows += r.op != '+';
        }
        QVERIFY(plus > 0);
        QVERIFY(minus > 0);
        QCOMPARE(clean_rows, clean.lines.size());
        QTest::keyClick(&w, Qt::Key_D);
        QVERIFY(!c.lab.source_diff);
        // The keys are listed in Help > Keyboard shortcuts.
        const QStringList keys = qt::shortcut_lines(&w);
        QVERIFY(keys.filter(QRegularExpression("^D\\t.*diff", QRegularExpression::CaseInsensitiveOption)).size() == 1);
        QVERIFY(keys.filter(QRegularExpression("^S\\t.*source", QRegularExpression::CaseInsensitiveOption)).size() == 1);
    }

    void presenter_size() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        QVERIFY(show_at_test_size(w));
        w.set_presenter(true);
        QTest::qWait(50);
        QVERIFY(w.source_dock()->isVisible());
        QVERIFY(w.source()->view()->font_px() >= 18);
        w.set_presenter(false);
        QVERIFY(w.source()->view()->font_px() < 18);
    }

    // Skips where pdftotext is missing: CTest runs it alone (rlab_qt_source_handout_code), so it counts the skip.
    void handout_code() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        QVERIFY(show_at_test_size(w));
        const QString pdf = QString(RLAB_TEST_TMP) + "/source-handout.pdf";
        QCOMPARE(w.export_pdf(pdf.toStdString()), std::string());
        const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
        if (pdftotext.isEmpty()) QSKIP("pdftotext (poppler-utils) not installed");
        // The page of the first shuffle step holds the shuffle's line of code.
        int page = -1;
        const int shuffle_row = [&] {
            const int line = c.lab.source.source.line_of("shuffle");
            for (uint32_t e = 0; e < c.lab.source.event_line.size(); ++e)
                if (int(c.lab.source.event_line[e]) == line) return int(c.lab.layout.event_row[e]);
            return -1;
        }();
        for (int k = 0; k <= c.last_page(); ++k)
            if (c.pages[size_t(k)].cursor_step == shuffle_row) page = k + 1;
        QVERIFY(page > 0);
        QProcess p;
        p.start(pdftotext, {"-f", QString::number(page), "-l", QString::number(page), "-layout", pdf, "-"});
        QVERIFY(p.waitForFinished(20000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(text.contains("__shfl_down_sync"), qPrintable(text.left(2000)));
        QVERIFY(text.contains("__global__"));
    }
};

QTEST_MAIN(SourcePanelTest)
#include "test_source_panel.moc"
