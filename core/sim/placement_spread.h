#pragma once
// How widely the running tasks were spread: the number of distinct cores, clusters, LLCs and
// NUMA nodes running a task, averaged over the run's time (every switch counts, not a hundred
// samples of it: those made pgbench's busy cores 31% more than its CPU time allowed). This is what
// the seeds' claims are about (CLS spreads 4 stream threads over 4 clusters instead of 1; NODE
// puts 8 tasks on 8 nodes instead of 4), as numbers a comparison can put side by side.
#include <string>
#include <utility>
#include <vector>

#include "sim/sim_state.h"

namespace schedscope::sim {

// ("busy_cores", mean), ("busy_clusters", mean) when the topology has clusters wider than a
// core, ("busy_llcs", mean), ("busy_nodes", mean); means are 0 for a run of no time.
std::vector<std::pair<std::string, double>> placementSpread(const SimState& s);

}  // namespace schedscope::sim
