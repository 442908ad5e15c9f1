#pragma once
// The JSON report of a replay: `recorded`, `baseline` (with --baseline) and `whatif` blocks with
// the metric keys of `simulate --json`, the derived workload's summary, `delta` (what-if minus
// the baseline, or minus the recording without one), `fidelity` and `assumptions`.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "replay.h"

namespace schedscope::replay {

// Scalars shown side by side: elapsed_s, completion_s, migrations, migrations_<LEVEL>,
// wait_p50_us, wait_p95_us, wait_p99_us, cpu_time_s, utilisation (mean over CPUs used).
std::vector<std::pair<std::string, double>> scalarMetrics(const ReplayMetrics& m);

nlohmann::json metricsToJson(const ReplayMetrics& m, const DerivedWorkload& derived);
// `timelines`: include each block's placement timeline (large; the GUI reads the structs).
nlohmann::json replayResultToJson(const ReplayResult& r, const std::string& trace, bool timelines = false);

}  // namespace schedscope::replay
