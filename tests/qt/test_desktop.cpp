// tests/qt/test_desktop.cpp — the classroom as a desktop app: lesson files from anywhere, recent files, the Help
// menu's shortcut list (read from the window's actions) and About, --version and LESSON_FILE on the command line.
#include <QApplication>
#include <QDialog>
#include <memory>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include "app/qt/help_menu.h"
#include "app/qt/main_window.h"
#include "app/qt/recent_files.h"
#include "core/version.h"

using namespace rl;

namespace {

// A copy of the eight-thread lesson outside the lessons folder, under another name.
QString copied_lesson(const QString& name) {
    const QString path = QString(RLAB_TEST_TMP) + "/" + name + ".toml";
    QFile::remove(path);
    if (!QFile::copy(QString(RLAB_SOURCE_DIR) + "/lessons/eight-threads.toml", path)) return {};
    return path;
}

}  // namespace

class DesktopTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void lesson_file_from_anywhere() {
        const QString path = copied_lesson("my-own-lesson");
        QVERIFY(!path.isEmpty());
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        QCOMPARE(w.open_lesson_file(path), QString());
        QCOMPARE(QString::fromStdString(c.lesson), QString("my-own-lesson"));
        QCOMPARE(int(c.pages.size()), 7);  // the eight-thread lesson's seven steps
        // Not a lesson: a TOML file of another program. One line naming the file; the lesson stays open.
        const QString other = QString(RLAB_TEST_TMP) + "/Cargo.toml";
        QFile f(other);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[package]\nname = \"x\"\n");
        f.close();
        const QString err = w.open_lesson_file(other);
        QVERIFY(err.contains("Cargo.toml"));
        QVERIFY(!err.contains('\n'));
        QCOMPARE(QString::fromStdString(c.lesson), QString("my-own-lesson"));
    }

    void recent_files_newest_first() {
        const QString a = copied_lesson("recent-a"), b = copied_lesson("recent-b");
        qt::remember_recent_file(a);
        qt::remember_recent_file(b);
        qt::remember_recent_file(a);
        const QStringList r = qt::recent_files();
        QVERIFY(r.size() >= 2);
        QCOMPARE(r[0], a);
        QCOMPARE(r[1], b);
        QCOMPARE(r.count(a), 1);
        QFile::remove(b);  // a file since deleted is not offered
        QVERIFY(!qt::recent_files().contains(b));
    }

    void help_lists_the_window_shortcuts() {
        qt::Classroom c;
        QVERIFY(c.open_schedule(Schedule{}));
        qt::MainWindow w(c);
        const QStringList lines = qt::shortcut_lines(&w);
        const QString all = lines.join("\n");
        for (const char* want : {"F1\tKeyboard shortcuts", "F5\tPresenter", "Space\tPlay", "H\tNext hazard",
                                 "Esc\tLeave presenter mode", "N\tNumerics"})
            QVERIFY2(all.contains(want), qPrintable("no '" + QString(want) + "' in:\n" + all));
        QVERIFY(all.contains("Open lesson file"));
        QVERIFY(qt::about_text().contains(QString::fromUtf8(rl::version())));
        std::unique_ptr<QDialog> d(qt::shortcuts_dialog(&w));
        d->show();
        QVERIFY(QTest::qWaitForWindowExposed(d.get()));
        QVERIFY(d->grab().save(QString(RLAB_TEST_TMP) + "/help-shortcuts.png"));  // for a person to look at
    }

    void command_line() {
        QProcess p;
        p.start(RLAB_QT_EXE, {"--version"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).trimmed(), "reduction-lab-qt " + QString(rl::version()));
        // LESSON_FILE, as the desktop's Open With passes it: the handout of that lesson.
        const QString lesson = copied_lesson("cli-lesson"), pdf = QString(RLAB_TEST_TMP) + "/cli-lesson.pdf";
        QFile::remove(pdf);
        p.start(RLAB_QT_EXE, {lesson, "--export-pdf", pdf});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFile::exists(pdf));
        p.start(RLAB_QT_EXE, {lesson, "--lesson", "eight-threads", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("not both"));
        p.start(RLAB_QT_EXE, {QString(RLAB_TEST_TMP) + "/missing.toml", "--quit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("missing.toml"));
    }
};

QTEST_MAIN(DesktopTest)
#include "test_desktop.moc"
