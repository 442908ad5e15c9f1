#pragma once
// The change of one metric from the "off" runs of a comparison to the "on" runs, and whether
// the seeds' own spread could explain it: the 95% confidence interval of the difference of the
// means by Welch's t (two samples, unequal variances), as a share of the off mean. A +1.8%
// gain whose interval is -0.9..+4.5% is within the noise of the seeds; a +13% gain with
// +12.9..+13.4% is not. The CLI's --compare and the GUI's what-if panel show it.
#include <string>

#include "sim/metric_stats.h"

namespace schedscope::sim {

struct MetricChange {
    // false when a side has no value (completion_s of unfinished runs) or the change is from 0
    // to something (no relative figure)
    bool defined = false;
    double relativePct = 0;  // (on - off) / |off| * 100; 0 when both means are 0
    // false with fewer than two values on a side or no spread on either (every seed gave the
    // same figure: the seeds are no measure of the noise)
    bool hasInterval = false;
    double lowPct = 0, highPct = 0;  // the interval of (on - off), as a share of |off| (or 0..0)
    bool significant = false;        // hasInterval and the interval leaves 0 out, and not withinResolution
    // the change is no more than the metric can resolve (metricResolutionPct()): a wait
    // percentile that moved by one 2% bucket, whatever the seeds' spread
    bool withinResolution = false;
};

// `resolutionPct`: the smallest relative change the metric can show (0: any)
MetricChange metricChange(const MetricStats& off, const MetricStats& on, double resolutionPct = 0);

// The wait percentiles come from a histogram of 2% buckets: a change of one bucket is the
// histogram's, not the workload's. 0 for the other metrics.
double metricResolutionPct(const std::string& metric);

// The interval as the tables print it, "+12.95..+13.34%", with "  within noise" when it holds
// 0; "" without an interval.
std::string intervalText(const MetricChange& c);
// The footnote under a table with intervals; `reference` names what the shares are of ("the
// off mean", "the baseline's mean").
std::string intervalFootnote(const std::string& reference);

// Student's t quantile at 97.5% (two-sided 95%) for `df` degrees of freedom, df >= 1 and not
// necessarily whole (Welch's is not): the incomplete beta function's tail, inverted by bisection.
double studentT975(double df);

}  // namespace schedscope::sim
