#include "whatif_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "derive_workload.h"
#include "session_guess.h"
#include "task_group_assign.h"
#include "idle_wakeups.h"
#include "replay.h"
#include "wakeup_preemptions.h"
#include "sim/compare_modes.h"
#include "sim/numa_balancing.h"
#include "sim/sched_knobs.h"
#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "workload/workload_json.h"
#include "workload/workload_spec.h"

namespace schedscope::gui {
namespace {

// The trace's tasks for `target`, where the unpinned ones may run there (SimOptions::unpinnedCpus),
// and the idle exit and remote resched latencies its wakeups show.
Result<workload::Workload> workloadFromTrace(const WhatIfRequest::TraceSource& trace, const Topology& target,
                                            WhatIfSetup& setup) {
    if (!trace.store || !trace.recordedOn) return Error{"what-if: the trace is no longer open"};
    // the recording machine's speeds, as replay's (SMT siblings busy: less work per ns)
    replay::DeriveOptions d = replay::onRecordingMachine({}, *trace.recordedOn);
    d.allWakeupsSync = trace.allWakeupsSync;
    const auto timelines = replay::TraceTimelines::of(*trace.store);
    auto derived = replay::deriveWorkload(*trace.store, timelines, d, trace.name);
    if (!derived) return Error{derived.error()};
    auto unpinned = replay::unpinnedCpusOn(*derived, target, trace.spread, trace.name);
    if (!unpinned) return Error{unpinned.error()};
    setup.unpinnedCpus = std::move(*unpinned);
    setup.idleExitNs = replay::idleExitFrom(replay::measureIdleWakeups(timelines, *derived));
    setup.remoteReschedNs =
        replay::remoteReschedFrom(replay::measureWakeupPreemptions(timelines, *derived, *trace.store).remoteReschedDelay);
    const bool guessed = !trace.taskGroups && trace.sessionsFromForks;
    const int grouped = trace.taskGroups ? replay::assignTaskGroups(*derived, *trace.taskGroups, *trace.store)
                        : guessed ? replay::assignTaskGroups(*derived, replay::guessSessionsFromForks(*trace.store), *trace.store)
                                  : 0;
    workload::Workload wl = std::move(derived->workload);
    wl.spec = "trace " + trace.name + " (" + std::to_string(derived->tasks.size()) + " tasks";
    if (grouped > 0)
        wl.spec += ", " + std::to_string(wl.groups.size()) + (guessed ? " sessions guessed from forks" : " task groups");
    if (setup.idleExitNs > 0) {
        char us[48];
        std::snprintf(us, sizeof us, ", idle exit %.1f us", static_cast<double>(setup.idleExitNs) / 1000.0);
        wl.spec += us;
    }
    if (setup.remoteReschedNs > 0) {
        char us[48];
        std::snprintf(us, sizeof us, ", remote resched %.1f us", static_cast<double>(setup.remoteReschedNs) / 1000.0);
        wl.spec += us;
    }
    wl.spec += ")";
    return wl;
}

Result<workload::Workload> workloadFromSpec(const std::string& spec, int cpuCount, double runS) {
    if (spec.empty()) return Error{"what-if: no workload (e.g. stream:threads=4,cpus=0-23, or a workload .json file)"};
    std::error_code ec;
    const bool isFile = spec.ends_with(".json") || std::filesystem::is_regular_file(spec, ec);
    return isFile ? workload::loadWorkloadFile(spec, cpuCount) : workload::parseWorkloadSpec(spec, cpuCount, runS);
}

}  // namespace

Result<std::shared_ptr<const WhatIfSetup>> prepareWhatIf(const WhatIfRequest& request) {
    auto setup = std::make_shared<WhatIfSetup>();
    setup->request = request;
    const sim::CompareMode* mode = sim::findCompareMode(request.compare);
    if (!mode) return Error{"what-if: compare must be " + sim::compareKeyList() + ", not '" + request.compare + "'"};
    if (request.seeds < 1 || request.seeds > 1000) return Error{"what-if: seeds must be 1 to 1000"};
    if (!(request.durationS > 0) || request.durationS > 100000) return Error{"what-if: duration must be in (0, 100000] seconds"};
    if (request.topology) {
        setup->topology = request.topology;
    } else {
        auto topo = loadTopology(request.spec);
        if (!topo) return Error{topo.error()};
        setup->topology = std::make_shared<const Topology>(std::move(*topo));
    }
    const int cpuCount = static_cast<int>(setup->topology->cpus.size());
    auto wl = request.trace ? workloadFromTrace(*request.trace, *setup->topology, *setup)
                            : workloadFromSpec(request.workload, cpuCount, request.durationS);
    if (!wl) return Error{wl.error()};
    setup->workload = std::move(*wl);
    const KernelProfile* profile = nullptr;
    if (!request.profile.empty()) {
        profile = findProfile(request.profile);
        if (!profile) return Error{"what-if: unknown kernel profile '" + request.profile + "'"};
    } else if (const KernelProfile* traceKernel = request.trace && request.trace->store
                                                        ? profileForKernelRelease(request.trace->store->kernelRelease())
                                                        : nullptr) {
        // a trace replays under its own kernel's rules unless another profile is asked for; one
        // that names no kernel, under the profile the window built its machine's domains with
        profile = traceKernel;
    } else if (!request.machineProfile.empty()) {
        profile = findProfile(request.machineProfile);  // the open machine, under the window's kernel
        if (!profile) return Error{"what-if: unknown kernel profile '" + request.machineProfile + "'"};
    } else if (!setup->topology->kernelProfile.empty()) {
        profile = findProfile(setup->topology->kernelProfile);  // a kernel log's machine, under its kernel
    }
    const KernelProfile& kernel = profile ? *profile : defaultProfile();
    setup->profileName = kernel.name;
    if (const std::string why = levelNeverBuilt(std::string(mode->level), setup->topology->arch, kernel); !why.empty())
        return Error{"what-if: " + why + ": both runs would be the same"};
    if (mode->what == sim::CompareWhat::NumaBalancing && setup->topology->nodes.size() < 2)
        return Error{"what-if: the machine has one NUMA node: NUMA balancing off and on would be the same"};
    if (mode->what == sim::CompareWhat::NumaBalancing) {
        sim::SimOptions o;
        o.durationS = request.durationS;
        if (const std::string why = sim::numaBalancingTooShort(setup->workload, o); !why.empty())
            return Error{"what-if: " + why + ": NUMA balancing off and on would be the same (a longer Duration)"};
    }
    if (mode->what == sim::CompareWhat::TaskGroups && setup->workload.groups.empty())
        return Error{"what-if: the workload has no task groups (a workload file's groups, or a recording's groups "
                     "sidecar): one group for all and its own groups would be the same"};
    if (mode->what == sim::CompareWhat::Bandwidth && !workload::hasBandwidthLimits(setup->workload))
        return Error{"what-if: no group of the workload has a CPU bandwidth limit (a workload file's quota_us, or "
                     "cpu.max in a recording's groups sidecar): with and without limits would be the same"};
    sim::SchedKnobs given{request.delayDequeue, request.newidleRandom, request.wakeWide};
    given.utilEst = request.utilEst;
    if (sim::knobsOfSide(given, mode->what, 0) || request.delayDequeue || request.newidleRandom || request.wakeWide ||
        request.utilEst) {
        for (int setting = 0; setting < 2; ++setting) {
            auto f = sim::featuresWithKnobs(kernel, sim::knobsOfSide(given, mode->what, setting).value_or(given));
            if (!f) return Error{"what-if: " + f.error()};
            setup->features[setting] = *f;
        }
    }
    for (int setting = 0; setting < 2; ++setting) {
        DomainBuildOptions& b = setup->build[setting];
        b.arch = setup->topology->arch;
        b.profile = profile;
        b.cls = request.compare == "cls" ? setting == 1 : request.cls;
        b.node = request.compare == "node" ? setting == 1 : request.node;
        auto tree = buildDomains(*setup->topology, b);
        if (!tree) return Error{tree.error()};
        setup->trees[setting] = std::make_shared<const DomainTree>(std::move(*tree));
    }
    // the level off and on built the same domains: no cluster, no node of several LLCs here
    if (!mode->level.empty())
        if (const std::string why = levelChangesNothing(*setup->topology, *setup->trees[0], *setup->trees[1], std::string(mode->level));
            !why.empty())
            return Error{"what-if: " + why + ": both runs would be the same"};
    return std::shared_ptr<const WhatIfSetup>(std::move(setup));
}

WhatIfRun runWhatIfJob(const WhatIfSetup& setup, int setting, int seedIndex, const std::function<bool(double)>& keepGoing) {
    WhatIfRun run;
    run.setting = setting;
    run.seed = setup.request.firstSeed + static_cast<unsigned long long>(seedIndex);
    sim::SimOptions o;
    o.seed = run.seed;
    o.durationS = setup.request.durationS;
    o.samplePeriodS = std::max(0.001, (setup.workload.durationS > 0 ? setup.workload.durationS : o.durationS) / 100.0);
    o.progress = keepGoing;
    o.idleExitNs = setup.idleExitNs;
    o.remoteReschedNs = setup.remoteReschedNs;
    o.unpinnedCpus = setup.unpinnedCpus;
    o.features = setup.features[setting];
    if (setup.request.compare == "numa-balancing" && setting == 0) o.numaMemoryFollowsS = 0;
    if (setup.request.compare == "task-groups" && setting == 0) o.taskGroups = false;
    if (setup.request.compare == "bandwidth" && setting == 0) o.bandwidth = false;
    auto st = sim::simulate(*setup.topology, *setup.trees[setting], setup.workload, o);
    if (!st) {
        run.error = st.error();
        return run;
    }
    sim::SimState& s = **st;
    run.metrics = sim::summaryMetrics(s, setup.workload);
    run.stall = sim::describeStall(s);
    run.migrationsByLevel = s.metrics.migrationsByLevel;
    const double elapsed = std::max(1e-9, static_cast<double>(s.now) / 1e9);
    run.cpuUtilisation.assign(setup.topology->cpus.size(), std::nan(""));
    for (const auto& c : s.cpus)  // (an offline CPU, or a gap in sparse ids, stays NaN: no CPU there)
        if (c.id >= 0 && static_cast<size_t>(c.id) < run.cpuUtilisation.size() && s.online.test(c.id))
            run.cpuUtilisation[static_cast<size_t>(c.id)] = static_cast<double>(c.busyTotal) / 1e9 / elapsed;
    return run;
}

std::vector<WhatIfResult::Row> WhatIfResult::rows() const {
    std::vector<std::string> names;
    std::map<std::string, std::vector<double>> values[2];
    for (const auto& r : runs) {
        if (!r.error.empty()) continue;
        for (const auto& [name, v] : r.metrics) {
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
            values[r.setting][name].push_back(v);
        }
    }
    std::vector<Row> out;
    for (const auto& name : names) {
        Row row;
        row.metric = name;
        row.off = sim::metricStats(values[0][name]);
        row.on = sim::metricStats(values[1][name]);
        row.change = sim::metricChange(row.off, row.on, sim::metricResolutionPct(name));
        out.push_back(std::move(row));
    }
    return out;
}

std::vector<std::string> WhatIfResult::levels() const {
    std::vector<std::string> out;
    // Keep the hierarchy order of the "on" tree; names only the "off" tree has go where they fit.
    if (setup) out = sim::comparedLevels(setup->trees[0]->levelNames(), setup->trees[1]->levelNames());
    for (const auto& r : runs)
        for (const auto& [level, n] : r.migrationsByLevel)
            if (!level.empty() && std::find(out.begin(), out.end(), level) == out.end()) out.push_back(level);
    return out;
}

int WhatIfResult::runsOf(int setting) const {
    return static_cast<int>(std::count_if(runs.begin(), runs.end(),
                                          [setting](const WhatIfRun& r) { return r.setting == setting && r.error.empty(); }));
}

double WhatIfResult::meanMigrations(int setting, const std::string& level) const {
    const int n = runsOf(setting);
    if (n == 0) return 0;
    double sum = 0;
    for (const auto& r : runs)
        if (r.setting == setting && r.error.empty())
            if (auto it = r.migrationsByLevel.find(level); it != r.migrationsByLevel.end()) sum += static_cast<double>(it->second);
    return sum / n;
}

std::vector<double> WhatIfResult::meanUtilisation(int setting) const {
    std::vector<double> sum;
    int n = 0;
    for (const auto& r : runs) {
        if (r.setting != setting || !r.error.empty()) continue;
        if (sum.empty()) sum.assign(r.cpuUtilisation.size(), 0.0);
        for (size_t i = 0; i < sum.size() && i < r.cpuUtilisation.size(); ++i) sum[i] += r.cpuUtilisation[i];
        ++n;
    }
    for (double& v : sum) v /= std::max(1, n);
    return sum;
}

std::string WhatIfResult::settingName(int setting) const {
    const sim::CompareMode* mode = sim::findCompareMode(setup ? setup->request.compare : "cls");
    return std::string(mode ? mode->name : "CLS") + (setting ? " on" : " off");
}

bool WhatIfResult::seedsGaveOneRun() const {
    std::vector<MetricStats> stats;
    for (const auto& row : rows()) {
        stats.push_back(row.off);
        stats.push_back(row.on);
    }
    return sim::seedsGaveOneRun(stats);
}

nlohmann::json WhatIfResult::toJson() const {
    using nlohmann::json;
    json metrics = json::object();
    auto stats = [](const MetricStats& s) {
        if (s.n == 0) return json{{"mean", nullptr}, {"sd", nullptr}, {"min", nullptr}, {"max", nullptr}, {"n", 0}};
        return json{{"mean", s.mean}, {"sd", s.n > 1 ? json(s.sd) : json(nullptr)}, {"min", s.min}, {"max", s.max}, {"n", s.n}};  // one run: no spread
    };
    for (const auto& row : rows()) {
        metrics[row.metric] = {{"off", stats(row.off)}, {"on", stats(row.on)}};
        sim::addChangeJson(metrics[row.metric], row.change);
    }
    json byLevel = json::object();
    for (const auto& level : levels()) byLevel[level] = {{"off", meanMigrations(0, level)}, {"on", meanMigrations(1, level)}};
    json util = {{"off", meanUtilisation(0)}, {"on", meanUtilisation(1)}};
    for (auto& side : util)
        for (auto& v : side)
            if (std::isnan(v.get<double>())) v = nullptr;
    json runList = json::array();
    for (const auto& r : runs) {
        json m = json::object();
        for (const auto& [name, v] : r.metrics) m[name] = v;
        runList.push_back({{"setting", r.setting ? "on" : "off"}, {"seed", r.seed}, {"metrics", m},
                           {"migrations_by_level", r.migrationsByLevel}, {"error", r.error.empty() ? json(nullptr) : json(r.error)}});
    }
    json out = {{"compare", setup ? setup->request.compare : ""}, {"cancelled", cancelled}, {"metrics", metrics},
                {"seeds_gave_one_run", seedsGaveOneRun()},
                {"migrations_by_level_mean", byLevel}, {"cpu_utilisation_mean", util}, {"runs", runList}};
    if (setup) {
        const auto& q = setup->request;
        out["topology"] = setup->topology->name;
        out["workload"] = setup->workload.spec;
        out["unit"] = setup->workload.unit;
        out["profile"] = setup->profileName;
        out["seeds"] = q.seeds;
        out["first_seed"] = q.firstSeed;
        out["duration_s"] = q.durationS;
        out["idle_exit_us"] = static_cast<double>(setup->idleExitNs) / 1000.0;
        out["remote_resched_us"] = static_cast<double>(setup->remoteReschedNs) / 1000.0;
        out["cls"] = q.compare == "cls" ? json("compared") : json(q.cls);
        out["node"] = q.compare == "node" ? json("compared") : json(q.node);
        if (q.compare == "delay-dequeue") out["delay_dequeue"] = "compared";
        else if (setup->features[0]) out["delay_dequeue"] = setup->features[0]->delayDequeue;
        if (q.compare == "ni-random") out["ni_random"] = "compared";
        else if (setup->features[0]) out["ni_random"] = setup->features[0]->newidleRandom;
        if (q.compare == "wake-wide") out["wake_wide"] = "compared";
        else if (setup->features[0]) out["wake_wide"] = std::string(sim::wakeWideName(setup->features[0]->wakeWide));
        if (q.compare == "util-est") out["util_est"] = "compared";
        else if (setup->features[0]) out["util_est"] = setup->features[0]->utilEst;
        if (q.compare == "run-to-parity") out["run_to_parity"] = "compared";
        else if (setup->features[0]) out["run_to_parity"] = setup->features[0]->runToParity;
        if (q.compare == "numa-balancing") out["numa_balancing"] = "compared";
        if (q.compare == "task-groups") out["task_groups"] = "compared";
        if (q.compare == "bandwidth") out["bandwidth_limits"] = "compared";
    }
    if (!error.empty()) out["error"] = error;
    return out;
}

std::string WhatIfResult::toCsv() const {
    std::ostringstream out;
    out.precision(10);
    out << "metric,off_mean,off_sd,off_min,off_max,off_n,on_mean,on_sd,on_min,on_max,on_n,relative_pct,ci95_low_pct,"
           "ci95_high_pct,significant\n";
    // a side no seed has a value for (completion_s when none finished) leaves its cells empty
    auto side = [&out](const MetricStats& s) {
        if (s.n == 0) out << ",,,,0";
        else if (s.n == 1) out << s.mean << ",," << s.min << ',' << s.max << ",1";  // one run: no spread
        else out << s.mean << ',' << s.sd << ',' << s.min << ',' << s.max << ',' << s.n;
    };
    for (const auto& r : rows()) {
        out << r.metric << ',';
        side(r.off);
        out << ',';
        side(r.on);
        out << ',';
        if (r.change.defined) out << r.change.relativePct;
        out << ',';
        if (r.change.hasInterval) out << r.change.lowPct << ',' << r.change.highPct << ',' << (r.change.significant ? 1 : 0);
        else out << ",,";
        out << '\n';
    }
    for (const auto& level : levels())
        out << "migrations_" << level << ',' << meanMigrations(0, level) << ",,,," << runsOf(0) << ','
            << meanMigrations(1, level) << ",,,," << runsOf(1) << ",,,,\n";
    return out.str();
}

}  // namespace schedscope::gui
