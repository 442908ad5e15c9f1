#include "domain_tree_view.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>

#include "domain_tree_model.h"

namespace schedscope::gui {

DomainTreeView::DomainTreeView(DomainTreeModel* model, QWidget* parent) : QTreeView(parent), model_(model) {
    setModel(model);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAllColumnsShowFocus(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(model, &QAbstractItemModel::modelReset, this, &DomainTreeView::fitColumns);
    fitColumns();
}

void DomainTreeView::fitColumns() {
    // Measure the first CPU's whole subtree and the first CPU rows, expanded or not: every CPU
    // has the same shape of rows, and measuring all of a large machine would be slow.
    const QFontMetrics fm(font());
    std::vector<int> width(size_t(DomainTreeModel::ColumnCount), 0);
    auto measure = [&](const QModelIndex& parent, int depth, auto&& self) -> void {
        const int rows = std::min(model_->rowCount(parent), depth == 0 ? 64 : 4096);
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < DomainTreeModel::ColumnCount; ++c) {
                const QString text = model_->index(r, c, parent).data().toString();
                int w = fm.horizontalAdvance(text) + 16;
                if (c == DomainTreeModel::LevelColumn) w += indentation() * (depth + 1);
                width[size_t(c)] = std::max(width[size_t(c)], w);
            }
            if (depth == 0 && r > 0) continue;  // subtrees of CPU 0 only
            self(model_->index(r, 0, parent), depth + 1, self);
        }
    };
    measure(QModelIndex(), 0, measure);
    for (int c = 0; c < DomainTreeModel::ColumnCount; ++c) {
        const int headerW = header()->sectionSizeHint(c);
        const int cap = c == DomainTreeModel::FlagsColumn ? 300 : 420;  // flags: elided, full list in the tooltip
        setColumnWidth(c, std::min(std::max(width[size_t(c)], headerW), cap));
    }
}

void DomainTreeView::onCurrentChanged(const QModelIndex& current) {
    if (syncing_ || !current.isValid()) return;
    const int cpu = current.data(DomainTreeModel::CpuRole).toInt();
    const int level = current.data(DomainTreeModel::TopologyLevelRole).toInt();
    emit selectionPicked(cpu, level);
}

void DomainTreeView::showSelection(int cpu, int topologyLevel) {
    QModelIndex idx = topologyLevel >= 0 ? model_->domainIndex(cpu, topologyLevel) : QModelIndex();
    if (!idx.isValid()) idx = model_->cpuIndex(cpu);
    if (!idx.isValid()) return;
    // Already there (possibly on one of its group rows): leave the user's row alone.
    const QModelIndex cur = currentIndex();
    if (cur.isValid() && cur.data(DomainTreeModel::CpuRole).toInt() == cpu &&
        (topologyLevel < 0 || cur.data(DomainTreeModel::TopologyLevelRole).toInt() == topologyLevel))
        return;
    syncing_ = true;
    expand(idx.parent().isValid() ? idx.parent() : idx);
    if (idx.parent().isValid()) expand(idx);
    setCurrentIndex(idx);
    scrollTo(idx, QAbstractItemView::PositionAtCenter);
    syncing_ = false;
}

void DomainTreeView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(tr("Expand all"), this, &QTreeView::expandAll);
    menu.addAction(tr("Collapse all"), this, &QTreeView::collapseAll);
    menu.addSeparator();
    menu.addAction(tr("Diff against the running kernel"), this, &DomainTreeView::diffRequested);
    menu.addAction(tr("Diff against a kernel log\u2026"), this, &DomainTreeView::diffWithLogRequested);
    menu.addAction(tr("Export domain tree view\u2026"), this, &DomainTreeView::exportRequested);
    menu.exec(e->globalPos());
}

}  // namespace schedscope::gui
