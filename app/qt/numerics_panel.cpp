// app/qt/numerics_panel.cpp — the numerics dock: core/numerics.h's comparison for the shown schedule in a table.
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "app/qt/panels.h"

namespace rl::qt {

NumericsPanel::NumericsPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setObjectName("numericsSummary");
    summary_->setWordWrap(true);
    compare_ = new QPushButton("Compare now", this);
    compare_->hide();
    table_ = new QTableWidget(this);
    table_->setObjectName("numericsTable");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->verticalHeader()->hide();
    table_->setAlternatingRowColors(true);
    QFont f = table_->font();
    f.setPixelSize(14);
    table_->setFont(f);
    lay->addWidget(summary_);
    lay->addWidget(compare_, 0, Qt::AlignLeft);
    lay->addWidget(table_, 1);
    connect(compare_, &QPushButton::clicked, this, [this] {
        c_.lab.numerics.update(c_.lab.schedule, true);
        refresh();
    });
}

void NumericsPanel::refresh() {
    lab::NumericsState& n = c_.lab.numerics;
    n.update(c_.lab.schedule);
    compare_->setVisible(n.waiting);
    if (!n.ready) {
        table_->clear();
        table_->setRowCount(0);
        table_->setColumnCount(0);
        if (!n.unsupported.empty()) summary_->setText("No numerics comparison for this schedule: " + QString::fromStdString(n.unsupported));
        else if (!n.error.empty()) summary_->setText("The comparison failed: " + QString::fromStdString(n.error));
        else if (n.waiting)
            summary_->setText(QString("n = %1: the comparison runs the schedule about twenty times in the emulator.")
                                  .arg(qulonglong(c_.lab.schedule.n)));
        else if (n.computing) {  // on its thread: look again shortly
            summary_->setText(QString("Comparing the orders of n = %1...").arg(qulonglong(c_.lab.schedule.n)));
            QTimer::singleShot(100, this, [this] { refresh(); });
        }
        return;
    }
    const render::NumericsTable& t = n.table;
    summary_->setText(QString::fromStdString(t.summary));
    table_->setColumnCount(int(t.header.size()));
    QStringList header;
    for (const std::string& h : t.header) header << QString::fromStdString(h);
    table_->setHorizontalHeaderLabels(header);
    table_->setRowCount(int(t.rows.size()));
    const QColor chosen(190, 225, 250), bad(213, 94, 0);
    for (int r = 0; r < int(t.rows.size()); ++r) {
        const render::NumericsCellRow& row = t.rows[size_t(r)];
        for (int c = 0; c < int(row.cells.size()); ++c) {
            auto* item = new QTableWidgetItem(QString::fromStdString(row.cells[size_t(c)]));
            item->setToolTip(QString::fromStdString(row.tooltip));
            if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (row.chosen) {
                item->setBackground(chosen);
                item->setForeground(Qt::black);
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            if (c == 6 && !row.within_bound) item->setBackground(bad), item->setForeground(Qt::white);
            table_->setItem(r, c, item);
        }
    }
    table_->resizeColumnsToContents();
}

}  // namespace rl::qt
