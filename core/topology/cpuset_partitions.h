#pragma once
// cgroup v2 cpuset partitions as a machine's sysfs shows them: a cgroup whose
// cpuset.cpus.partition is "root" gets sched domains of its own over its cpuset.cpus.effective;
// one that is "isolated" gets none. (An "... invalid (reason)" partition acts as a member.)
// Before 6.7 the kernel has no top-level cpuset.cpus.isolated summary, so the tree is walked.
// cgroup v1 (sys/fs/cgroup/cpuset): with the top cpuset's sched_load_balance off, each set of
// overlapping balancing cpusets is a root domain and the CPUs of none get no domain.
#include <string>

#include "topology/topology.h"
#include "util/result.h"

namespace schedscope {

// Adds the partitions under `root`/sys/fs/cgroup to topo.rootPartitions and topo.isolated
// (online CPUs only). Nothing there: nothing added. A list that does not parse: an error naming
// the file.
Status readCpusetPartitions(const std::string& root, Topology& topo);

}  // namespace schedscope
