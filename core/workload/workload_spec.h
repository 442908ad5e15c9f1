#pragma once
// Workload generators named after the seed experiments, parsed from specs such as
// "stream:threads=4,cpus=0-23" or "pgbench:clients=48,duration=2". Every generator takes
// cpus=LIST (affinity, as numactl -N / taskset -c), duration=S (seconds to run) or work=S
// (uncontended CPU-seconds of work, then exit: per task for sysbench-cpu, mcf, stream and
// kernbench; the whole input's for the pbzip2 and pixz pipelines, shared by their workers; each
// sender's for hackbench and the driver's rounds for pgbench, whose receivers and backends
// exit once served). Errors are one line.
#include <string>
#include <vector>

#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::workload {

struct GeneratorInfo {
    std::string name;     // "stream"
    std::string count;    // its count parameter: "threads"
    std::string summary;  // one line
    std::string option;   // a parameter of its own besides the common ones: pgbench's "scale"
};
const std::vector<GeneratorInfo>& generators();

// The most tasks a generated workload may have (kernbench's compiler processes grow with the
// duration): more is an error rather than gigabytes of task scripts.
constexpr size_t kMaxWorkloadTasks = 200000;

// `cpuCount` is the topology's number of CPU ids; cpus= outside it is an error. `runS` is how
// long the run is when the spec gives no duration= (kernbench forks compiles to fill it).
Result<Workload> parseWorkloadSpec(const std::string& spec, int cpuCount, double runS = 1.0);

}  // namespace schedscope::workload
