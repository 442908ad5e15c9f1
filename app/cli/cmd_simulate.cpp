// schedscope-cli simulate | bench sim
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>

#include <sys/resource.h>

#include "commands.h"
#include "metric_text.h"
#include "progress_line.h"
#include "sim/compare_modes.h"
#include "sim/metric_change.h"
#include "sim/metric_stats.h"
#include "sim/numa_balancing.h"
#include "sim/sim_json.h"
#include "sim_run.h"
#include "topology/hwloc_loader.h"
#include "topology_options.h"
#include "util/parallel_runs.h"
#include "workload/bursts_and_sleeps.h"
#include "workload/workload_spec.h"

namespace schedscope::cli {
namespace {

double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

void printSummary(sim::SimState& s, const workload::Workload& wl, const sim::RunConfig& cfg) {
    // (UTIL_EST and RUN_TO_PARITY are named when a what-if turned them on: off is every run's default)
    std::printf("%s on %s (%d CPUs), profile %s, CLS %s, NODE %s%s%s, seed %llu, %.3f s simulated\n", wl.spec.c_str(),
                cfg.topology.c_str(), s.online.count(), cfg.profile.c_str(), cfg.cls ? "on" : "off",
                cfg.node ? "on" : "off", s.feat.utilEst ? ", UTIL_EST on" : "", s.feat.runToParity ? ", RUN_TO_PARITY on" : "",
                static_cast<unsigned long long>(s.opt.seed), static_cast<double>(s.now) / 1e9);
    for (const auto& [name, v] : sim::summaryMetrics(s, wl)) {
        if (std::isnan(v)) std::printf("  %-26s %12s\n", name.c_str(), "not finished");  // completion_s
        else std::printf("  %-26s %12s%s\n", name.c_str(), metricText(name, v).c_str(), name == "throughput" ? (" " + wl.unit).c_str() : "");
    }
    std::printf("  migrations by level:");
    for (const auto& [lvl, n] : s.metrics.migrationsByLevel) std::printf(" %s=%lld", lvl.c_str(), n);
    std::printf("\n  migrations by cause:");
    for (size_t c = 0; c < static_cast<size_t>(sim::MigrationCause::Count); ++c)
        if (s.metrics.migrationsByCause[c])
            std::printf(" %s=%lld", sim::causeName(static_cast<sim::MigrationCause>(c)), s.metrics.migrationsByCause[c]);
    std::printf("\n");
    if (const std::string stall = sim::describeStall(s); !stall.empty()) std::printf("  %s\n", stall.c_str());
    std::printf("  contention: %s\n", sim::describeContention(s.contention).c_str());
}

using Summary = std::vector<std::pair<std::string, double>>;

// What a run's migrations are counted by, besides their total: the level that spans both CPUs
// and the cause, per cause name.
struct MigrationBreakdown {
    std::vector<std::string> levels;              // its tree's levels, bottom-up
    std::map<std::string, long long> byLevel;     // Metrics::migrationsByLevel
    std::vector<long long> byCause;               // Metrics::migrationsByCause
};

// Each run's migrations by level and by cause, as rows after its "migrations": migrations_L
// for the levels of both sides (comparedLevels(); a level a run's tree lacks counts none, and a
// move between CPUs no domain spans counts at "none"), then migrations_by_C for each cause
// some run has.
void addMigrationBreakdown(std::vector<Result<Summary>>& results, const std::vector<MigrationBreakdown>& runs, size_t seeds) {
    std::vector<std::string> levels = sim::comparedLevels(runs.front().levels, runs[seeds].levels);
    for (const auto& run : runs)
        for (const auto& [level, n] : run.byLevel)
            if (std::find(levels.begin(), levels.end(), level) == levels.end()) levels.push_back(level);
    std::vector<size_t> causes;
    for (size_t c = 0; c < static_cast<size_t>(sim::MigrationCause::Count); ++c)
        if (c != static_cast<size_t>(sim::MigrationCause::Numa) &&  // numa_migrations has them already
            std::any_of(runs.begin(), runs.end(), [c](const MigrationBreakdown& r) { return r.byCause[c] != 0; }))
            causes.push_back(c);
    for (size_t i = 0; i < results.size(); ++i) {
        Summary& m = *results[i];
        auto at = std::find_if(m.begin(), m.end(), [](const auto& metric) { return metric.first == "migrations"; });
        at = at == m.end() ? m.end() : at + 1;
        Summary rows;
        for (const auto& level : levels) {
            const auto it = runs[i].byLevel.find(level);
            rows.emplace_back("migrations_" + level, it == runs[i].byLevel.end() ? 0.0 : static_cast<double>(it->second));
        }
        for (size_t c : causes)
            rows.emplace_back(std::string("migrations_by_") + sim::causeName(static_cast<sim::MigrationCause>(c)),
                              static_cast<double>(runs[i].byCause[c]));
        m.insert(at, rows.begin(), rows.end());
    }
}

int runCompare(const Args& args, const SimSetup& setup) {
    const std::string what = *args.value("compare");
    const sim::CompareMode* mode = sim::findCompareMode(what);
    if (!mode) return fail("--compare must be " + sim::compareKeyList() + ", not '" + what + "'");
    auto seeds = args.integer("seeds", 5, 1, 1000);
    if (!seeds) return fail(seeds.error());
    // a level the profile's kernel never builds: both sides would be the same run
    const KernelProfile& kernel = setup.build.profile ? *setup.build.profile : defaultProfile();
    if (!std::string(mode->level).empty())
        if (const std::string why = levelChangesNothing(setup.topology, setup.build, std::string(mode->level)); !why.empty())
            return fail("--compare " + what + ": " + why + ": both runs would be the same");
    // the two sides: a level off and on, the profile with DELAY_DEQUEUE, NI_RANDOM or
    // wake_wide() off and on (the other knobs as given), or NUMA balancing off and on
    SimSetup sides[2] = {setup, setup};
    for (int setting = 0; setting < 2; ++setting) {
        const auto knobs = sim::knobsOfSide(setup.knobs, mode->what, setting);
        if (!knobs) break;
        auto f = sim::featuresWithKnobs(kernel, *knobs);
        if (!f) return fail("--compare " + what + ": " + f.error());
        sides[setting].options.features = *f;
    }
    if (mode->what == sim::CompareWhat::NumaBalancing) {
        if (setup.topology.nodes.size() < 2)
            return fail("--compare numa-balancing: the machine has one NUMA node: both runs would be the same");
        if (const std::string why = sim::numaBalancingTooShort(setup.workload, setup.options); !why.empty())
            return fail("--compare numa-balancing: " + why + ": both runs would be the same (--duration)");
        sides[0].options.numaMemoryFollowsS = 0;
        sides[1].options.numaMemoryFollowsS = sim::SimOptions{}.numaMemoryFollowsS;
    }
    if (mode->what == sim::CompareWhat::TaskGroups) {
        if (setup.workload.groups.empty())
            return fail("--compare task-groups: the workload has no task groups (a workload file's \"groups\" and its "
                        "tasks' \"group\"): both runs would be the same");
        sides[0].options.taskGroups = false;
    }
    if (mode->what == sim::CompareWhat::Bandwidth) {
        if (!workload::hasBandwidthLimits(setup.workload))
            return fail("--compare bandwidth: no group of the workload has a CPU bandwidth limit (a group's \"quota_us\" "
                        "in a workload file, or cpu.max in a recording's groups sidecar): both runs would be the same");
        sides[0].options.bandwidth = false;
    }
    auto jobs = args.integer("jobs", 0, 0, 1024);
    if (!jobs) return fail(jobs.error());
    // every (setting, seed) run is independent: they share the workers, and each keeps its
    // slot, so the statistics below see them in the same order however many run at once
    const size_t runs = 2 * static_cast<size_t>(*seeds);
    const unsigned workers = workerCount(runs, static_cast<unsigned>(*jobs));
    // each run's summary (its state, with per-task CPU times, is dropped as soon as it is read)
    std::vector<Result<Summary>> results(runs, Error{"not run"});
    std::vector<std::string> stalls(runs);  // per run: describeStall(), empty when it did not stall
    std::vector<MigrationBreakdown> breakdowns(runs);
    {
        ProgressLine line(std::to_string(runs) + " runs, " + std::to_string(workers) + " at once",
                          setup.workload.durationS > 0 ? setup.workload.durationS : setup.options.durationS);
        runParallel(runs, workers, [&](size_t i) {
            const int setting = static_cast<int>(i / static_cast<size_t>(*seeds));
            const auto k = static_cast<uint64_t>(i % static_cast<size_t>(*seeds));
            const bool on = setting == 1;
            const bool cls = mode->what == sim::CompareWhat::Cls ? on : setup.build.cls;
            const bool node = mode->what == sim::CompareWhat::Node ? on : setup.build.node;
            const auto progress = line.partCallback(i, runs);
            auto run = runSimulation(sides[setting], cls, node, setup.options.seed + k, 0, nullptr, progress);
            if (run) {
                results[i] = sim::summaryMetrics(*run->state, setup.workload);
                stalls[i] = sim::describeStall(*run->state);
                const sim::Metrics& metrics = run->state->metrics;
                breakdowns[i] = {run->tree.levelNames(), metrics.migrationsByLevel,
                                 {metrics.migrationsByCause.begin(), metrics.migrationsByCause.end()}};
            } else {
                results[i] = Error{run.error()};
            }
            if (progress) progress(1.0);
        });
    }
    for (size_t i = 0; i < runs; ++i)
        if (!results[i]) return fail(results[i].error());
    addMigrationBreakdown(results, breakdowns, static_cast<size_t>(*seeds));
    // metric -> [setting][seed]
    std::vector<std::string> names;
    std::vector<std::vector<std::vector<double>>> vals;
    for (size_t i = 0; i < runs; ++i) {
        const size_t setting = i / static_cast<size_t>(*seeds);
        const Summary& m = *results[i];
        if (names.empty()) {
            for (const auto& [n, v] : m) names.push_back(n);
            vals.assign(names.size(), std::vector<std::vector<double>>(2));
        }
        for (size_t j = 0; j < m.size(); ++j) vals[j][setting].push_back(m[j].second);
    }
    nlohmann::json out = nlohmann::json::object();
    // the "on" side of wake-wide is a factor: the header names it (--wake-wide cluster)
    std::string onSide = "on";
    if (mode->what == sim::CompareWhat::WakeWide)
        if (const auto on = sim::knobsOfSide(setup.knobs, mode->what, 1); on && on->wakeWide) onSide = sim::wakeWideName(*on->wakeWide);
    if (!args.has("json"))
        std::printf("%s: %s off vs %s, %lld seed%s from %llu\n%-26s %14s %10s %14s %10s %9s  %s\n", setup.workload.spec.c_str(),
                    what.c_str(), onSide.c_str(), *seeds, *seeds == 1 ? "" : "s", static_cast<unsigned long long>(setup.options.seed),
                    "metric", "off mean", "off sd", "on mean", "on sd", "on/off", "95% interval");
    // a run without a value (completion_s when its tasks had not finished) is left out of the
    // statistics and the count of runs with one is shown
    // (one run has no spread: its sd is "-" and null, not 0)
    auto side = [](const sim::MetricStats& st) {
        if (st.n == 0) return nlohmann::json{{"mean", nullptr}, {"sd", nullptr}, {"n", 0}};
        return nlohmann::json{{"mean", st.mean}, {"sd", st.n > 1 ? nlohmann::json(st.sd) : nlohmann::json(nullptr)}, {"n", st.n}};
    };
    auto cell = [](const sim::MetricStats& st, double v, const char* none, int least = 1) {
        if (st.n < least) return std::string(none);
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.4f", v);
        return std::string(buf);
    };
    std::vector<sim::MetricStats> allStats;
    bool anyInterval = false;
    for (size_t i = 0; i < names.size(); ++i) {
        const sim::MetricStats off = sim::metricStats(vals[i][0]), on = sim::metricStats(vals[i][1]);
        allStats.push_back(off);
        allStats.push_back(on);
        // no relative change from nothing to something (numa_migrations 0 -> 34)
        const sim::MetricChange change = sim::metricChange(off, on, sim::metricResolutionPct(names[i]));
        out[names[i]] = {{"off", side(off)}, {"on", side(on)}};
        sim::addChangeJson(out[names[i]], change);
        if (args.has("json")) continue;
        std::printf("%-26s %14s %10s %14s %10s ", names[i].c_str(), cell(off, off.mean, "not finished").c_str(),
                    cell(off, off.sd, "-", 2).c_str(), cell(on, on.mean, "not finished").c_str(), cell(on, on.sd, "-", 2).c_str());
        if (change.defined) std::printf("%+8.2f%%", change.relativePct);
        else std::printf("%9s", "-");
        if (change.hasInterval) {
            anyInterval = true;
            std::printf("  %s", sim::intervalText(change).c_str());
        } else if (change.withinResolution && change.relativePct != 0) {
            std::printf("  within resolution");
        }
        if (off.n < off.runs || on.n < on.runs) std::printf("  (finished: off %d of %d, on %d of %d)", off.n, off.runs, on.n, on.runs);
        std::printf("\n");
    }
    // a run that stalled (its tasks all blocked for good) is said, as a single run says it:
    // its metrics alone read as a slow run
    nlohmann::json stalled = nlohmann::json::object();
    for (int setting = 0; setting < 2; ++setting) {
        const char* label = setting ? "on" : "off";
        int count = 0;
        std::string first;
        for (size_t k = 0; k < static_cast<size_t>(*seeds); ++k) {
            const std::string& stall = stalls[static_cast<size_t>(setting) * static_cast<size_t>(*seeds) + k];
            if (stall.empty()) continue;
            if (count++ == 0) first = "seed " + std::to_string(setup.options.seed + k) + ": " + stall;
        }
        stalled[label] = {{"runs", count}, {"first", count ? nlohmann::json(first) : nlohmann::json(nullptr)}};
        if (count && !args.has("json"))
            std::printf("%s: %d of %lld runs stalled; %s\n", label, count, *seeds, first.c_str());
    }
    const bool alike = sim::seedsGaveOneRun(allStats);
    if (args.has("json"))
        std::cout << nlohmann::json{{"compare", what},
                                    {"seeds", *seeds},
                                    {"seeds_gave_one_run", alike},
                                    {"workload", setup.workload.spec},
                                    {"stalled", stalled},
                                    {"metrics", out}}
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
    else if (alike)
        std::printf("every seed gave the same run on each side: the seeds do not reach this workload's placement "
                    "(tasks forked onto an idle machine that never sleep are placed alike), so sd 0 is no measure of "
                    "noise\n");
    else if (anyInterval)
        std::printf("%s\n", sim::intervalFootnote("the off mean").c_str());
    return 0;
}

int runSimulate(const Args& args) {
    auto setup = simSetupFrom(args);
    if (!setup) return fail(setup.error());
    auto explain = args.integer("explain", 0, 0, 1000000);
    if (!explain) return fail(explain.error());
    if (args.has("compare")) {
        if (*explain > 0) return fail("--explain cannot be combined with --compare");
        return runCompare(args, *setup);
    }
    if (args.has("seeds")) return fail("--seeds is for --compare (its runs per side); one run takes --seed N");
    if (args.has("jobs")) return fail("--jobs is for --compare (its runs at once); one run takes one CPU");
    std::vector<sim::Decision> decisions;
    auto run = [&] {
        ProgressLine line("simulating", setup->workload.durationS > 0 ? setup->workload.durationS : setup->options.durationS);
        return runSimulation(*setup, setup->build.cls, setup->build.node, setup->options.seed, static_cast<int>(*explain),
                             &decisions, line.callback());
    }();  // the progress line is gone before the results print
    if (!run) return fail(run.error());
    const auto cfg = runConfig(*setup, setup->build.cls, setup->build.node);
    if (args.has("json")) {
        auto j = sim::simResultToJson(*run->state, setup->workload, cfg);
        if (*explain > 0) {
            nlohmann::json arr = nlohmann::json::array();
            for (const auto& d : decisions) arr.push_back(sim::decisionToJson(d));
            j["decisions"] = arr;
        }
        std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    if (*explain > 0) {
        std::printf("first %zu decisions (time, kind, who @level[span] -> chosen cpu (rule); * marks the local group):\n",
                    decisions.size());
        for (const auto& d : decisions) std::printf("%s\n", sim::decisionToText(d).c_str());
        std::printf("\n");
    }
    printSummary(*run->state, setup->workload, cfg);
    return 0;
}

// What bench sim runs: its own standard run, or the user's workload on the user's machine.
struct BenchRun {
    Topology topology;
    DomainBuildOptions build;
    workload::Workload workload;
    sim::SimOptions options;
};

// The standard run: a 128-CPU EPYC-like machine, 256 tasks alternating short bursts and sleeps
// (wakeup heavy), under the newest profile's behaviours.
Result<BenchRun> standardBench(double durationS) {
    auto topo = loadHwlocSynthetic("pack:2 numa:4 l3:2 core:4 pu:2", Arch::X86_64);
    if (!topo) return Error{topo.error()};
    BenchRun r;
    r.topology = std::move(*topo);
    r.topology.name = "pack:2 numa:4 l3:2 core:4 pu:2";
    r.build.arch = Arch::X86_64;
    r.workload = workload::burstsAndSleeps(256, 4, 0.5, 4.0);
    r.workload.name = r.workload.spec = "1 ms bursts and 1 ms sleeps";
    r.options.durationS = durationS;
    r.options.samplePeriodS = durationS / 100;
    return r;
}

// --workload SPEC: what `simulate` would run with the same options (machine, profile, knobs),
// for as long as --duration says (10 s by default, a workload's own duration= winning)
Result<BenchRun> benchOfWorkload(const Args& args, double durationS) {
    auto setup = simSetupFrom(args);
    if (!setup) return Error{setup.error()};
    BenchRun r;
    r.topology = std::move(setup->topology);
    r.build = setup->build;
    r.workload = std::move(setup->workload);
    r.options = setup->options;
    r.options.durationS = durationS;
    r.options.samplePeriodS = std::max(0.001, (r.workload.durationS > 0 ? r.workload.durationS : durationS) / 100.0);
    return r;
}

// Prints events per second of wall time for the standard run, or for --workload SPEC.
int runBenchSim(const Args& args) {
    auto dur = args.numberIn("duration", 10.0, 0.001, 100000, "seconds");
    if (!dur) return fail("bench sim: " + dur.error());
    // the standard run is one machine, kernel and seed, so its figures compare across builds:
    // the options that would change it go with a --workload of one's own
    if (!args.has("workload")) {
        for (const char* option : {"cls", "node", "profile", "seed", "hz", "delay-dequeue", "ni-random", "wake-wide",
                                   "smt-balance", "util-est", "run-to-parity", "idle-exit-us", "remote-resched-us",
                                   "numa-balancing"})
            if (args.has(option))
                return fail(std::string("bench sim: --") + option + " changes the standard run, whose figures compare "
                            "across builds: give a --workload to time another run");
        if (topologyOptionGiven(args))
            return fail("bench sim: the standard run has its own machine (128 CPUs): give a --workload to time one on "
                        "another topology");
    }
    auto bench = args.has("workload") ? benchOfWorkload(args, *dur) : standardBench(*dur);
    if (!bench) return fail("bench sim: " + bench.error());
    const Topology* topo = &bench->topology;
    const workload::Workload& wl = bench->workload;
    const sim::SimOptions& o = bench->options;
    auto tree = buildDomains(*topo, bench->build);
    if (!tree) return failRuntime(tree.error());
    // --runs N: the same run N times, one after another. On a shared or noisy machine one
    // timing says little; the best of N is the machine's speed, the median its usual one.
    auto repeats = args.integer("runs", 1, 1, 1000);
    if (!repeats) return fail("bench sim: " + repeats.error());
    std::vector<double> walls, cpus;
    Result<std::unique_ptr<sim::SimState>> st = Error{"no run"};
    for (long long r = 0; r < *repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const double cpu0 = processCpuSeconds();
        st = sim::simulate(*topo, *tree, wl, o);
        cpus.push_back(processCpuSeconds() - cpu0);
        walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (!st) return failRuntime(st.error());
    }
    const double wall = walls.front(), cpu = cpus.front();
    std::vector<double> sortedWalls = walls;
    std::sort(sortedWalls.begin(), sortedWalls.end());
    const double bestWall = sortedWalls.front(), medianWall = sortedWalls[sortedWalls.size() / 2],
                 worstWall = sortedWalls.back();
    const double ev = static_cast<double>((*st)->metrics.events);
    const double simulated = static_cast<double>((*st)->now) / 1e9;  // a workload that ends early stops sooner
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    const double throughput = sim::summaryMetrics(**st, wl).front().second;
    // --jobs N: N runs (seeds 1..N) at once, as --compare runs them: the events of all over the
    // wall time shows how the simulator scales on this machine's cores (they share its caches
    // and memory bandwidth)
    auto jobs = args.integer("jobs", 1, 1, 1024);
    if (!jobs) return fail(jobs.error());
    double parallelWall = 0, parallelEvents = 0;
    if (*jobs > 1) {
        const size_t n = static_cast<size_t>(*jobs);
        std::vector<long long> events(n, 0);
        const auto p0 = std::chrono::steady_clock::now();
        runParallel(n, static_cast<unsigned>(n), [&](size_t i) {
            sim::SimOptions oi = o;
            oi.seed = i + 1;
            if (auto r = sim::simulate(*topo, *tree, wl, oi)) events[i] = (*r)->metrics.events;
        });
        parallelWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - p0).count();
        for (long long e : events) parallelEvents += static_cast<double>(e);
    }
    if (args.has("json")) {
        std::cout << nlohmann::json{{"cpus", (*st)->onlineCount},
                                    {"topology", topo->name},
                                    {"workload", wl.spec},
                                    {"tasks", wl.tasks.size()},
                                    {"simulated_s", simulated},
                                    {"events", (*st)->metrics.events},
                                    {"wall_s", wall},
                                    {"cpu_s", cpu},
                                    {"events_per_s", ev / wall},
                                    {"events_per_cpu_s", ev / cpu},
                                    {"peak_rss_kb", ru.ru_maxrss},
                                    {"throughput", throughput},
                                    {"repeats", *repeats > 1 ? nlohmann::json{{"runs", *repeats},
                                                                              {"wall_s", walls},
                                                                              {"events_per_s_best", ev / bestWall},
                                                                              {"events_per_s_median", ev / medianWall},
                                                                              {"events_per_s_worst", ev / worstWall}}
                                                             : nlohmann::json(nullptr)},
                                    {"parallel", *jobs > 1 ? nlohmann::json{{"runs", *jobs},
                                                                           {"wall_s", parallelWall},
                                                                           {"events_per_s", parallelEvents / parallelWall}}
                                                           : nlohmann::json(nullptr)}}
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
        return 0;
    }
    std::printf("bench sim: %s on %s, %d CPUs, %zu tasks, %.1f s simulated\n", wl.spec.c_str(), topo->name.c_str(),
                (*st)->onlineCount, wl.tasks.size(), simulated);
    std::printf("  events      %.0f\n  wall        %.3f s (CPU %.3f s)\n  events/s    %.2f M (per CPU second %.2f M)\n"
                "  peak RSS    %.1f MB\n  sim speed   %.1fx real time\n  throughput  %.4f %s (a fingerprint of the run)\n",
                ev, wall, cpu, ev / wall / 1e6, ev / cpu / 1e6, static_cast<double>(ru.ru_maxrss) / 1024.0, simulated / wall,
                throughput, wl.unit.c_str());
    if (*repeats > 1)
        std::printf("  %lld runs   events/s best %.2f M, median %.2f M, worst %.2f M (wall %.3f / %.3f / %.3f s)\n",
                    *repeats, ev / bestWall / 1e6, ev / medianWall / 1e6, ev / worstWall / 1e6, bestWall, medianWall,
                    worstWall);
    if (*jobs > 1)
        std::printf("  %lld at once %.3f s wall, %.2f M events/s in all (%.2fx one run's rate)\n", *jobs, parallelWall,
                    parallelEvents / parallelWall / 1e6, parallelEvents / parallelWall / (ev / wall));
    return 0;
}

}  // namespace

std::vector<Command> simulateCommands() {
    auto opts = topologyOptions();
    opts.push_back({"workload", true, "SPEC stream:threads=N | pbzip2:threads=N | pixz:threads=N | mcf:copies=N | "
                                      "kernbench:jobs=N | sysbench-cpu:threads=N | pgbench:clients=N[,scale=S] | "
                                      "hackbench:groups=N, each with cpus=LIST, duration=S or work=S and handoff=KB "
                                      "(what a wakee reads of its waker's data); or a workload .json file"});
    opts.push_back({"cls", true, "on|off build the cluster (CLS) level (default on)"});
    opts.push_back({"node", true, "on|off build the NUMA identity NODE level (default on)"});
    opts.push_back({"profile", true, "NAME kernel profile: " + profileNameList() + " (the newest by default; "
                                     "for --local the running kernel's), or any linux-X.Y"});
    opts.push_back({"seed", true, "N random seed (default 1)"});
    opts.push_back({"duration", true, "S simulated seconds (default 1; a workload's duration= wins)"});
    opts.push_back({"hz", true, "N tick rate (default 250)"});
    opts.push_back({"delay-dequeue", true, "on|off DELAY_DEQUEUE: a task that sleeps with negative lag stays queued "
                                           "until picked or woken in place (default: the profile's, on from 6.12)"});
    opts.push_back({"ni-random", true, "on|off NI_RANDOM: newidle balance runs at a domain with the odds of its recent "
                                       "success (default: the profile's, on from 6.19 and 6.1.160/6.6.120/6.12.65/6.18.5)"});
    opts.push_back({"wake-wide", true, "llc|cluster|off wake_wide()'s factor: the LLC's size (the kernel's), the "
                                       "cluster's (seed 001's experiment), or off: every wakeup may be affine (default llc)"});
    opts.push_back({"smt-balance", true, "on|off 6.6's SMT balancing: an SMT core running two tasks is group_smt_balance "
                                         "for an idle CPU, a group without SMT may pull one of them, sibling_imbalance() "
                                         "evens tasks per core, an idle core's CPU balances first (default: the "
                                         "profile's, on from 6.6)"});
    opts.push_back({"util-est", true, "on|off UTIL_EST: a CPU's and a task's utilisation is at least what the tasks' "
                                      "recent activations used (util_est), in the balancer's group utilisation, the "
                                      "SIS_UTIL scan depth, fork placement and capacity fits (default off: modelled, "
                                      "not yet calibrated against recordings; the kernels have it on since 4.17)"});
    opts.push_back({"run-to-parity", true, "on|off RUN_TO_PARITY (EEVDF): a woken task does not preempt a task still "
                                           "eligible in the slice it was picked with; against a wakee of another task "
                                           "group, curr's group entity's protection counts, which a reweight of it "
                                           "ends before 7.0 (default off: the bundled recordings' waits come closer "
                                           "without it; the kernels have it on since 6.6)"});
    opts.push_back({"idle-exit-us", true, "US a task woken onto an idle CPU runs this long after the wakeup (the idle "
                                          "state's exit and the IPI; default 0: at once)"});
    opts.push_back({"remote-resched-us", true, "US a wakeup that preempts a task on another CPU than its waker's acts this "
                                               "long after (the IPI and that CPU's next preemption point), if the task "
                                               "is still running then (default 0: at once)"});
    opts.push_back({"numa-balancing", true, "on|off automatic NUMA balancing: once a task has run a scan delay (1 s "
                                            "of CPU time) its memory's node is its preferred node: away from it, it "
                                            "is taken back (or swapped with a task there) when that node has room, "
                                            "and its memory follows it to a node it has run on for a scan period, "
                                            "1 s (default on, as numa_balancing=1)"});
    opts.push_back({"compare", true, "cls|node|delay-dequeue|ni-random|wake-wide|util-est|run-to-parity|numa-balancing|task-groups|bandwidth run "
                                     "both settings over several seeds and compare (wake-wide: off against --wake-wide's factor, "
                                     "llc by default; task-groups: every task in one group against the workload's groups; "
                                     "bandwidth: the groups unlimited against their CPU bandwidth limits)"});
    opts.push_back({"seeds", true, "N seeds for --compare (default 5)"});
    opts.push_back({"jobs", true, "N runs of --compare at once (default: one per CPU)"});
    opts.push_back({"json", false, "print JSON"});
    opts.push_back({"explain", true, "N step mode: print the first N placement and balancing decisions with the rule "
                                     "that made each (with --json: a \"decisions\" array)"});
    // bench sim takes simulate's options for --workload: the same run, timed
    std::vector<OptionSpec> benchOpts = topologyOptions();
    for (const OptionSpec& o : opts)
        if (o.name == "workload" || o.name == "cls" || o.name == "node" || o.name == "profile" || o.name == "seed" ||
            o.name == "hz" || o.name == "delay-dequeue" || o.name == "ni-random" || o.name == "wake-wide" ||
            o.name == "smt-balance" || o.name == "util-est" || o.name == "run-to-parity" || o.name == "idle-exit-us" ||
            o.name == "remote-resched-us" ||
            o.name == "numa-balancing")
            benchOpts.push_back(o);
    benchOpts.push_back({"duration", true, "S simulated seconds (default 10; a workload's duration= wins)"});
    benchOpts.push_back({"runs", true, "N the same run N times in a row: events/s best, median and worst (default 1)"});
    benchOpts.push_back({"jobs", true, "N then also N runs at once (as --compare runs seeds): their events/s in all"});
    benchOpts.push_back({"json", false, "print JSON"});
    return {
        {"simulate", "simulate a workload on a topology under the kernel's placement and balancing",
         "[topology options] --workload SPEC [--cls on|off] [--node on|off] [--profile NAME] [--seed N] "
         "[--duration S] [--compare cls|node [--seeds N]] [--explain N] [--json]",
         opts, runSimulate},
        {"bench sim", "simulator speed: events per second on 128 CPUs with 256 tasks (or your --workload), wall and CPU time, peak RSS",
         "[--workload SPEC [topology options] [--profile NAME] ...] [--duration S] [--runs N] [--jobs N] [--json]", benchOpts,
         runBenchSim},
    };
}

}  // namespace schedscope::cli
