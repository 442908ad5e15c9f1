#pragma once
// TimelineView: one lane per CPU, lanes grouped (and collapsible) by sched-domain span, tasks
// coloured by pid, migrations as arrows coloured by domain level, A/B markers with the
// interval's statistics, and follow-a-task. Painting is level-of-detail: every lane is binned
// per pixel column over the visible window (timeline_lod.h), so a frame costs
// O(pixels x lanes), not O(events). Zoom: wheel, +/-; pan: drag, shift+wheel, arrows.
#include <QColor>
#include <QImage>
#include <QWidget>
#include <optional>

#include "time_axis.h"
#include "trace_loader.h"

namespace schedscope::gui {

// A task's colour, the same in every view: a hue from a hash of the pid.
QColor taskColor(int32_t pid);
// A migration level's colour ("SMT", "CLS"/"CACHE", "MC", "PKG"/"DIE", "NODE", "NUMA", else grey).
QColor levelColor(const QString& level);

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setTrace(TraceSessionPtr trace);
    const TraceSessionPtr& trace() const { return trace_; }

    TimeAxis& axis() { return axis_; }
    const TimeAxis& axis() const { return axis_; }
    int32_t followedTask() const { return follow_; }
    int selectedCpu() const { return cpu_; }

    // A/B markers (trace timestamps); std::nullopt when unset.
    void setMarkers(std::optional<int64_t> a, std::optional<int64_t> b);
    std::optional<int64_t> markerA() const { return markA_; }
    std::optional<int64_t> markerB() const { return markB_; }
    // The statistics of [A, B) when both are set.
    std::optional<IntervalStats> markerStats() const;
    QString markerSummary() const;  // one line, empty without both markers

    // Lane groups (by domain span); collapsing shows one aggregate lane for the group.
    int groupCount() const { return int(groups_.size()); }
    QString groupName(int g) const { return groups_[size_t(g)].name; }
    void setGroupCollapsed(int g, bool collapsed);
    // Expands every group, then collapses the lowest levels' groups, a level at a time, until
    // each lane left is at least kFitLaneH tall in the view's height: a new recording opens
    // readable (a 16-CPU machine's SMT, MC and NUMA headers left its lanes 2 px, and a 128-CPU
    // one's ran off the bottom). The user expands what they want to see.
    // It runs for each new recording and, until the user collapses or expands a group, again
    // whenever the view is resized.
    void fitGroupsToHeight();
    static constexpr double kFitLaneH = 8;
    bool groupCollapsed(int g) const { return groups_[size_t(g)].collapsed; }
    // The height each lane has in the view now (before the 2 px every lane keeps at least).
    double laneHeight() const;

    // Paints the whole picture into `target` (widget, image, SVG or PDF alike).
    void paintTo(QPainter& painter, const QRectF& target) const;

    // What is under `pos` (widget coordinates), as the tooltip says it: a migration arrow (task,
    // CPUs, level, cause) or a run slice (task, CPU, start, length), or a group label's whole
    // name (the gutter elides long ones); empty over nothing.
    QString hoverText(const QPointF& pos) const;

    QSize sizeHint() const override { return {900, 420}; }
    QSize minimumSizeHint() const override { return {300, 160}; }

public slots:
    void followTask(int pid);  // -1 stops following
    void setSelectedCpu(int cpu);
    void resetZoom();

signals:
    void taskPicked(int pid);
    void cpuPicked(int cpu);
    void markersChanged();
    void exportRequested();

protected:
    bool event(QEvent* e) override;  // tooltips: hoverText()
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    // `t` (a span or an offset) in the trace clock's units: ns, or counts of a clock that is not ns
    QString timeText(double t) const;
    struct LaneGroup {
        QString name;
        std::vector<int> cpus;
        std::vector<int> children;  // groups one level down; empty: CPU lanes
        int level = 0;              // levels above the CPU lanes: 0 for a group of CPU lanes
        bool collapsed = false;
    };
    struct Row {
        int cpu = -1;    // a CPU lane
        int group = -1;  // a group header (collapsed: an aggregate lane)
        int depth = 0;
        double y = 0, h = 0;
    };
    struct Frame {
        QRectF title, ruler, gutter, lanes, legend;
    };
    Frame frameFor(const QRectF& target) const;
    std::vector<Row> rowsFor(const QRectF& lanes) const;
    double laneHeightFor(const QRectF& lanes) const;  // unclamped
    double laneHeightOf(const std::vector<Row>& rows, const QRectF& lanes) const;
    void buildGroups();
    void paintLanes(QPainter& p, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const;
    void paintRuler(QPainter& p, const QRectF& r, const TimeAxis& ax) const;
    void paintMigrations(QPainter& p, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const;
    // The same arrows written straight into the lanes' raster image: on screen and in PNGs
    // QPainter strokes of tall antialiased lines cost far more than the pixels they touch.
    void rasterMigrations(QImage& img, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const;
    // Indices into the trace's migrations to draw (at most one per 3 pixels) and the
    // followed task's (at most one per pixel).
    std::pair<std::vector<size_t>, std::vector<size_t>> visibleMigrations(const TimeAxis& ax, int widthPx) const;
    void paintLabels(QPainter& p, const Frame& f, const std::vector<Row>& rows, const TimeAxis& ax) const;
    void paintLegend(QPainter& p, const QRectF& r) const;
    TimeAxis axisFor(const QRectF& lanes) const;
    const Row* rowAt(const QPointF& pos) const;
    int32_t taskAt(const QPointF& pos) const;
    // [cpu] the y of the centre of the CPU's lane (of its collapsed group's lane), -1 if hidden.
    std::vector<double> laneCenters(const std::vector<Row>& rows) const;

    TraceSessionPtr trace_;
    TimeAxis axis_;
    std::vector<LaneGroup> groups_;
    std::vector<int> roots_;
    std::vector<int> cpuGroup_;  // [cpu] innermost group, -1 when ungrouped
    int32_t follow_ = -1;
    bool autoFit_ = true;  // the groups follow the view's height (fitGroupsToHeight())
    std::vector<LaneSlices> followLanes_;
    std::vector<uint32_t> followMigrations_;
    int cpu_ = -1;
    std::optional<int64_t> markA_, markB_;
    QPoint pressPos_;
    int64_t pressViewStart_ = 0;
    bool dragging_ = false;
    mutable QImage lanesImage_;  // the lanes raster, reused from frame to frame
    // A task's lane colour (faded when following another task), cached by pid.
    QRgb laneColour(int32_t pid) const;
    mutable std::vector<std::pair<int32_t, QRgb>> colourCache_;
    mutable int32_t colourCacheFollow_ = -1;
};

}  // namespace schedscope::gui
