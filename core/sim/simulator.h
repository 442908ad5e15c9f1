#pragma once
// The discrete-event scheduler simulator: an ns clock, a seeded RNG (same inputs, same output),
// per-CPU fair runqueues, ticks at HZ, tasks running behaviour scripts, and the placement and
// balancing policies of select_task_rq.h and load_balance.h.
#include <memory>
#include <optional>

#include "domains/domain_tree.h"
#include "sim/sim_state.h"
#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::sim {

// A run's state points into its topology, domain tree and workload (each task's spec, read while
// it runs and in the report): they must outlive it, so temporaries are refused at compile time.

// Builds the state for a run (CPUs, tasks, lookups) without running it: the policy tests use
// this to set up runqueues by hand.
Result<std::unique_ptr<SimState>> makeSimState(const Topology& topology, const DomainTree& tree,
                                               const workload::Workload& workload, const SimOptions& options);
Result<std::unique_ptr<SimState>> makeSimState(const Topology&, const DomainTree&, workload::Workload&&,
                                               const SimOptions&) = delete;
Result<std::unique_ptr<SimState>> makeSimState(const Topology&, DomainTree&&, const workload::Workload&,
                                               const SimOptions&) = delete;
Result<std::unique_ptr<SimState>> makeSimState(Topology&&, const DomainTree&, const workload::Workload&,
                                               const SimOptions&) = delete;

// Runs the workload to its duration (or until every task exited). The returned state holds the
// metrics; see sim_json.h for the report. Errors: a workload that does not fit the topology.
Result<std::unique_ptr<SimState>> simulate(const Topology& topology, const DomainTree& tree,
                                           const workload::Workload& workload, const SimOptions& options);
Result<std::unique_ptr<SimState>> simulate(const Topology&, const DomainTree&, workload::Workload&&,
                                           const SimOptions&) = delete;
Result<std::unique_ptr<SimState>> simulate(const Topology&, DomainTree&&, const workload::Workload&,
                                           const SimOptions&) = delete;
Result<std::unique_ptr<SimState>> simulate(Topology&&, const DomainTree&, const workload::Workload&,
                                           const SimOptions&) = delete;

// Step mode: a run that pauses at every placement or balancing decision.
//
//   auto sim = Simulation::create(topo, tree, wl, opt);   // records decisions
//   while (auto d = (*sim)->nextDecision()) { ... inspect *d and (*sim)->state() ... }
//
// nextDecision() handles events until the next decision was taken and returns it; the state is
// then the one after the event that took it (an event may take several decisions, e.g. a wakeup
// and the newidle balance it triggers; they come out one by one, in order). Recording only reads
// the state, so the run is the same as simulate()'s with the same inputs.
class Simulation {
public:
    static Result<std::unique_ptr<Simulation>> create(const Topology& topology, const DomainTree& tree,
                                                      const workload::Workload& workload, const SimOptions& options);
    static Result<std::unique_ptr<Simulation>> create(const Topology&, const DomainTree&, workload::Workload&&,
                                                      const SimOptions&) = delete;
    static Result<std::unique_ptr<Simulation>> create(const Topology&, DomainTree&&, const workload::Workload&,
                                                      const SimOptions&) = delete;
    static Result<std::unique_ptr<Simulation>> create(Topology&&, const DomainTree&, const workload::Workload&,
                                                      const SimOptions&) = delete;
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    // The next decision, or nullopt once the run is over (then the metrics are final).
    std::optional<Decision> nextDecision();
    // Stops recording and runs to the end; the metrics are then final.
    void runToEnd();
    bool finished() const { return finished_; }
    // Handles one event with recording stopped, as runToEnd() does; false once the run is over.
    bool stepEvent();
    // Invariant check for tests: how many running tasks' speeds differ from what the contention
    // model gives for the placement now by more than the re-timing tolerance (a share of 1e-4;
    // 0 unless a re-timing was missed).
    int staleSpeeds();
    SimState& state() { return *state_; }
    // Why the run stopped with its clock stuck (a script looping through ops that take no time),
    // as simulate() reports it; "" when it did not.
    std::string stuckError() const;
    // Hands the final state over (as simulate() returns it); runs to the end first.
    std::unique_ptr<SimState> release();

private:
    struct Impl;
    Simulation() = default;
    std::unique_ptr<SimState> state_;
    std::unique_ptr<Impl> impl_;
    std::vector<Decision> pending_;
    size_t next_ = 0;
    bool finished_ = false;
};

}  // namespace schedscope::sim
