#include "trace_plots.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPicture>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "qt_convert.h"
#include "timeline_view.h"
#include "trace_time_units.h"
#include "value_ticks.h"

namespace schedscope::gui {

TracePlot::TracePlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(240, 180);
}

void TracePlot::setTitle(const QString& text) {
    showAxes(true);
    title_.setText(text);
}

// With no trace, axes of CPUs 0-5 and a colour scale of 0-6 migrations read as data: the plot
// shows its title alone (the layout's other elements hidden, their room kept).
void TracePlot::showAxes(bool shown) {
    for (QCPLayoutElement* e : plotLayout()->elements(false))
        if (e && !qobject_cast<QCPTextElement*>(e)) e->setVisible(shown);
}

void TracePlot::paintTo(QPainter& painter, const QRectF& target) {
    QPicture picture;
    {
        QCPPainter qp(&picture);
        toPainter(&qp, int(target.width()), int(target.height()));
    }
    painter.save();
    painter.fillRect(target, Qt::white);
    painter.drawPicture(target.topLeft(), picture);
    painter.restore();
}

void TracePlot::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(tr("Reset the axes"), this, [this] {
        setTrace(trace_);
    });
    menu.addAction(tr("Export\u2026"), this, &TracePlot::exportRequested);
    addMenuItems(menu);
    menu.exec(e->globalPos());
}

void TracePlot::showEmpty(const QString& text) {
    showAxes(false);
    title_.setText(text);
    replot();
}

void TracePlot::showEmptyReason(const QString& why) { reason_.setText(why); }

QString TracePlot::shownTitle() const { return title_.shown(); }

QString TracePlot::emptyReasonText() const { return reason_.text(); }

// ---- migration matrix ----

MigrationMatrixPlot::MigrationMatrixPlot(QWidget* parent) : TracePlot(parent) {
    setObjectName(QStringLiteral("migrationMatrix"));
    map_ = new QCPColorMap(xAxis, yAxis);
    scale_ = new QCPColorScale(this);
    plotLayout()->addElement(1, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("migrations"));
    map_->setColorScale(scale_);
    QCPColorGradient g;
    g.setColorStopAt(0.0, QColor(0xff, 0xff, 0xff));
    g.setColorStopAt(0.02, QColor(0xff, 0xf5, 0xc0));
    g.setColorStopAt(0.35, QColor(0xfd, 0xae, 0x61));
    g.setColorStopAt(0.7, QColor(0xd7, 0x30, 0x27));
    g.setColorStopAt(1.0, QColor(0x67, 0x00, 0x0d));
    map_->setGradient(g);
    map_->setInterpolate(false);
    xAxis->setLabel(tr("destination CPU"));
    yAxis->setLabel(tr("source CPU"));
    yAxis->setRangeReversed(true);
    auto* marginGroup = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, marginGroup);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, marginGroup);
    selection_ = new QCPItemRect(this);
    selection_->setPen(QPen(QColor(0x10, 0x50, 0xc0), 2));
    selection_->setBrush(Qt::NoBrush);
    selection_->setVisible(false);
    connect(this, &QCustomPlot::mousePress, this, &MigrationMatrixPlot::onPress);
    // after the layout: the axis rect then has the size the cells are drawn at
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        fitTicks();
        fitCellLabels();
    });
    setToolTip(tr("Click a row to select its source CPU"));
    showEmpty(tr("Migration matrix: no trace open"));
}

void MigrationMatrixPlot::setTrace(TraceSessionPtr trace) {
    trace_ = std::move(trace);
    // the previous trace's counts go; the selection and the note stay, for this one
    for (QCPItemText* t : cellLabels_) removeItem(t);
    cellLabels_.clear();
    selection_->setVisible(false);
    if (!trace_ || !trace_->data) {
        map_->data()->clear();
        showEmptyReason(QString());
        showEmpty(tr("Migration matrix: no trace open"));
        return;
    }
    const TraceAnalysis& d = *trace_->data;
    const int n = d.cpus;
    map_->data()->setSize(n, n);
    map_->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    uint64_t mx = 0;
    for (int s = 0; s < n; ++s)
        for (int t = 0; t < n; ++t) {
            const uint64_t v = d.matrix[size_t(s) * size_t(n) + size_t(t)];
            mx = std::max(mx, v);
            map_->data()->setCell(t, s, double(v));  // key: destination, value: source
        }
    map_->setDataRange(QCPRange(0, std::max<double>(1, double(mx))));
    xAxis->setRange(-0.5, n - 0.5);
    yAxis->setRange(-0.5, n - 0.5);
    // the tick steps follow the axes' pixels: fitTicks() after each layout
    for (QCPAxis* axis : {xAxis, yAxis}) {
        QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
        ticker->setTickStep(1);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
        axis->setTicker(ticker);
    }
    const std::string why = whyNoMigrations(d);
    showEmptyReason(qs(why));
    if (n <= 16 && why.empty()) {  // small machines: the counts in the cells (all zeros say nothing)
        for (int s = 0; s < n; ++s)
            for (int t = 0; t < n; ++t) {
                const uint64_t v = d.matrix[size_t(s) * size_t(n) + size_t(t)];
                auto* text = new QCPItemText(this);
                text->position->setCoords(t, s);
                text->setText(QString::number(v));
                text->setColor(double(v) > 0.55 * double(mx) ? Qt::white : QColor(0x20, 0x20, 0x20));
                text->setClipToAxisRect(true);
                cellLabels_.push_back(text);
            }
    }
    setTitle(tr("Migrations source \u2192 destination CPU (%1 in %2)").arg(d.migrations.size()).arg(trace_->name));
    setSelectedCpu(cpu_);
}

namespace {
// The least power of two of CPUs whose ticks are `labelPx` apart on an axis of `axisPx` pixels.
int cpuLabelStep(int cpus, double axisPx, double labelPx) {
    int step = 1;
    while (step < cpus && step * axisPx / std::max(cpus, 1) < labelPx) step *= 2;
    return step;
}
}  // namespace

void MigrationMatrixPlot::fitTicks() {
    const int n = trace_ && trace_->data ? trace_->data->cpus : 0;
    if (n <= 0) return;
    // a label's height apart on the y axis and its width (plus a gap) on the x axis, so that the
    // CPU numbers never overlap into a smear: 128 CPUs on 200 pixels get every 16th
    const QFontMetricsF fy(yAxis->tickLabelFont()), fx(xAxis->tickLabelFont());
    const QString widest = QString::number(n - 1);
    const int yStep = cpuLabelStep(n, axisRect()->height(), fy.height() * 1.15);
    const int xStep = cpuLabelStep(n, axisRect()->width(), fx.horizontalAdvance(widest) + fx.averageCharWidth() * 1.5);
    auto* yTicks = static_cast<QCPAxisTickerFixed*>(yAxis->ticker().data());
    auto* xTicks = static_cast<QCPAxisTickerFixed*>(xAxis->ticker().data());
    if (yTicks->tickStep() == yStep && xTicks->tickStep() == xStep) return;
    yTicks->setTickStep(yStep);
    xTicks->setTickStep(xStep);
    // lay out again with the new ticks: this layout's labels (and margins) were the old step's
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plotLayout()->update(phase);
}

int MigrationMatrixPlot::cpuTickStep(Qt::Orientation o) const {
    const QCPAxis* axis = o == Qt::Vertical ? yAxis : xAxis;
    return int(static_cast<const QCPAxisTickerFixed*>(axis->ticker().data())->tickStep());
}

void MigrationMatrixPlot::fitCellLabels() {
    if (cellLabels_.empty()) return;
    const int n = trace_ && trace_->data ? trace_->data->cpus : 0;
    if (n <= 0) return;
    const QRect r = axisRect()->rect();
    const double cellW = double(r.width()) / n, cellH = double(r.height()) / n;
    int widest = 0;
    const QFontMetrics fm(cellLabels_.front()->font());
    for (const QCPItemText* t : cellLabels_) widest = std::max(widest, fm.horizontalAdvance(t->text()));
    const bool fits = cellH >= fm.height() && cellW >= widest + 2;
    for (QCPItemText* t : cellLabels_) t->setVisible(fits);
}

int MigrationMatrixPlot::visibleCellLabels() const {
    return int(std::count_if(cellLabels_.begin(), cellLabels_.end(), [](const QCPItemText* t) { return t->visible(); }));
}

void MigrationMatrixPlot::setSelectedCpu(int cpu) {
    cpu_ = cpu;
    const int n = trace_ && trace_->data ? trace_->data->cpus : 0;
    selection_->setVisible(cpu >= 0 && cpu < n);
    if (cpu >= 0 && cpu < n) {
        selection_->topLeft->setCoords(-0.5, cpu - 0.5);
        selection_->bottomRight->setCoords(n - 0.5, cpu + 0.5);
    }
    replot();
}

std::pair<int, int> MigrationMatrixPlot::cellAt(const QPointF& pos) const {
    if (!trace_ || !trace_->data || !axisRect()->rect().contains(pos.toPoint())) return {-1, -1};
    const int n = trace_->data->cpus;
    const int dst = int(std::lround(xAxis->pixelToCoord(pos.x())));
    const int src = int(std::lround(yAxis->pixelToCoord(pos.y())));
    if (src < 0 || dst < 0 || src >= n || dst >= n) return {-1, -1};
    return {src, dst};
}

void MigrationMatrixPlot::onPress(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const auto [src, dst] = cellAt(e->position());
    Q_UNUSED(dst);
    if (src < 0) return;
    setSelectedCpu(src);
    emit cpuPicked(src);
}

// ---- migrations per level over time ----

LevelRatePlot::LevelRatePlot(QWidget* parent) : TracePlot(parent) {
    setObjectName(QStringLiteral("levelRates"));
    xAxis->setLabel(tr("time since the trace start (s)"));
    yAxis->setLabel(tr("migrations / s"));
    keepValueTicksApart(this, yAxis);
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setRangeDrag(Qt::Horizontal);
    showEmpty(tr("Migrations per level: no trace open"));
}

void LevelRatePlot::setTrace(TraceSessionPtr trace) {
    trace_ = std::move(trace);
    clearGraphs();
    if (!trace_ || !trace_->data) {
        showEmptyReason(QString());
        showEmpty(tr("Migrations per level: no trace open"));
        return;
    }
    const TraceAnalysis& d = *trace_->data;
    showEmptyReason(qs(whyNoMigrations(d)));
    // a clock that does not count ns: the x axis in its counts, the rates per bin
    const TraceTimeUnits units = TraceTimeUnits::of(d);
    const double binS = units.inUnit(double(d.rateBinNs), 1e9);
    xAxis->setLabel(tr("time since the trace start (%1)").arg(units.unit(QStringLiteral("s"))));
    yAxis->setLabel(units.countsNs ? tr("migrations / s") : tr("migrations / bin"));
    double top = 1;
    if (grouping_ == Grouping::Level) {
        // the levels with migrations, as the timeline's legend lists them: a flat "MC (0)" line
        // said nothing the empty axes' note (or the legend's "none at MC") does not
        for (size_t l : levelsWithMigrations(d)) {
            addRateGraph(qs(d.levels[l]) + QStringLiteral(" (") + QString::number(d.migrationTsByLevel[l].size()) + QLatin1Char(')'),
                         levelColor(qs(d.levels[l])), d.ratesByLevel[l], binS, units.countsNs, top);
        }
    } else {
        const size_t causes = d.ratesByCause.size();
        for (size_t c = 0; c < causes; ++c) {
            const auto& bins = d.ratesByCause[c];
            const uint64_t total = std::accumulate(bins.begin(), bins.end(), uint64_t{0});
            if (!total) continue;
            addRateGraph(qs(std::string(tracing::kMigrationCauseNames[c])) + QStringLiteral(" (") + QString::number(total) +
                             QLatin1Char(')'),
                         QColor::fromHsv(int(c * 360 / causes), 200, 200), bins, binS, units.countsNs, top);
        }
    }
    showLevelsLeftOut(grouping_ == Grouping::Level ? qs(describeLevelsWithoutMigrations(d)) : QString());
    xAxis->setRange(0, std::max(binS, units.inUnit(double(d.lastTs - d.firstTs), 1e9)));
    yAxis->setRange(0, top * 1.1);
    const QString bin = units.duration(double(d.rateBinNs));
    if (units.countsNs)
        setTitle((grouping_ == Grouping::Level ? tr("Migrations per second by domain level (bins of %1)")
                                                      : tr("Migrations per second by cause (bins of %1)"))
                            .arg(bin));
    else
        setTitle((grouping_ == Grouping::Level ? tr("Migrations per bin of %1 by domain level")
                                                      : tr("Migrations per bin of %1 by cause"))
                            .arg(bin));
    replot();
}

void LevelRatePlot::addRateGraph(const QString& name, const QColor& colour, const std::vector<uint64_t>& bins, double binS,
                                 bool perSecond, double& top) {
    QCPGraph* g = addGraph();
    g->setName(name);
    g->setPen(QPen(colour, 1.6));
    g->setLineStyle(QCPGraph::lsStepLeft);
    QVector<double> keys, values;
    keys.reserve(qsizetype(bins.size()) + 1);
    for (size_t b = 0; b < bins.size(); ++b) {
        keys << double(b) * binS;
        values << (perSecond ? double(bins[b]) / binS : double(bins[b]));
        top = std::max(top, values.back());
    }
    keys << double(bins.size()) * binS;
    values << (bins.empty() ? 0.0 : values.back());
    g->setData(keys, values, true);
}

void LevelRatePlot::showLevelsLeftOut(const QString& text) {
    // last in the legend, after the lines of this trace (they were added after it)
    if (leftOut_) {
        legend->take(leftOut_);
        legend->simplify();
    }
    if (!text.isEmpty()) {
        if (!leftOut_) {
            leftOut_ = new QCPTextElement(this, QString(), legend->font());
            leftOut_->setLayer(legend->layer());  // on the plot's layer the legend's box hid it
            leftOut_->setTextColor(QColor(0x70, 0x70, 0x78));
            leftOut_->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        }
        leftOut_->setText(text);
        legend->addElement(leftOut_);
    } else if (leftOut_) {
        delete leftOut_;
        leftOut_ = nullptr;
    }
    legend->setVisible(graphCount() > 0 || leftOut_);  // an empty legend is a stray box on the note
}

void LevelRatePlot::setGrouping(Grouping g) {
    grouping_ = g;
    setTrace(trace_);
}

void LevelRatePlot::addMenuItems(QMenu& menu) {
    menu.addSeparator();
    QAction* level = menu.addAction(tr("By domain level"), this, [this] { setGrouping(Grouping::Level); });
    QAction* cause = menu.addAction(tr("By cause"), this, [this] { setGrouping(Grouping::Cause); });
    level->setCheckable(true);
    cause->setCheckable(true);
    level->setChecked(grouping_ == Grouping::Level);
    cause->setChecked(grouping_ == Grouping::Cause);
}

// ---- wait latency ----

LatencyHistogramPlot::LatencyHistogramPlot(QWidget* parent) : TracePlot(parent) {
    setObjectName(QStringLiteral("latencyHistogram"));
    xAxis->setLabel(tr("runnable \u2192 running wait (\u00b5s, log scale)"));
    yAxis->setLabel(tr("waits"));
    keepValueTicksApart(this, yAxis);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    showEmpty(tr("Wait latency: no trace open"));
}

void LatencyHistogramPlot::setTrace(TraceSessionPtr trace) {
    trace_ = std::move(trace);
    rebuild();
}

void LatencyHistogramPlot::setTask(int pid) {
    pid_ = pid;
    rebuild();
}

void LatencyHistogramPlot::rebuild() {
    clearGraphs();
    clearItems();
    if (!trace_ || !trace_->data) {
        showEmpty(tr("Wait latency: no trace open"));
        return;
    }
    const TraceAnalysis& d = *trace_->data;
    const LogHistogram& h = d.waitHistogram;
    // µs on the axis, or the counts of a clock that does not count ns
    const TraceTimeUnits units = TraceTimeUnits::of(d);
    const auto x = [&](double ns) { return units.inUnit(ns, 1e3); };
    xAxis->setLabel(tr("runnable \u2192 running wait (%1, log scale)").arg(units.unit(QStringLiteral("\u00b5s"))));
    QCPGraph* g = addGraph();
    g->setPen(QPen(QColor(0x2b, 0x5c, 0x9e), 1.4));
    g->setBrush(QColor(0x4e, 0x8c, 0xd8, 110));
    g->setLineStyle(QCPGraph::lsStepLeft);
    QVector<double> keys, values;
    double top = 1;
    for (size_t b = 0; b < h.counts.size(); ++b) {
        keys << x(h.edge(b));
        values << double(h.counts[b]);
        top = std::max(top, values.back());
    }
    keys << x(h.edge(h.counts.size()));
    values << 0.0;
    g->setData(keys, values, true);
    xAxis->setRange(x(h.lo), x(h.hi));
    yAxis->setRange(0, top * 1.15);
    auto mark = [&](double ns, const QString& label, const QColor& colour, double yFrac) {
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(x(ns), 0);
        line->point2->setCoords(x(ns), 1);
        line->setPen(QPen(colour, 1.4, Qt::DashLine));
        auto* text = new QCPItemText(this);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(x(ns), top * yFrac);
        // Labels right of their line, except near the right edge where they would be cut.
        const bool rightEdge = xAxis->coordToPixel(x(ns)) > axisRect()->left() + 0.75 * axisRect()->width();
        text->setPositionAlignment((rightEdge ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        text->setText(QStringLiteral(" ") + label + QStringLiteral(" ") + units.duration(ns) + QStringLiteral(" "));
        text->setColor(colour);
    };
    const uint64_t p50 = d.waitP50, p95 = d.waitP95, p99 = d.waitP99;
    if (!d.waitLatencies.empty()) {
        mark(double(std::max<uint64_t>(p50, 1)), QStringLiteral("p50"), QColor(0x30, 0x80, 0x30), 1.08);
        mark(double(std::max<uint64_t>(p95, 1)), QStringLiteral("p95"), QColor(0xc0, 0x60, 0x00), 0.98);
        mark(double(std::max<uint64_t>(p99, 1)), QStringLiteral("p99"), QColor(0xb0, 0x20, 0x20), 0.88);
    }
    // the longest wait: on a linear count axis its bin is a sliver, and it is often the story
    if (!d.waitLatencies.empty()) {
        const uint64_t longest = *std::max_element(d.waitLatencies.begin(), d.waitLatencies.end());
        if (longest > p99) mark(double(std::max<uint64_t>(longest, 1)), QStringLiteral("max"), QColor(0x50, 0x50, 0x50), 0.64);
    }
    if (const TaskSummary* t = pid_ > 0 ? d.task(pid_) : nullptr; t && t->waits)
        mark(double(std::max<uint64_t>(t->waitP95Ns, 1)), qs(t->comm) + QStringLiteral(" p95"), taskColor(pid_).darker(140), 0.76);
    setTitle(tr("Wait latency, runnable \u2192 running: %1 waits").arg(d.waitLatencies.size()));
    replot();
}

}  // namespace schedscope::gui
