#pragma once
// DomainTreeView: the QTreeView over a DomainTreeModel, kept in step with the topology view's
// selection (CPU + domain level) in both directions.
#include <QTreeView>

namespace schedscope::gui {

class DomainTreeModel;

class DomainTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit DomainTreeView(DomainTreeModel* model, QWidget* parent = nullptr);

    QSize sizeHint() const override { return {620, 560}; }

public slots:
    // Expands the CPU, selects its domain at `topologyLevel` (or the CPU row) and scrolls to it.
    void showSelection(int cpu, int topologyLevel);
    void fitColumns();

signals:
    // The user picked a row: its CPU and, for domain and group rows, its level (-1 for CPU rows).
    void selectionPicked(int cpu, int topologyLevel);
    void exportRequested();
    void diffRequested();
    void diffWithLogRequested();

protected:
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    void onCurrentChanged(const QModelIndex& current);
    DomainTreeModel* model_;
    bool syncing_ = false;
};

}  // namespace schedscope::gui
