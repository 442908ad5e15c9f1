#pragma once
// WhatIfTableModel: the metric table of a what-if result, one row per metric, the two
// settings side by side: mean and standard deviation over the seeds, and the relative change
// of the mean, coloured better or worse only when its 95% interval leaves 0 out (grey when the
// seeds' own spread can explain it; the tooltip gives the interval). A thin adapter over
// WhatIfResult::rows().
#include <QAbstractTableModel>

#include "whatif_run.h"

namespace schedscope::gui {

class WhatIfTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // the change next to the metric it is of: a narrow panel scrolls the means and spreads out
    // of sight, never the change (last, it was cut at the panel's edge at 1300 px)
    enum Column { MetricColumn, DeltaColumn, OffMeanColumn, OffSdColumn, OnMeanColumn, OnSdColumn, ColumnCount };
    static constexpr int ValueRole = Qt::UserRole + 1;  // double: the unformatted number

    explicit WhatIfTableModel(QObject* parent = nullptr);

    void setResult(const WhatIfResult& result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static QString deltaTooltip(const WhatIfResult::Row& row);

    std::vector<WhatIfResult::Row> rows_;
    QString offName_ = tr("off"), onName_ = tr("on");
    QString unit_;
};

// Which way a metric's change is good: +1 higher (throughput), -1 lower (completion, migrations,
// waits), 0 neither (the placement spread, busy_*: more spread is not better in itself).
int betterDirection(const std::string& metric);

}  // namespace schedscope::gui
