#pragma once
// The report of a run as JSON: config, metrics (throughput, completion, migrations by level
// and cause, wait latency percentiles, imbalance time, utilisation), tasks, placement timeline.
#include <nlohmann/json.hpp>

#include "sim/metric_change.h"
#include "sim/sim_state.h"

namespace schedscope::sim {

struct RunConfig {
    std::string topology;
    std::string profile;
    bool cls = true, node = true;
    std::string workloadSpec;
};

nlohmann::json simResultToJson(SimState& s, const workload::Workload& wl, const RunConfig& config);
// The scalar metrics a comparison reports, by name (e.g. "throughput", "wait_p99_us", and the
// placement spread "busy_cores" ... "busy_nodes"); completion_s is NaN when not every task finished.
std::vector<std::pair<std::string, double>> summaryMetrics(SimState& s, const workload::Workload& wl);
// One line on a stalled run (Metrics::stalledAtNs): when, how many tasks wait, the first few by
// name; "" when the run did not stall.
std::string describeStall(const SimState& s);
// A comparison's change as its JSON keys: relative_pct (null when not defined), ci95_pct
// [low, high] and significant (both null without an interval), added to `into`.
void addChangeJson(nlohmann::json& into, const MetricChange& c);

}  // namespace schedscope::sim
