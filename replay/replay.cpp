#include "replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <unordered_map>

#include "migration_causes.h"
#include "migration_classifier.h"
#include "sched_tracker.h"
#include "switch_migrations.h"
#include "task_group_assign.h"
#include "trace_topology.h"
#include "util/parallel_runs.h"
#include "wakeup_preemptions.h"

namespace schedscope::replay {
namespace {

// The trace's inferred causes under the simulator's names, so both sides share keys. The trace
// cannot tell nohz idle balancing from newidle (see migration_causes.h): both are lb_newidle.
std::string simCauseName(tracing::MigrationCause c) {
    switch (c) {
        case tracing::MigrationCause::Wakeup: return sim::causeName(sim::MigrationCause::Wakeup);
        case tracing::MigrationCause::Fork: return sim::causeName(sim::MigrationCause::Fork);
        case tracing::MigrationCause::LoadBalancePeriodic: return sim::causeName(sim::MigrationCause::LbPeriodic);
        case tracing::MigrationCause::LoadBalanceNewidle: return sim::causeName(sim::MigrationCause::LbNewidle);
        case tracing::MigrationCause::LoadBalanceActive: return sim::causeName(sim::MigrationCause::LbActive);
        case tracing::MigrationCause::Affinity: return sim::causeName(sim::MigrationCause::Affinity);
        case tracing::MigrationCause::Numa: return sim::causeName(sim::MigrationCause::Numa);
        case tracing::MigrationCause::Exec: return sim::causeName(sim::MigrationCause::Exec);
        case tracing::MigrationCause::Count: break;
    }
    return "unknown";
}

std::string dominant(const std::map<std::string, long long>& byLevel) {
    std::string best;
    long long n = 0;
    for (const auto& [level, count] : byLevel)
        if (count > n) {
            n = count;
            best = level;
        }
    return best;
}

Result<ReplayRun> simulateOn(const DerivedWorkload& derived, const Topology& topology, const ReplayConfig& config,
                             const std::string& label, const ReplayOptions& options, int64_t idleExitNs,
                             int64_t remoteReschedNs, const std::string& what) {
    ReplayRun run;
    run.label = label;
    run.config = config;
    run.topology = std::make_unique<Topology>(topology);
    DomainBuildOptions b;
    b.arch = topology.arch;
    b.profile = config.profile;
    b.cls = config.cls;
    b.node = config.node;
    auto tree = buildDomains(*run.topology, b);
    if (!tree) return Error{what + ": " + config.topologyName + ": " + tree.error()};
    run.tree = std::make_unique<DomainTree>(std::move(*tree));
    auto unpinned = unpinnedCpusOn(derived, topology, config.spread, what);
    if (!unpinned) return Error{unpinned.error()};
    sim::SimOptions o;
    o.unpinnedCpus = std::move(*unpinned);
    o.features = config.features;
    o.seed = options.seed;
    o.hz = options.hz;
    o.idleExitNs = idleExitNs;
    o.remoteReschedNs = remoteReschedNs;
    const double windowS = static_cast<double>(derived.windowEndNs - derived.windowStartNs) / 1e9;
    o.samplePeriodS = std::max(1e-4, windowS / 200.0);
    o.durationS = derived.workload.durationS;
    auto st = sim::simulate(*run.topology, *run.tree, derived.workload, o);
    if (!st) return Error{what + ": " + st.error()};
    run.state = std::move(*st);
    run.metrics = metricsFromSim(*run.state, derived.tasks.size());
    return run;
}

std::string idleExitAssumption(int64_t ns, long long samples, bool given) {
    char us[32];
    std::snprintf(us, sizeof us, "%.1f", static_cast<double>(ns) / 1000.0);
    const std::string n = std::to_string(samples);
    if (given) return std::string("a task woken onto an idle CPU runs ") + us + " us later (--idle-exit-us)";
    if (samples < kMinIdleWakeups)
        return "a task woken onto an idle CPU runs at once: the recording has " + n + " wakeup(s) onto an idle CPU, too "
               "few to measure its idle exit latency (set --idle-exit-us)";
    return std::string("a task woken onto an idle CPU runs ") + us + " us later: the recording's median over its " + n +
           " wakeups onto an idle CPU (the idle state's exit and the IPI; --idle-exit-us sets it)";
}

std::string remoteReschedAssumption(int64_t ns, long long samples, bool given) {
    char us[32];
    std::snprintf(us, sizeof us, "%.1f", static_cast<double>(ns) / 1000.0);
    const std::string n = std::to_string(samples);
    const std::string what = "a wakeup that preempts a task on another CPU than its waker's (a remote resched) ";
    if (given) return what + "acts " + us + " us later (--remote-resched-us)";
    if (samples < kMinRemoteResched)
        return what + "acts at once: the recording has " + n + " such preemption(s), too few to measure the delay "
               "(set --remote-resched-us)";
    return what + "acts " + us + " us later, unless the task blocked first: the recording's median over its " + n +
           " remote wakeup preemptions (the IPI and the CPU's next preemption point; --remote-resched-us sets it)";
}

}  // namespace

long long ReplayMetrics::migrations() const {
    long long n = 0;
    for (const auto& [level, count] : migrationsByLevel) n += count;
    return n;
}

ReplayMetrics measureRecording(const tracing::EventStore& store, const TraceTimelines& timelines,
                               const DerivedWorkload& derived, const DomainTree& tree,
                               double samplePeriodS) {
    ReplayMetrics m;
    const uint64_t ws = derived.windowStartNs, we = derived.windowEndNs;
    m.elapsedS = static_cast<double>(we - ws) / 1e9;
    std::unordered_map<int32_t, int> index;
    for (size_t i = 0; i < derived.tasks.size(); ++i) index[derived.tasks[i].pid] = static_cast<int>(i);
    auto idx = [&](int32_t pid) {
        auto it = index.find(pid);
        return it == index.end() ? -1 : it->second;
    };
    m.tasks.resize(derived.tasks.size());

    tracing::MigrationClassifier classifier(tree);
    auto count = [&](int i, int src, int dst, const std::string& cause) {
        std::string level = classifier.levelName(src, dst);
        m.migrationsByLevel[level.empty() ? "none" : level]++;
        m.migrationsByCause[cause]++;
        m.tasks[static_cast<size_t>(i)].migrations++;
    };
    // the sched_migrate_task ones and the fork placements, which the simulator counts as fork
    // migrations too
    const auto inferred = tracing::inferMigrations(store);
    auto add = [&](const std::vector<tracing::Migration>& migs) {
        for (const auto& mig : migs) {
            const int i = idx(mig.pid);
            if (i < 0 || mig.ts < ws || mig.ts > we) continue;
            count(i, mig.src, mig.dst, simCauseName(mig.cause));
        }
    };
    add(inferred);
    add(tracing::forkPlacements(store, inferred));

    // Wait latency: each runnable interval that ends with the task running (the simulator
    // counts the same: every enqueue to pick, after wakeups, forks and preemptions alike).
    const auto& slices = timelines.slices;
    const auto& intervals = timelines.intervals;
    for (size_t k = 0; k + 1 < intervals.size(); ++k) {
        const auto& iv = intervals[k];
        const auto& nx = intervals[k + 1];
        if (iv.phase != tracing::TaskPhase::Runnable || nx.pid != iv.pid || nx.phase != tracing::TaskPhase::Running) continue;
        // its switch in was lost: the wait has no known end; runnable at the trace's start: no known start
        if (nx.startUnseen || iv.startUnseen) continue;
        if (iv.end < ws || iv.end > we || idx(iv.pid) < 0) continue;
        m.waitLatency.add(static_cast<int64_t>(iv.end - iv.start));
    }
    m.idleWakeupLatency = measureIdleWakeups(timelines, derived);
    const WakeupPreemptions pre = measureWakeupPreemptions(timelines, derived, store);
    m.busyWakeups = pre.busyWakeups;
    m.wakeupPreemptions = pre.preempting;
    m.remoteBusyWakeups = pre.remoteBusyWakeups;
    m.remoteWakeupPreemptions = pre.remotePreempting;
    m.remoteReschedLatency = pre.remoteReschedDelay;

    // Utilisation, completion and the placement timeline from the run slices.
    m.cpuUtilisation.assign(static_cast<size_t>(derived.cpuCount), 0.0);
    std::vector<double> lastRun(derived.tasks.size(), -1);
    for (size_t c = 0; c < slices.size(); ++c)
        for (const auto& s : slices[c]) {
            const int i = idx(s.pid);
            if (i < 0 || s.end <= ws || s.start >= we) continue;
            const uint64_t a = std::max(s.start, ws), z = std::min(s.end, we);
            if (c < m.cpuUtilisation.size()) m.cpuUtilisation[c] += static_cast<double>(z - a) / 1e9;
            lastRun[static_cast<size_t>(i)] = std::max(lastRun[static_cast<size_t>(i)], static_cast<double>(z - ws) / 1e9);
        }
    for (double& u : m.cpuUtilisation) u /= std::max(1e-9, m.elapsedS);
    for (size_t i = 0; i < derived.tasks.size(); ++i) {
        const auto& dt = derived.tasks[i];
        TaskOutcome& o = m.tasks[i];
        o.cpuTimeS = static_cast<double>(dt.cpuTimeNs) / 1e9;
        // exited: its exit; alive at the window's end: when it last ran (where its script ends)
        o.completionS = dt.exitNs >= 0 ? static_cast<double>(dt.exitNs) / 1e9 : lastRun[i];
        m.completionS = std::max(m.completionS, o.completionS);
    }
    if (samplePeriodS > 0) {
        std::vector<size_t> pos(slices.size(), 0);
        for (double t = 0; t <= m.elapsedS + 1e-12; t += samplePeriodS) {
            const uint64_t at = ws + static_cast<uint64_t>(t * 1e9);
            sim::PlacementSample ps;
            ps.timeS = t;
            ps.running.assign(static_cast<size_t>(derived.cpuCount), -1);
            for (size_t c = 0; c < slices.size() && c < ps.running.size(); ++c) {
                while (pos[c] < slices[c].size() && slices[c][pos[c]].end <= at) ++pos[c];
                if (pos[c] < slices[c].size() && slices[c][pos[c]].start <= at) ps.running[c] = idx(slices[c][pos[c]].pid);
            }
            m.timeline.push_back(std::move(ps));
        }
    }
    return m;
}

ReplayMetrics metricsFromSim(sim::SimState& s, size_t taskCount) {
    ReplayMetrics m;
    m.elapsedS = static_cast<double>(s.now) / 1e9;
    m.migrationsByLevel = s.metrics.migrationsByLevel;
    for (size_t c = 0; c < static_cast<size_t>(sim::MigrationCause::Count); ++c)
        if (s.metrics.migrationsByCause[c])
            m.migrationsByCause[sim::causeName(static_cast<sim::MigrationCause>(c))] = s.metrics.migrationsByCause[c];
    m.waitLatency = s.metrics.waitLatency;
    m.busyWakeups = s.metrics.busyWakeups;
    m.wakeupPreemptions = s.metrics.wakeupPreemptions;
    m.remoteBusyWakeups = s.metrics.remoteBusyWakeups;
    m.remoteWakeupPreemptions = s.metrics.remoteWakeupPreemptions;
    // NaN (null in JSON) where the machine has no online CPU: offline, or a gap in sparse ids
    for (const auto& c : s.cpus)
        m.cpuUtilisation.push_back(s.online.test(c.id) ? static_cast<double>(c.busyTotal) / 1e9 / std::max(1e-9, m.elapsedS)
                                                       : std::nan(""));
    m.tasks.resize(taskCount);
    bool allExited = true;
    double last = 0;
    for (size_t i = 0; i < taskCount && i < s.tasks.size(); ++i) {
        const sim::Task& t = s.tasks[i];
        TaskOutcome& o = m.tasks[i];
        for (const sim::CpuTimes::Entry& e : t.cpuTime) o.cpuTimeS += static_cast<double>(e.ns) / 1e9;
        o.completionS = t.exitedAt >= 0 ? static_cast<double>(t.exitedAt) / 1e9 : -1;
        o.migrations = t.migrations;
        if (o.completionS < 0) allExited = false;
        else last = std::max(last, o.completionS);
    }
    m.completionS = allExited ? last : -1;
    m.timeline = s.metrics.timeline;
    if (s.metrics.stalledAtNs >= 0) {
        m.stalledAtS = static_cast<double>(s.metrics.stalledAtNs) / 1e9;
        m.stalledTasks = s.metrics.stalledTasks;
    }
    return m;
}

Fidelity computeFidelity(const ReplayMetrics& rec, const ReplayMetrics& base) {
    Fidelity f;
    double diff = 0, total = 0;
    for (size_t i = 0; i < rec.tasks.size() && i < base.tasks.size(); ++i) {
        diff += std::fabs(base.tasks[i].cpuTimeS - rec.tasks[i].cpuTimeS);
        total += rec.tasks[i].cpuTimeS;
    }
    f.cpuTimeError = total > 0 ? diff / total : 0;
    const double nr = static_cast<double>(rec.migrations()), nb = static_cast<double>(base.migrations());
    if (nr == 0 && nb == 0) f.levelMixError = 0;
    else if (nr == 0 || nb == 0) f.levelMixError = 1;
    else {
        std::map<std::string, std::pair<double, double>> shares;
        for (const auto& [l, n] : rec.migrationsByLevel) shares[l].first = static_cast<double>(n) / nr;
        for (const auto& [l, n] : base.migrationsByLevel) shares[l].second = static_cast<double>(n) / nb;
        double tvd = 0;
        for (const auto& [l, p] : shares) tvd += std::fabs(p.first - p.second);
        f.levelMixError = tvd / 2;
    }
    f.recordedDominantLevel = dominant(rec.migrationsByLevel);
    f.baselineDominantLevel = dominant(base.migrationsByLevel);
    const double r50 = rec.waitLatency.percentileNs(50), b50 = base.waitLatency.percentileNs(50);
    f.waitP50Ratio = r50 > 0 && b50 > 0 ? b50 / r50 : -1;
    f.completionError = rec.completionS > 0 && base.completionS >= 0
                            ? std::fabs(base.completionS - rec.completionS) / rec.completionS
                            : 1.0;  // the baseline never finished: as wrong as it gets
    f.migrationRatio = nr > 0 ? nb / nr : nb > 0 ? -1 : 1;
    auto share = [](long long preempting, long long busy) {
        return busy > 0 ? static_cast<double>(preempting) / static_cast<double>(busy) : -1.0;
    };
    f.recordedPreemptShare = share(rec.wakeupPreemptions, rec.busyWakeups);
    f.baselinePreemptShare = share(base.wakeupPreemptions, base.busyWakeups);
    f.recordedRemotePreemptShare = share(rec.remoteWakeupPreemptions, rec.remoteBusyWakeups);
    f.baselineRemotePreemptShare = share(base.remoteWakeupPreemptions, base.remoteBusyWakeups);
    f.recordedLocalPreemptShare = share(rec.wakeupPreemptions - rec.remoteWakeupPreemptions, rec.busyWakeups - rec.remoteBusyWakeups);
    f.baselineLocalPreemptShare = share(base.wakeupPreemptions - base.remoteWakeupPreemptions, base.busyWakeups - base.remoteBusyWakeups);
    return f;
}

Result<CpuSet> unpinnedCpusOn(const DerivedWorkload& derived, const Topology& topology, bool spread,
                              const std::string& what) {
    const int n = derived.cpuCount, target = static_cast<int>(topology.cpus.size());
    if (target < n)
        return Error{what + ": the recording has " + std::to_string(n) + " CPUs but topology " + topology.name +
                     " has only " + std::to_string(target) + "; replay maps trace CPU c onto CPU c"};
    if (spread || target == n) return CpuSet{};
    return CpuSet::range(0, n - 1);
}

Result<workload::Workload> mapOntoTopology(const DerivedWorkload& derived, const Topology& topology, bool spread,
                                           const std::string& what) {
    auto unpinned = unpinnedCpusOn(derived, topology, spread, what);
    if (!unpinned) return Error{unpinned.error()};
    workload::Workload w = derived.workload;
    if (unpinned->empty()) return w;
    for (auto& t : w.tasks) {
        if (t.affinity.empty()) t.affinity = *unpinned;
        for (auto& op : t.script)
            if (op.kind == workload::OpKind::SetAffinity && op.cpus.empty()) op.cpus = *unpinned;
    }
    return w;
}

Result<ReplayResult> replayTrace(const tracing::EventStore& store, const std::string& what, const Topology& recordedTopology,
                                 const Topology& whatIfTopology, const ReplayOptions& options) {
    if (auto fits = tracing::checkTraceFitsTopology(what, store, recordedTopology, options.recordedConfig.topologyName);
        !fits)
        return Error{fits.error()};
    const DeriveOptions d = onRecordingMachine(options.derive, recordedTopology);
    const TraceTimelines timelines = TraceTimelines::of(store);
    auto derived = deriveWorkload(store, timelines, d, what);
    if (!derived) return Error{derived.error()};

    ReplayResult r;
    r.derived = std::move(*derived);
    // the groups the tasks ran in: the simulations share the CPUs between them as the kernel did
    if (options.taskGroups) assignTaskGroups(r.derived, *options.taskGroups, store);
    DomainBuildOptions b;
    b.arch = recordedTopology.arch;
    b.profile = options.recordedConfig.profile;
    b.cls = options.recordedConfig.cls;
    b.node = options.recordedConfig.node;
    auto recordedTree = buildDomains(recordedTopology, b);
    if (!recordedTree) return Error{what + ": " + options.recordedConfig.topologyName + ": " + recordedTree.error()};
    const double windowS = static_cast<double>(r.derived.windowEndNs - r.derived.windowStartNs) / 1e9;
    r.recorded = measureRecording(store, timelines, r.derived, *recordedTree, std::max(1e-4, windowS / 200.0));
    const auto& idleWakeups = r.recorded.idleWakeupLatency;
    r.idleExitNs = options.idleExitNs ? *options.idleExitNs : idleExitFrom(idleWakeups);
    const auto& remoteResched = r.recorded.remoteReschedLatency;
    r.remoteReschedNs = options.remoteReschedNs ? *options.remoteReschedNs : remoteReschedFrom(remoteResched);

    // the baseline and the what-if are independent simulations of one workload: at once
    std::optional<Result<ReplayRun>> base, whatIf;
    runParallel(options.baseline ? 2 : 1, 0, [&](size_t i) {
        if (i == 0)
            whatIf = simulateOn(r.derived, whatIfTopology, options.whatIf, "what-if", options, r.idleExitNs, r.remoteReschedNs, what);
        else
            base = simulateOn(r.derived, recordedTopology, options.recordedConfig, "baseline", options, r.idleExitNs,
                              r.remoteReschedNs, what);
    });
    if (base) {
        if (!*base) return Error{base->error()};
        r.baseline = std::move(**base);
        r.fidelity = computeFidelity(r.recorded, r.baseline->metrics);
    }
    if (!*whatIf) return Error{whatIf->error()};
    r.whatIf = std::move(**whatIf);

    r.assumptions = r.derived.assumptions;
    r.assumptions.push_back("recorded lb_newidle also holds nohz idle balancing (a sched trace without irq events "
                            "cannot tell them apart); a task present at the window's start starts on the CPU the "
                            "recording first shows it on, with a new task's load averages");
    if (options.taskGroups) {
        r.taskGroups = countTaskGroups(*options.taskGroups, store, r.derived);
        r.taskGroupsGuessed = options.taskGroupsGuessed;
        if (std::string note = taskGroupAssumption(r.taskGroups, options.taskGroupsGuessed); !note.empty())
            r.assumptions.push_back(std::move(note));
        if (std::string note = bandwidthAssumption(r.derived.workload); !note.empty()) r.assumptions.push_back(std::move(note));
        if (options.taskGroups->takenAfter)
            r.assumptions.push_back("the task groups were taken after the recording (trace groups --snapshot), not as it "
                                    "began: a task that exited before is placed by its parent's group, and a pid reused "
                                    "since may name another process's group");
    }
    if (!options.taskGroups && options.noGroupsSidecar) r.assumptions.push_back(noGroupsSidecarAssumption());
    r.assumptions.push_back(idleExitAssumption(r.idleExitNs, idleWakeups.count(), options.idleExitNs.has_value()));
    r.assumptions.push_back(
        remoteReschedAssumption(r.remoteReschedNs, remoteResched.count(), options.remoteReschedNs.has_value()));
    if (const std::string_view from = tracing::migrationSource(store); from.starts_with("sched_switch"))
        r.assumptions.push_back("recorded migrations and their causes are inferred from " + std::string(from) +
                                " (the trace has no sched_migrate_task): a task that ran on one CPU and next on "
                                "another, one move however many CPUs it passed");
    if (static_cast<int>(whatIfTopology.cpus.size()) > r.derived.cpuCount)
        r.assumptions.push_back(options.whatIf.spread
                                    ? "trace CPU c is CPU c of " + options.whatIf.topologyName +
                                          "; unpinned tasks may use all its CPUs (--spread)"
                                    : "trace CPU c is CPU c of " + options.whatIf.topologyName + "; tasks keep CPUs 0-" +
                                          std::to_string(r.derived.cpuCount - 1) + " (use --spread for all)");
    return r;
}

}  // namespace schedscope::replay
