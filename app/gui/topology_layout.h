#pragma once
// TopologyLayout: the nested boxes of the topology picture (package > NUMA node > LLC > cluster
// > core > CPU, like lstopo; the nodes inside the LLC where it holds several, as with sub-NUMA
// clustering) and their geometry for a given area. Kept apart from the widget so
// painting, hit-testing, export and tests share one layout.
#include <QRectF>
#include <QString>
#include <vector>

#include "topology/topology.h"

namespace schedscope::gui {

struct TopoBox {
    enum Kind { Machine, Package, Node, Cache, Cluster, Core, Cpu };
    Kind kind = Machine;
    QString label;        // "Package 0", "NUMA node 1 · L3", "CPU 7"
    QString shortLabel;   // for a box too narrow for the label: "P0", "N1"; empty: elide the label
    CpuSet cpus;
    int cpu = -1;         // Cpu boxes only
    int parent = -1;
    std::vector<int> children;
    QRectF rect;          // set by layout()
    QRectF header;        // where the label goes; empty when it does not fit
};

class TopologyLayout {
public:
    // Groups the online CPUs level by level; a box with a single child spanning the same CPUs is
    // merged into its parent (its name joins the parent's label), as lstopo does.
    static TopologyLayout build(const Topology& topology);

    // Places the boxes in `area`. `labelHeight` is the text height of a box label in pixels;
    // labels are dropped where a box is too small for them.
    void layout(const QRectF& area, qreal labelHeight, qreal charWidth);

    const std::vector<TopoBox>& boxes() const { return boxes_; }
    const TopoBox& root() const { return boxes_.front(); }
    // The Cpu box of a CPU, or -1.
    int boxOfCpu(int cpu) const;
    // The deepest box containing `p`, or -1.
    int boxAt(const QPointF& p) const;
    // The smallest box whose CPUs are exactly `cpus`, or -1.
    int boxWithCpus(const CpuSet& cpus) const;

private:
    struct Size { qreal w = 0, h = 0; };
    Size naturalSize(int box) const;
    void place(int box, const QRectF& r, qreal labelHeight, qreal charWidth);
    int add(TopoBox b);

    std::vector<TopoBox> boxes_;
    std::vector<int> cpuBox_;  // by CPU id
};

}  // namespace schedscope::gui
