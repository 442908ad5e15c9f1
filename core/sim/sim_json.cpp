#include "sim/sim_json.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "sim/placement_spread.h"
#include "sim/sched_knobs.h"

namespace schedscope::sim {
namespace {

double elapsedS(const SimState& s) { return std::max(1e-9, static_cast<double>(s.now) / 1e9); }

double taskRate(const Task& t, const workload::Workload& wl, double elapsed) {
    if (wl.bandwidthUnit) return t.bandwidthWork / 1e9 / elapsed;
    return t.workDone / 1e9 / elapsed * wl.unitPerWorkSecond;
}

double completion(const SimState& s) {
    int64_t last = 0;
    bool started = false;
    for (const auto& t : s.tasks) {
        if (t.state == TaskState::NotStarted) continue;  // never forked: nothing to wait for
        if (t.exitedAt < 0) return -1;
        started = true;
        last = std::max(last, t.exitedAt);
    }
    return started ? static_cast<double>(last) / 1e9 : -1;  // a run where nothing started completed nothing
}

nlohmann::json stalledJson(const SimState& s) {
    if (s.metrics.stalledAtNs < 0) return nullptr;
    nlohmann::json names = nlohmann::json::array();
    for (int id : s.metrics.stalledTasks) names.push_back(s.tasks[static_cast<size_t>(id)].spec->name);
    return {{"at_s", static_cast<double>(s.metrics.stalledAtNs) / 1e9}, {"tasks", names}};
}

}  // namespace

std::string describeStall(const SimState& s) {
    const Metrics& m = s.metrics;
    if (m.stalledAtNs < 0) return {};
    std::string names;
    for (size_t i = 0; i < m.stalledTasks.size() && i < 4; ++i)
        names += (i ? ", " : "") + s.tasks[static_cast<size_t>(m.stalledTasks[i])].spec->name;
    if (m.stalledTasks.size() > 4) names += ", ...";
    char at[32];
    std::snprintf(at, sizeof at, "%.6f", static_cast<double>(m.stalledAtNs) / 1e9);
    return "stalled at " + std::string(at) + " s: " + std::to_string(m.stalledTasks.size()) +
           " task(s) blocked in a Wait, a Barrier or a Take that no task left could end (" + names + ")";
}

namespace {
// a workload group's CPU time, by membership (whether or not the run put its tasks in it)
struct GroupCpuTime {
    std::string name;
    int shares = 1024, tasks = 0;
    double cpuS = 0, share = 0;  // its tasks' CPU time, and its share of all the tasks'
    // its bandwidth limit (cpu.max; quotaUs -1: none) and cpu.stat's throttling counts, which
    // stay 0 in a run that let the groups run unlimited
    long long quotaUs = -1, periodUs = 0, nrThrottled = 0;
    double throttledS = 0;
};
std::vector<GroupCpuTime> groupCpuTimes(const SimState& s, const workload::Workload& wl) {
    std::vector<GroupCpuTime> out;
    out.reserve(wl.groups.size());
    for (size_t i = 0; i < wl.groups.size(); ++i) {
        const workload::TaskGroupSpec& g = wl.groups[i];
        GroupCpuTime row{g.name, g.shares, 0, 0, 0, g.quotaUs > 0 ? g.quotaUs : -1, g.periodUs, 0, 0};
        if (i < s.groups.size()) {
            row.nrThrottled = s.groups[i].bandwidth.nrThrottled;
            row.throttledS = static_cast<double>(s.groups[i].bandwidth.throttledNs) / 1e9;
        }
        out.push_back(std::move(row));
    }
    if (out.empty()) return out;
    double allS = 0;
    for (size_t i = 0; i < s.tasks.size() && i < wl.tasks.size(); ++i) {
        const double cpuS = static_cast<double>(s.tasks[i].cpuTime.total()) / 1e9;
        allS += cpuS;
        const int g = wl.tasks[i].group;
        if (g < 0 || static_cast<size_t>(g) >= out.size()) continue;
        out[static_cast<size_t>(g)].cpuS += cpuS;
        ++out[static_cast<size_t>(g)].tasks;
    }
    for (auto& g : out) g.share = allS > 0 ? g.cpuS / allS : 0.0;
    return out;
}
}  // namespace

std::vector<std::pair<std::string, double>> summaryMetrics(SimState& s, const workload::Workload& wl) {
    const double el = elapsedS(s);
    double total = 0;
    for (const auto& t : s.tasks) total += taskRate(t, wl, el);
    long long migrations = 0;
    for (auto c : s.metrics.migrationsByCause) migrations += c;
    // NaN: not every task had finished when the run ended (no completion time to average)
    const double done = completion(s);
    std::vector<std::pair<std::string, double>> out = {
        {"throughput", total},
        {"completion_s", done >= 0 ? done : std::numeric_limits<double>::quiet_NaN()},
        {"migrations", static_cast<double>(migrations)},
        {"wait_p50_us", s.metrics.waitLatency.percentileNs(50) / 1e3},
        {"wait_p95_us", s.metrics.waitLatency.percentileNs(95) / 1e3},
        {"wait_p99_us", s.metrics.waitLatency.percentileNs(99) / 1e3},
        {"idle_while_overloaded_s", static_cast<double>(s.metrics.idleWhileOverloadedNs) / 1e9},
        {"newidle_passes", static_cast<double>(s.metrics.newidleBalances)},
        {"numa_migrations", static_cast<double>(s.metrics.migrationsByCause[static_cast<size_t>(MigrationCause::Numa)])},
    };
    // a workload whose wakees read their wakers' data: the time those transfers took, uncontended
    const bool handsOff = std::any_of(wl.tasks.begin(), wl.tasks.end(), [](const auto& t) { return t.handoffKB > 0; });
    if (handsOff) out.emplace_back("handoff_ms", s.metrics.handoffNs / 1e6);
    for (auto& spread : placementSpread(s)) out.push_back(std::move(spread));
    // the same keys when the run put every task in one group (--compare task-groups' off side)
    for (const GroupCpuTime& g : groupCpuTimes(s, wl)) {
        out.emplace_back("cpu_share_" + g.name, g.share);
        // a limited group's time held off its CPUs, over all of them (cpu.stat throttled_usec)
        if (g.quotaUs > 0) out.emplace_back("throttled_s_" + g.name, g.throttledS);
    }
    return out;
}

nlohmann::json simResultToJson(SimState& s, const workload::Workload& wl, const RunConfig& cfg) {
    using nlohmann::json;
    const double el = elapsedS(s);
    json config = {{"topology", cfg.topology},
                   {"cpus", s.online.count()},
                   {"profile", cfg.profile},
                   {"fair_class", s.feat.fairClass == FairClass::Eevdf ? "eevdf" : "cfs"},
                   {"delay_dequeue", s.feat.delayDequeue},
                   {"newidle_random", s.feat.newidleRandom},
                   {"newidle_rate", s.feat.newidleRate},
                   {"wake_wide", wakeWideName(s.feat.wakeWide)},
                   {"smt_balance", s.feat.smtBalance},
                   {"util_est", s.feat.utilEst},
                   {"run_to_parity", s.feat.runToParity},
                   {"cls", cfg.cls},
                   {"node", cfg.node},
                   {"seed", s.opt.seed},
                   {"duration_s", s.opt.durationS},
                   {"hz", s.opt.hz},
                   {"idle_exit_us", static_cast<double>(s.opt.idleExitNs) / 1000.0},
                   {"remote_resched_us", static_cast<double>(s.opt.remoteReschedNs) / 1000.0},
                   {"numa_memory_follows_s", s.opt.numaMemoryFollowsS},
                   {"workload", cfg.workloadSpec},
                   {"tasks", s.tasks.size()},
                   {"contention",
                    {{"cluster_gbs", s.contention.clusterGBs},
                     {"llc_gbs", s.contention.llcGBs},
                     {"node_gbs", s.contention.nodeGBs},
                     {"smt_slowdown", s.contention.smtSlowdown},
                     {"cluster_cache_mb", s.contention.clusterCacheMB},
                     {"llc_cache_mb", s.contention.llcCacheMB},
                     {"cache_miss_cost", s.contention.cacheMissCost},
                     {"handoff_ns_per_kb",
                      {{"cluster", s.contention.handoffClusterNsPerKB},
                       {"llc", s.contention.handoffLlcNsPerKB},
                       {"cross_llc", s.contention.handoffCrossLlcNsPerKB}}},
                     {"origin", s.contention.origin}}}};
    double total = 0;
    json perTask = json::array();
    json tasks = json::array();
    for (const auto& t : s.tasks) {
        const double rate = taskRate(t, wl, el);
        total += rate;
        perTask.push_back(rate);
        json byCpu = json::object();
        for (const CpuTimes::Entry& e : t.cpuTime) byCpu[std::to_string(e.cpu)] = static_cast<double>(e.ns) / 1e9;
        const int group = t.spec->group;
        tasks.push_back({{"id", t.id},
                         {"name", t.spec->name},
                         {"group", group >= 0 && static_cast<size_t>(group) < wl.groups.size()
                                       ? json(wl.groups[static_cast<size_t>(group)].name)
                                       : json(nullptr)},
                         {"throughput", rate},
                         {"work_s", t.workDone / 1e9},
                         {"migrations", t.migrations},
                         {"completion_s", t.exitedAt >= 0 ? json(static_cast<double>(t.exitedAt) / 1e9) : json(nullptr)},
                         {"cpu_time_by_cpu", byCpu}});
    }
    json byCause = json::object();
    for (size_t c = 0; c < static_cast<size_t>(MigrationCause::Count); ++c)
        byCause[causeName(static_cast<MigrationCause>(c))] = s.metrics.migrationsByCause[c];
    // by CPU id; null for an id the machine has no online CPU at (offline, or a gap in sparse ids)
    json util = json::array();
    for (size_t c = 0; c < s.cpus.size(); ++c)
        util.push_back(s.online.test(static_cast<int>(c)) ? json(static_cast<double>(s.cpus[c].busyTotal) / 1e9 / el) : json(nullptr));
    const double comp = completion(s);
    json metrics = {
        {"elapsed_s", el},
        {"throughput", {{"total", total}, {"unit", wl.unit}, {"per_task", perTask}}},
        {"completion_s", comp >= 0 ? json(comp) : json(nullptr)},
        {"migrations_by_level", s.metrics.migrationsByLevel},
        {"migrations_by_cause", byCause},
        {"active_balances", s.metrics.activeBalances},
        {"delayed_migrations", s.metrics.delayedMigrations},
        {"numa_memory_moves", s.metrics.numaMemoryMoves},
        {"numa_task_moves", s.metrics.numaTaskMoves},
        {"numa_swaps", s.metrics.numaSwaps},
        {"newidle_balance", {{"runs", s.metrics.newidleBalances}, {"skipped", s.metrics.newidleSkipped}}},
        {"handoff", {{"count", s.metrics.handoffs}, {"ms", s.metrics.handoffNs / 1e6}}},
        {"wait_latency_us",
         {{"p50", s.metrics.waitLatency.percentileNs(50) / 1e3},
          {"p95", s.metrics.waitLatency.percentileNs(95) / 1e3},
          {"p99", s.metrics.waitLatency.percentileNs(99) / 1e3},
          {"samples", s.metrics.waitLatency.count()},
          {"open_at_end", s.metrics.openWaits}}},
        {"idle_while_overloaded_s", static_cast<double>(s.metrics.idleWhileOverloadedNs) / 1e9},
        {"cpu_utilisation", util},
        {"events", s.metrics.events},
        {"stalled", stalledJson(s)}};
    for (const auto& [name, mean] : placementSpread(s)) metrics[name] = mean;
    // the workload's task groups (simulated as groups unless the run put every task in one)
    json groups = json::array();
    for (const GroupCpuTime& g : groupCpuTimes(s, wl)) {
        json jg = {{"name", g.name}, {"shares", g.shares}, {"tasks", g.tasks}, {"cpu_time_s", g.cpuS}, {"cpu_share", g.share}};
        if (g.quotaUs > 0) {
            jg["quota_us"] = g.quotaUs;
            jg["period_us"] = g.periodUs;
            jg["nr_throttled"] = g.nrThrottled;
            jg["throttled_s"] = g.throttledS;
        }
        groups.push_back(std::move(jg));
    }
    metrics["task_groups"] = std::move(groups);
    config["task_groups"] = s.opt.taskGroups && !wl.groups.empty();
    config["bandwidth_limits"] = s.opt.taskGroups && s.opt.bandwidth &&
                                 std::any_of(wl.groups.begin(), wl.groups.end(), [](const auto& g) { return g.quotaUs > 0; });
    json timeline = json::array();
    for (const auto& p : s.metrics.timeline) timeline.push_back({{"t_s", p.timeS}, {"running", p.running}});
    return {{"config", config}, {"metrics", metrics}, {"tasks", tasks}, {"placement_timeline", timeline}};
}

void addChangeJson(nlohmann::json& into, const MetricChange& c) {
    const nlohmann::json null = nullptr;
    into["relative_pct"] = c.defined ? nlohmann::json(c.relativePct) : null;
    into["ci95_pct"] = c.hasInterval ? nlohmann::json{c.lowPct, c.highPct} : null;
    into["significant"] = c.hasInterval ? nlohmann::json(c.significant) : null;
    if (c.withinResolution) into["within_resolution"] = true;
}

}  // namespace schedscope::sim
