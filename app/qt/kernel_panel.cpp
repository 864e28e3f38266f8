// app/qt/kernel_panel.cpp — the kernel dock: watch, re-run on save, poll the worker, show errors and the result.
#include "app/qt/kernel_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLineEdit>
#include <algorithm>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include "app/lab/kernel_request.h"

namespace rl::qt {

KernelPanel::KernelPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName("kernelPanel");
    auto* v = new QVBoxLayout(this);
    file_ = new QLabel(this);
    file_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    file_->setWordWrap(true);
    // A plain CUDA file of several kernels, or a template kernel, runs the one named here (rlab run's --kernel NAME).
    kernel_row_ = new QWidget(this);
    auto* row = new QHBoxLayout(kernel_row_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel("Kernel", kernel_row_));
    kernel_name_ = new QComboBox(kernel_row_);
    kernel_name_->setObjectName("kernelName");
    kernel_name_->setEditable(true);
    kernel_name_->setInsertPolicy(QComboBox::NoInsert);
    kernel_name_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    kernel_name_->lineEdit()->setPlaceholderText("NAME or NAME<ARGS> (a file of several kernels)");
    kernel_name_->setToolTip("the __global__ to run; a template with its arguments, e.g. reduce6<256> (Enter runs it)");
    row->addWidget(kernel_name_, 1);
    status_ = new QLabel(this);
    status_->setObjectName("kernelStatus");
    status_->setWordWrap(true);
    result_ = new QLabel(this);
    result_->setWordWrap(true);
    // What a program with main() printed (stdout and stderr in the order written), as a terminal would show it.
    output_ = new QPlainTextEdit(this);
    output_->setObjectName("programOutput");
    output_->setReadOnly(true);
    output_->setLineWrapMode(QPlainTextEdit::NoWrap);
    output_->setPlaceholderText("(the program printed nothing)");
    output_->setMaximumHeight(output_->fontMetrics().lineSpacing() * 8);
    output_->hide();
    errors_ = new QListWidget(this);
    errors_->setObjectName("kernelErrors");
    errors_->setWordWrap(true);
    rerun_ = new QPushButton("Run again", this);
    rerun_->setToolTip("the file is watched: saving it runs it again");
    v->addWidget(file_);
    v->addWidget(kernel_row_);
    v->addWidget(status_);
    v->addWidget(rerun_);
    v->addWidget(result_);
    v->addWidget(output_);
    v->addWidget(errors_, 100);
    v->addStretch(1);  // with no errors listed the lines stay together at the top
    connect(rerun_, &QPushButton::clicked, this, [this] {
        c_.lab.kernel->start();
        refresh();
    });
    // A kernel picked from the list, or a name typed and Enter: run that kernel.
    auto run_named = [this](const QString& name) {
        const std::string n = name.trimmed().toStdString();
        if (!c_.lab.kernel->active() || n == c_.lab.kernel->request().kernel) return;
        c_.lab.kernel->set_kernel(n);
        refresh();
    };
    connect(kernel_name_, qOverload<int>(&QComboBox::activated), this,
            [this, run_named](int index) { run_named(kernel_name_->itemText(index)); });
    connect(kernel_name_->lineEdit(), &QLineEdit::returnPressed, this, [this, run_named] { run_named(kernel_name_->currentText()); });
    connect(errors_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const int line = item->data(Qt::UserRole).toInt();
        if (line <= 0) return;
        c_.lab.kernel->error_line = line;
        emit errorLineChosen(line);
    });
    // A save: run the file again. The worker keeps one run at a time and runs the latest save last. A save from the
    // source dock's editor started its run already: poll_file sees that run's time stamp and size and starts none.
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, [this] {
        c_.lab.kernel->poll_file();
        watch();  // an editor that saves by writing a new file and renaming it: the watch is on the old inode
        refresh();
    });
    poll_.setInterval(100);  // takes a finished run on the GUI thread; the run itself is on the worker
    connect(&poll_, &QTimer::timeout, this, &KernelPanel::poll);
    poll_.start();
    watch();
    refresh();
}

QString KernelPanel::open(const QString& path) {
    std::string note;
    try {
        return open_request(lab::kernel_request_for(path.toStdString(), c_.lab.schedule, c_.lab.backend, &note), note);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QString KernelPanel::open_request(const student::KernelRequest& request, const std::string& note) {
    if (std::string err = c_.open_kernel(request); !err.empty()) return QString::fromStdString(err);
    c_.lab.backend_note = note;
    watch();
    refresh();
    return {};
}

void KernelPanel::watch() {
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    if (c_.lab.kernel->active()) watcher_.addPath(QString::fromStdString(c_.lab.kernel->file()));
}

void KernelPanel::poll() {
    if (!c_.lab.kernel->active()) return;
    if (c_.take_kernel_run()) {
        refresh();
        emit traceChanged();
    } else if (c_.lab.kernel->running() != status_->property("running").toBool()) {
        refresh();  // "running…" appears as soon as the run starts
    }
}

void KernelPanel::list_kernels() {
    lab::KernelSession& k = *c_.lab.kernel;
    const uint32_t block = k.request().schedule.block;
    if (listed_text_ != k.text || listed_block_ != block) {
        listed_text_ = k.text;
        listed_block_ = block;
        const QString typed = kernel_name_->currentText();
        kernel_name_->clear();
        for (const std::string& name : lab::kernel_choices(listed_text_, block)) kernel_name_->addItem(QString::fromStdString(name));
        kernel_name_->setCurrentText(typed);
    }
    // The request's kernel, unless the student is typing another one.
    const QString asked = QString::fromStdString(k.request().kernel);
    if (!kernel_name_->lineEdit()->hasFocus() && kernel_name_->currentText() != asked) kernel_name_->setCurrentText(asked);
    kernel_row_->setVisible(k.active() && (kernel_name_->count() > 0 || !asked.isEmpty()));
}

void KernelPanel::refresh() {
    lab::KernelSession& k = *c_.lab.kernel;
    setEnabled(k.active());
    list_kernels();
    // The note says where an exercise's working copy lives and why the emulator runs it when no GPU is usable.
    const QString note = c_.lab.backend_note.empty()
                             ? QString()
                             : "<br><span style='color:gray'>" + QString::fromStdString(c_.lab.backend_note).toHtmlEscaped() +
                                   "</span>";
    file_->setText(k.active() ? "<b>" + QFileInfo(QString::fromStdString(k.file())).fileName().toHtmlEscaped() + "</b><br>" +
                                    QString::fromStdString(k.file()).toHtmlEscaped() + note
                              : "No kernel open: File › Open kernel… (Ctrl+O), --kernel FILE.cu or --exercise NAME");
    const bool running = k.running();
    status_->setProperty("running", running);
    status_->setText(running ? "running…  (the last trace stays shown until the new one arrives)"
                             : QString::fromStdString(k.status()));
    status_->setStyleSheet(!running && !k.error.empty() ? "color: #e8743b;" : "");
    rerun_->setEnabled(k.active() && !running);
    errors_->clear();
    for (const student::Diagnostic& d : k.diagnostics) {
        auto* item = new QListWidgetItem(QString::fromStdString(d.file + ":" + std::to_string(d.line) + ":" +
                                                                std::to_string(d.column) + ": " + d.message),
                                         errors_);
        item->setData(Qt::UserRole, d.line);
    }
    errors_->setVisible(!k.diagnostics.empty());
    QString result;
    const Trace& t = c_.lab.trace;
    if (k.active() && k.error.empty() && !t.kernel_file.empty()) {
        const Schedule& s = t.schedule;
        result = QString("result %1, reference %2: %3<br>%4 hazard(s)")
                     .arg(QString::fromStdString(format_value(s.op, s.type, t.result_value)),
                          QString::fromStdString(format_value(s.op, s.type, t.reference_value)),
                          QString::fromStdString(std::string(to_string(c_.lab.analysis.verdict))))
                     .arg(t.hazards.size());
        // A run summarised by level of detail says what it shows in full and what as counts (core/level_of_detail.h).
        if (t.detail.active()) result += "<br>" + QString::fromStdString(level_of_detail_line(t)).toHtmlEscaped();
        const size_t shown = std::min<size_t>(t.hazards.size(), 6);  // the rest: rlab run, or H in the canvas
        for (size_t i = 0; i < shown; ++i) {
            const Hazard& h = t.hazards[i];
            result += "<br><span style='color:#e8743b'>" + QString::fromStdString(std::string(to_string(h.kind))) + "</span>: " +
                      QString::fromStdString(h.what).toHtmlEscaped();
        }
        if (t.hazards.size() > shown) result += QString("<br>… and %1 more (H steps to each)").arg(t.hazards.size() - shown);
        // Notes: cost findings of correct code, in a calm colour and named as notes, never as hazards.
        for (const Hazard& h : t.notes)
            result += "<br><span style='color:#4a90d9'>note (" + QString::fromStdString(std::string(to_string(h.kind))) +
                      ")</span>: " + QString::fromStdString(h.what).toHtmlEscaped();
    }
    if (k.active() && k.error.empty() && !k.program_failure.empty())
        result += "<br><span style='color:#e8743b'>" + QString::fromStdString(k.program_failure).toHtmlEscaped() + "</span>";
    result_->setText(result);
    output_->setVisible(k.active() && k.program && k.error.empty());
    if (output_->toPlainText() != QString::fromStdString(k.program_output))
        output_->setPlainText(QString::fromStdString(k.program_output));
}

}  // namespace rl::qt
