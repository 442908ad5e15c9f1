// schedscope-cli trace stats FILE | bench load FILE
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "buffer_choice.h"
#include "commands.h"
#include "domains/domain_builder.h"
#include "input_anomalies.h"
#include "lost_events.h"
#include "migration_classifier.h"
#include "plausible_span.h"
#include "silent_cpus.h"
#include "switch_gaps.h"
#include "switch_migrations.h"
#include "topology_options.h"
#include "trace_clock_units.h"
#include "trace_cmds.h"
#include "trace_load_options.h"
#include "trace_reader.h"
#include "trace_topology.h"

namespace schedscope::cli {
namespace {

using namespace schedscope::tracing;

// `topologyName` empty: no topology is known (no sidecar, none named); the migrations are counted
// on a flat stand-in and have no levels
// Migrations across NUMA nodes by the nodes' distance: the NUMA levels all carry one name, and
// a move to the other node of a socket (distance 12, say) is not one to another socket (20).
nlohmann::json numaByDistance(const Topology& topo, const MigrationReport& mig) {
    nlohmann::json out = nlohmann::json::object();
    std::map<int, uint64_t> counts;
    for (const Migration& m : mig.migrations) {
        if (m.level < 0 || mig.levels[static_cast<size_t>(m.level)] != "NUMA") continue;
        const size_t n = topo.cpus.size();
        if (static_cast<size_t>(m.src) >= n || static_cast<size_t>(m.dst) >= n) continue;
        ++counts[topo.nodeDistance(topo.cpus[static_cast<size_t>(m.src)].node, topo.cpus[static_cast<size_t>(m.dst)].node)];
    }
    for (const auto& [d, c] : counts) out[std::to_string(d)] = c;
    return out;
}

nlohmann::json statsJson(const EventStore& store, const PlausibleSpan& plausible, const MigrationReport& mig,
                         const std::string& file, const std::string& topologyName, const Topology& topo,
                         const KernelProfile& profile) {
    nlohmann::json j;
    j["file"] = file;
    j["topology"] = topologyName.empty() ? nlohmann::json(nullptr) : nlohmann::json(topologyName);
    j["profile"] = profile.name;
    j["buffer"] = store.buffer().empty() ? "top" : store.buffer();
    j["kernel_release"] = store.kernelRelease();  // "" when the trace does not say
    nlohmann::json kinds = nlohmann::json::object();
    // a kind the source recorded shows even at zero: none happened (a filter no task matched)
    for (int k = 0; k < kEventKindCount; ++k)
        if (const auto kind = static_cast<EventKind>(k); store.recorded(kind)) kinds[std::string(eventKindName(kind))] = store.count(kind);
    j["events_by_kind"] = kinds;
    nlohmann::json other = nlohmann::json::object();
    for (const auto& [name, n] : store.otherEvents()) other[name] = n;
    j["other_events"] = other;  // counted and skipped
    // sched_setaffinity() calls (their syscall events): they tell an affinity change's stopper
    // move from sched_exec()'s
    size_t setaffinityCalls = 0;
    for (const auto& r : store.affinityCallRecords()) setaffinityCalls += !r.exit;
    j["setaffinity_calls"] = setaffinityCalls;
    nlohmann::json cpus = nlohmann::json::object();
    // every CPU the recording covered, the last ones too when they have no event (record -M)
    for (int c = 0; c < store.cpusCovered(); ++c)
        cpus[std::to_string(c)] = c < store.cpuCount() ? store.cpuSize(c) : 0;
    j["events_by_cpu"] = cpus;
    j["events"] = store.size();
    j["tasks"] = store.taskCount();
    // a clock that does not count ns (counter, uptime, x86-tsc without --tsc2nsec) spans counts,
    // not seconds: the duration is given in its counts and duration_s is null
    // The span the timestamps plausibly cover: a corrupt file's events stamped centuries away
    // are set aside (and said in a note), as the views do; implausible_events counts them.
    const uint64_t span = store.size() ? plausible.last - plausible.first : 0;
    j["implausible_events"] = plausible.before + plausible.after;
    j["trace_clock"] = store.traceClock();  // "" when the trace does not say
    j["clock_counts_ns"] = store.clockCountsNs();
    j["duration_s"] = store.clockCountsNs() ? nlohmann::json(static_cast<double>(span) / 1e9) : nlohmann::json(nullptr);
    j["duration_clock_counts"] = span;
    j["lost_events"] = store.anomaly(Anomaly::LostEvents);
    j["lost"] = tracing::describeLostEvents(store);  // in words, with the drops of unknown size; "" when none
    j["unreadable"] = tracing::describeUnreadableRecords(store);  // in words; "" when none
    nlohmann::json levels = nlohmann::json::object(), order = nlohmann::json::array();
    for (size_t l = 0; l < mig.levels.size(); ++l)
        if (mig.byLevel[l] || l + 1 < mig.levels.size()) {
            levels[mig.levels[l]] = mig.byLevel[l];
            order.push_back(mig.levels[l]);
        }
    // null where the trace cannot show a migration at all (neither sched_migrate_task nor
    // sched_switch recorded): 0 would read as a measurement
    const bool migrationsSeen = !migrationSource(store).empty();
    const bool byLevel = !topologyName.empty() && migrationsSeen;
    j["migrations_by_level"] = byLevel ? levels : nlohmann::json(nullptr);
    // the levels bottom-up (SMT before MC before NUMA): a JSON object's keys come out sorted
    j["levels"] = byLevel ? order : nlohmann::json(nullptr);
    j["numa_migrations_by_distance"] = byLevel ? numaByDistance(topo, mig) : nlohmann::json(nullptr);
    nlohmann::json causes = nlohmann::json::object();
    for (size_t c = 0; c < mig.byCause.size(); ++c) causes[std::string(kMigrationCauseNames[c])] = mig.byCause[c];
    j["migrations_by_cause"] = migrationsSeen ? causes : nlohmann::json(nullptr);
    j["migrations"] = migrationsSeen ? nlohmann::json(mig.migrations.size()) : nlohmann::json(nullptr);
    // "sched_switch[, sched_wakeup]": no sched_migrate_task recorded, the moves are the switches'
    j["migrations_from"] = migrationSource(store);
    // of them, the moves the switches show: all of them from sched_switch; else those whose
    // sched_migrate_task the lost events took with them
    j["migrations_seen_in_switches"] = countSeenInSwitches(mig.migrations);
    // not in the counts above (no sched_migrate_task), but migrations to replay and the simulator
    // (null when the trace did not record the event they are counted from: 0 would read as a measurement)
    j["fork_placements"] = store.recorded(EventKind::WakeupNew) ? nlohmann::json(forkPlacements(store, mig.migrations).size())
                                                                : nlohmann::json(nullptr);
    // sched_waking for an interrupt (interrupt_context.h): no task woke those (wakerOf())
    size_t interruptWakings = 0;
    for (int c = 0; c < store.cpuCount(); ++c)
        for (size_t i = 0; i < store.cpuSize(c); ++i)
            if (store.kindAt(c, i) == EventKind::Waking && store.at(c, i).byInterrupt) ++interruptWakings;
    // (null also when the lines cannot tell: text without an irq-flags column)
    j["irq_context_known"] = store.irqContextKnown();
    j["interrupt_wakings"] = store.recorded(EventKind::Waking) && store.irqContextKnown() ? nlohmann::json(interruptWakings)
                                                                                          : nlohmann::json(nullptr);
    j["bin_s"] = static_cast<double>(mig.binNs) / 1e9;
    j["migrations_by_level_over_time"] = byLevel ? nlohmann::json(mig.byLevelOverTime) : nlohmann::json(nullptr);
    j["anomalies"] = store.anomalyTable();
    return j;
}

void printStatsText(const nlohmann::json& j) {
    const std::string buffer = j["buffer"].get<std::string>(), kernel = j["kernel_release"].get<std::string>();
    const std::string clock = j["trace_clock"].get<std::string>();
    char duration[160];
    if (j["clock_counts_ns"].get<bool>())
        std::snprintf(duration, sizeof duration, "%.3f s", j["duration_s"].get<double>());
    else
        std::snprintf(duration, sizeof duration, "%llu %s counts (the trace clock does not count ns: times are its counts)",
                      j["duration_clock_counts"].get<unsigned long long>(), clock.empty() ? "clock" : clock.c_str());
    std::string lost = j["lost"].get<std::string>();
    if (lost.empty()) lost = "0 lost events";
    if (const std::string unreadable = j["unreadable"].get<std::string>(); !unreadable.empty()) lost += ", " + unreadable;
    std::printf("%s: %llu events, %s, %llu tasks, %s (topology: %s%s%s%s)\n",
                j["file"].get<std::string>().c_str(), j["events"].get<unsigned long long>(), duration,
                j["tasks"].get<unsigned long long>(), lost.c_str(),
                j["topology"].is_null() ? "unknown" : j["topology"].get<std::string>().c_str(),
                buffer == "top" ? "" : ("; buffer " + buffer).c_str(), kernel.empty() ? "" : ("; kernel " + kernel).c_str(),
                j["topology"].is_null() ? "" : ("; profile " + j["profile"].get<std::string>()).c_str());
    std::printf("events by kind:\n");
    for (const auto& [k, v] : j["events_by_kind"].items()) std::printf("  %-22s %llu\n", k.c_str(), v.get<unsigned long long>());
    if (j["other_events"].empty()) {
        std::printf("other events (skipped): none\n");
    } else {
        std::printf("other events (skipped):\n");
        for (const auto& [k, v] : j["other_events"].items()) std::printf("  %-22s %llu\n", k.c_str(), v.get<unsigned long long>());
    }
    std::printf("events by CPU:\n");
    // by CPU number (the object's keys sort as text: cpu10 before cpu2)
    for (int c = 0; c < static_cast<int>(j["events_by_cpu"].size()); ++c)
        std::printf("  cpu%-19d %llu\n", c, j["events_by_cpu"][std::to_string(c)].get<unsigned long long>());
    if (j["migrations"].is_null()) {
        std::printf("migrations: n/a (neither sched_migrate_task nor sched_switch recorded)\n");
    } else {
        if (j["migrations_by_level"].is_null()) {
            std::printf("migrations by level (%llu): not classified, the recording machine's topology is unknown\n",
                        j["migrations"].get<unsigned long long>());
        } else {
            std::printf("migrations by level (%llu):\n", j["migrations"].get<unsigned long long>());
            for (const auto& level : j["levels"]) {
                const std::string name = level.get<std::string>();
                std::string byDistance;
                if (name == "NUMA" && j["numa_migrations_by_distance"].size() > 1)
                    for (const auto& [d, n] : j["numa_migrations_by_distance"].items())
                        byDistance += (byDistance.empty() ? "  (node distance " : ", ") + d + ": " +
                                      std::to_string(n.get<unsigned long long>());
                std::printf("  %-22s %llu%s\n", name.c_str(), j["migrations_by_level"][name].get<unsigned long long>(),
                            byDistance.empty() ? "" : (byDistance + ")").c_str());
            }
        }
        const std::string from = j["migrations_from"].get<std::string>();
        if (from.starts_with("sched_switch"))
            std::printf("migrations inferred from %s (no sched_migrate_task in the trace): a task that ran on one CPU and "
                        "next on another, by the likeliest path\n",
                        from.c_str());
        else if (const auto seen = j["migrations_seen_in_switches"].get<unsigned long long>())
            std::printf("%llu of the migrations seen in the switches: the trace lost their sched_migrate_task with the "
                        "events it lost, not where its tasks went\n",
                        seen);
        std::printf("migrations by cause:\n");
        for (const auto& [k, v] : j["migrations_by_cause"].items()) std::printf("  %-22s %llu\n", k.c_str(), v.get<unsigned long long>());
    }
    // a count of events the trace did not record is not 0
    auto countOf = [&](const char* key, const char* event) {
        return j[key].is_null() ? std::string("n/a (") + event + " not recorded)" : std::to_string(j[key].get<unsigned long long>());
    };
    std::printf("fork placements onto another CPU (sched_wakeup_new; no sched_migrate_task, replay counts them as fork "
                "migrations): %s\n",
                countOf("fork_placements", "sched_wakeup_new").c_str());
    std::printf("sched_waking for an interrupt (a hardirq or NMI by the trace flags, or a timer, block, tasklet, RCU or "
                "sched softirq by its softirq_entry; no task woke them): %s\n",
                j["irq_context_known"].get<bool>()
                    ? countOf("interrupt_wakings", "sched_waking").c_str()
                    : "n/a (these text lines have no irq-flags column: the trace.dat, or its `trace-cmd report -l`, shows them)");
    if (const auto calls = j["setaffinity_calls"].get<unsigned long long>(); calls > 0)
        std::printf("sched_setaffinity() calls (a stopper's move inside one is an affinity change, not exec balancing): "
                    "%llu\n",
                    calls);
    std::printf("anomalies:\n");
    for (const auto& [k, v] : j["anomalies"].items()) std::printf("  %-22s %llu\n", k.c_str(), v.get<unsigned long long>());
}

long peakRssKb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

}  // namespace

int runTraceStats(const Args& args) {
    if (args.positional().size() != 1) return fail("trace stats: give exactly one trace FILE");
    const std::string file = args.positional()[0];
    auto binS = args.numberIn("bin", 1.0, 1e-6, 1e6, "seconds");
    if (!binS) return fail("trace stats: " + binS.error());

    std::optional<TopologySpec> choice;
    TopologySpec whatIfs;  // --isolate, --partition, --numa-distances with no machine named: the sidecar's
    if (auto spec = topologySpecFrom(args); !spec) {
        return fail("trace stats: " + spec.error());
    } else if (topologyOptionGiven(args)) {
        choice = *spec;
    } else {
        whatIfs = *spec;
    }
    auto store = readTraceFile(file, loadOptionsFrom(args));
    if (!store) return fail(store.error());
    // With no topology named and no sidecar, the trace is still summarised: only its migrations'
    // levels need the recording machine, and those are left out (with a note saying how to get them).
    bool levelsKnown = true;
    if (!choice) {
        auto sidecar = readTopologySidecar(file);
        if (!sidecar) return fail(sidecar.error());
        levelsKnown = sidecar->has_value();
        if (!levelsKnown && whatIfs.hasWhatIfs())
            return fail("trace stats: " + file + ": no topology sidecar: " + cpusetOptionsWithoutTopology(args));
    }
    auto topo = levelsKnown ? topologyForTrace(file, *store, choice) : flatTopologyForTrace(*store);
    if (topo && whatIfs.hasWhatIfs()) topo = withWhatIfsOf(std::move(*topo), whatIfs, sidecarPath(file));
    if (!topo) return fail(topo.error());
    if (!levelsKnown)
        std::fprintf(stderr, "note: %s: no topology sidecar (%s): migrations are not classified by level; name the "
                             "recording machine with --local, --preset, --xml, --synthetic or --sysfs-root\n",
                     file.c_str(), sidecarPath(file).c_str());
    if (const std::string buffers = describeUnreadBuffers(*store, args.has("buffer")); !buffers.empty())
        std::fprintf(stderr, "note: %s: %s\n", file.c_str(), buffers.c_str());
    // a lane without any event: the CPU was most likely not traced
    const std::vector<int> silent = silentCpus(*store, levelsKnown ? static_cast<int>(topo->cpus.size()) : 0);
    if (!silent.empty()) std::fprintf(stderr, "note: %s: %s\n", file.c_str(), describeSilentCpus(silent).c_str());
    if (const std::string one = oneTimestampProblem(*store); !one.empty()) std::fprintf(stderr, "note: %s: %s\n", file.c_str(), one.c_str());
    const PlausibleSpan plausible = plausibleSpan(*store);
    if (const std::string broken = describeImplausibleTimestamps(*store, plausible); !broken.empty())
        std::fprintf(stderr, "note: %s: %s\n", file.c_str(), broken.c_str());
    if (const std::string anomalies = describeInputAnomalies(*store); !anomalies.empty())
        std::fprintf(stderr, "note: %s: %s\n", file.c_str(), anomalies.c_str());
    // switches missing from the chains (a record-time filter, a loss): runs the views do not see
    const tracing::SwitchGaps gaps = tracing::switchGaps(*store);
    const std::string gapNote = tracing::describeSwitchGaps(gaps);
    if (!gapNote.empty()) std::fprintf(stderr, "note: %s: %s\n", file.c_str(), gapNote.c_str());
    DomainBuildOptions opt;
    opt.arch = topo->arch;
    // the domains of the kernel the trace was recorded on (its uname; this one's for a trace read
    // with --local that names none), unless --profile says
    const KernelProfile* profile = recordingKernelProfile(*store, choice);
    if (auto name = args.value("profile")) {
        profile = findProfile(*name);
        if (!profile) return fail("trace stats: --profile: " + unknownProfileError(*name));
    }
    opt.profile = profile ? profile : &defaultProfile();
    auto tree = buildDomains(*topo, opt);
    if (!tree) return fail(file + ": " + tree.error());
    MigrationClassifier classifier(*tree);
    const auto binNs = static_cast<uint64_t>(std::llround(*binS * 1e9));
    auto report = classifier.classify(*store, binNs, plausible);
    if (report.binNs != binNs)
        std::fprintf(stderr, "note: %s: bins of %g s over its %.0f s (at most %llu bins)\n", file.c_str(),
                     static_cast<double>(report.binNs) / 1e9, static_cast<double>(plausible.last - plausible.first) / 1e9,
                     static_cast<unsigned long long>(MigrationClassifier::kMaxBins));
    const std::string topoName = choice ? choice->describe() : levelsKnown ? sidecarPath(file) + whatIfs.describeWhatIfs() : std::string();
    auto j = statsJson(*store, plausible, report, file, topoName, *topo, *opt.profile);
    j["silent_cpus"] = silent;  // CPUs without any event (not traced, or idle throughout)
    // sched_switch chains: gaps are switches whose prev is not the CPU's previous next
    j["switch_gaps"] = {{"switches", gaps.switches}, {"gaps", gaps.gaps}, {"into_idle", gaps.intoIdle},
                        {"out_of_idle", gaps.outOfIdle}, {"note", gapNote}};
    if (args.has("json")) std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else printStatsText(j);
    return 0;
}

int runBenchLoad(const Args& args) {
    if (args.positional().size() != 1) return fail("bench load: give exactly one trace FILE");
    const std::string file = args.positional()[0];
    const long rssBefore = peakRssKb();
    const auto t0 = std::chrono::steady_clock::now();
    auto store = readTraceFile(file, loadOptionsFrom(args));
    const auto t1 = std::chrono::steady_clock::now();
    if (!store) return fail(store.error());
    const double secs = std::chrono::duration<double>(t1 - t0).count();
    const long rss = peakRssKb();
    const double n = static_cast<double>(store->size());
    std::printf("file %s\nevents %zu\nload_s %.3f\nevents_per_s %.0f\npeak_rss_kb %ld\n"
                "resident_bytes_per_event %.2f\npeak_rss_growth_bytes_per_event %.2f\n",
                file.c_str(), store->size(), secs, n / secs, rss, static_cast<double>(store->residentBytes()) / n,
                static_cast<double>(rss - rssBefore) * 1024.0 / n);
    // a load figure over a file that was mostly not read is no figure for that file
    if (const uint64_t lost = store->anomaly(Anomaly::Unreadable); lost > 0)
        std::fprintf(stderr, "note: %s: %llu records unreadable: the figures are for the %zu events read\n", file.c_str(),
                     static_cast<unsigned long long>(lost), store->size());
    return 0;
}

}  // namespace schedscope::cli
