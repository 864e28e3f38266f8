// app/qt/help_menu.h — the classroom's Help menu: the keyboard shortcuts (F1) and the About box with the version.
#pragma once
#include <QString>
#include <QStringList>

class QDialog;
class QMainWindow;
class QWidget;

namespace rl::qt {

// Adds Help > Keyboard shortcuts (F1) and Help > About to the window's menu bar.
void add_help_menu(QMainWindow* w);

// The window's shortcuts as "KEYS\tWHAT" lines, read from its actions (so the list cannot drift from the keys).
QStringList shortcut_lines(const QWidget* w);

// The shortcuts in a table, with a Close button (Help > Keyboard shortcuts shows it).
QDialog* shortcuts_dialog(QMainWindow* w);

// The About text: name, version, what it is, the Qt it runs on.
QString about_text();

}  // namespace rl::qt
