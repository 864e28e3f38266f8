// app/qt/kernel_panel.h — the classroom's kernel dock: the student's file, watched with QFileSystemWatcher and run
// again on save (app/lab's KernelSession runs it on a worker: the window never waits), "running…" while the last
// trace stays shown, the compiler's errors with file and line (a click marks the line in the source dock), the
// kernel field of a plain CUDA file (which of its kernels runs), and the result and hazards of the trace shown.
#pragma once
#include <QFileSystemWatcher>
#include <QTimer>
#include <QWidget>
#include "app/qt/classroom.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
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
    QPlainTextEdit* program_output() const { return output_; }
    QLabel* result() const { return result_; }  // the result, the hazards and (in a calm blue) the notes
    // Which kernel of a plain CUDA file runs: editable (NAME or NAME<ARGS>), its list the kernels the file declares.
    QComboBox* kernel_name() const { return kernel_name_; }
    const QFileSystemWatcher& watcher() const { return watcher_; }
signals:
    void traceChanged();                 // a new trace (pages) or new diagnostics: the window refreshes
    void errorLineChosen(int line);
private:
    void poll();
    void list_kernels();                 // the kernel field's list and text from the file's text and the request
    Classroom& c_;
    QLabel* file_;
    QWidget* kernel_row_;
    QComboBox* kernel_name_;
    std::string listed_text_;            // the text and block size the list was made from
    uint32_t listed_block_ = 0;
    QLabel* status_;
    QLabel* result_;
    QPlainTextEdit* output_;  // a program's output
    QListWidget* errors_;
    QPushButton* rerun_;
    QFileSystemWatcher watcher_;
    QTimer poll_;
};

}  // namespace rl::qt
