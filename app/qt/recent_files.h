// app/qt/recent_files.h — File > Open lesson file… (Ctrl+Shift+O) and File > Open recent, kept in QSettings.
#pragma once
#include <QString>
#include <QStringList>
#include <functional>

class QMenu;
class QWidget;

namespace rl::qt {

// The recent lesson files, newest first (at most 8; files since deleted are left out).
QStringList recent_files();
// Puts `path` first in the recent list.
void remember_recent_file(const QString& path);

// Adds Open lesson file… and Open recent to `file`; `open` opens a path and returns an error line or empty.
void add_open_actions(QMenu* file, QWidget* parent, std::function<QString(const QString&)> open);

}  // namespace rl::qt
