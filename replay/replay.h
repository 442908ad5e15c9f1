#pragma once
// What-if replay of a recorded trace: derive the workload (derive_workload.h), measure the
// recording, simulate it under the recording's own configuration (the baseline: how far off the
// simulator is on this trace) and under a what-if configuration, and compare. The GUI's
// side-by-side view and `schedscope-cli replay` both call replayTrace().
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "derive_workload.h"
#include "domains/domain_builder.h"
#include "event_store.h"
#include "idle_wakeups.h"
#include "sim/metrics.h"
#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "task_group_note.h"
#include "task_groups.h"
#include "topology/topology.h"

namespace schedscope::replay {

// One derived task's outcome in a recording or a run.
struct TaskOutcome {
    double cpuTimeS = 0;
    double completionS = -1;  // exit time from the window start; -1: did not exit
    long long migrations = 0;
};

// The metrics the recording and each simulated run are compared on; the keys match
// `simulate --json` (migrations_by_level, migrations_by_cause, wait_latency_us, ...).
struct ReplayMetrics {
    double elapsedS = 0;
    double completionS = -1;  // when the last task exited; -1 when some task did not
    std::map<std::string, long long> migrationsByLevel;
    std::map<std::string, long long> migrationsByCause;  // the simulator's cause names
    sim::LatencyHistogram waitLatency;
    // the recording only: wakeups onto a CPU idle from the wakeup to the wakee's switch in (the
    // idle state's exit and the IPI), from sched_wakeup to the switch in
    sim::LatencyHistogram idleWakeupLatency;
    // wakeups onto a CPU running another task, and those that preempted it at once
    // (wakeup_preemptions.h; the simulator's sim::Metrics counters)
    long long busyWakeups = 0, wakeupPreemptions = 0;
    // ... of them, those a task running on another CPU made (the simulator's counters alike)
    long long remoteBusyWakeups = 0, remoteWakeupPreemptions = 0;
    // the recording only: for those remote ones that preempted, the wakeup to the switch
    // (WakeupPreemptions::remoteReschedDelay)
    sim::LatencyHistogram remoteReschedLatency;
    std::vector<double> cpuUtilisation;  // per CPU id: share of elapsed time running kept tasks; NaN: no online CPU
    std::vector<TaskOutcome> tasks;      // indexed like DerivedWorkload::tasks
    std::vector<sim::PlacementSample> timeline;  // per CPU running task index (-1 idle) at samples
    // a simulated run whose tasks all ended up waiting for each other (sim::Metrics::stalledAtNs):
    // when (-1: no stall), and which tasks, by index into DerivedWorkload::tasks
    double stalledAtS = -1;
    std::vector<int> stalledTasks;
    long long migrations() const;
};

// The recording measured over the derived tasks in the derived window: migrations by level
// (MigrationClassifier over `tree`) and cause, wait latency from runnable-to-running intervals,
// per-CPU utilisation, per-task CPU time and exit, a placement timeline sampled every
// `samplePeriodS`.
ReplayMetrics measureRecording(const tracing::EventStore& store, const TraceTimelines& timelines,
                               const DerivedWorkload& derived, const DomainTree& tree, double samplePeriodS);
ReplayMetrics metricsFromSim(sim::SimState& state, size_t taskCount);

struct ReplayConfig {
    std::string topologyName;
    const KernelProfile* profile = nullptr;  // nullptr: defaultProfile()
    bool cls = true, node = true;
    // Let the tasks use every CPU of a larger topology; by default they keep the recording's
    // CPU ids 0..n-1 (a 2-CPU trace runs on CPUs 0-1 of the target).
    bool spread = false;
    // Kernel behaviours other than the profile's (e.g. DELAY_DEQUEUE off); nullopt: the profile's
    std::optional<sim::SimFeatures> features;
};

// One simulated run, with everything the SimState points into kept alive beside it.
struct ReplayRun {
    std::string label;  // "baseline", "what-if"
    ReplayConfig config;
    std::unique_ptr<Topology> topology;
    std::unique_ptr<DomainTree> tree;
    // runs ReplayResult::derived's workload, shared by both runs (the state points into it)
    std::unique_ptr<sim::SimState> state;
    ReplayMetrics metrics;
};

struct Fidelity {
    // CPU-time-weighted mean over tasks of |baseline - recorded| / recorded
    // (= sum |baseline - recorded| / sum recorded).
    double cpuTimeError = 0;
    // Total variation distance between the recorded and baseline migration-per-level shares
    // (0 = same mix, 1 = disjoint); 0 when neither migrated.
    double levelMixError = 0;
    std::string recordedDominantLevel, baselineDominantLevel;  // "" when no migrations
    double waitP50Ratio = -1;  // baseline / recorded median wait; -1 when either has no samples
    // |baseline - recorded| / recorded of when the last task finished (exit or last run)
    double completionError = 0;
    // baseline / recorded migration count; 1 when neither migrated, -1 when only the baseline
    // did (no ratio: "x0.00" read as a baseline that never migrated)
    double migrationRatio = -1;
    // share of the wakeups onto a busy CPU that preempted it; -1 when there were none
    double recordedPreemptShare = -1, baselinePreemptShare = -1;
    // the same over the wakeups the waker made on the wakee's CPU, and over those it made from
    // another CPU (a remote resched); -1 when there were none
    double recordedLocalPreemptShare = -1, baselineLocalPreemptShare = -1;
    double recordedRemotePreemptShare = -1, baselineRemotePreemptShare = -1;
};
Fidelity computeFidelity(const ReplayMetrics& recorded, const ReplayMetrics& baseline);

struct ReplayOptions {
    DeriveOptions derive;  // capacity and cpuCount are filled from the recorded topology
    bool baseline = false;
    ReplayConfig recordedConfig;  // the recording's own: profile matching its kernel, CLS/NODE on
    ReplayConfig whatIf;
    uint64_t seed = 1;
    int hz = 250;
    // sim::SimOptions::idleExitNs for both runs; unset: the recording's median idle wakeup
    // latency when it has at least kMinIdleWakeups of them, else 0
    std::optional<int64_t> idleExitNs;
    // sim::SimOptions::remoteReschedNs for both runs; unset: the recording's median remote
    // resched latency when it has at least kMinRemoteResched of them, else 0
    std::optional<int64_t> remoteReschedNs;
    // the recording's task groups (its groups sidecar), when it has them: said in the assumptions
    std::optional<tracing::TaskGroupSnapshot> taskGroups;
    // where taskGroups came from: the sidecar, or guessed from the trace's forks for a recording
    // without one (session_guess.h)
    bool taskGroupsGuessed = false;
    // a recording without a groups sidecar replayed with every task in the root group: said, as
    // the groups change how the balancer weighs the tasks
    bool noGroupsSidecar = false;
};

struct ReplayResult {
    // Both runs' states point into derived.workload's tasks: a move keeps them where they are,
    // and ReplayRun's unique_ptrs make the result move-only.
    DerivedWorkload derived;
    ReplayMetrics recorded;
    std::optional<ReplayRun> baseline;
    ReplayRun whatIf;
    std::optional<Fidelity> fidelity;  // with a baseline
    int64_t idleExitNs = 0;       // what both runs used (ReplayOptions::idleExitNs)
    int64_t remoteReschedNs = 0;  // and ReplayOptions::remoteReschedNs
    std::vector<std::string> assumptions;
    std::vector<TaskGroupCount> taskGroups;  // with ReplayOptions::taskGroups
    bool taskGroupsGuessed = false;          // ReplayOptions::taskGroupsGuessed
};

// Where the derived tasks not pinned in the trace run on `topology`: trace CPU c is CPU c of the
// target (so a trace needs at least as many CPUs), and such tasks keep CPUs 0..n-1 unless
// `spread` (empty: every CPU). The simulator takes it as SimOptions::unpinnedCpus.
// Error: the target has fewer CPUs than the recording.
Result<CpuSet> unpinnedCpusOn(const DerivedWorkload& derived, const Topology& topology, bool spread,
                              const std::string& what);
// The derived workload with those CPUs written into it, e.g. to save as a workload file.
Result<workload::Workload> mapOntoTopology(const DerivedWorkload& derived, const Topology& topology, bool spread,
                                           const std::string& what);

// Errors (one line naming `what`): those of deriveWorkload, a trace whose CPUs exceed
// `recordedTopology`, a what-if topology smaller than the recording, domain build failures.
Result<ReplayResult> replayTrace(const tracing::EventStore& store, const std::string& what,
                                 const Topology& recordedTopology, const Topology& whatIfTopology,
                                 const ReplayOptions& options);

}  // namespace schedscope::replay
