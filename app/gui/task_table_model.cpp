#include "task_table_model.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "qt_convert.h"
#include "timeline_view.h"
#include "trace_time_units.h"

namespace schedscope::gui {

TaskTableModel::TaskTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TaskTableModel::setTrace(TraceSessionPtr trace) {
    beginResetModel();
    trace_ = std::move(trace);
    endResetModel();
}

int TaskTableModel::rowOfPid(int pid) const {
    if (!trace_ || !trace_->data) return -1;
    const auto& tasks = trace_->data->tasks;
    const TaskSummary* t = trace_->data->task(pid);
    return t ? int(t - tasks.data()) : -1;
}

int TaskTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !trace_ || !trace_->data) return 0;
    return int(trace_->data->tasks.size());
}

int TaskTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TaskTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const TaskSummary& t = trace_->data->tasks[size_t(index.row())];
    const int col = index.column();
    if (role == PidRole) return t.pid;
    if (role == SortRole) {
        switch (col) {
            case Pid: return t.pid;
            case Command: return qs(t.comm);
            case CpuTime: return qulonglong(t.cpuNs);
            case Migrations: return qulonglong(t.migrations);
            case Waits: return qulonglong(t.waits);
            case WaitP95: return qulonglong(t.waitP95Ns);
            case WaitMax: return qulonglong(t.waitMaxNs);
            default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        // ms and µs, or the plain counts of a clock that does not count ns (see headerData())
        const TraceTimeUnits units = TraceTimeUnits::of(*trace_->data);
        const auto shown = [&](uint64_t v, double nsPerUnit, int decimals) {
            return units.countsNs ? QString::number(double(v) / nsPerUnit, 'f', decimals) : QString::number(qulonglong(v));
        };
        switch (col) {
            case Pid: return t.pid;
            case Command: return qs(t.comm);
            case CpuTime: return shown(t.cpuNs, 1e6, 3);
            case Migrations: return qulonglong(t.migrations);
            case Waits: return qulonglong(t.waits);
            case WaitP95: return t.waits ? shown(t.waitP95Ns, 1e3, 1) : QString();
            case WaitMax: return t.waits ? shown(t.waitMaxNs, 1e3, 1) : QString();
            default: return {};
        }
    }
    if (role == Qt::DecorationRole && col == Command) return taskColor(t.pid);
    if (role == Qt::TextAlignmentRole && col != Command) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return tr("%1 (%2): %3 on CPU, %4 migrations, %5 waits").arg(qs(t.comm)).arg(t.pid)
            .arg(TraceTimeUnits::of(*trace_->data).duration(double(t.cpuNs))).arg(t.migrations).arg(t.waits);
    return {};
}

QVariant TaskTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount) return {};
    static const char* const names[] = {QT_TR_NOOP("PID"), QT_TR_NOOP("Command"), QT_TR_NOOP("CPU time (%1)"),
                                        QT_TR_NOOP("Migrations"), QT_TR_NOOP("Waits"), QT_TR_NOOP("Wait p95 (%1)"),
                                        QT_TR_NOOP("Wait max (%1)")};
    const TraceTimeUnits units = trace_ && trace_->data ? TraceTimeUnits::of(*trace_->data) : TraceTimeUnits{};
    switch (section) {
        case CpuTime: return tr(names[section]).arg(units.unit(QStringLiteral("ms")));
        case WaitP95:
        case WaitMax: return tr(names[section]).arg(units.unit(QStringLiteral("\u00b5s")));
        default: return tr(names[section]);
    }
}

TaskTableView::TaskTableView(TaskTableModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("taskTable"));
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(TaskTableModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter by pid or command\u2026"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(TaskTableModel::CpuTime, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(filter_);
    layout->addWidget(table_);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (selecting_ || !current.isValid()) return;
        emit taskPicked(current.data(TaskTableModel::PidRole).toInt());
    });
}

void TaskTableView::selectTask(int pid) {
    selecting_ = true;
    const int row = model_->rowOfPid(pid);
    if (row < 0) table_->clearSelection();
    else {
        const QModelIndex idx = proxy_->mapFromSource(model_->index(row, 0));
        if (idx.isValid()) {
            table_->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            table_->scrollTo(idx);
        }
    }
    selecting_ = false;
}

void TaskTableView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(tr("Export\u2026"), this, &TaskTableView::exportRequested);
    menu.exec(e->globalPos());
}

}  // namespace schedscope::gui
