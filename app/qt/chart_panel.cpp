// app/qt/chart_panel.cpp — Qt Charts: serial vs ideal tree vs this schedule's span (per scope), linear or log scale.
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegendMarker>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include "app/qt/panels.h"

namespace rl::qt {
namespace {

// Okabe–Ito, as in the lab bench's depth panel: thread, warp, block, grid.
const QColor kScope[4] = {QColor(86, 180, 233), QColor(0, 158, 115), QColor(204, 121, 167), QColor(230, 159, 0)};

// Log scale as a linear axis over log10(1 + depth): a depth of 0 stays at 0, stacked scope segments keep their
// share of the bar, and the ticks are labelled with the real depths (Qt's log axis cannot start a bar at 0).
double log_len(double v) { return std::log10(1.0 + v); }
// Short tick labels: a narrow dock has room for "100k", not "100,000".
const QString kDecade[10] = {"1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G"};

}  // namespace

ChartPanel::ChartPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    depth_ = new QChartView(this);
    depth_->setObjectName("depthChart");
    depth_->setRenderHint(QPainter::Antialiasing);
    depth_->setMinimumHeight(220);
    log_ = new QCheckBox("log scale (at large n the serial chain dwarfs the tree)", this);
    log_->setObjectName("depthLogScale");
    connect(log_, &QCheckBox::toggled, this, [this] { refresh(); });
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    lay->addWidget(depth_, 1);
    lay->addWidget(log_);
    lay->addWidget(summary_);
}

void ChartPanel::set_log_scale(bool on) { log_->setChecked(on); }

void ChartPanel::refresh() {
    const Analysis& a = c_.lab.analysis;
    const bool log = log_->isChecked();
    const auto len = [log](double v) { return log ? log_len(v) : v; };
    auto* chart = new QChart;
    chart->setTitle("Depth: how many combines one after another");
    auto* series = new QHorizontalStackedBarSeries;
    series->setObjectName("depthSeries");
    auto* whole = new QBarSet("serial, ideal tree");
    whole->setColor(QColor(150, 156, 166));
    // Categories bottom to top: this schedule, ideal tree, serial chain.
    *whole << 0 << len(double(a.tree_depth)) << len(double(a.serial_depth));
    series->append(whole);
    // This schedule's critical path split by scope; on the log scale each scope keeps its share of the bar.
    const double span_len = len(double(a.span));
    for (int k = 0; k < 4; ++k) {
        if (a.span_by_scope[k] == 0) continue;  // only the scopes on this schedule's critical path
        auto* part = new QBarSet(QString("%1 %2").arg(QString::fromStdString(std::string(to_string(Scope(k))))).arg(a.span_by_scope[k]));
        part->setColor(kScope[k]);
        const double share = a.span ? double(a.span_by_scope[k]) / double(a.span) : 0.0;
        *part << (log ? span_len * share : double(a.span_by_scope[k])) << 0 << 0;
        series->append(part);
    }
    series->setLabelsVisible(false);
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append({QString("this schedule: %1").arg(a.span), QString("ideal tree: %1").arg(a.tree_depth),
                  QString("serial chain: %1").arg(a.serial_depth)});
    chart->addAxis(cats, Qt::AlignLeft);
    series->attachAxis(cats);
    const double top = double(std::max<uint64_t>({a.serial_depth, a.span, 1}));
    if (log) {
        auto* values = new QCategoryAxis;
        values->setObjectName("depthLogAxis");
        values->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        int decades = 0;
        while (std::pow(10.0, decades) < top) ++decades;
        for (int d = 0; d <= decades; ++d)
            values->append(kDecade[std::min(d, 9)], log_len(std::pow(10.0, d)));
        values->setRange(0, log_len(std::pow(10.0, decades)));
        values->setTitleText("combines in sequence (log)");
        chart->addAxis(values, Qt::AlignBottom);
        series->attachAxis(values);
    } else {
        auto* values = new QValueAxis;
        values->setRange(0, top);
        // Seven-digit labels overlap in a side panel: above 10^5 three ticks in short scientific form.
        values->setLabelFormat(top >= 1e5 ? "%.3g" : "%.0f");
        if (top >= 1e5) values->setTickCount(3);
        values->setTitleText("combines in sequence");
        chart->addAxis(values, Qt::AlignBottom);
        series->attachAxis(values);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    // The grey bars are named by their categories; the legend only explains the scope colours (less to elide).
    for (QLegendMarker* m : chart->legend()->markers(series))
        if (m->label() == whole->label()) m->setVisible(false);
    QChart* old = depth_->chart();
    depth_->setChart(chart);
    delete old;
    const Trace& t = c_.lab.trace;
    summary_->setText(QString("n = %1 · work %2 combines · result %3 (reference %4) · verdict <b>%5</b>%6%7")
                          .arg(qulonglong(t.schedule.n))
                          .arg(qulonglong(a.work))
                          .arg(QString::fromStdString(format_value(t.schedule.op, t.schedule.type, t.result_value, t.result_flags)))
                          .arg(QString::fromStdString(format_value(t.schedule.op, t.schedule.type, t.reference_value)))
                          .arg(QString::fromStdString(std::string(to_string(a.verdict))))
                          .arg(t.hazards.empty() ? QString() : QString(" · %1 hazard(s)").arg(t.hazards.size()))
                          .arg(t.notes.empty() ? QString()
                                               : QString(" · <span style='color:#4a90d9'>%1 note(s) about cost</span>")
                                                     .arg(t.notes.size())));
}

}  // namespace rl::qt
