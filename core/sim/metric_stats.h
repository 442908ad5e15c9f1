#pragma once
// Mean and spread of one metric over the seeds of a comparison (the CLI's --compare and the
// GUI's what-if panel). A run without a value for the metric (NaN: completion_s of a run whose
// tasks had not all finished when it ended) counts in `runs` but not in the statistics, so a
// mean never mixes finished and unfinished runs.
#include <vector>

namespace schedscope::sim {

struct MetricStats {
    double mean = 0, sd = 0, min = 0, max = 0;  // over the runs with a value; 0 when none has one
    int n = 0;     // runs with a value
    int runs = 0;  // all runs
};

MetricStats metricStats(const std::vector<double>& values);

}  // namespace schedscope::sim
