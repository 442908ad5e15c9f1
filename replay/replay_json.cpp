#include "replay_json.h"

#include <algorithm>
#include <set>

#include "sim/sched_knobs.h"

namespace schedscope::replay {
namespace {

using nlohmann::json;

json orNull(double v) { return v < 0 ? json(nullptr) : json(v); }

std::string profileName(const KernelProfile* p) { return (p ? *p : defaultProfile()).name; }

json configJson(const ReplayConfig& c, const Topology& topo) {
    return {{"topology", c.topologyName}, {"cpus", topo.cpus.size()}, {"profile", profileName(c.profile)},
            {"cls", c.cls}, {"node", c.node}, {"spread", c.spread}};
}

json runJson(const ReplayRun& run, const DerivedWorkload& d, bool timelines) {
    json j = metricsToJson(run.metrics, d);
    j["config"] = configJson(run.config, *run.topology);
    j["config"]["seed"] = run.state->opt.seed;
    j["config"]["hz"] = run.state->opt.hz;
    j["config"]["idle_exit_us"] = static_cast<double>(run.state->opt.idleExitNs) / 1000.0;
    j["config"]["remote_resched_us"] = static_cast<double>(run.state->opt.remoteReschedNs) / 1000.0;
    j["config"]["delay_dequeue"] = run.state->feat.delayDequeue;
    j["config"]["newidle_random"] = run.state->feat.newidleRandom;
    j["config"]["wake_wide"] = std::string(sim::wakeWideName(run.state->feat.wakeWide));
    j["config"]["util_est"] = run.state->feat.utilEst;
    j["config"]["run_to_parity"] = run.state->feat.runToParity;
    if (timelines) {
        json tl = json::array();
        for (const auto& p : run.metrics.timeline) tl.push_back({{"t_s", p.timeS}, {"running", p.running}});
        j["placement_timeline"] = tl;
    }
    return j;
}

}  // namespace

std::vector<std::pair<std::string, double>> scalarMetrics(const ReplayMetrics& m) {
    std::vector<std::pair<std::string, double>> out;
    out.emplace_back("elapsed_s", m.elapsedS);
    out.emplace_back("completion_s", m.completionS);
    out.emplace_back("migrations", static_cast<double>(m.migrations()));
    for (const auto& [level, n] : m.migrationsByLevel) out.emplace_back("migrations_" + level, static_cast<double>(n));
    out.emplace_back("wait_p50_us", m.waitLatency.percentileNs(50) / 1e3);
    out.emplace_back("wait_p95_us", m.waitLatency.percentileNs(95) / 1e3);
    out.emplace_back("wait_p99_us", m.waitLatency.percentileNs(99) / 1e3);
    double cpu = 0;
    for (const auto& t : m.tasks) cpu += t.cpuTimeS;
    out.emplace_back("cpu_time_s", cpu);
    // how many CPUs the tasks used, and how busy those were on average: one "utilisation" of
    // the used CPUs alone read as the machine's, and fell when a what-if spread the same work
    // over more of them
    double util = 0;
    int used = 0;
    for (double u : m.cpuUtilisation)
        if (u > 0) {
            util += u;
            ++used;
        }
    out.emplace_back("cpus_used", used);
    out.emplace_back("utilisation_of_cpus_used", used ? util / used : 0.0);
    return out;
}

json metricsToJson(const ReplayMetrics& m, const DerivedWorkload& d) {
    json tasks = json::array();
    for (size_t i = 0; i < m.tasks.size(); ++i) {
        const auto& t = m.tasks[i];
        tasks.push_back({{"id", i},
                         {"name", i < d.workload.tasks.size() ? d.workload.tasks[i].name : std::string{}},
                         {"cpu_time_s", t.cpuTimeS},
                         {"completion_s", orNull(t.completionS)},
                         {"migrations", t.migrations}});
    }
    json metrics = {{"elapsed_s", m.elapsedS},
                    {"completion_s", orNull(m.completionS)},
                    {"stalled", m.stalledAtS >= 0 ? json{{"at_s", m.stalledAtS}, {"tasks", m.stalledTasks}} : json(nullptr)},
                    {"migrations", m.migrations()},
                    {"migrations_by_level", m.migrationsByLevel},
                    {"migrations_by_cause", m.migrationsByCause},
                    {"wait_latency_us",
                     {{"p50", m.waitLatency.percentileNs(50) / 1e3},
                      {"p95", m.waitLatency.percentileNs(95) / 1e3},
                      {"p99", m.waitLatency.percentileNs(99) / 1e3},
                      {"samples", m.waitLatency.count()}}},
                    {"cpu_utilisation", m.cpuUtilisation}};
    return {{"metrics", metrics}, {"tasks", tasks}};
}

json replayResultToJson(const ReplayResult& r, const std::string& trace, bool timelines) {
    const DerivedWorkload& d = r.derived;
    json tasks = json::array();
    for (size_t i = 0; i < d.tasks.size(); ++i) {
        const auto& t = d.tasks[i];
        const auto& spec = d.workload.tasks[i];
        tasks.push_back({{"id", i},
                         {"name", spec.name},
                         {"pid", t.pid},
                         {"comm", t.comm},
                         {"nice", spec.nice},
                         {"parent_pid", t.parent >= 0 ? json(t.parent) : json(nullptr)},
                         {"start", spec.startAtBegin ? "begin" : "fork"},
                         {"affinity", t.initialAffinity.empty() ? json(nullptr) : json(t.initialAffinity.toList())},
                         {"affinity_from_trace", t.affinityFromTrace},
                         {"mem_fraction", spec.memFraction},
                         {"ops", spec.script.size()},
                         {"wakes", t.wakes},
                         {"waits", t.waits},
                         {"timed_sleeps", t.sleeps},
                         {"cpu_time_s", static_cast<double>(t.cpuTimeNs) / 1e9}});
    }
    json edges = json::array();
    for (const auto& e : d.edges) edges.push_back({{"waker", e.waker}, {"wakee", e.wakee}, {"count", e.count}});
    json j;
    j["trace"] = trace;
    // from the trace's first event, as --window takes them
    j["window_s"] = {static_cast<double>(d.windowStartNs - d.traceStartNs) / 1e9,
                     static_cast<double>(d.windowEndNs - d.traceStartNs) / 1e9};
    j["run_limit_s"] = d.workload.durationS;  // where a simulated run stops, finished or not
    j["derived"] = {{"tasks", tasks},
                    {"edges", edges},
                    {"multi_wake_ops", d.multiWakeOps},
                    {"execs", d.execs},
                    {"dropped_tasks", d.droppedTasks},
                    {"cpus", d.cpuCount}};
    j["recorded"] = metricsToJson(r.recorded, d);
    if (timelines) {
        json tl = json::array();
        for (const auto& p : r.recorded.timeline) tl.push_back({{"t_s", p.timeS}, {"running", p.running}});
        j["recorded"]["placement_timeline"] = tl;
    }
    if (r.baseline) j["baseline"] = runJson(*r.baseline, d, timelines);
    j["whatif"] = runJson(r.whatIf, d, timelines);

    const ReplayMetrics& ref = r.baseline ? r.baseline->metrics : r.recorded;
    json delta = {{"against", r.baseline ? "baseline" : "recorded"}};
    auto a = scalarMetrics(ref), b = scalarMetrics(r.whatIf.metrics);
    std::set<std::string> keys;
    for (const auto& [k, v] : a) keys.insert(k);
    for (const auto& [k, v] : b) keys.insert(k);
    auto find = [](const std::vector<std::pair<std::string, double>>& v, const std::string& k) {
        for (const auto& [name, x] : v)
            if (name == k) return x;
        return k.starts_with("migrations_") ? 0.0 : -1.0;
    };
    for (const auto& k : keys) delta[k] = find(b, k) - find(a, k);
    j["delta"] = delta;
    if (r.fidelity) {
        const Fidelity& f = *r.fidelity;
        j["fidelity"] = {{"cpu_time_error", f.cpuTimeError},
                         {"level_mix_error", f.levelMixError},
                         {"dominant_level",
                          {{"recorded", f.recordedDominantLevel},
                           {"baseline", f.baselineDominantLevel},
                           {"same", f.recordedDominantLevel == f.baselineDominantLevel}}},
                         {"wait_p50_ratio", f.waitP50Ratio < 0 ? nlohmann::json(nullptr) : nlohmann::json(f.waitP50Ratio)},
                         {"completion_error", f.completionError},
                         {"migration_ratio", f.migrationRatio < 0 ? nlohmann::json(nullptr) : nlohmann::json(f.migrationRatio)}};
        auto share = [](double x) { return x < 0 ? nlohmann::json(nullptr) : nlohmann::json(x); };
        j["fidelity"]["wakeup_preemption_share"] = {{"recorded", share(f.recordedPreemptShare)},
                                                    {"baseline", share(f.baselinePreemptShare)}};
        // split by where the waker ran: the wakee's CPU, or another (a remote resched)
        const ReplayMetrics& rec = r.recorded;
        const ReplayMetrics& base = r.baseline ? r.baseline->metrics : r.whatIf.metrics;
        j["fidelity"]["wakeup_preemption_share"]["waker_same_cpu"] = {
            {"recorded", share(f.recordedLocalPreemptShare)},
            {"baseline", share(f.baselineLocalPreemptShare)},
            {"recorded_wakeups", rec.busyWakeups - rec.remoteBusyWakeups},
            {"baseline_wakeups", base.busyWakeups - base.remoteBusyWakeups}};
        j["fidelity"]["wakeup_preemption_share"]["waker_other_cpu"] = {{"recorded", share(f.recordedRemotePreemptShare)},
                                                                       {"baseline", share(f.baselineRemotePreemptShare)},
                                                                       {"recorded_wakeups", rec.remoteBusyWakeups},
                                                                       {"baseline_wakeups", base.remoteBusyWakeups}};
    }
    j["assumptions"] = r.assumptions;
    if (!r.taskGroups.empty()) {
        nlohmann::json groups = nlohmann::json::array();
        for (const auto& g : r.taskGroups) groups.push_back({{"group", g.group}, {"tasks", g.tasks}});
        j["task_groups"] = std::move(groups);
        j["task_groups_from"] = r.taskGroupsGuessed ? "sessions_from_forks" : "sidecar";
    }
    return j;
}

}  // namespace schedscope::replay
