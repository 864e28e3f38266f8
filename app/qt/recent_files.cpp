// app/qt/recent_files.cpp — Open lesson file… and Open recent: the recent list lives in QSettings ("recent_files").
#include "app/qt/recent_files.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

#include "core/data_paths.h"

namespace rl::qt {

QStringList recent_files() {
    QStringList out;
    for (const QString& p : QSettings().value("recent_files").toStringList())
        if (QFileInfo::exists(p) && out.size() < 8) out << p;
    return out;
}

void remember_recent_file(const QString& path) {
    QStringList list = recent_files();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > 8) list.removeLast();
    QSettings().setValue("recent_files", list);
}

void add_open_actions(QMenu* file, QWidget* parent, std::function<QString(const QString&)> open) {
    // Opens a file, remembers it when it opened, says why when it did not.
    auto open_and_remember = [parent, open](const QString& path) {
        const QString err = open(path);
        if (err.isEmpty())
            remember_recent_file(path);
        else
            QMessageBox::warning(parent, "Open lesson file", err);
    };
    // Ctrl+Shift+O: Ctrl+O opens a kernel (File > Open kernel…), what a student does most.
    file->addAction("&Open lesson file…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), parent, [parent, open_and_remember] {
        const QString start = recent_files().isEmpty() ? QString::fromStdString(find_lessons_dir())
                                                       : QFileInfo(recent_files().first()).absolutePath();
        const QString path = QFileDialog::getOpenFileName(parent, "Open lesson file", start, "Lessons (*.toml)");
        if (!path.isEmpty()) open_and_remember(path);
    });
    QMenu* recent = file->addMenu("Open &recent");
    // Filled when shown, so it is current after every open.
    QObject::connect(recent, &QMenu::aboutToShow, parent, [recent, open_and_remember] {
        recent->clear();
        const QStringList files = recent_files();
        if (files.isEmpty()) recent->addAction("(none yet)")->setEnabled(false);
        for (const QString& f : files)
            recent->addAction(QFileInfo(f).fileName() + "  —  " + QFileInfo(f).absolutePath(),
                              [f, open_and_remember] { open_and_remember(f); });
    });
    file->addSeparator();
}

}  // namespace rl::qt
