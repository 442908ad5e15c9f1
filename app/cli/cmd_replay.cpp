// schedscope-cli replay TRACE: what the recorded machine did, next to what the simulator says it
// would have done under the recording's own configuration (--baseline) and a what-if one.
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "commands.h"
#include "lost_events.h"
#include "metric_text.h"
#include "silent_cpus.h"
#include "switch_gaps.h"
#include "replay.h"
#include "replay_json.h"
#include "replay_seeds.h"
#include "sim/sched_knobs.h"
#include "sim/sim_json.h"
#include "sim_run.h"
#include "topology_options.h"
#include "trace_load_options.h"
#include "trace_reader.h"
#include "session_guess.h"
#include "task_groups.h"
#include "trace_topology.h"
#include "workload/workload_json_writer.h"

namespace schedscope::cli {
namespace {

using namespace schedscope::replay;

// The profile of the kernel a trace was recorded on when the trace does not name its kernel
// (trace-cmd writes the release in its uname option since v6 files): the newest, as simulate's.
std::string recordedProfileDefault() { return defaultProfile().name; }

Result<const KernelProfile*> profileOption(const Args& args, const std::string& name, const std::string& fallback) {
    const std::string p = args.valueOr(name, fallback);
    if (const KernelProfile* k = findProfile(p)) return k;
    return Error{"--" + name + ": " + unknownProfileError(p)};
}

Result<double> parseNumber(const std::string& text, const std::string& what) {
    double v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    // from_chars reads "nan" and "inf" too: no window edge, pid or share is either
    if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
        return Error{what + ": '" + text + "' is not a number"};
    return v;
}

// "A:B", "A:" or ":B" in seconds from the trace's start.
Status parseWindow(const std::string& text, DeriveOptions& d) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) return Error{"--window must be A:B in seconds from the trace's start, not '" + text + "'"};
    const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    if (!a.empty()) {
        auto v = parseNumber(a, "--window");
        if (!v) return Error{v.error()};
        d.windowStartS = *v;
    }
    if (!b.empty()) {
        auto v = parseNumber(b, "--window");
        if (!v) return Error{v.error()};
        d.windowEndS = *v;
        if (d.windowEndS <= d.windowStartS)
            return Error{"--window " + text + " is empty: the end must come after the start"};
    }
    if (d.windowStartS < 0) return Error{"--window " + text + ": the start must be >= 0"};
    return {};
}

Result<DeriveOptions> deriveOptionsFrom(const Args& args) {
    DeriveOptions d;
    if (auto w = args.value("window"))
        if (auto st = parseWindow(*w, d); !st) return Error{st.error()};
    for (const auto& p : args.values("pid")) {
        auto v = parseNumber(p, "--pid");
        // (range first: a double past int32 cast to one is undefined)
        if (!v || *v < 1 || *v > INT32_MAX || *v != std::floor(*v)) return Error{"--pid: '" + p + "' is not a pid"};
        d.pids.push_back(static_cast<int32_t>(*v));
    }
    d.commRegex = args.values("comm");
    d.keepKernelThreads = args.has("keep-kernel-threads");
    auto scale = args.number("scale", 1.0);
    if (!scale) return Error{scale.error()};
    d.scale = *scale;
    if (args.has("run-limit")) {
        auto limit = args.numberIn("run-limit", 0.0, 1e-3, 1e5);  // the simulator's longest run
        if (!limit) return Error{limit.error()};
        d.runLimitS = *limit;
    }
    auto memDefault = args.numberIn("memory-default", 0.0, 0.0, 1.0);
    if (!memDefault) return Error{memDefault.error()};
    d.defaultMemoryShare = *memDefault;
    for (const auto& m : args.values("memory")) {
        const auto eq = m.rfind('=');
        if (eq == std::string::npos || eq == 0) return Error{"--memory must be COMM-REGEX=SHARE, not '" + m + "'"};
        auto share = parseNumber(m.substr(eq + 1), "--memory");
        if (!share) return Error{share.error()};
        if (*share < 0 || *share > 1) return Error{"--memory " + m + ": the share must be in 0..1"};
        d.memory.push_back({m.substr(0, eq), *share});
    }
    if (auto s = args.value("sync-wakeups")) {
        if (*s != "all" && *s != "waker-blocks") return Error{"--sync-wakeups must be waker-blocks or all, not '" + *s + "'"};
        d.allWakeupsSync = *s == "all";
    }
    for (const auto& a : args.values("affinity")) {
        const auto eq = a.rfind('=');
        if (eq == std::string::npos || eq == 0) return Error{"--affinity must be COMM-REGEX=CPULIST, not '" + a + "'"};
        auto cpus = CpuSet::parseList(a.substr(eq + 1));
        if (!cpus || cpus->empty()) return Error{"--affinity " + a + ": not a CPU list"};
        d.affinity.push_back({a.substr(0, eq), *cpus});
    }
    return d;
}

void printRow(const std::string& name, const std::vector<double>& vals, bool withDelta) {
    std::printf("  %-22s", name.c_str());
    // completion_s is -1 for a run whose tasks had not all exited: no time, and no difference
    const bool unfinished = name == "completion_s" && std::any_of(vals.begin(), vals.end(), [](double v) { return v < 0; });
    for (double v : vals) {
        if (name == "completion_s" && v < 0) std::printf(" %12s", "not finished");
        else std::printf(" %12s", metricText(name, v).c_str());
    }
    if (withDelta && vals.size() >= 2 && unfinished) std::printf(" %12s", "-");
    else if (withDelta && vals.size() >= 2) std::printf(" %12s", metricDeltaText(name, vals[vals.size() - 2], vals.back()).c_str());
    std::printf("\n");
}

// A simulated run that stopped with tasks still in their scripts: how many, and the first few.
void printUnfinished(const ReplayRun& run, const DerivedWorkload& derived) {
    std::vector<std::string> names;
    for (size_t i = 0; i < run.metrics.tasks.size() && i < derived.tasks.size(); ++i)
        if (run.metrics.tasks[i].completionS < 0)
            names.push_back(derived.workload.tasks[i].name);
    if (names.empty()) return;
    std::string shown;
    for (size_t i = 0; i < names.size() && i < 4; ++i) shown += (i ? ", " : "") + names[i];
    if (names.size() > 4) shown += ", ...";
    std::printf("  %s: %zu of %zu tasks had not exited when the run stopped at %.3f s (%s)\n", run.label.c_str(),
                names.size(), run.metrics.tasks.size(), run.metrics.elapsedS, shown.c_str());
    // stopped by the limit, not by a stall: say what the limit was and how to lift it
    if (run.metrics.stalledAtS < 0 && run.metrics.elapsedS >= derived.workload.durationS - 1e-9)
        std::printf("  %s: stopped by %s\n", run.label.c_str(),
                    derived.runLimitGiven ? "--run-limit"
                                          : "the replay's run limit, 3x the window + 1 s (--run-limit S sets another)");
    if (run.state && run.metrics.stalledAtS >= 0) std::printf("  %s: %s\n", run.label.c_str(), sim::describeStall(*run.state).c_str());
}

void printReplayText(const ReplayResult& r, const std::string& trace) {
    const auto& d = r.derived;
    std::printf("replay of %s: window %.3f s, %zu tasks (%d dropped), %zu wake edges, %d 1:N wakeups, %d exec%s\n",
                trace.c_str(), static_cast<double>(d.windowEndNs - d.windowStartNs) / 1e9, d.tasks.size(),
                d.droppedTasks, d.edges.size(), d.multiWakeOps, d.execs, d.execs == 1 ? "" : "s");
    auto describe = [](const ReplayRun& run) {
        const KernelProfile& profile = run.config.profile ? *run.config.profile : defaultProfile();
        // named only when --delay-dequeue, --ni-random, --wake-wide, --util-est or --run-to-parity changed it from the profile's
        const sim::SimFeatures& f = run.state->feat;
        const sim::SimFeatures own = sim::featuresFor(profile);
        const char* delayNote = f.delayDequeue == own.delayDequeue ? "" : f.delayDequeue ? ", DELAY_DEQUEUE on" : ", DELAY_DEQUEUE off";
        const char* randomNote = f.newidleRandom == own.newidleRandom ? "" : f.newidleRandom ? ", NI_RANDOM on" : ", NI_RANDOM off";
        const std::string wideNote = f.wakeWide == own.wakeWide ? "" : ", wake_wide " + std::string(sim::wakeWideName(f.wakeWide));
        const char* estNote = f.utilEst == own.utilEst ? "" : f.utilEst ? ", UTIL_EST on" : ", UTIL_EST off";
        const char* parityNote = f.runToParity == own.runToParity ? "" : f.runToParity ? ", RUN_TO_PARITY on" : ", RUN_TO_PARITY off";
        std::printf("  %-9s %s (%zu CPUs), profile %s, CLS %s, NODE %s%s%s%s%s%s, seed %llu\n", run.label.c_str(),
                    run.config.topologyName.c_str(), run.topology->cpus.size(), profile.name.c_str(),
                    run.config.cls ? "on" : "off", run.config.node ? "on" : "off", delayNote, randomNote,
                    wideNote.c_str(), estNote, parityNote, static_cast<unsigned long long>(run.state->opt.seed));
    };
    if (r.baseline) describe(*r.baseline);
    describe(r.whatIf);

    std::vector<const ReplayMetrics*> cols = {&r.recorded};
    std::printf("\n  %-22s %12s", "metric", "recorded");
    if (r.baseline) {
        cols.push_back(&r.baseline->metrics);
        std::printf(" %12s", "baseline");
    }
    cols.push_back(&r.whatIf.metrics);
    std::printf(" %12s %12s\n", "what-if", r.baseline ? "vs baseline" : "vs recorded");
    // every scalar any column has, in the first column's order, then the rest
    std::vector<std::string> names;
    for (const auto* m : cols)
        for (const auto& [k, v] : scalarMetrics(*m))
            if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
    for (const auto& name : names) {
        std::vector<double> vals;
        for (const auto* m : cols) {
            double v = name.starts_with("migrations_") ? 0.0 : -1.0;
            for (const auto& [k, x] : scalarMetrics(*m))
                if (k == name) v = x;
            vals.push_back(v);
        }
        printRow(name, vals, true);
    }
    auto causes = [&](const char* label, const ReplayMetrics& m) {
        std::printf("  causes %-9s", label);
        for (const auto& [c, n] : m.migrationsByCause) std::printf(" %s=%lld", c.c_str(), n);
        std::printf("%s\n", m.migrationsByCause.empty() ? " none" : "");
    };
    if (r.baseline) printUnfinished(*r.baseline, r.derived);
    printUnfinished(r.whatIf, r.derived);
    std::printf("\n");
    causes("recorded", r.recorded);
    if (r.baseline) causes("baseline", r.baseline->metrics);
    causes("what-if", r.whatIf.metrics);
    if (r.fidelity) {
        const Fidelity& f = *r.fidelity;
        auto share = [](double x) { return x < 0 ? std::string("-") : std::to_string(std::lround(x * 100)) + "%"; };
        // "x1.83", or "-" where the recording gives nothing to divide by
        auto ratio = [](double x) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "x%.2f", x);
            return x < 0 ? std::string("-") : std::string(buf);
        };
        std::printf("\nfidelity (baseline vs recorded): cpu_time_error %.1f%%, level_mix_error %.3f, dominant level "
                    "%s / %s, completion_error %.1f%%, migrations %s, median wait %s, wakeups preempting a busy "
                    "CPU %s / %s\n",
                    f.cpuTimeError * 100, f.levelMixError, f.recordedDominantLevel.empty() ? "-" : f.recordedDominantLevel.c_str(),
                    f.baselineDominantLevel.empty() ? "-" : f.baselineDominantLevel.c_str(), f.completionError * 100,
                    ratio(f.migrationRatio).c_str(), ratio(f.waitP50Ratio).c_str(), share(f.recordedPreemptShare).c_str(),
                    share(f.baselinePreemptShare).c_str());
        // where the waker ran: on the wakee's CPU or another one (a remote resched)
        const ReplayMetrics& rec = r.recorded;
        const ReplayMetrics& base = r.baseline ? r.baseline->metrics : r.whatIf.metrics;
        if (rec.busyWakeups > 0 || base.busyWakeups > 0)
            std::printf("  of them woken from the wakee's CPU %s / %s (%lld / %lld wakeups), from another CPU %s / %s (%lld / %lld)\n",
                        share(f.recordedLocalPreemptShare).c_str(), share(f.baselineLocalPreemptShare).c_str(),
                        rec.busyWakeups - rec.remoteBusyWakeups, base.busyWakeups - base.remoteBusyWakeups,
                        share(f.recordedRemotePreemptShare).c_str(), share(f.baselineRemotePreemptShare).c_str(),
                        rec.remoteBusyWakeups, base.remoteBusyWakeups);
    }
    std::printf("\nassumptions:\n");
    for (const auto& a : r.assumptions) std::printf("  - %s\n", a.c_str());
}

int runReplay(const Args& args) {
    if (args.positional().size() != 1) return fail("replay: give exactly one trace FILE");
    const std::string file = args.positional()[0];
    auto derive = deriveOptionsFrom(args);
    if (!derive) return fail("replay: " + derive.error());
    ReplayOptions opt;
    opt.derive = std::move(*derive);
    opt.baseline = args.has("baseline");
    auto seed = args.integer("seed", 1, 0, (1LL << 62));
    if (!seed) return fail("replay: " + seed.error());
    opt.seed = static_cast<uint64_t>(*seed);
    auto hz = args.integer("hz", 250, 10, 10000);
    if (!hz) return fail("replay: " + hz.error());
    opt.hz = static_cast<int>(*hz);
    if (args.has("idle-exit-us")) {
        auto us = args.numberIn("idle-exit-us", 0.0, 0.0, 1e6, "microseconds");
        if (!us) return fail("replay: " + us.error());
        opt.idleExitNs = std::llround(*us * 1000.0);
    }
    if (args.has("remote-resched-us")) {
        auto us = args.numberIn("remote-resched-us", 0.0, 0.0, 1e6, "microseconds");
        if (!us) return fail("replay: " + us.error());
        opt.remoteReschedNs = std::llround(*us * 1000.0);
    }
    auto cls = args.onOff("cls", true);
    if (!cls) return fail("replay: " + cls.error());
    auto node = args.onOff("node", true);
    if (!node) return fail("replay: " + node.error());

    std::optional<TopologySpec> choice;
    // --isolate, --partition, --numa-distances with no machine named: what-ifs on the recording
    // machine (its sidecar's), for the what-if run only
    TopologySpec whatIfs;
    if (auto spec = topologySpecFrom(args); !spec) {
        return fail("replay: " + spec.error());
    } else if (topologyOptionGiven(args)) {
        choice = *spec;
    } else {
        whatIfs = *spec;
    }
    auto store = tracing::readTraceFile(file, loadOptionsFrom(args));
    if (!store) return fail(store.error());
    // The recording's kernel profile: --recorded-profile, else the one of the kernel release the
    // trace names (trace-cmd's and our recorder's uname option), else with --local the running
    // kernel's, else the newest.
    bool runningKernel = false;
    const KernelProfile* traceKernel = recordingKernelProfile(*store, choice, &runningKernel);
    const std::string recordedDefault = traceKernel ? traceKernel->name : recordedProfileDefault();
    auto recordedProfile = profileOption(args, "recorded-profile", recordedDefault);
    if (!recordedProfile) return fail("replay: " + recordedProfile.error());
    auto whatIfProfile = profileOption(args, "profile", (*recordedProfile)->name);
    if (!whatIfProfile) return fail("replay: " + whatIfProfile.error());
    // The recording's topology: its sidecar, else the one the user names (then also the what-if's).
    auto side = tracing::readTopologySidecar(file);
    if (!side) return fail(side.error());
    // the groups sidecar puts the tasks in their groups: one that cannot be read is said, and the
    // replay goes on with every task in one group
    const bool guessSessions = args.has("sessions-from-forks");
    if (guessSessions && args.has("no-task-groups"))
        return fail("replay: --sessions-from-forks and --no-task-groups contradict each other (guess the groups, or "
                    "every task in one)");
    if (args.has("no-task-groups")) {
        // (one group for all, as a recording without the sidecar)
    } else if (auto groups = tracing::readGroupsSidecar(file); groups) {
        opt.taskGroups = std::move(*groups);
        if (opt.taskGroups && guessSessions)
            return fail("replay: " + file + " has a groups sidecar (" + tracing::groupsSidecarPath(file) +
                        "): it says the groups the tasks ran in; --sessions-from-forks is for a recording without one");
        if (!opt.taskGroups && guessSessions) {
            opt.taskGroups = replay::guessSessionsFromForks(*store);
            opt.taskGroupsGuessed = true;
        }
        opt.noGroupsSidecar = !opt.taskGroups;
        // the groups as they were, without their CPU bandwidth limits: what the limits alone did
        if (opt.taskGroups && args.has("no-cpu-limits")) opt.taskGroups->limitOf.clear();
    } else {
        std::fprintf(stderr, "note: %s (the replay goes on without the task groups)\n", groups.error().c_str());
    }
    std::optional<Topology> recordedTopo;
    std::string recordedName;
    if (*side) {
        recordedTopo = std::move(**side);
        recordedName = tracing::sidecarPath(file);
    }
    std::optional<Topology> whatIfTopo;
    std::string whatIfName;
    if (choice) {
        auto t = loadTopology(*choice);
        if (!t) return fail(t.error());
        whatIfTopo = std::move(*t);
        whatIfName = choice->describe();
    }
    if (!recordedTopo) {
        if (!whatIfTopo && whatIfs.hasWhatIfs())
            return fail("replay: " + file + ": no topology sidecar: " + cpusetOptionsWithoutTopology(args));
        if (!whatIfTopo)
            return fail(file + ": no topology sidecar (" + tracing::sidecarPath(file) +
                        "); name the recording machine with --local, --preset, --xml, --synthetic or --sysfs-root");
        recordedTopo = whatIfTopo;
        recordedName = whatIfName;
    }
    if (!whatIfTopo) {
        auto t = withWhatIfsOf(*recordedTopo, whatIfs, recordedName);
        if (!t) return fail(t.error());
        whatIfTopo = std::move(*t);
        whatIfName = recordedName + whatIfs.describeWhatIfs();
    }
    opt.recordedConfig = {recordedName, *recordedProfile, true, true, false};
    opt.whatIf = {whatIfName, *whatIfProfile, *cls, *node, args.has("spread"), {}};
    auto delay = schedFeatureOptions(args, **whatIfProfile);
    if (!delay) return fail("replay: " + delay.error());
    opt.whatIf.features = *delay;

    auto seeds = args.integer("seeds", 1, 1, 1000);
    if (!seeds) return fail("replay: " + seeds.error());
    auto result = replayTrace(*store, file, *recordedTopo, *whatIfTopo, opt);
    if (!result) return fail(result.error());
    // --seeds N: the same replay under the next seeds too; the report is the first seed's, with
    // the simulated runs' spread over all N below it
    std::optional<ReplaySeeds> overSeeds;
    if (*seeds > 1) {
        overSeeds.emplace(opt.seed);
        overSeeds->add(*result);
        for (long long i = 1; i < *seeds; ++i) {
            ReplayOptions next = opt;
            next.seed = opt.seed + static_cast<uint64_t>(i);
            auto again = replayTrace(*store, file, *recordedTopo, *whatIfTopo, next);
            if (!again) return fail(again.error());
            overSeeds->add(*again);
        }
    }
    if (const auto silent = tracing::silentCpus(*store, static_cast<int>(recordedTopo->cpus.size())); !silent.empty())
        result->assumptions.push_back("the trace has " + tracing::describeSilentCpus(silent) +
                                      ": what ran there is missing from the recorded side and the derived workload");
    if (const std::string gaps = tracing::describeSwitchGaps(tracing::switchGaps(*store)); !gaps.empty())
        result->assumptions.push_back("in the trace " + gaps + ": the runs not seen are missing from the recorded side "
                                      "and the derived workload");
    if (const std::string unreadable = tracing::describeUnreadableRecords(*store); !unreadable.empty())
        result->assumptions.push_back("the trace has " + unreadable + ": the recorded side and the derived workload miss "
                                      "what they held");
    if (const std::string lost = tracing::describeLostEvents(*store); !lost.empty())
        result->assumptions.push_back("the trace has " + lost + " (its ring buffer overran): the recorded side and the "
                                      "derived workload miss what they held (a bigger buffer keeps them: schedscope-cli "
                                      "record --buffer-kb, or trace-cmd record -b)");
    if (!args.has(std::string("recorded-profile")) && runningKernel)
        result->assumptions.push_back("recorded kernel profile: " + traceKernel->name + ", this machine's running kernel's (the "
                                      "trace does not carry its kernel version and was read with --local; set --recorded-profile)");
    else if (!args.has(std::string("recorded-profile")) && traceKernel)
        result->assumptions.push_back("recorded kernel profile: " + traceKernel->name + ", the newest not newer than the trace's kernel " +
                                      store->kernelRelease() + " (set --recorded-profile to change it)");
    else if (!args.has(std::string("recorded-profile")))
        result->assumptions.push_back(std::string("recorded kernel profile: ") + recordedProfileDefault() +
                                      " (the trace does not carry its kernel version; set --recorded-profile)");
    if (args.has("save-workload")) {
        // the workload the what-if simulated: trace CPU c as CPU c, unpinned tasks on CPUs
        // 0..n-1 of the what-if machine unless --spread
        const std::string out = args.valueOr("save-workload", "");
        const Topology& onto = *result->whatIf.topology;
        auto mapped = replay::mapOntoTopology(result->derived, onto, opt.whatIf.spread, file);
        if (!mapped) return fail(mapped.error());
        if (auto saved = workload::saveWorkloadFile(*mapped, static_cast<int>(onto.cpus.size()), out); !saved)
            return fail("replay: " + saved.error());
        // the latencies the recording gave the what-if are options, not part of the workload:
        // named, so that simulate runs the file as the what-if did
        std::string latencies;
        char us[64];
        if (result->idleExitNs > 0) {
            std::snprintf(us, sizeof us, " --idle-exit-us %.3f", static_cast<double>(result->idleExitNs) / 1000.0);
            latencies += us;
        }
        if (result->remoteReschedNs > 0) {
            std::snprintf(us, sizeof us, " --remote-resched-us %.3f", static_cast<double>(result->remoteReschedNs) / 1000.0);
            latencies += us;
        }
        std::fprintf(stderr, "replay: wrote the derived workload (%zu tasks) to %s%s%s\n", mapped->tasks.size(), out.c_str(),
                     latencies.empty() ? "" : "; the what-if ran it with", latencies.c_str());
    }
    if (args.has("json")) {
        nlohmann::json j = replayResultToJson(*result, file, args.has("timeline"));
        j["seeds"] = overSeeds ? overSeeds->toJson(result->recorded, opt.baseline) : nlohmann::json(nullptr);
        std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    printReplayText(*result, file);
    if (overSeeds) overSeeds->print(result->recorded, opt.baseline);
    return 0;
}

}  // namespace

std::vector<Command> replayCommands() {
    auto opts = topologyOptions();
    for (auto& o : opts) {
        // the recording machine is the trace's sidecar unless one of these names it: no topology
        // option is replay's default
        if (o.name == "local") o.help = "use this machine's topology";
        const bool whatIf = o.name == "isolate" || o.name == "partition" || o.name == "numa-distances";
        o.help += whatIf ? " [the what-if machine's: the one named, else the sidecar's]"
                         : " [what-if machine; also the recording's when the trace has no sidecar]";
    }
    std::vector<OptionSpec> more = {
        {"cls", true, "on|off what-if: build the cluster (CLS) level (default on)"},
        {"node", true, "on|off what-if: build the NUMA identity NODE level (default on)"},
        {"profile", true, "NAME what-if kernel profile (default: the recorded one)"},
        {"recorded-profile", true, "NAME kernel profile of the recording machine (default: the one of the kernel "
                                   "release the trace names, else with --local the running kernel's, else the newest)"},
        {"baseline", false, "also replay under the recording's own topology and profile; deltas against it"},
        {"spread", false, "on a larger what-if machine let unpinned tasks use every CPU (default: CPUs 0..n-1)"},
        {"seed", true, "N random seed (default 1)"},
        {"seeds", true, "N also replay under the next N-1 seeds: the simulated runs' mean and sd, and the what-if's "
                        "change against the baseline with its 95% interval (default 1)"},
        bufferOption(),
        {"hz", true, "N tick rate (default 250)"},
        {"delay-dequeue", true, "on|off the what-if's DELAY_DEQUEUE (default: its profile's, on from 6.12)"},
        {"ni-random", true, "on|off the what-if's NI_RANDOM newidle balance (default: its profile's, on from 6.19)"},
        {"wake-wide", true, "llc|cluster|off the what-if's wake_wide() factor (default llc, the kernel's)"},
        {"util-est", true, "on|off the what-if's UTIL_EST utilisation estimates (default off: modelled, not yet "
                           "calibrated against recordings)"},
        {"run-to-parity", true, "on|off the what-if's RUN_TO_PARITY wakeup preemption guard (default off: the bundled "
                                "recordings' waits come closer without it)"},
        {"save-workload", true, "FILE write the what-if's workload (the derived tasks on the what-if machine) as a "
                                "workload .json file, to edit and run with simulate --workload FILE"},
        {"idle-exit-us", true, "US a task woken onto an idle CPU runs this long after the wakeup (default: the "
                               "recording's median over such wakeups)"},
        {"remote-resched-us", true, "US a wakeup that preempts a task on another CPU than its waker's acts this long "
                                    "after, if that task is still running (default: the recording's median over such "
                                    "preemptions)"},
        {"window", true, "A:B seconds from the trace's start to replay (default: all)"},
        {"pid", true, "PID keep this task and its descendants (repeatable)", true},
        {"comm", true, "REGEX keep tasks whose comm matches (repeatable)", true},
        {"keep-kernel-threads", false, "keep kworker, ksoftirqd, migration... (dropped by default)"},
        {"no-task-groups", false, "ignore the recording's task groups (FILE.groups.json): every task in one group"},
        {"sessions-from-forks", false,
         "for a recording without a groups sidecar: guess its autogroup sessions from its forks (each task the trace "
         "does not show forked leads one, a forked task is in its parent's; kernel threads in the root group)"},
        {"no-cpu-limits", false, "keep the recording's task groups but not their CPU bandwidth limits (cpu.max)"},
        {"scale", true, "X multiply every run burst (2 = twice the CPU demand; default 1)"},
        {"run-limit", true, "S stop each simulated run after S s, its tasks finished or not (default: 3x the window + 1 s)"},
        {"memory", true, "COMM-REGEX=SHARE memory-bound share of matching tasks, 0..1 (repeatable)", true},
        {"memory-default", true, "SHARE memory-bound share of other tasks (default 0)"},
        {"affinity", true, "COMM-REGEX=CPULIST pin matching tasks (overrides what the trace suggests; repeatable)", true},
        {"sync-wakeups", true, "waker-blocks|all which task wakeups are WF_SYNC: those whose waker blocks right after "
                               "(default), or all (a workload that talks through pipes or sockets)"},
        {"json", false, "print JSON"},
        {"timeline", false, "with --json: include the placement timelines"},
    };
    opts.insert(opts.end(), more.begin(), more.end());
    return {{"replay", "replay a recorded trace in the simulator: recorded vs baseline vs what-if (CLS/NODE, machine)",
             "TRACE [topology options] [--cls on|off] [--node on|off] [--profile NAME] [--seed N] [--seeds N] [--window A:B] "
             "[--pid P] [--comm REGEX] [--baseline] [--json]",
             opts, runReplay, 1}};
}

}  // namespace schedscope::cli
