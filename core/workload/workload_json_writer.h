#pragma once
// Writes a Workload in the JSON workload file format (workload_json.h, the schema in
// resources/workloads/schema.json), so a workload replay derived from a trace can be saved,
// edited by hand and run with `simulate --workload FILE`. Ops name their targets by index, and
// run and sleep amounts are written in ns (run_ns, sleep_ns): a ms value divided by 1e6 does not
// always read back as the same double, and a replayed run diverges on a difference of one ulp.
#include <nlohmann/json.hpp>
#include <string>

#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::workload {

// `cpuCount`: the CPUs of the machine the workload is for; an affinity op that allows every
// CPU (an empty set) is written as 0..cpuCount-1, as the format has no "every CPU" value.
nlohmann::json workloadToJson(const Workload& w, int cpuCount);

// Error: one line naming `path` when it cannot be written.
Status saveWorkloadFile(const Workload& w, int cpuCount, const std::string& path);

}  // namespace schedscope::workload
