#pragma once
// How the trace views show a trace's times. A clock that counts ns shows s, ms and µs; one that
// does not (the kernel's counter, uptime, x86-tsc recorded without --tsc2nsec) has no factor to
// seconds, so its durations are shown in its own counts and named so, never as µs.
#include <QString>

#include "trace_analysis.h"

namespace schedscope::gui {

// "12.0 µs", "3.20 ms", "1.000 s" (ns in, its best unit out)
QString formatNs(double ns);
// a count with an SI prefix: "12.5 k", "3.20 M"
QString formatCount(double n);

struct TraceTimeUnits {
    bool countsNs = true;
    QString clock;  // the trace clock's name; "" when the trace does not say

    static TraceTimeUnits of(const TraceAnalysis& d);
    // a duration in its best unit: formatNs(), or "12.5 k x86-tsc counts"
    QString duration(double t) const;
    // the name of a column's or axis's unit: `nsUnit` ("µs", "ms", "s") for a ns clock, else
    // "x86-tsc counts"
    QString unit(const QString& nsUnit) const;
    // a trace time or duration in that unit: t / nsPerUnit for a ns clock, else t
    double inUnit(double t, double nsPerUnit) const { return countsNs ? t / nsPerUnit : t; }
};

}  // namespace schedscope::gui
