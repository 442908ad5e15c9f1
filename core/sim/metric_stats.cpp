#include "sim/metric_stats.h"

#include <algorithm>
#include <cmath>

namespace schedscope::sim {

MetricStats metricStats(const std::vector<double>& values) {
    MetricStats s;
    s.runs = static_cast<int>(values.size());
    std::vector<double> v;
    v.reserve(values.size());
    for (double x : values)
        if (!std::isnan(x)) v.push_back(x);
    s.n = static_cast<int>(v.size());
    if (v.empty()) return s;
    s.min = *std::min_element(v.begin(), v.end());
    s.max = *std::max_element(v.begin(), v.end());
    for (double x : v) s.mean += x;
    s.mean /= static_cast<double>(v.size());
    double var = 0;
    for (double x : v) var += (x - s.mean) * (x - s.mean);
    s.sd = v.size() > 1 ? std::sqrt(var / static_cast<double>(v.size() - 1)) : 0.0;
    return s;
}

bool sameToRounding(const MetricStats& s) {
    return s.n > 0 && s.max - s.min <= 1e-9 * std::max({std::fabs(s.min), std::fabs(s.max), 1.0});
}

bool seedsGaveOneRun(const std::vector<MetricStats>& stats) {
    bool compared = false;
    for (const auto& st : stats) {
        if (st.n == 0) continue;  // no run had it (completion_s of unfinished runs)
        if (st.n < 2 || !sameToRounding(st)) return false;
        compared = true;
    }
    return compared;
}

}  // namespace schedscope::sim
