#include "topology_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QCoreApplication>

#include "qt_convert.h"

namespace schedscope::gui {
namespace {

// The name of the last-level cache of a CPU with its size when known ("L3 (32 MB)"), or "LLC"
// when caches are unknown.
QString llcName(const Topology& t, int cpu) {
    const CacheInfo* llc = t.llc(cpu);
    if (!llc || llc->level <= 0) return QStringLiteral("LLC");
    const QString name = QStringLiteral("L%1").arg(llc->level);
    return llc->sizeKB > 0 ? QStringLiteral("%1 (%2)").arg(name, qs(cacheSizeText(llc->sizeKB))) : name;
}

CpuSet levelCpus(const Topology& t, TopoBox::Kind kind, int cpu) {
    const CpuTopology& c = t.cpus[size_t(cpu)];
    switch (kind) {
        case TopoBox::Package: return !c.packageCpus.empty() ? c.packageCpus : c.coreSiblings;
        case TopoBox::Node: return t.nodeCpus(c.node);
        case TopoBox::Cache: return t.llcCpus(cpu);
        case TopoBox::Cluster: return c.clusterCpus;
        case TopoBox::Core: return c.threadSiblings;
        default: return CpuSet::single(cpu);
    }
}

QString boxLabel(const Topology& t, TopoBox::Kind kind, int firstCpu, int ordinal) {
    const CpuTopology& c = t.cpus[size_t(firstCpu)];
    switch (kind) {
        case TopoBox::Package: return QCoreApplication::translate("TopologyLayout", "Package %1").arg(c.packageId >= 0 ? c.packageId : ordinal);
        case TopoBox::Node: return QCoreApplication::translate("TopologyLayout", "NUMA node %1").arg(c.node);
        case TopoBox::Cache: return llcName(t, firstCpu);
        case TopoBox::Cluster: return QCoreApplication::translate("TopologyLayout", "Cluster");
        case TopoBox::Core: return QCoreApplication::translate("TopologyLayout", "Core");
        default: return {};
    }
}

// What names a package or node in a box too narrow for its label (hundreds of nodes side by
// side): "P3", "N12". Other boxes are elided: their kind shows in their colour.
QString boxShortLabel(const Topology& t, TopoBox::Kind kind, int firstCpu, int ordinal) {
    const CpuTopology& c = t.cpus[size_t(firstCpu)];
    switch (kind) {
        case TopoBox::Package: return QStringLiteral("P%1").arg(c.packageId >= 0 ? c.packageId : ordinal);
        case TopoBox::Node: return QStringLiteral("N%1").arg(c.node);
        default: return {};
    }
}

// The levels top-down: package > NUMA node > LLC > cluster > core > CPU, as lstopo nests them,
// except where an LLC holds several nodes (Intel's sub-NUMA clustering shows its L3 across the
// package's nodes): then the nodes go inside the LLC instead of being left out for not nesting.
// The same where a NUMA node holds several whole packages (SGI Altix's and POWER's boards,
// hwloc's 8n8s exports): the nodes go outside the packages, or they would show only as a word at
// the end of each package's title.
bool nodesHoldPackages(const Topology& t) {
    bool several = false;
    for (const CpuTopology& c : t.cpus) {
        if (!c.online) continue;
        const CpuSet node = t.nodeCpus(c.node);
        const CpuSet package = levelCpus(t, TopoBox::Package, c.id);
        if (!package.isSubsetOf(node)) return false;
        several = several || package != node;
    }
    return several;
}

std::vector<TopoBox::Kind> levelOrder(const Topology& t) {
    if (nodesHoldPackages(t))
        return {TopoBox::Node, TopoBox::Package, TopoBox::Cache, TopoBox::Cluster, TopoBox::Core, TopoBox::Cpu};
    if (t.llcHoldsNodes())
        return {TopoBox::Package, TopoBox::Cache, TopoBox::Node, TopoBox::Cluster, TopoBox::Core, TopoBox::Cpu};
    return {TopoBox::Package, TopoBox::Node, TopoBox::Cache, TopoBox::Cluster, TopoBox::Core, TopoBox::Cpu};
}

constexpr qreal kCpuW = 1.0, kCpuH = 0.62;  // natural CPU box, in abstract units
constexpr qreal kPad = 0.10, kHead = 0.30;  // natural padding and label band around children
constexpr qreal kTargetAspect = 1.5;        // boxes prefer to be this much wider than tall

// Columns for n equal cells of natural size w x h filling `avail` best (largest scale).
int bestColumns(int n, qreal w, qreal h, qreal availW, qreal availH) {
    int best = 1;
    qreal bestScale = -1;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        if (cols > 1 && (rows - 1) * cols >= n) continue;  // an empty last row: never better
        const qreal s = std::min(availW / (cols * w), availH / (rows * h));
        if (s > bestScale * 1.0001) { bestScale = s; best = cols; }
    }
    return best;
}

}  // namespace

int TopologyLayout::add(TopoBox b) {
    boxes_.push_back(std::move(b));
    return int(boxes_.size()) - 1;
}

TopologyLayout TopologyLayout::build(const Topology& t) {
    TopologyLayout L;
    TopoBox root;
    root.kind = TopoBox::Machine;
    root.label = qs(t.name);
    root.cpus = t.onlineCpus();
    L.add(root);

    const std::vector<TopoBox::Kind> order = levelOrder(t);
    auto position = [&](int kind) { return int(std::find(order.begin(), order.end(), kind) - order.begin()); };
    auto below = [&](int kind) { return int(order[size_t(position(kind)) + 1]); };

    int packagesDrawn = 0;
    // Recursively split `cpus` by the masks of `kind` and the levels below it.
    auto split = [&](auto&& self, int parent, const CpuSet& cpus, int kind) -> void {
        if (kind == TopoBox::Cpu) {
            cpus.forEach([&](int cpu) {
                TopoBox b;
                b.kind = TopoBox::Cpu;
                b.cpu = cpu;
                b.cpus = CpuSet::single(cpu);
                b.label = QString::number(cpu);
                b.parent = parent;
                const int id = L.add(b);
                L.boxes_[size_t(parent)].children.push_back(id);
            });
            return;
        }
        // A level that does not contain the levels below it cannot be drawn as boxes around
        // them (e.g. a device tree without cache information: each CPU its own "LLC" inside a
        // 4-CPU cluster); leave it out rather than draw a lie.
        bool nests = kind == TopoBox::Package || kind == TopoBox::Core;
        if (!nests) {
            nests = true;
            cpus.forEach([&](int cpu) {
                if (!nests) return;
                if (kind == TopoBox::Cache && t.cpus[size_t(cpu)].caches.empty()) nests = false;
                const CpuSet mine = levelCpus(t, TopoBox::Kind(kind), cpu) & cpus;
                for (size_t deeper = size_t(position(kind)) + 1; order[deeper] != TopoBox::Cpu && nests; ++deeper)
                    if (!(levelCpus(t, order[deeper], cpu) & cpus).isSubsetOf(mine)) nests = false;
            });
        }
        if (!nests) {
            self(self, parent, cpus, below(kind));
            return;
        }
        std::map<int, CpuSet> groups;  // keyed by first CPU: boxes in CPU order
        cpus.forEach([&](int cpu) {
            CpuSet g = levelCpus(t, TopoBox::Kind(kind), cpu) & cpus;
            if (g.empty()) g = CpuSet::single(cpu);
            groups.emplace(g.first(), g);
        });
        // A level that does not split the parent adds no box (lstopo merges those too) --
        // except packages, which are always drawn.
        if (groups.size() == 1 && kind != TopoBox::Package) {
            const CpuSet& only = groups.begin()->second;
            if (only == L.boxes_[size_t(parent)].cpus) {
                if (kind != TopoBox::Cluster && kind != TopoBox::Core && parent != 0)
                    L.boxes_[size_t(parent)].label += QStringLiteral(" \u00b7 ") + boxLabel(t, TopoBox::Kind(kind), only.first(), 0);
                self(self, parent, cpus, below(kind));
                return;
            }
        }
        int ordinal = 0;
        for (const auto& [first, g] : groups) {
            // x86 reports a core's L2 sharers as its cluster: a cluster that is one core is a core.
            if (kind == TopoBox::Cluster && g == (levelCpus(t, TopoBox::Core, first) & cpus)) {
                self(self, parent, g, TopoBox::Core);
                continue;
            }
            if (g.count() == 1 && (kind == TopoBox::Cluster || kind == TopoBox::Core)) {
                self(self, parent, g, TopoBox::Cpu);  // a one-CPU core is just the CPU
                continue;
            }
            TopoBox b;
            b.kind = TopoBox::Kind(kind);
            b.cpus = g;
            // packages without an id count across the machine, not within each node above them
            const int number = kind == TopoBox::Package ? packagesDrawn++ : ordinal++;
            b.label = boxLabel(t, b.kind, first, number);
            b.shortLabel = boxShortLabel(t, b.kind, first, number);
            b.parent = parent;
            const int id = L.add(b);
            L.boxes_[size_t(parent)].children.push_back(id);
            self(self, id, g, below(kind));
        }
    };
    split(split, 0, root.cpus, order.front());

    L.cpuBox_.assign(t.cpus.size(), -1);
    for (size_t i = 0; i < L.boxes_.size(); ++i)
        if (L.boxes_[i].kind == TopoBox::Cpu && L.boxes_[i].cpu >= 0 && size_t(L.boxes_[i].cpu) < L.cpuBox_.size())
            L.cpuBox_[size_t(L.boxes_[i].cpu)] = int(i);
    return L;
}

TopologyLayout::Size TopologyLayout::naturalSize(int box) const {
    const TopoBox& b = boxes_[size_t(box)];
    if (b.children.empty()) return {kCpuW, kCpuH};
    Size cell;
    for (int c : b.children) {
        Size s = naturalSize(c);
        cell.w = std::max(cell.w, s.w);
        cell.h = std::max(cell.h, s.h);
    }
    const int n = int(b.children.size());
    // The column count whose grid is closest to the preferred aspect.
    int bestCols = 1;
    qreal bestErr = 1e9;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        const qreal err = std::abs(std::log((cols * cell.w) / (rows * cell.h) / kTargetAspect));
        if (err < bestErr) { bestErr = err; bestCols = cols; }
    }
    const int rows = (n + bestCols - 1) / bestCols;
    const qreal head = b.kind == TopoBox::Machine ? 0 : kHead;
    return {bestCols * cell.w + 2 * kPad, rows * cell.h + 2 * kPad + head};
}

void TopologyLayout::layout(const QRectF& area, qreal labelHeight, qreal charWidth) {
    if (boxes_.empty()) return;
    place(0, area, labelHeight, charWidth);
}

void TopologyLayout::place(int box, const QRectF& r, qreal labelHeight, qreal charWidth) {
    TopoBox& b = boxes_[size_t(box)];
    b.rect = r;
    b.header = {};
    if (b.children.empty()) return;

    const qreal pad = std::clamp(std::min(r.width(), r.height()) * 0.025, 1.5, 5.0);
    QRectF inner = r.adjusted(pad, pad, -pad, -pad);
    if (b.kind != TopoBox::Machine && inner.height() > 3 * labelHeight &&
        inner.width() > charWidth * std::min<qsizetype>(b.label.size(), 8)) {
        b.header = QRectF(inner.left(), inner.top(), inner.width(), labelHeight);
        inner.setTop(inner.top() + labelHeight + 1);
    }
    const int n = int(b.children.size());
    Size cell;
    for (int c : b.children) {
        Size s = naturalSize(c);
        cell.w = std::max(cell.w, s.w);
        cell.h = std::max(cell.h, s.h);
    }
    const int cols = bestColumns(n, cell.w, cell.h, inner.width(), inner.height());
    const int rows = (n + cols - 1) / cols;
    const qreal gap = std::clamp(std::min(inner.width() / cols, inner.height() / rows) * 0.04, 1.0, 6.0);
    const qreal cw = (inner.width() - gap * (cols - 1)) / cols;
    const qreal ch = (inner.height() - gap * (rows - 1)) / rows;
    for (int i = 0; i < n; ++i) {
        const int row = i / cols, col = i % cols;
        QRectF cr(inner.left() + col * (cw + gap), inner.top() + row * (ch + gap), cw, ch);
        place(b.children[size_t(i)], cr, labelHeight, charWidth);
    }
}

int TopologyLayout::boxOfCpu(int cpu) const {
    return cpu >= 0 && size_t(cpu) < cpuBox_.size() ? cpuBox_[size_t(cpu)] : -1;
}

int TopologyLayout::boxAt(const QPointF& p) const {
    int at = -1;
    if (boxes_.empty()) return at;
    int cur = 0;
    while (cur >= 0 && boxes_[size_t(cur)].rect.contains(p)) {
        at = cur;
        int next = -1;
        for (int c : boxes_[size_t(cur)].children)
            if (boxes_[size_t(c)].rect.contains(p)) { next = c; break; }
        cur = next;
    }
    return at;
}

int TopologyLayout::boxWithCpus(const CpuSet& cpus) const {
    int found = -1;
    for (size_t i = 0; i < boxes_.size(); ++i)
        if (boxes_[i].cpus == cpus) found = int(i);  // later boxes are deeper: keep the smallest
    return found;
}

}  // namespace schedscope::gui
