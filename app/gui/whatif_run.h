#pragma once
// The what-if experiment behind WhatIfPanel, Qt-free: one workload on one topology under two
// settings (the CLS or NODE level, or DELAY_DEQUEUE, off vs on) over several seeds, and the statistics compared
// side by side. runWhatIfJob() runs one (setting, seed); the runner calls it on a worker.
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "domains/domain_builder.h"
#include "event_store.h"
#include "sim/metric_change.h"
#include "sim/metric_stats.h"
#include "sim/sim_options.h"
#include "task_groups.h"
#include "topology/topology_source.h"
#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::gui {

struct WhatIfRequest {
    // The topology: an already loaded one (the window's), else loaded from `spec`.
    std::shared_ptr<const Topology> topology;
    TopologySpec spec;
    std::string workload = "stream:threads=4";  // generator spec or a workload .json file
    // A recorded trace to derive the workload from instead (replay's deriveWorkload(), on the
    // worker: per task its bursts, sleeps, who woke it, forks and pinning), with the machine it
    // was recorded on (its CPU count and capacities). Trace CPU c runs on CPU c of the topology.
    struct TraceSource {
        std::string name;
        std::shared_ptr<const tracing::EventStore> store;
        std::shared_ptr<const Topology> recordedOn;
        // Let tasks the trace did not pin use every CPU of a larger machine (replay's --spread);
        // by default they keep the recording's CPUs 0..n-1.
        bool spread = false;
        // the task groups the tasks ran in (the trace's groups sidecar): null, one group for all
        std::shared_ptr<const tracing::TaskGroupSnapshot> taskGroups;
        // every task wakeup WF_SYNC (replay's --sync-wakeups all: pipes and sockets); by default
        // those whose waker blocks right after
        bool allWakeupsSync = false;
        // without a groups sidecar: the sessions guessed from the trace's forks (replay's
        // --sessions-from-forks, session_guess.h); ignored when taskGroups holds the sidecar's
        bool sessionsFromForks = false;
    };
    std::optional<TraceSource> trace;
    std::string compare = "cls";  // a sim::compareModes() key: "cls", "node", "delay-dequeue", "ni-random", "wake-wide", "util-est", ...
    bool cls = true, node = true;                // the other setting's value
    // DELAY_DEQUEUE when it is not the compared setting, for both runs: nullopt keeps the
    // profile's (on from linux-6.12); on for a CFS profile is an error, as --delay-dequeue's
    std::optional<bool> delayDequeue;
    // NI_RANDOM when it is not the compared setting, for both runs: nullopt keeps the profile's
    // (on from linux-6.19)
    std::optional<bool> newidleRandom;
    // UTIL_EST when it is not the compared setting, for both runs: nullopt leaves it off, as every
    // profile does
    std::optional<bool> utilEst;
    // wake_wide()'s factor for both runs, or for the on side when wake-wide is compared (off is
    // then the other side); nullopt: the kernel's, the LLC's size
    std::optional<sim::WakeWide> wakeWide;
    // empty: the trace's kernel's (a trace that names one), else the open machine's
    // (machineProfile), else the topology's own (a kernel log's), else the newest
    std::string profile;
    // the profile the window built the open machine's domains under (the toolbar's: one the
    // user picked, this machine's running kernel's, a kernel log's), as `simulate --local` runs
    // this machine under its own kernel; empty: the newest, or `spec` is not the open machine
    std::string machineProfile;
    int seeds = 3;
    unsigned long long firstSeed = 1;
    double durationS = 1.0;                      // a workload's own duration= wins
};

// Everything the jobs share, prepared once on the worker: topology, workload, options.
struct WhatIfSetup {
    WhatIfRequest request;
    std::shared_ptr<const Topology> topology;
    workload::Workload workload;
    // sim::SimOptions::idleExitNs: a trace's own idle wakeup latency (replay::idleExitFrom()), else 0
    int64_t idleExitNs = 0;
    // sim::SimOptions::remoteReschedNs: a trace's own remote resched latency
    // (replay::remoteReschedFrom()), else 0
    int64_t remoteReschedNs = 0;
    // sim::SimOptions::unpinnedCpus: a trace's tasks keep its CPU ids on a larger machine
    // (replay::unpinnedCpusOn()); empty: every CPU
    CpuSet unpinnedCpus;
    DomainBuildOptions build[2];  // [0] compared setting off, [1] on
    std::shared_ptr<const DomainTree> trees[2];
    // the profile's behaviours with DELAY_DEQUEUE or NI_RANDOM off / on ("delay-dequeue",
    // "ni-random"), or either set for both by WhatIfRequest::delayDequeue / newidleRandom;
    // nullopt: the profile's own
    std::optional<sim::SimFeatures> features[2];
    std::string profileName;
};
Result<std::shared_ptr<const WhatIfSetup>> prepareWhatIf(const WhatIfRequest& request);

// One simulation: setting 0 (off) or 1 (on), seed firstSeed + k.
struct WhatIfRun {
    int setting = 0;
    unsigned long long seed = 0;
    std::vector<std::pair<std::string, double>> metrics;  // sim::summaryMetrics()
    std::map<std::string, long long> migrationsByLevel;
    std::vector<double> cpuUtilisation;  // per CPU id, busy fraction
    std::string stall;                   // sim::describeStall(): its tasks ended up waiting for good
    std::string error;
};
// `keepGoing` is asked every 65536 simulated events (sim::SimOptions::progress): false stops
// the run, which then carries the error "simulation cancelled".
WhatIfRun runWhatIfJob(const WhatIfSetup& setup, int setting, int seedIndex,
                       const std::function<bool(double)>& keepGoing = {});

using sim::MetricStats;  // n: the seeds with a value (an unfinished run has no completion_s)

// The comparison: per metric, off and on statistics and the relative change of the means.
struct WhatIfResult {
    std::shared_ptr<const WhatIfSetup> setup;
    std::vector<WhatIfRun> runs;  // in (seed, setting) order, as far as they have come
    bool cancelled = false;
    std::string error;

    struct Row {
        std::string metric;
        MetricStats off, on;
        sim::MetricChange change;  // the relative change of the means and its 95% interval
    };
    std::vector<Row> rows() const;
    // Mean migrations per level over the seeds, levels bottom-up (the union of both settings).
    std::vector<std::string> levels() const;
    double meanMigrations(int setting, const std::string& level) const;
    // Mean per-CPU utilisation over the seeds of a setting.
    std::vector<double> meanUtilisation(int setting) const;
    int runsOf(int setting) const;
    std::string settingName(int setting) const;  // "CLS off", "NODE on"
    // every seed of each setting gave the same figures (sim::seedsGaveOneRun())
    bool seedsGaveOneRun() const;

    nlohmann::json toJson() const;
    std::string toCsv() const;
};

}  // namespace schedscope::gui
