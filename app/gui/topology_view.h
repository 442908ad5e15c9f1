#pragma once
// TopologyView: the machine as nested boxes (package > NUMA node > LLC > cluster > core > CPU),
// painted with plain QPainter and scaled to the widget. The selected CPU's domain at the
// selected level is shown as a shaded span with its sched groups outlined; tooltips give each
// CPU's masks and its domains' flags and balance parameters. A per-CPU value vector colours
// the CPUs (heat), for utilisation or migration counts later.
#include <QWidget>

#include "cpu_labels.h"
#include "session.h"
#include "topology_layout.h"

namespace schedscope::gui {

class TopologyView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);

    void setSession(SessionPtr session);
    const SessionPtr& session() const { return session_; }

    int selectedCpu() const { return cpu_; }
    int selectedLevel() const { return level_; }  // SchedDomain::topologyLevel, -1: none
    // The selected CPU's domain at the selected level, or null (level pruned for that CPU).
    const SchedDomain* selectedDomain() const;
    // The line under the title: the selected CPU's domain at the selected level, or why none.
    QString selectionText() const;

    // Heat: one value per CPU id (NaN or missing: no value); empty switches heat off.
    void setHeat(std::vector<double> perCpu, const QString& what);
    // The same on a fixed scale, so views compared side by side share one.
    void setHeat(std::vector<double> perCpu, const QString& what, double scaleMin, double scaleMax);
    const std::vector<double>& heat() const { return heat_; }

    // The title while no session is shown (default "Nothing open"): what to do to fill the view.
    void setEmptyText(const QString& text);
    QString titleText() const;  // the title line: the topology's, or the empty text

    // What the picture leaves unnumbered ("CPUs numbered 0, 8, 16...: no room for each number"),
    // shown in its legend; "" when every CPU has its number.
    QString cpuLabelNote() const;

    // Paints the whole picture into `target` (widget, image, SVG or PDF alike).
    void paintTo(QPainter& painter, const QRectF& target) const;

    QSize sizeHint() const override { return {820, 560}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

public slots:
    void setSelection(int cpu, int topologyLevel);

signals:
    void selectionChanged(int cpu, int topologyLevel);
    void exportRequested();

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    struct Frame {  // the parts of the picture for one target rectangle
        QRectF title, boxes, legend;
    };
    Frame frameFor(const QRectF& target) const;
    void ensureLayout() const;
    QString kindLabel(int cpu) const;  // "P-core", "E-core", ...; empty when homogeneous
    bool isolated(int cpu) const;      // left without sched domains (isolcpus, an isolated partition)
    QString tooltipFor(int box) const;
    void paintBoxes(QPainter& p, const TopologyLayout& layout, const CpuLabels& labels) const;
    void paintSelection(QPainter& p, const TopologyLayout& layout) const;
    // `unnumbered`: what the picture leaves unnumbered (CpuLabels::note())
    void paintLegend(QPainter& p, const QRectF& r, const QString& unnumbered) const;

    SessionPtr session_;
    mutable TopologyLayout layout_;        // built per session; placed for the widget rect
    mutable QRectF laidOutFor_;
    mutable CpuLabels labels_;             // the CPUs' numbers in layout_
    int cpu_ = -1;
    int level_ = -1;
    int hoverBox_ = -1;
    std::vector<double> heat_;
    QString heatWhat_;
    QString emptyText_;
    double heatMin_ = 0, heatMax_ = 1;
};

}  // namespace schedscope::gui
