#include "domain_tree_model.h"

#include <QColor>

#include "domains/sd_flags.h"
#include "qt_convert.h"

namespace schedscope::gui {
namespace {

static_assert(sizeof(quintptr) >= 8, "row identities are packed into a 64-bit internalId");

QString levelLabel(const SchedDomain& d) {
    if (d.numaLevel >= 0 && d.numaDistance > 0)
        return qs(d.level) + QStringLiteral(" (distance %1)").arg(d.numaDistance);
    return qs(d.level);
}

// The flags that tell levels apart first (SHARE_LLC, CLUSTER, NUMA, ASYM_PACKING, ...), then the
// balance flags sd_init() gives every level: in the kernel's bit order those four come first and
// fill the column, hiding what differs. The tooltip keeps the kernel's order and full names.
QString shortFlags(const KernelProfile& profile, uint32_t flags) {
    constexpr uint32_t kEveryLevel = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;
    QStringList names;
    for (uint32_t part : {flags & ~kEveryLevel, flags & kEveryLevel})
        for (const auto& n : flagNames(profile, part)) {
            QString q = qs(n);
            if (q.startsWith(QLatin1String("SD_"))) q.remove(0, 3);
            names << q;
        }
    return names.join(QLatin1Char(' '));
}

}  // namespace

DomainTreeModel::DomainTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void DomainTreeModel::setSession(SessionPtr session) {
    beginResetModel();
    session_ = std::move(session);
    cpuOfRow_.clear();
    // every CPU with domains, and the online ones without: isolated, or with every level
    // degenerate (a machine of one CPU), each row saying why
    if (session_ && session_->tree)
        for (const auto& c : session_->tree->cpus)
            if (c.cpu >= 0 && (!c.domains.empty() || session_->tree->isolated.test(c.cpu) || session_->tree->builtFor.test(c.cpu)))
                cpuOfRow_.push_back(c.cpu);
    endResetModel();
}

quintptr DomainTreeModel::pack(const Node& n) {
    // depth:2 | cpuRow+1:24 | domainRow+1:16 — the node's own row is QModelIndex::row().
    return quintptr(n.depth) | (quintptr(n.cpuRow + 1) << 2) | (quintptr(n.domainRow + 1) << 26);
}

DomainTreeModel::Node DomainTreeModel::unpack(quintptr id, int row) {
    Node n;
    n.depth = int(id & 3u);
    n.cpuRow = int((id >> 2) & 0xffffffu) - 1;
    n.domainRow = int((id >> 26) & 0xffffu) - 1;
    if (n.depth == 1) n.cpuRow = row;
    else if (n.depth == 2) n.domainRow = row;
    else if (n.depth == 3) n.groupRow = row;
    return n;
}

DomainTreeModel::Node DomainTreeModel::nodeOf(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    return unpack(index.internalId(), index.row());
}

const SchedDomain* DomainTreeModel::domainAt(const Node& n) const {
    if (!session_ || n.cpuRow < 0 || n.cpuRow >= int(cpuOfRow_.size()) || n.domainRow < 0) return nullptr;
    const auto& doms = session_->tree->domainsOf(cpuOfRow_[size_t(n.cpuRow)]);
    return n.domainRow < int(doms.size()) ? &doms[size_t(n.domainRow)] : nullptr;
}

QModelIndex DomainTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
    Node p = nodeOf(parent);
    Node child;
    child.depth = p.depth + 1;
    child.cpuRow = p.cpuRow;
    child.domainRow = p.domainRow;
    if (child.depth == 1) child.cpuRow = -1;
    if (child.depth == 2) child.domainRow = -1;
    return createIndex(row, column, pack(child));
}

QModelIndex DomainTreeModel::parent(const QModelIndex& child) const {
    Node n = nodeOf(child);
    if (n.depth == 2) {
        Node p{1, -1, -1, -1};
        return createIndex(n.cpuRow, 0, pack(p));
    }
    if (n.depth == 3) {
        Node p{2, n.cpuRow, -1, -1};
        return createIndex(n.domainRow, 0, pack(p));
    }
    return {};
}

int DomainTreeModel::rowCount(const QModelIndex& parent) const {
    if (!session_ || !session_->tree) return 0;
    if (parent.isValid() && parent.column() != 0) return 0;
    Node n = nodeOf(parent);
    switch (n.depth) {
        case 0: return int(cpuOfRow_.size());
        case 1:
            if (n.cpuRow < 0 || n.cpuRow >= int(cpuOfRow_.size())) return 0;
            return int(session_->tree->domainsOf(cpuOfRow_[size_t(n.cpuRow)]).size());
        case 2: {
            const SchedDomain* d = domainAt(n);
            return d ? int(d->groups.size()) : 0;
        }
        default: return 0;
    }
}

int DomainTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QModelIndex DomainTreeModel::cpuIndex(int cpu) const {
    for (size_t r = 0; r < cpuOfRow_.size(); ++r)
        if (cpuOfRow_[r] == cpu) return index(int(r), 0);
    return {};
}

QModelIndex DomainTreeModel::domainIndex(int cpu, int topologyLevel) const {
    QModelIndex c = cpuIndex(cpu);
    if (!c.isValid()) return {};
    const auto& doms = session_->tree->domainsOf(cpu);
    for (size_t i = 0; i < doms.size(); ++i)
        if (doms[i].topologyLevel == topologyLevel) return index(int(i), 0, c);
    return {};
}

QVariant DomainTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !session_) return {};
    Node n = nodeOf(index);
    if (n.cpuRow < 0 || n.cpuRow >= int(cpuOfRow_.size())) return {};
    switch (role) {
        case CpuRole: return cpuOfRow_[size_t(n.cpuRow)];
        case TopologyLevelRole: {
            const SchedDomain* d = domainAt(n);
            return d ? d->topologyLevel : -1;
        }
        case DomainIndexRole: return n.depth >= 2 ? n.domainRow : -1;
        case GroupIndexRole: return n.depth == 3 ? n.groupRow : -1;
        default: break;
    }
    if (role == Qt::TextAlignmentRole) {
        const int c = index.column();
        if (c == WeightColumn || c == GroupsColumn || c == ImbalanceColumn || c == BusyFactorColumn ||
            c == CacheNiceColumn || c == ImbNumaColumn || c == CapacityColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    switch (n.depth) {
        case 1: return cpuData(n, index.column(), role);
        case 2: return domainData(n, index.column(), role);
        case 3: return groupData(n, index.column(), role);
        default: return {};
    }
}

QVariant DomainTreeModel::cpuData(const Node& n, int column, int role) const {
    const int cpu = cpuOfRow_[size_t(n.cpuRow)];
    const auto& doms = session_->tree->domainsOf(cpu);
    if (role == Qt::DisplayRole) {
        if (column == LevelColumn) return tr("CPU %1").arg(cpu);
        if (column == SpanColumn && !doms.empty()) return qs(doms.back().span.toList());
        if (column == WeightColumn && !doms.empty()) return doms.back().span.count();
        if (column == FlagsColumn && doms.empty())
            return session_->tree->isolated.test(cpu)
                       ? tr("isolated: no sched domains (isolcpus=domain or an isolated cpuset partition)")
                       : tr("no sched domains: no other CPU to balance with");
        if (column == FlagsColumn) {
            QStringList levels;
            for (const auto& d : doms) levels << qs(d.level);
            return levels.join(QStringLiteral(" \u2192 "));
        }
    }
    if (role == Qt::ForegroundRole && column == FlagsColumn) return QColor(Qt::darkGray);
    if (role == Qt::ToolTipRole && column == LevelColumn) {
        QStringList levels;
        for (const auto& d : doms) levels << levelLabel(d);
        return tr("CPU %1: %2").arg(cpu).arg(levels.join(QStringLiteral(" \u2192 ")));
    }
    return {};
}

QVariant DomainTreeModel::domainData(const Node& n, int column, int role) const {
    const SchedDomain* d = domainAt(n);
    if (!d) return {};
    const KernelProfile& profile = session_->tree->profile ? *session_->tree->profile : defaultProfile();
    if (role == Qt::DisplayRole) {
        switch (column) {
            case LevelColumn: return levelLabel(*d);
            case SpanColumn: return qs(d->span.toList());
            case WeightColumn: return d->span.count();
            case GroupsColumn: return int(d->groups.size());
            case FlagsColumn: return shortFlags(profile, d->flags);
            case ImbalanceColumn: return d->imbalancePct;
            case IntervalColumn: return QStringLiteral("%1\u2013%2").arg(d->minInterval).arg(d->maxInterval);
            case BusyFactorColumn: return d->busyFactor;
            case CacheNiceColumn: return d->cacheNiceTries;
            case ImbNumaColumn: return d->imbNumaNr ? QVariant(d->imbNumaNr) : QVariant();
            default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (column == FlagsColumn) return qsList(flagNames(profile, d->flags)).join(QLatin1Char('\n'));
        return tr("%1 of CPU %2: span %3, %4 groups")
            .arg(levelLabel(*d))
            .arg(cpuOfRow_[size_t(n.cpuRow)])
            .arg(qs(d->span.toList()))
            .arg(d->groups.size());
    }
    return {};
}

QVariant DomainTreeModel::groupData(const Node& n, int column, int role) const {
    const SchedDomain* d = domainAt(n);
    if (!d || n.groupRow < 0 || n.groupRow >= int(d->groups.size())) return {};
    const SchedGroup& g = d->groups[size_t(n.groupRow)];
    const bool overlapMask = !g.balanceMask.empty() && !(g.balanceMask == g.span);
    if (role == Qt::DisplayRole) {
        switch (column) {
            case LevelColumn: return n.groupRow == 0 ? tr("group %1 (local)").arg(n.groupRow) : tr("group %1").arg(n.groupRow);
            case SpanColumn:
                return overlapMask ? tr("%1 (balance mask %2)").arg(qs(g.span.toList()), qs(g.balanceMask.toList()))
                                   : qs(g.span.toList());
            case WeightColumn: return g.span.count();
            case CapacityColumn: return g.capacity;
            default: return {};
        }
    }
    if (role == Qt::ToolTipRole && column == LevelColumn)
        return tr("sched group %1 of the %2 domain: CPUs %3, capacity %4")
            .arg(n.groupRow).arg(levelLabel(*d), qs(g.span.toList())).arg(g.capacity);
    // the whole span where a narrow column cuts it (a NUMA group's balance mask on a big machine)
    if (role == Qt::ToolTipRole && column == SpanColumn) return groupData(n, column, Qt::DisplayRole);
    return {};
}

QVariant DomainTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case LevelColumn: return tr("Level");
            case SpanColumn: return tr("Span");
            case WeightColumn: return tr("CPUs");
            case GroupsColumn: return tr("Groups");
            case FlagsColumn: return tr("Flags");
            case ImbalanceColumn: return tr("imbalance_pct");
            case IntervalColumn: return tr("interval (ms)");
            case BusyFactorColumn: return tr("busy_factor");
            case CacheNiceColumn: return tr("cache_nice_tries");
            case ImbNumaColumn: return tr("imb_numa_nr");
            case CapacityColumn: return tr("Capacity");
            default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case ImbalanceColumn: return tr("how much busier (in %) the busiest group must be before load_balance() moves tasks");
            case IntervalColumn: return tr("min_interval\u2013max_interval: how often load_balance() runs at this level");
            case BusyFactorColumn: return tr("the interval is multiplied by this when the CPU is busy");
            case CacheNiceColumn: return tr("balance attempts that leave cache-hot tasks alone");
            case ImbNumaColumn: return tr("tasks a NUMA domain may leave imbalanced (5.18+)");
            case CapacityColumn: return tr("group capacity (1024 per full CPU)");
            default: return {};
        }
    }
    return {};
}

}  // namespace schedscope::gui
