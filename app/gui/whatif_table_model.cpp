#include "whatif_table_model.h"

#include <QColor>
#include <cmath>

#include "qt_convert.h"

namespace schedscope::gui {

int betterDirection(const std::string& metric) {
    if (metric == "throughput") return 1;
    if (metric.rfind("busy_", 0) == 0) return 0;
    return -1;
}

WhatIfTableModel::WhatIfTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void WhatIfTableModel::setResult(const WhatIfResult& result) {
    beginResetModel();
    rows_ = result.rows();
    offName_ = qs(result.settingName(0));
    onName_ = qs(result.settingName(1));
    unit_ = result.setup ? qs(result.setup->workload.unit) : QString();
    endResetModel();
}

int WhatIfTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

int WhatIfTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

// The 95% interval of a change, and what it says: whether the seeds' spread can explain it.
QString WhatIfTableModel::deltaTooltip(const WhatIfResult::Row& row) {
    const sim::MetricChange& c = row.change;
    if (!c.defined) return row.off.n && row.on.n ? tr("no relative change from 0") : QString();
    if (c.withinResolution && c.relativePct != 0)
        return tr("within the metric's resolution: the wait percentiles come from a histogram of 2% buckets");
    if (!c.hasInterval)
        return tr("no interval: one seed a side, or every seed gave the same figure (the seeds are no measure of the noise)");
    const QString interval = tr("95% interval of the change: %1% to %2% (Welch's t over %3 and %4 seeds)")
                                 .arg(QString::asprintf("%+.2f", c.lowPct), QString::asprintf("%+.2f", c.highPct))
                                 .arg(row.off.n)
                                 .arg(row.on.n);
    return c.significant ? interval : interval + tr(": it holds 0, so the change is within the seeds' noise");
}

QVariant WhatIfTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const auto& row = rows_[size_t(index.row())];
    const int col = index.column();
    auto number = [](double v) -> QString {
        const double a = std::fabs(v);
        return QString::number(v, 'f', a >= 1000 ? 0 : a >= 10 ? 1 : a >= 0.1 ? 3 : 4);
    };
    double value = 0;
    switch (col) {
        case OffMeanColumn: value = row.off.mean; break;
        case OffSdColumn: value = row.off.sd; break;
        case OnMeanColumn: value = row.on.mean; break;
        case OnSdColumn: value = row.on.sd; break;
        case DeltaColumn: value = row.change.relativePct; break;
        default: break;
    }
    switch (role) {
        case Qt::DisplayRole:
            if (col == MetricColumn)
                return row.metric == "throughput" && !unit_.isEmpty() ? QString(qs(row.metric) + QStringLiteral(" (") + unit_ + QLatin1Char(')'))
                                                                      : qs(row.metric);
            if (col != MetricColumn && col != DeltaColumn && (col <= OffSdColumn ? row.off : row.on).n == 0)
                return col == OffMeanColumn || col == OnMeanColumn ? tr("not finished") : QStringLiteral("\u2013");  // no seed finished
            if (col == OffSdColumn || col == OnSdColumn) {
                if ((col == OffSdColumn ? row.off : row.on).n < 2) return QStringLiteral("\u2013");  // one run has no spread
                return QString(QStringLiteral("\u00b1") + number(value));
            }
            if (col == DeltaColumn) {
                // no relative change from nothing to something (numa_migrations 0 -> 34)
                if (!row.change.defined) return QStringLiteral("\u2013");
                return QString::asprintf("%+.1f%%", value);
            }
            return number(value);
        case ValueRole:
            if (col == MetricColumn) return qs(row.metric);
            return value;
        case Qt::TextAlignmentRole:
            return col == MetricColumn ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter)) : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::ForegroundRole: {
            if (col != DeltaColumn || !row.change.defined) return {};
            // a change the seeds' own spread can explain is neither better nor worse
            if ((row.change.hasInterval && !row.change.significant) || row.change.withinResolution) return QColor(0x80, 0x80, 0x80);
            const int direction = betterDirection(row.metric);
            if (direction == 0 || std::fabs(row.change.relativePct) < 1.0) return {};
            const bool better = (row.change.relativePct > 0) == (direction > 0);
            return better ? QColor(0x1b, 0x7a, 0x1b) : QColor(0xb0, 0x20, 0x20);
        }
        case Qt::ToolTipRole: {
            if (col == MetricColumn) return {};
            if (col == DeltaColumn) return deltaTooltip(row);
            const MetricStats& s = col <= OffSdColumn ? row.off : row.on;
            if (s.n < s.runs) return tr("%1 of %2 seeds finished: min %3, max %4").arg(s.n).arg(s.runs).arg(number(s.min), number(s.max));
            return tr("%1 seeds: min %2, max %3").arg(s.n).arg(number(s.min), number(s.max));
        }
        default: return {};
    }
}

QVariant WhatIfTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount) return {};
    switch (section) {
        // two lines: "NI_RANDOM off mean" and "spread (sd)" on one line each made the columns
        // wider than their numbers, and the change column went past the panel's edge
        case MetricColumn: return tr("Metric");
        case OffMeanColumn: return QString(offName_ + tr("\nmean"));
        case OffSdColumn: return tr("spread\n(sd)");
        case OnMeanColumn: return QString(onName_ + tr("\nmean"));
        case OnSdColumn: return tr("spread\n(sd)");
        case DeltaColumn: return tr("\u0394 on\nvs off");
        default: return {};
    }
}

}  // namespace schedscope::gui
