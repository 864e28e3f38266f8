// app/qt/help_menu.cpp — Help menu: the shortcuts listed from the window's own actions, and the About box.
#include "app/qt/help_menu.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/version.h"

namespace rl::qt {

QStringList shortcut_lines(const QWidget* w) {
    QStringList lines;
    for (const QAction* a : w->findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty()) continue;
        QString what = a->text().remove('&');
        what.remove(QRegularExpression(" \\([^)]*\\)$"));  // "Presenter (F5)": the key is in its own column
        what.remove(QRegularExpression(QStringLiteral("[…◀▶⏸|]")));  // the toolbar's arrows: the words remain
        what = what.trimmed();
        if (what.isEmpty()) what = a->toolTip();
        if (what.isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        const QString line = keys.join(", ") + "\t" + what;
        if (!lines.contains(line)) lines << line;
    }
    std::sort(lines.begin(), lines.end(), [](const QString& x, const QString& y) {
        return x.section('\t', 1).compare(y.section('\t', 1), Qt::CaseInsensitive) < 0;
    });
    return lines;
}

QString about_text() {
    return QString("<h3>Reduction Lab Classroom %1</h3>"
                   "<p>Teaches GPU parallel reduction by showing it happen: every step of a reduction is recorded, on "
                   "a CUDA GPU or on the CPU emulator, and played back lesson by lesson.</p>"
                   "<p>Also installed: <tt>reduction-lab</tt> (the lab bench) and <tt>rlab</tt> (the command line); "
                   "<tt>man reduction-lab-qt</tt> lists every option.</p>"
                   "<p>Qt %2</p>")
        .arg(QString::fromUtf8(rl::version()), QString::fromUtf8(qVersion()));
}

QDialog* shortcuts_dialog(QMainWindow* w) {
    auto* d = new QDialog(w);
    d->setWindowTitle("Keyboard shortcuts");
    auto* table = new QTableWidget(d);
    const QStringList lines = shortcut_lines(w);
    table->setColumnCount(2);
    table->setRowCount(int(lines.size()));
    table->setHorizontalHeaderLabels({"Keys", "Does"});
    for (int r = 0; r < lines.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(lines[r].section('\t', 0, 0)));
        table->setItem(r, 1, new QTableWidgetItem(lines[r].section('\t', 1)));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, d);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
    auto* layout = new QVBoxLayout(d);
    layout->addWidget(table);
    layout->addWidget(buttons);
    d->resize(560, 600);
    return d;
}

void add_help_menu(QMainWindow* w) {
    QMenu* help = w->menuBar()->addMenu("&Help");
    QAction* keys = help->addAction("&Keyboard shortcuts", w, [w] {
        QDialog* d = shortcuts_dialog(w);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->exec();
    });
    keys->setShortcut(QKeySequence::HelpContents);  // F1
    w->addAction(keys);                               // F1 also works with the menu bar hidden (presenter mode)
    help->addAction("&About Reduction Lab Classroom", w,
                    [w] { QMessageBox::about(w, "About Reduction Lab Classroom", about_text()); });
}

}  // namespace rl::qt
