#include "trace_time_units.h"

#include <QObject>
#include <cmath>

#include "qt_convert.h"

namespace schedscope::gui {

QString formatNs(double ns) {
    const double a = std::fabs(ns);
    if (a >= 1e9) return QString::number(ns / 1e9, 'f', a >= 1e10 ? 1 : 3) + QStringLiteral(" s");
    if (a >= 1e6) return QString::number(ns / 1e6, 'f', a >= 1e7 ? 1 : 2) + QStringLiteral(" ms");
    if (a >= 1e3) return QString::number(ns / 1e3, 'f', a >= 1e4 ? 1 : 2) + QStringLiteral(" \u00b5s");
    return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
}

QString formatCount(double n) {
    const double a = std::fabs(n);
    if (a >= 1e9) return QString::number(n / 1e9, 'f', a >= 1e10 ? 1 : 3) + QStringLiteral(" G");
    if (a >= 1e6) return QString::number(n / 1e6, 'f', a >= 1e7 ? 1 : 2) + QStringLiteral(" M");
    if (a >= 1e3) return QString::number(n / 1e3, 'f', a >= 1e4 ? 1 : 2) + QStringLiteral(" k");
    return QString::number(n, 'f', 0);
}

TraceTimeUnits TraceTimeUnits::of(const TraceAnalysis& d) {
    TraceTimeUnits u;
    if (d.store && !d.store->clockCountsNs()) {
        u.countsNs = false;
        u.clock = qs(d.store->traceClock());
    }
    return u;
}

QString TraceTimeUnits::duration(double t) const {
    return countsNs ? formatNs(t) : formatCount(t) + QLatin1Char(' ') + unit(QString());
}

QString TraceTimeUnits::unit(const QString& nsUnit) const {
    if (countsNs) return nsUnit;
    return clock.isEmpty() ? QObject::tr("clock counts") : QObject::tr("%1 counts").arg(clock);
}

}  // namespace schedscope::gui
