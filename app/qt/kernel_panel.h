// app/qt/kernel_panel.h — the classroom's kernel dock: the student's file, watched with QFileSystemWatcher and run
// again on save (app/lab's KernelSession runs it on a worker: the window never waits), "running…" while the last
// trace stays shown, the compiler's errors with file and line (a click marks the line in the source dock), and the
// result and hazards of the trace shown.
#pragma once
#include <QFileSystemWatcher>
#include <QTimer>
#include <QWidget>
#include "app/qt/classroom.h"

class QLabel;
class QListWidget;
class QPushButton;

namespace rl::qt {

class KernelPanel : public QWidget {
    Q_OBJECT
public:
    explicit KernelPanel(Classroom& c, QWidget* parent = nullptr);
    // Opens a kernel file with the sizes of the schedule shown (File > Open kernel…): an error line, or empty.
    QString open(const QString& path);
    QString open_request(const student::KernelRequest& request, const std::string& note);  // an exercise's flags
    void refresh();                      // status, errors and result from the classroom's state
    void watch();                        // (re)watches the open file: editors that save by rename drop the watch
    QListWidget* errors() const { return errors_; }
    QLabel* status() const { return status_; }
    QLabel* result() const { return result_; }  // the result, the hazards and (in a calm blue) the notes
    const QFileSystemWatcher& watcher() const { return watcher_; }
signals:
    void traceChanged();                 // a new trace (pages) or new diagnostics: the window refreshes
    void errorLineChosen(int line);
private:
    void poll();
    Classroom& c_;
    QLabel* file_;
    QLabel* status_;
    QLabel* result_;
    QListWidget* errors_;
    QPushButton* rerun_;
    QFileSystemWatcher watcher_;
    QTimer poll_;
};

}  // namespace rl::qt
