#pragma once
// replay --seeds N: the same replay under N seeds. One seed of a simulated run can mislead: the
// hackbench recording's what-if on Kunpeng 920 with CLS off migrated 74 times under seed 1 and
// 167 under seed 3. The simulated runs' metrics over the seeds, and the what-if's change against
// the baseline with its 95% interval (sim::metricChange()), as --compare gives them.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "replay.h"
#include "sim/metric_change.h"
#include "sim/metric_stats.h"

namespace schedscope::cli {

class ReplaySeeds {
public:
    explicit ReplaySeeds(uint64_t firstSeed) : firstSeed_(firstSeed) {}
    // Adds one seed's runs (in seed order).
    void add(const replay::ReplayResult& r);
    int count() const { return count_; }

    // The table under the single run's report; `recorded` for the "vs recorded" column when the
    // replay has no baseline.
    void print(const replay::ReplayMetrics& recorded, bool withBaseline) const;
    // {"first", "count", "against", "metrics": {name: {"baseline"?, "whatif", "relative_pct",
    // "ci95_pct", "significant"}}}: the change of the what-if's mean against the baseline's, or
    // against the recorded figure without a baseline (one figure: no interval).
    nlohmann::json toJson(const replay::ReplayMetrics& recorded, bool withBaseline) const;

private:
    struct Row {
        sim::MetricStats reference, whatIf;  // reference: the baseline, or the recorded figure
        sim::MetricChange change;
    };
    Row row(const std::string& name, const replay::ReplayMetrics& recorded, bool withBaseline) const;

    uint64_t firstSeed_;
    int count_ = 0;
    std::vector<std::string> names_;  // in the order the runs first gave them
    std::map<std::string, std::vector<double>> baseline_, whatIf_;  // NaN: the run had no value
};

}  // namespace schedscope::cli
