// app/qt/chart_panel.cpp — Qt Charts: serial vs ideal tree vs this schedule's span (per scope), measured timings log-log.
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include "app/qt/panels.h"

namespace rl::qt {
namespace {

// Okabe–Ito, as in the lab bench's depth panel: thread, warp, block, grid.
const QColor kScope[4] = {QColor(86, 180, 233), QColor(0, 158, 115), QColor(204, 121, 167), QColor(230, 159, 0)};
const char* kScopeName[4] = {"thread", "warp", "block", "grid"};

}  // namespace

ChartPanel::ChartPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    depth_ = new QChartView(this);
    depth_->setObjectName("depthChart");
    depth_->setRenderHint(QPainter::Antialiasing);
    depth_->setMinimumHeight(220);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    timings_ = new QChartView(this);
    timings_->setObjectName("timingsChart");
    timings_->setMinimumHeight(200);
    no_timings_ = new QLabel(this);
    no_timings_->setObjectName("noTimings");
    no_timings_->setWordWrap(true);
    lay->addWidget(depth_, 3);
    lay->addWidget(summary_);
    lay->addWidget(timings_, 2);
    lay->addWidget(no_timings_);

    data_ = lab::load_timings({});
    if (data_.sets.empty()) {
        QString msg = "<b>No measurements yet.</b> Measured timings (JSON in the <code>rlab bench</code> format, in "
                      "docs/measurements) appear here on a log-log chart with their device and date. Looked in:";
        for (const std::string& p : data_.searched) msg += "<br>&nbsp;&nbsp;" + QString::fromStdString(p).toHtmlEscaped();
        no_timings_->setText(msg);
        timings_->hide();
    } else {
        no_timings_->hide();
        const lab::TimingSet& set = data_.sets.front();
        auto* chart = new QChart;
        chart->setTitle(QString::fromStdString("Measured: " + set.device + ", " + set.date));
        auto* ax = new QLogValueAxis;
        ax->setTitleText("n (elements)");
        ax->setLabelFormat("%.0e");
        auto* ay = new QLogValueAxis;
        ay->setTitleText("median µs");
        chart->addAxis(ax, Qt::AlignBottom);
        chart->addAxis(ay, Qt::AlignLeft);
        for (const lab::TimingSeries& s : set.series) {
            auto* line = new QLineSeries;
            line->setName(QString::fromStdString(s.variant + " " + s.dtype));
            for (const lab::TimingPoint& p : s.points)
                if (p.n > 0 && p.median_us > 0) line->append(p.n, p.median_us);
            chart->addSeries(line);
            line->attachAxis(ax);
            line->attachAxis(ay);
        }
        timings_->setChart(chart);
    }
}

void ChartPanel::refresh() {
    const Analysis& a = c_.lab.analysis;
    auto* chart = new QChart;
    chart->setTitle("Depth: how many combines one after another");
    auto* series = new QHorizontalStackedBarSeries;
    series->setObjectName("depthSeries");
    auto* whole = new QBarSet("serial, ideal tree");
    whole->setColor(QColor(150, 156, 166));
    // Categories bottom to top: this schedule, ideal tree, serial chain.
    *whole << 0 << double(a.tree_depth) << double(a.serial_depth);
    series->append(whole);
    for (int k = 0; k < 4; ++k) {
        if (a.span_by_scope[k] == 0) continue;  // only the scopes on this schedule's critical path
        auto* part = new QBarSet(QString("%1 %2").arg(kScopeName[k]).arg(a.span_by_scope[k]));
        part->setColor(kScope[k]);
        *part << double(a.span_by_scope[k]) << 0 << 0;
        series->append(part);
    }
    series->setLabelsVisible(false);
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append({QString("this schedule: %1").arg(a.span), QString("ideal tree: %1").arg(a.tree_depth),
                  QString("serial chain: %1").arg(a.serial_depth)});
    chart->addAxis(cats, Qt::AlignLeft);
    series->attachAxis(cats);
    auto* values = new QValueAxis;
    values->setRange(0, double(std::max<uint64_t>({a.serial_depth, a.span, 1})));
    values->setLabelFormat("%.0f");
    values->setTitleText("combines in sequence");
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QChart* old = depth_->chart();
    depth_->setChart(chart);
    delete old;
    const Trace& t = c_.lab.trace;
    summary_->setText(QString("n = %1 · work %2 combines · result %3 (reference %4) · verdict <b>%5</b>%6")
                          .arg(qulonglong(t.schedule.n))
                          .arg(qulonglong(a.work))
                          .arg(QString::fromStdString(format_value(t.schedule.op, t.schedule.type, t.result_value, t.result_flags)))
                          .arg(QString::fromStdString(format_value(t.schedule.op, t.schedule.type, t.reference_value)))
                          .arg(QString::fromStdString(std::string(to_string(a.verdict))))
                          .arg(t.hazards.empty() ? QString() : QString(" · %1 hazard(s)").arg(t.hazards.size())));
}

}  // namespace rl::qt
