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

// Whether the values with one (n >= 1) are all the same to a relative 1e-9: the same figures
// summed in another order differ in their last bits, and their sd of 1e-16 is no spread.
bool sameToRounding(const MetricStats& s);

// Whether the seeds all gave the same run: every metric some run has a value for has one in at
// least two runs, and its minimum equals its maximum (to a relative 1e-9: the same figures summed
// in another order). A spread of 0 is then no measure of the noise: the seeds do
// not reach the workload's placement (tasks forked onto an idle machine that never sleep are
// placed alike whatever the seed), and the comparisons say so.
bool seedsGaveOneRun(const std::vector<MetricStats>& stats);

}  // namespace schedscope::sim
