#pragma once
// TaskTableModel: a thin table adapter over a trace's TaskSummary rows (pid, command, CPU
// time, migrations, waits, wait p95, wait max). Qt::UserRole gives the raw number for sorting;
// TaskTableView puts a QSortFilterProxyModel in front for sorting and filtering.
#include <QAbstractTableModel>
#include <QWidget>

#include "trace_loader.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace schedscope::gui {

class TaskTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Pid, Command, CpuTime, Migrations, Waits, WaitP95, WaitMax, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int PidRole = Qt::UserRole + 1;

    explicit TaskTableModel(QObject* parent = nullptr);
    void setTrace(TraceSessionPtr trace);
    const TraceSessionPtr& trace() const { return trace_; }
    int rowOfPid(int pid) const;  // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    TraceSessionPtr trace_;
};

// The task table with a filter box; picking a row emits taskPicked(pid).
class TaskTableView : public QWidget {
    Q_OBJECT
public:
    explicit TaskTableView(TaskTableModel* model, QWidget* parent = nullptr);
    QTableView* table() const { return table_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QLineEdit* filter() const { return filter_; }

public slots:
    void selectTask(int pid);  // -1 clears the selection

signals:
    void taskPicked(int pid);
    void exportRequested();

protected:
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    TaskTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    bool selecting_ = false;
};

}  // namespace schedscope::gui
