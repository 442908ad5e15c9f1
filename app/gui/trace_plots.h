#pragma once
// The trace's plots, thin QCustomPlot adapters over TraceAnalysis: the src x dst migration
// matrix (QCPColorMap), migrations per second per domain level, and the runnable -> running
// wait-latency histogram. Each paints into any QPainter for PNG/SVG/PDF export.
#include <qcustomplot.h>
#include <vector>

#include "plot_note.h"
#include "plot_title.h"
#include "trace_loader.h"

namespace schedscope::gui {

class TracePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit TracePlot(QWidget* parent = nullptr);
    virtual void setTrace(TraceSessionPtr trace) = 0;
    const TraceSessionPtr& trace() const { return trace_; }
    // Renders the plot at `target`'s size (replays QCustomPlot's painting: vector-friendly).
    void paintTo(QPainter& painter, const QRectF& target);
    // The note across empty axes, saying why they are empty ("" when they are not; tests).
    QString emptyReasonText() const;
    QString title() const { return title_.text(); }  // whole, as set
    QString shownTitle() const;                      // as drawn: elided to fit (tests)

signals:
    void exportRequested();

protected:
    void contextMenuEvent(QContextMenuEvent* e) override;
    virtual void addMenuItems(QMenu& /*menu*/) {}  // a plot's own entries in its context menu
    // The title alone, the axes hidden: no trace to plot.
    void showEmpty(const QString& text);
    void showAxes(bool shown);
    // The title, elided (after a smaller font) to the plot's width after every layout.
    void setTitle(const QString& text);
    // Why the axes are empty, written across the middle of them ("" hides it): empty axes
    // alone read as a bug.
    void showEmptyReason(const QString& why);
    TraceSessionPtr trace_;
    PlotNote reason_{this};
    PlotTitle title_{this};
};

class MigrationMatrixPlot : public TracePlot {
    Q_OBJECT
public:
    explicit MigrationMatrixPlot(QWidget* parent = nullptr);
    void setTrace(TraceSessionPtr trace) override;
    void setSelectedCpu(int cpu);
    // The (src, dst) cell under a widget position, or {-1, -1}.
    std::pair<int, int> cellAt(const QPointF& pos) const;

signals:
    void cpuPicked(int cpu);

private:
    void onPress(QMouseEvent* e);
    // the CPU ticks' steps, a label apart at the axes' pixel sizes
    void fitTicks();
    // the counts in the cells, shown only while a cell is big enough to hold its number
    void fitCellLabels();
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QCPItemRect* selection_;
    std::vector<QCPItemText*> cellLabels_;
    int cpu_ = -1;

public:
    // Cell counts drawn (tests): none while the cells are too small for them.
    int visibleCellLabels() const;
    // CPUs between two labelled ticks of the destination (Qt::Horizontal) or source axis (tests).
    int cpuTickStep(Qt::Orientation axis) const;
};

class LevelRatePlot : public TracePlot {
    Q_OBJECT
public:
    // A line per domain level (the default) or per cause (wakeup, fork, the balancing paths...).
    enum class Grouping { Level, Cause };
    explicit LevelRatePlot(QWidget* parent = nullptr);
    void setTrace(TraceSessionPtr trace) override;
    void setGrouping(Grouping g);
    Grouping grouping() const { return grouping_; }

protected:
    void addMenuItems(QMenu& menu) override;

private:
    // one step line of migrations per second per bin of the trace (perSecond), or per bin for a
    // trace clock that does not count ns
    void addRateGraph(const QString& name, const QColor& colour, const std::vector<uint64_t>& bins, double binS, bool perSecond,
                      double& top);
    // the legend's last line: the levels it leaves out, having no migrations ("" for none)
    void showLevelsLeftOut(const QString& text);
    Grouping grouping_ = Grouping::Level;
    QCPTextElement* leftOut_ = nullptr;  // in the legend while it has text
};

class LatencyHistogramPlot : public TracePlot {
    Q_OBJECT
public:
    explicit LatencyHistogramPlot(QWidget* parent = nullptr);
    void setTrace(TraceSessionPtr trace) override;
    void setTask(int pid);  // marks the task's p95 wait (-1: none)

private:
    void rebuild();
    int pid_ = -1;
};

}  // namespace schedscope::gui
