#pragma once
// The discrete-event scheduler simulator: an ns clock, a seeded RNG (same inputs, same output),
// per-CPU fair runqueues, ticks at HZ, tasks running behaviour scripts, and the placement and
// balancing policies of select_task_rq.h and load_balance.h.
#include <memory>

#include "domains/domain_tree.h"
#include "sim/sim_state.h"
#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::sim {

// Builds the state for a run (CPUs, tasks, lookups) without running it: the policy tests use
// this to set up runqueues by hand.
Result<std::unique_ptr<SimState>> makeSimState(const Topology& topology, const DomainTree& tree,
                                               const workload::Workload& workload, const SimOptions& options);

// Runs the workload to its duration (or until every task exited). The returned state holds the
// metrics; see sim_json.h for the report. Errors: a workload that does not fit the topology.
Result<std::unique_ptr<SimState>> simulate(const Topology& topology, const DomainTree& tree,
                                           const workload::Workload& workload, const SimOptions& options);

}  // namespace schedscope::sim
