// app/qt/timings_panel.cpp — measured timings in Qt Charts (app/render's TimingsPlot), crossovers, "Measure on this GPU",
// and "Time on GPU" (Ctrl+T) for a student's kernel: its progress, Cancel and reason here, its rows above the plot.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QTimer>
#include <QVBoxLayout>
#include "app/qt/panels.h"
#include "app/render/timings_plot.h"

namespace rl::qt {
namespace {

QColor qcolor(uint32_t rgb) { return QColor(int((rgb >> 16) & 255), int((rgb >> 8) & 255), int(rgb & 255)); }

QScatterSeries::MarkerShape qshape(render::MarkerShape s) {
    switch (s) {
        case render::MarkerShape::Square: return QScatterSeries::MarkerShapeRectangle;
        case render::MarkerShape::Triangle: return QScatterSeries::MarkerShapeTriangle;
        case render::MarkerShape::Diamond: return QScatterSeries::MarkerShapeRotatedRectangle;
        case render::MarkerShape::Circle: break;
    }
    return QScatterSeries::MarkerShapeCircle;
}

QCategoryAxis* tick_axis(const std::vector<render::PlotTick>& ticks, double lo, double hi, const QString& title) {
    auto* ax = new QCategoryAxis;
    ax->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (const render::PlotTick& t : ticks) ax->append(QString::fromStdString(t.label), t.at);
    ax->setRange(lo, hi);
    ax->setTitleText(title);
    QFont f = ax->labelsFont();
    f.setPixelSize(14);
    ax->setLabelsFont(f);
    return ax;
}

}  // namespace

TimingsPanel::TimingsPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    measure_ = new QPushButton("Measure on this GPU", this);
    measure_->setObjectName("measureButton");
    progress_ = new QProgressBar(this);
    progress_->setObjectName("measureProgress");
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    progress_->hide();
    cancel_ = new QPushButton("Cancel", this);
    cancel_->hide();
    cache_ = new QComboBox(this);
    cache_->setObjectName("cacheChoice");
    cache_->setToolTip("warm: the same buffer each repetition (it may sit in L2); cold: L2 flushed before each");
    // Time on GPU: the open kernel through rlab run --time in a child (app/lab/kernel_time_job); thin over the job. On
    // the measure row: a row of its own would take the height the chart needs under the source dock.
    time_ = new QPushButton("Time on GPU (Ctrl+T)", this);
    time_->setObjectName("timeOnGpuButton");
    time_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    time_cancel_ = new QPushButton("Cancel", this);
    time_cancel_->setObjectName("timeOnGpuCancel");
    time_cancel_->hide();
    time_status_ = new QLabel(this);
    time_status_->setObjectName("timeOnGpuStatus");
    time_status_->setWordWrap(true);
    time_status_->setTextInteractionFlags(Qt::TextSelectableByMouse);  // a reason can be copied into a question
    time_status_->setStyleSheet("font-size: 16px;");
    time_status_->hide();
    row->addWidget(measure_);
    row->addWidget(progress_, 1);
    row->addWidget(cancel_);
    row->addWidget(time_);
    row->addWidget(time_cancel_);
    row->addWidget(time_status_, 1);
    row->addStretch();
    row->addWidget(cache_);
    lay->addLayout(row);
    time_timer_ = new QTimer(this);
    time_timer_->setInterval(100);
    connect(time_timer_, &QTimer::timeout, this, &TimingsPanel::update_time_row);
    connect(time_, &QPushButton::clicked, this, &TimingsPanel::start_kernel_timing);
    connect(time_cancel_, &QPushButton::clicked, this, [this] { c_.lab.time_job->cancel(); });
    heading_ = new QLabel(this);
    heading_->setObjectName("timingsHeading");
    heading_->setWordWrap(true);
    heading_->setStyleSheet("font-size: 16px;");
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->hide();
    chart_ = new QChartView(this);
    chart_->setObjectName("timingsChart");
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(260);
    sentences_ = new QLabel(this);
    sentences_->setObjectName("crossoverText");
    sentences_->setWordWrap(true);
    sentences_->setTextFormat(Qt::RichText);
    sentences_->setStyleSheet("font-size: 16px;");
    empty_ = new QLabel(this);
    empty_->setObjectName("noTimings");
    empty_->setWordWrap(true);
    empty_->setTextFormat(Qt::RichText);
    empty_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // A student's kernel timed beside the fast path and CUB (rlab run --time, --kernel-timing FILE): its three rows.
    auto* kernel_rows = new QLabel(this);
    kernel_rows->setObjectName("kernelTimingRows");
    kernel_rows->setWordWrap(true);
    kernel_rows->setTextFormat(Qt::RichText);
    kernel_rows->setStyleSheet("font-size: 16px;");
    kernel_rows->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);  // its three rows whole: the chart gives way
    kernel_rows->hide();
    lay->addWidget(kernel_rows);
    lay->addWidget(heading_);
    lay->addWidget(note_);
    lay->addWidget(chart_, 3);
    lay->addWidget(sentences_, 0);
    lay->addWidget(empty_, 1);

    std::string reason;
    if (!lab::BenchJob::available(&reason)) {
        measure_->setEnabled(false);
        measure_->setToolTip(QString::fromStdString(reason));
    } else {
        measure_->setToolTip("times every variant at every size on this GPU (about a minute; Cancel stops it)");
    }
    poll_timer_ = new QTimer(this);
    poll_timer_->setInterval(100);
    connect(poll_timer_, &QTimer::timeout, this, &TimingsPanel::poll);
    connect(measure_, &QPushButton::clicked, this, [this] {
        if (!c_.lab.bench_job->start()) return;
        note_->hide();
        measure_->hide();
        progress_->setValue(0);
        progress_->show();
        cancel_->show();
        poll_timer_->start();
    });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        c_.lab.bench_job->cancel();
        progress_->setFormat("cancelling after this cell…");
    });
    connect(cache_, &QComboBox::currentTextChanged, this, [this](const QString& t) {
        if (t.isEmpty() || t.toStdString() == c_.lab.timings.cache) return;
        c_.lab.timings.cache = t.toStdString();
        refresh();
    });
    set_timings(c_.lab.timings);
    update_time_row();
}

void TimingsPanel::start_kernel_timing() {
    if (c_.lab.time_job->running()) return;
    c_.lab.start_kernel_timing();
    update_time_row();
}

void TimingsPanel::update_time_row() {
    const lab::KernelTimeJob& job = *c_.lab.time_job;
    const bool running = job.running();
    if (running && !time_timer_->isActive()) time_timer_->start();
    if (!running) {
        time_timer_->stop();
        if (c_.lab.take_kernel_timing()) refresh();  // the rows of the saved-result view, now from this run
    }
    const std::string blocker = lab::kernel_time_blocker(c_.lab.kernel->request(), c_.lab.kernel->text);
    time_->setVisible(!running);
    time_->setEnabled(blocker.empty());
    time_->setToolTip(QString::fromStdString(
        blocker.empty() ? "your kernel, uninstrumented, timed beside the lab's fast path and CUB (rlab run --backend cuda "
                          "--time, with this kernel's sizes and plan)"
                        : blocker));
    time_cancel_->setVisible(running);
    const std::string line = job.status_line();
    time_status_->setText(QString::fromStdString(line));
    const bool failed = job.state() == lab::KernelTimeJob::State::Failed;
    time_status_->setStyleSheet(failed ? "font-size: 16px; color: #be1e00;" : "font-size: 16px;");
    time_status_->setVisible(!line.empty());
}

void TimingsPanel::poll() {
    const lab::BenchJob& job = *c_.lab.bench_job;
    if (job.running()) {
        progress_->setValue(int(job.fraction() * 1000));
        if (!job.cancelling())
            progress_->setFormat(QString::fromStdString(job.what()) + QString("  %p%"));
        return;
    }
    poll_timer_->stop();
    progress_->hide();
    cancel_->hide();
    measure_->show();
    if (!c_.lab.take_measurement()) return;
    if (c_.lab.timings_note.empty()) {
        set_timings(c_.lab.timings);
    } else {
        note_->setText(QString::fromStdString(c_.lab.timings_note));
        note_->show();
    }
}

void TimingsPanel::set_timings(lab::Timings t) {
    const std::vector<std::string> caches = t.report.caches();
    if (std::find(caches.begin(), caches.end(), t.cache) == caches.end() && !caches.empty()) t.cache = caches.front();
    c_.lab.timings = std::move(t);
    const QSignalBlocker block(cache_);
    cache_->clear();
    for (const std::string& m : caches) cache_->addItem(QString::fromStdString(m));
    cache_->setCurrentText(QString::fromStdString(c_.lab.timings.cache));
    cache_->setVisible(caches.size() > 1);
    refresh();
}

// The timed kernel's rows as an HTML table (the cells core/kernel_timing makes for every view), wrong checks in red.
static QString kernel_timing_html(const KernelTiming& k) {
    QString html = "<p><b>" + QString::fromStdString(lab::kernel_timing_heading(k)).toHtmlEscaped() +
                   "</b></p><table cellspacing='0' cellpadding='4' border='1'><tr>";
    for (const char* h : kKernelTimingColumns) html += "<th>" + QString::fromUtf8(h).toHtmlEscaped() + "</th>";
    html += "</tr>";
    const std::vector<std::vector<std::string>> cells = kernel_timing_cells(k);
    for (size_t i = 0; i < cells.size(); ++i) {
        const bool wrong = i < k.rows.size() && k.rows[i].timed && k.rows[i].wrong > 0;
        html += "<tr>";
        for (size_t c = 0; c < cells[i].size(); ++c) {
            const QString text = QString::fromStdString(cells[i][c]).toHtmlEscaped();
            const bool number = c >= 1 && c <= 3;
            html += QString("<td%1>").arg(number ? " align='right'" : "") +
                    (wrong && c == 4 ? "<span style='color:#be1e00'><b>" + text + "</b></span>" : text) + "</td>";
        }
        html += "</tr>";
    }
    return html + "</table>";
}

void TimingsPanel::refresh() {
    const lab::Timings& t = c_.lab.timings;
    if (auto* rows = findChild<QLabel*>("kernelTimingRows")) {
        rows->setVisible(t.kernel.has_value());
        if (t.kernel) rows->setText(kernel_timing_html(*t.kernel));
    }
    if (!t.loaded) {
        QString html;
        const std::vector<std::string> lines = lab::timings_empty_lines(t);
        for (size_t i = 0; i < lines.size(); ++i) {
            const QString l = QString::fromStdString(lines[i]).toHtmlEscaped();
            html += i == 0 ? "<p style='font-size:16px'><b>" + l + "</b></p>" : l + "<br>";
        }
        empty_->setText(html);
        empty_->show();
        heading_->hide();
        chart_->hide();
        sentences_->hide();
        return;
    }
    empty_->hide();
    heading_->show();
    chart_->show();
    sentences_->show();
    heading_->setText("<b>" + QString::fromStdString(lab::timings_heading(t)).toHtmlEscaped() + "</b>");

    // Charts are drawn light (black on white) whatever the theme: the plot is read from the back row.
    const render::TimingsPlot p = render::build_timings_plot(t.report, t.cache, false);
    auto* chart = new QChart;
    chart->setTitle(QString::fromStdString(p.caption));
    chart->legend()->setAlignment(Qt::AlignRight);  // one entry a line: nothing elided
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    QFont lf = chart->legend()->font();
    lf.setPixelSize(15);
    chart->legend()->setFont(lf);
    QFont tf = chart->titleFont();
    tf.setPixelSize(16);
    chart->setTitleFont(tf);
    if (p.empty()) {
        chart->setTitle("No f32 sum results for the " + QString::fromStdString(t.cache) + " cache in these results.");
    } else {
        auto* ax = tick_axis(p.x_ticks, p.x0, p.x1, "n (elements, log scale)");
        auto* ay = tick_axis(p.y_ticks, p.y0, p.y1, "median time (log scale)");
        chart->addAxis(ax, Qt::AlignBottom);
        chart->addAxis(ay, Qt::AlignLeft);
        auto attach = [&](QAbstractSeries* s, bool in_legend) {
            chart->addSeries(s);
            s->attachAxis(ax);
            s->attachAxis(ay);
            if (!in_legend)
                for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);
        };
        for (const render::PlotCrossover& c : p.crossovers) {
            auto* line = new QLineSeries;
            line->setObjectName("crossover");
            line->setName(QString::fromStdString(c.label));
            line->setPen(QPen(Qt::black, 2, Qt::DashLine));
            line->append(c.x, p.y0);
            line->append(c.x, p.y1);
            attach(line, true);
            auto* ring = new QScatterSeries;
            ring->setObjectName("crossoverRing");
            ring->setMarkerSize(22);
            ring->setBrush(Qt::NoBrush);
            ring->setPen(QPen(Qt::black, 2.5));
            ring->append(c.x, c.y);
            attach(ring, false);
        }
        for (const render::PlotSeries& s : p.series) {
            const QColor colour = qcolor(s.rgb);
            auto* line = new QLineSeries;
            line->setObjectName("timingLine");
            line->setName(QString::fromStdString(s.variant));
            line->setPen(QPen(colour, s.story ? 3.5 : 2.0));
            auto* dots = new QScatterSeries;
            dots->setObjectName("timingPoints");
            dots->setName(QString::fromStdString(s.variant));
            dots->setMarkerShape(qshape(s.shape));
            dots->setMarkerSize(s.story ? 13 : 10);
            dots->setColor(colour);
            dots->setBorderColor(colour);
            for (auto [x, y] : s.points) line->append(x, y), dots->append(x, y);
            attach(line, false);  // the legend shows the marker shape, which carries the colour too
            attach(dots, true);
        }
    }
    QChart* old = chart_->chart();
    chart_->setChart(chart);
    delete old;
    QString html = "<ul style='margin-left:-20px'>";
    for (const std::string& s : p.sentences) html += "<li>" + QString::fromStdString(s).toHtmlEscaped() + "</li>";
    sentences_->setText(html + "</ul>");
}

}  // namespace rl::qt
