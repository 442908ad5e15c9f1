#pragma once
// DomainTreeModel: a thin QAbstractItemModel over a DomainTree.
//   CPU rows -> that CPU's domains bottom-up -> each domain's sched groups.
// Columns follow the kernel's names (imbalance_pct, busy_factor, ...). The model keeps the tree
// alive through a shared pointer; setSession() swaps it with a model reset.
#include <QAbstractItemModel>

#include "session.h"

namespace schedscope::gui {

class DomainTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        LevelColumn, SpanColumn, WeightColumn, GroupsColumn, FlagsColumn, ImbalanceColumn,
        IntervalColumn, BusyFactorColumn, CacheNiceColumn, ImbNumaColumn, CapacityColumn, ColumnCount
    };
    enum Role {
        CpuRole = Qt::UserRole + 1,  // int: the CPU the row belongs to
        TopologyLevelRole,           // int: SchedDomain::topologyLevel, -1 on CPU rows
        DomainIndexRole,             // int: index into domainsOf(cpu), -1 on CPU rows
        GroupIndexRole,              // int: group index on group rows, else -1
    };

    explicit DomainTreeModel(QObject* parent = nullptr);

    void setSession(SessionPtr session);
    const SessionPtr& session() const { return session_; }

    // Index of (cpu, domain at topologyLevel) in column 0, invalid when there is none.
    QModelIndex domainIndex(int cpu, int topologyLevel) const;
    QModelIndex cpuIndex(int cpu) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Row identity packed into internalId: depth (1 cpu, 2 domain, 3 group) and the row
    // numbers of its ancestors, so parent() needs no pointers into the tree.
    struct Node {
        int depth = 0;
        int cpuRow = -1;
        int domainRow = -1;
        int groupRow = -1;
    };
    static quintptr pack(const Node& n);
    static Node unpack(quintptr id, int row);
    Node nodeOf(const QModelIndex& index) const;
    const SchedDomain* domainAt(const Node& n) const;
    QVariant cpuData(const Node& n, int column, int role) const;
    QVariant domainData(const Node& n, int column, int role) const;
    QVariant groupData(const Node& n, int column, int role) const;

    SessionPtr session_;
    std::vector<int> cpuOfRow_;  // CPU rows: online CPUs that exist in the tree
};

}  // namespace schedscope::gui
