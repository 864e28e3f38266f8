// tests/qt/test_kernel.cpp — a student's kernel in the classroom: File > Open kernel shows its trace and its own file in
// the source dock (each shuffle line holding exactly the warp's shuffles), a save re-runs it while the last trace stays
// shown ("running…"), and a compile error is listed with file and line and lit in the source dock. Expectations are
// counted from the kernel text and the sizes here, not from the panel's model.
#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTimer>
#include "app/lab/source_view.h"
#include "app/qt/kernel_panel.h"
#include "app/qt/main_window.h"

using namespace rl;

namespace {

constexpr int kWait = 180000;  // the first compile of a kernel (the plugin cache is empty in CI)

// The kernel a student would write (tests/support/warp_sum.cu).
QByteArray good_kernel() {
    QFile f(QString(RLAB_SOURCE_DIR) + "/tests/support/warp_sum.cu");
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

size_t shuffles(const Trace& t) {
    size_t n = 0;
    for (const Event& e : t.events) n += e.kind == EventKind::Shuffle;
    return n;
}

// Puts the editor's cursor on the first `what`, selected, so that typed keys replace it.
void select_in(QPlainTextEdit* ed, const QString& what) {
    QTextCursor cur = ed->document()->find(what);
    QVERIFY2(!cur.isNull(), qPrintable(what));
    ed->setTextCursor(cur);
}

// The student's file in the test's folder, holding `text`.
QString student_file(const char* name, const QByteArray& text) {
    const QString path = QString(RLAB_TEST_TMP) + "/" + name;
    write(path, text);
    return path;
}

// Clicks `button` of the question box once it is up (it runs its own event loop).
void answer_question(QMessageBox::StandardButton button) {
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        poll->deleteLater();
        box->button(button)->click();
    });
    poll->start(20);
}

// The sizes the kernel opens with: n 40 in blocks of 64 threads.
bool open_sizes(qt::Classroom& c) {
    Schedule sizes;
    sizes.n = 40;
    sizes.block = 64;
    return c.open_schedule(sizes);
}

bool show(qt::MainWindow& w) {
    w.resize(1500, 850);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

int line_containing(const QByteArray& text, const char* what) {
    const QList<QByteArray> lines = text.split('\n');
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(what)) return i + 1;
    return 0;
}

}  // namespace

class KernelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opens_a_kernel_reruns_on_save_and_shows_compile_errors() {
        const QByteArray kGood = good_kernel();
        QVERIFY(kGood.contains("RL_KERNEL"));
        const QString path = student_file("student_warp_sum.cu", kGood);
        qt::Classroom c;
        QVERIFY(open_sizes(c));
        qt::MainWindow w(c);
        QVERIFY(show(w));

        // Open: the trace of the student's file, its text in the source dock.
        QCOMPARE(w.open_kernel_file(path), QString());
        QVERIFY(w.kernel_dock()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(c.lab.trace.kernel_file == path.toStdString(), kWait);
        QVERIFY2(c.lab.kernel->error.empty(), c.lab.kernel->error.c_str());
        const QList<QByteArray> lines = kGood.split('\n');
        const std::vector<lab::SourceRow>& rows = w.source()->view()->rows();
        QVERIFY(rows.size() >= size_t(lines.size() - 1));
        for (size_t i = 0; i < rows.size(); ++i) QCOMPARE(QByteArray(rows[i].text.data(), int(rows[i].text.size())), lines[int(i)]);
        QVERIFY(w.source_dock()->windowTitle().contains("student_warp_sum.cu"));
        // 64 threads, 5 offsets: 320 shuffles, all on the shuffle's line (its combines share the line).
        const int shfl = line_containing(kGood, "__shfl_down_sync");
        size_t shuffles = 0, elsewhere = 0;
        for (uint32_t e : c.lab.source.events_of_line(shfl)) shuffles += c.lab.trace.events[e].kind == EventKind::Shuffle;
        for (size_t e = 0; e < c.lab.trace.events.size(); ++e)
            elsewhere += c.lab.trace.events[e].kind == EventKind::Shuffle && c.lab.trace.lines[e] != shfl;
        QCOMPARE(shuffles, size_t(64 * 5));
        QCOMPARE(elsewhere, size_t(0));
        QVERIFY(c.lab.trace.hazards.empty());
        // A click on the line marks exactly those events in the canvas.
        w.pick_source_line(shfl);
        size_t marked = 0;
        for (uint8_t m : c.lab.line_marks) marked += m;
        QCOMPARE(marked, c.lab.source.events_of_line(shfl).size());

        // Save with a bug: "running…" while the last trace stays, then the new trace with the checker's finding.
        const size_t events_before = c.lab.trace.events.size();
        QByteArray tail = QByteArray(kGood).replace("auto v = i < n ? in[i] : rl::identity<float>();",
                                                    "rl::Value<float> v;\n    if (i < n) v = in[i];");
        write(path, tail);
        QTRY_VERIFY_WITH_TIMEOUT(w.kernel()->status()->text().startsWith("running"), 10000);
        QCOMPARE(c.lab.trace.events.size(), events_before);  // the last trace is still shown
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.trace.hazards.empty(), kWait);
        bool tail_found = false;
        for (const Hazard& h : c.lab.trace.hazards) tail_found = tail_found || h.kind == HazardKind::UninitialisedTail;
        QVERIFY(tail_found);
        QCOMPARE(w.source()->view()->rows().size(), size_t(tail.split('\n').size() - 1));

        // Save a compile error: listed with file and line, lit in the source dock; the canvas keeps its trace.
        const size_t events_tail = c.lab.trace.events.size();
        QByteArray broken = QByteArray(kGood).replace("for (int offset = 16;", "for (int offset = 16 oops;");
        const int bad_line = line_containing(broken, "oops");
        write(path, broken);
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.kernel->error.empty(), kWait);
        QCOMPARE(c.lab.kernel->error_line, bad_line);
        QVERIFY(w.kernel()->errors()->count() > 0);
        const QString first = w.kernel()->errors()->item(0)->text();
        QVERIFY2(first.startsWith(path + ":" + QString::number(bad_line) + ":"), qPrintable(first));
        int lit = 0;
        for (const lab::SourceRow& r : w.source()->view()->rows()) lit += r.error ? r.line : 0;
        QCOMPARE(lit, bad_line);
        QCOMPARE(c.lab.trace.events.size(), events_tail);
    }

    // One atomicAdd per element to out[0]: correct, only serialised. The panel says "0 hazard(s)" and lists the
    // chain as a note (named so, in the calm blue #4a90d9), never in the hazards' orange #e8743b.
    void shows_a_cost_finding_as_a_note_not_a_hazard() {
        const QString path = student_file("student_atomics.cu", "#include <rlab/kernel.h>\n\n"
                                                                 "RL_KERNEL void per_element(rl::In<float> in, rl::Out<float> out, int n) {\n"
                                                                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                                                 "    if (i < n) atomicAdd(&out[0], in[i]);\n"
                                                                 "}\n");
        qt::Classroom c;
        QVERIFY(open_sizes(c));
        qt::MainWindow w(c);
        QVERIFY(show(w));
        QCOMPARE(w.open_kernel_file(path), QString());
        QTRY_VERIFY_WITH_TIMEOUT(c.lab.trace.kernel_file == path.toStdString() && !c.lab.kernel->running(), kWait);
        QVERIFY2(c.lab.kernel->error.empty(), c.lab.kernel->error.c_str());
        // 40 elements, 40 atomics on out[0]: a chain as long as the input, the one note; no hazard.
        QVERIFY(c.lab.trace.hazards.empty());
        QCOMPARE(c.lab.trace.notes.size(), size_t(1));
        QCOMPARE(c.lab.trace.notes[0].kind, HazardKind::AtomicContention);
        QTRY_VERIFY_WITH_TIMEOUT(w.kernel()->result()->text().contains("0 hazard(s)"), 10000);
        const QString text = w.kernel()->result()->text();
        QVERIFY2(text.contains("<span style='color:#4a90d9'>note (atomic-contention)</span>"), qPrintable(text));
        QVERIFY2(!text.contains("#e8743b"), qPrintable(text));
    }

    // A plain CUDA file of two kernels: the run says to name one (one line listing both), the kernel field lists
    // both, a pick runs that one, and a typed name the file lacks is refused with the list again. (The course file
    // without its main(): with main() and no name it runs as a program.)
    void names_the_kernel_of_a_plain_cuda_file() {
        const QByteArray course = read(QString(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/course_two_kernels.cu");
        const QString path = student_file("student_two_kernels.cu", course.left(course.indexOf("int main()")));
        qt::Classroom c;
        Schedule sizes;
        sizes.n = 256;
        sizes.block = 256;
        QVERIFY(c.open_schedule(sizes));
        qt::MainWindow w(c);
        QVERIFY(show(w));
        QCOMPARE(w.open_kernel_file(path), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.kernel->text.empty(), kWait);
        const std::string& first = c.lab.kernel->error;
        if (first.find("LLVM") != std::string::npos || first.find("clang-14 was not found") != std::string::npos)
            QSKIP(first.c_str());
        QCOMPARE(QString::fromStdString(first),
                 QString("the file has 2 kernels (block_partials, finish_sum): name the one to run with --kernel NAME"));
        QComboBox* field = w.kernel()->kernel_name();
        QTRY_VERIFY(field->isVisible());
        QCOMPARE(field->count(), 2);
        QCOMPARE(field->itemText(0), QString("block_partials"));
        QCOMPARE(field->itemText(1), QString("finish_sum"));

        // A pick from the list runs it: one block sums 1..256.
        field->setCurrentIndex(1);
        emit field->activated(1);
        QTRY_VERIFY_WITH_TIMEOUT(c.lab.trace.kernel_file == path.toStdString() && !c.lab.kernel->running(), kWait);
        QCOMPARE(QString::fromStdString(c.lab.kernel->request().kernel), QString("finish_sum"));
        QVERIFY2(c.lab.kernel->error.empty(), c.lab.kernel->error.c_str());
        const Schedule& s = c.lab.trace.schedule;
        QCOMPARE(QString::fromStdString(format_value(s.op, s.type, c.lab.trace.result_value)), QString("32896"));
        QCOMPARE(field->currentText(), QString("finish_sum"));

        // A typed name and Enter: the file has no such kernel, and the line lists those it has.
        field->lineEdit()->selectAll();
        QTest::keyClicks(field->lineEdit(), "finish");
        QTest::keyClick(field->lineEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.kernel->error.empty(), kWait);
        QCOMPARE(QString::fromStdString(c.lab.kernel->error),
                 QString("--kernel finish: the file has no kernel finish (its kernels: block_partials, finish_sum)"));
        QCOMPARE(field->currentText(), QString("finish"));
    }

    // A program with main(): the kernel dock shows what it printed and, in the warning colour, that main() returned 3,
    // beside the launches' result (a correct sum: the kernel is right, the program's status fails it).
    void shows_a_programs_output_and_status() {
        const QString path = QString(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/program_main_returns_3.cu";
        qt::Classroom c;
        QVERIFY(open_sizes(c));
        qt::MainWindow w(c);
        QVERIFY(show(w));
        QCOMPARE(w.open_kernel_file(path), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.kernel->text.empty(), kWait);
        const std::string& err = c.lab.kernel->error;
        if (err.find("LLVM") != std::string::npos || err.find("clang-14 was not found") != std::string::npos) QSKIP(err.c_str());
        QVERIFY2(err.empty(), err.c_str());
        QVERIFY(c.lab.kernel->program);
        QTRY_VERIFY_WITH_TIMEOUT(w.kernel()->program_output()->isVisible(), 10000);
        // block_sum over 1..256 (the file's own input), printed by its main() as "sum = %.0f".
        QCOMPARE(w.kernel()->program_output()->toPlainText(), QString("sum = 32896\n"));
        const QString text = w.kernel()->result()->text();
        QVERIFY2(text.contains("result 32896, reference 32896"), qPrintable(text));
        QVERIFY2(text.contains("<span style='color:#e8743b'>the program's main() returned 3</span>"), qPrintable(text));
        // A kernel file (no main()): no output box.
        QCOMPARE(w.open_kernel_file(QString(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/harris3_sequential.cu"), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.kernel->program, kWait);
        QTRY_VERIFY_WITH_TIMEOUT(!w.kernel()->program_output()->isVisible(), 10000);
    }

    // Editing in the source dock: Ctrl+E opens the editor on the file, typed keys go to it (not to the window's
    // one-key shortcuts), Ctrl+S writes the text and runs it once, Ctrl+E shows the lit view of the new trace; a
    // syntax error is listed and lit with its line while the editor keeps the text, and the fix gives a trace.
    void edits_the_kernel_in_the_source_dock() {
        const QByteArray kGood = good_kernel();
        const QString path = student_file("student_edit_sum.cu", kGood);
        qt::Classroom c;
        QVERIFY(open_sizes(c));
        qt::MainWindow w(c);
        QVERIFY(show(w));
        QCOMPARE(w.open_kernel_file(path), QString());
        QTRY_VERIFY_WITH_TIMEOUT(c.lab.trace.kernel_file == path.toStdString() && !c.lab.kernel->running(), kWait);
        QCOMPARE(shuffles(c.lab.trace), size_t(64 * 5));

        QPlainTextEdit* ed = w.source()->editor();
        QVERIFY(!ed->isVisible());
        w.activateWindow();  // Ctrl+E and Ctrl+S are the window's actions: shortcuts reach the active window only
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(w.source()->editing());
        QVERIFY(ed->isVisible());
        QVERIFY(!w.source()->view()->isVisible());
        QCOMPARE(ed->toPlainText().toUtf8(), kGood);
        QCOMPARE(ed->font().pixelSize(), int(w.source()->view()->font_px()));  // the lit view's size
        QVERIFY(!w.source_dock()->windowTitle().contains("*"));

        // "16" -> "4": offsets 4, 2, 1. The 4 is also the window's "pick choice 4": the editor must get it.
        select_in(ed, "offset = 16");
        QTest::keyClicks(ed, "offset = 4");
        QCOMPARE(ed->toPlainText().toUtf8(), QByteArray(kGood).replace("offset = 16", "offset = 4"));
        QVERIFY(w.source_dock()->windowTitle().contains(" *"));
        const size_t runs = c.lab.kernel->runs_done();
        QTest::keyClick(ed, Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(read(path), QByteArray(kGood).replace("offset = 16", "offset = 4"));
        QVERIFY(!w.source_dock()->windowTitle().contains("*"));
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && shuffles(c.lab.trace) == size_t(64 * 3), kWait);
        QVERIFY(c.lab.trace.result_value != c.lab.trace.reference_value);  // lanes 0-7 of each warp only: not the sum
        QTest::qWait(600);  // the watcher's signal for the rename has come and gone: it started no second run
        QVERIFY(!c.lab.kernel->running());
        QCOMPARE(c.lab.kernel->runs_done(), runs + 1);

        // Back to the lit view: the new file, the 4's line holding the shuffles' loop.
        QTest::keyClick(ed, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(!w.source()->editing());
        QVERIFY(w.source()->view()->isVisible());
        const QByteArray four = read(path);
        const std::vector<lab::SourceRow>& rows = w.source()->view()->rows();
        const int loop = line_containing(four, "offset = 4;");
        QVERIFY(loop > 0);
        QCOMPARE(QByteArray(rows[size_t(loop - 1)].text.data(), int(rows[size_t(loop - 1)].text.size())),
                 four.split('\n')[loop - 1]);

        // A syntax error typed in the editor: listed with file and line, lit in the editor; the text stays.
        QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(ed->isVisible());
        select_in(ed, "offset = 4;");
        QTest::keyClicks(ed, "offset = 4 oops;");
        const QByteArray broken = ed->toPlainText().toUtf8();
        const int bad_line = line_containing(broken, "oops");
        QTest::keyClick(ed, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && !c.lab.kernel->error.empty(), kWait);
        QCOMPARE(c.lab.kernel->error_line, bad_line);
        QVERIFY(w.kernel()->errors()->count() > 0);
        const QString first = w.kernel()->errors()->item(0)->text();
        QVERIFY2(first.startsWith(path + ":" + QString::number(bad_line) + ":"), qPrintable(first));
        QCOMPARE(ed->toPlainText().toUtf8(), broken);
        bool lit = false;
        for (const QTextEdit::ExtraSelection& m : ed->extraSelections())
            lit = lit || m.cursor.block().blockNumber() + 1 == bad_line;
        QVERIFY(lit);
        QCOMPARE(shuffles(c.lab.trace), size_t(64 * 3));  // the canvas keeps the last trace

        // The fix, offsets 8, 4, 2, 1: a trace again, nothing lit.
        select_in(ed, "offset = 4 oops;");
        QTest::keyClicks(ed, "offset = 8;");
        QTest::keyClick(ed, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!c.lab.kernel->running() && c.lab.kernel->error.empty() && shuffles(c.lab.trace) == size_t(64 * 4), kWait);
        QVERIFY(ed->extraSelections().isEmpty());
        QVERIFY(c.lab.trace.hazards.empty());
        QVERIFY(!w.source_dock()->windowTitle().contains("*"));
        double first16 = 0;  // offsets 8 .. 1: lane 0 of each warp adds lanes 0-15, from the inputs the trace recorded
        for (size_t i = 0; i < c.lab.trace.inputs.size(); ++i) first16 += i % 32 < 16 ? c.lab.trace.inputs[i] : 0.0;
        QCOMPARE(numeric_value(c.lab.trace.schedule.op, c.lab.trace.schedule.type, c.lab.trace.result_value), first16);

        // Unsaved edits when the window closes: Cancel keeps the window and the edits, Save writes them.
        select_in(ed, "offset = 8;");
        QTest::keyClicks(ed, "offset = 16;");
        QVERIFY(c.lab.kernel_editor.modified());
        answer_question(QMessageBox::Cancel);
        QVERIFY(!w.close());
        QVERIFY(w.isVisible());
        QCOMPARE(ed->toPlainText().toUtf8(), kGood);
        QVERIFY(read(path) != kGood);
        answer_question(QMessageBox::Save);
        QVERIFY(w.close());
        QCOMPARE(read(path), kGood);
    }
};

QTEST_MAIN(KernelTest)
#include "test_kernel.moc"
