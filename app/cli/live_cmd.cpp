// schedscope-cli live [--source tracefs|bpf|bpf-aggregate] [--via-helper] [--duration S]
// [--interval S] [--json]: events/s, events by kind, lost events and migrations per level and
// cause of this machine, every --interval seconds and at the end.
//
// Sources: tracefs (private tracefs instance), bpf (CO-RE program streaming records through a
// ring buffer), bpf-aggregate (the kernel counts; nothing is streamed). Without BTF the BPF
// sources fall back to tracefs; without CAP_BPF+CAP_PERFMON they use the schedscope-capture
// helper when it is installed with file capabilities (or always with --via-helper, through
// pkexec when we are not root), else tracefs. Each fallback prints one line on stderr.
// --attach PATH reads a helper started elsewhere (e.g. under sudo): the Unix socket of
// `schedscope-capture --socket PATH`, or a FIFO it writes to.
// --window S bounds memory for long captures: the store keeps only the last S seconds
// (EventStore::trim); migrations are then counted over the window.
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bpf_source.h"
#include "capture_client.h"
#include "capture_signals.h"
#include "commands.h"
#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "process_caps.h"
#include "ring_buffer_option.h"
#include "topology/hwloc_loader.h"
#include "trace_cmds.h"
#include "tracefs_instance.h"
#include "tracefs_source.h"

namespace schedscope::cli {
namespace {

using namespace schedscope::tracing;
namespace fs = std::filesystem;

// The helper next to this executable (installed: same bin dir; build tree: ../capture/).
std::string findHelper() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    for (const fs::path& p : {exe.parent_path() / "schedscope-capture", exe.parent_path().parent_path() / "capture" / "schedscope-capture"})
        if (access(p.c_str(), X_OK) == 0) return p.string();
    return "";
}

bool hasFileCaps(const std::string& path) {
    return getxattr(path.c_str(), "security.capability", nullptr, 0) > 0;
}

struct Figures {
    uint64_t events = 0;
    std::map<std::string, uint64_t> byKind;
    uint64_t lost = 0;
    nlohmann::json byLevel = nlohmann::json::object();
    nlohmann::json byCause = nlohmann::json::object();
    nlohmann::json extra = nlohmann::json::object();
};

Figures fromStore(const EventStore& store, const MigrationClassifier& classifier, uint64_t lost) {
    Figures f;
    f.events = store.size();
    for (int k = 0; k < kEventKindCount; ++k)
        if (uint64_t n = store.count(static_cast<EventKind>(k))) f.byKind[std::string(kEventKindNames[static_cast<size_t>(k)])] = n;
    f.lost = lost;
    auto mig = classifier.classify(store);
    for (size_t l = 0; l < mig.levels.size(); ++l) f.byLevel[mig.levels[l]] = mig.byLevel[l];
    for (size_t c = 0; c < mig.byCause.size(); ++c)
        f.byCause[std::string(kMigrationCauseNames[c])] = mig.byCause[c];
    // those whose sched_migrate_task the lost events took with them, seen in the switches
    f.extra["migrations_seen_in_switches"] = countSeenInSwitches(mig.migrations);
    return f;
}

Figures fromAggregate(const AggregateSnapshot& s, const MigrationClassifier& classifier) {
    Figures f;
    f.events = s.totalEvents();
    for (int k = 0; k < kEventKindCount; ++k)
        if (uint64_t n = s.eventsByKind[static_cast<size_t>(k)]) f.byKind[std::string(kEventKindNames[static_cast<size_t>(k)])] = n;
    f.lost = s.lost;
    std::vector<uint64_t> levels(classifier.levelNames().size() + 1, 0);
    std::array<uint64_t, static_cast<size_t>(MigrationCause::Count)> causes{};
    for (const auto& m : s.migrations) {
        const int l = classifier.level(m.src, m.dst);
        levels[l < 0 ? levels.size() - 1 : static_cast<size_t>(l)] += m.count;
        causes[static_cast<size_t>(m.cause)] += m.count;
    }
    for (size_t l = 0; l < classifier.levelNames().size(); ++l) f.byLevel[classifier.levelNames()[l]] = levels[l];
    f.byLevel["unknown"] = levels.back();
    for (size_t c = 0; c < causes.size(); ++c) f.byCause[std::string(kMigrationCauseNames[c])] = causes[c];
    const auto run = s.runTotal(), wait = s.waitTotal();
    f.extra["run_time_ns_p50"] = histQuantileNs(run, 0.5);
    f.extra["run_time_ns_p99"] = histQuantileNs(run, 0.99);
    f.extra["wait_time_ns_p50"] = histQuantileNs(wait, 0.5);
    f.extra["wait_time_ns_p99"] = histQuantileNs(wait, 0.99);
    f.extra["run_time_log2_ns"] = run;
    f.extra["wait_time_log2_ns"] = wait;
    return f;
}

}  // namespace

int runLive(const Args& args) {
    auto duration = args.numberIn("duration", 10.0, 0.001, 1e9, "seconds");
    if (!duration) return fail("live: " + duration.error());
    auto window = args.numberIn("window", 0.0, 0.0, 1e6, "seconds");
    if (!window) return fail("live: " + window.error());
    auto interval = args.number("interval", 1.0);
    if (!interval || *interval < 0) return fail("live: --interval must be a number of seconds >= 0 (0: only the total)");
    std::string source = args.valueOr("source", "tracefs");
    if (source != "tracefs" && source != "bpf" && source != "bpf-aggregate")
        return fail("live: --source must be tracefs, bpf or bpf-aggregate, not '" + source + "'");
    bool viaHelper = args.has("via-helper");
    const auto attach = args.value("attach");
    if (attach && viaHelper) return fail("live: --attach and --via-helper exclude each other");
    if (viaHelper && source == "tracefs") return fail("live: --via-helper needs --source bpf or bpf-aggregate");
    auto bufferKb = bufferKbFrom(args);
    if (!bufferKb) return fail("live: " + bufferKb.error());
    if (*bufferKb > 0 && (source != "tracefs" || attach))
        return fail("live: --buffer-kb sizes the ring buffers of the tracefs capture: it needs --source tracefs");

    if (source != "tracefs" && !viaHelper && !attach) {
        const std::string why = BpfSource::unavailableReason();
        if (!why.empty()) {
            const std::string helper = findHelper();
            if (!canLoadBpf() && BpfSource::builtWithBpf() && why.starts_with("needs") && !helper.empty() &&
                hasFileCaps(helper)) {
                std::cerr << "schedscope-cli: live: " << why << "; using " << helper << "\n";
                viaHelper = true;
            } else {
                std::cerr << "schedscope-cli: live: BPF unavailable (" << why << "); falling back to tracefs\n";
                source = "tracefs";
            }
        }
    }
    if (source == "tracefs" && !attach)
        if (auto why = tracefsUnavailableReason(); !why.empty()) return failRuntime("live: " + why);

    auto topo = loadLocalTopology();
    if (!topo) return failRuntime("live: this machine's topology: " + topo.error());
    DomainBuildOptions opt;
    opt.arch = topo->arch;
    auto tree = buildDomains(*topo, opt);
    if (!tree) return failRuntime("live: " + tree.error());
    MigrationClassifier classifier(*tree);
    bool aggregate = source == "bpf-aggregate";

    installStopSignals();
    std::unique_ptr<TracefsSource> tracefs;
    std::unique_ptr<BpfSource> bpf;
    std::unique_ptr<CaptureClient> helper;
    std::string sourceLabel = source;
    if (attach) {
        // A helper started elsewhere (sudo schedscope-capture --socket PATH): its hello says
        // which mode it runs in.
        auto attached = CaptureClient::attach(*attach);
        if (!attached) return failRuntime("live: " + attached.error());
        helper = std::move(*attached);
        EventStore scratch;
        for (int i = 0; i < 50 && !helper->hello(); ++i) {
            auto r = helper->pump(scratch, 100);
            if (!r) return failRuntime("live: " + *attach + ": " + r.error());
            if (!*r) break;
        }
        if (!helper->hello()) return failRuntime("live: " + *attach + ": no hello from a capture helper within 5 s");
        aggregate = helper->hello()->mode == 1;
        sourceLabel = std::string(aggregate ? "bpf-aggregate" : "bpf") + " (attached)";
    } else if (viaHelper) {
        const std::string path = findHelper();
        if (path.empty()) return failRuntime("live: schedscope-capture not found next to schedscope-cli");
        std::vector<std::string> argv;
        if (!canLoadBpf() && !hasFileCaps(path) && geteuid() != 0) argv.push_back("pkexec");
        argv.insert(argv.end(), {path, "--mode", aggregate ? "aggregate" : "stream", "--interval-ms", "100",
                                 "--ignore-pid", std::to_string(getpid())});
        auto c = CaptureClient::spawn(argv);
        if (!c) return failRuntime("live: " + c.error());
        helper = std::move(*c);
        sourceLabel += " (helper)";
    } else if (source == "tracefs") {
        auto s = TracefsSource::start(*bufferKb);
        if (!s) return failRuntime("live: " + s.error());
        tracefs = std::move(*s);
    } else {
        BpfOptions bo;
        bo.mode = aggregate ? BpfMode::Aggregate : BpfMode::Stream;
        auto s = BpfSource::start(bo);
        if (!s) return failRuntime("live: " + s.error());
        bpf = std::move(*s);
        sourceLabel += std::string(" (") + bpf->attachKind() + ")";
    }

    EventStore store;
    const bool json = args.has("json");
    const auto t0 = std::chrono::steady_clock::now();
    auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    uint64_t lastEvents = 0;
    double lastT = 0;
    uint64_t trimmed = 0;  // events dropped by --window, still counted in the totals
    uint64_t lostSoFar = 0;
    auto report = [&](bool final) {
        Figures f;
        if (aggregate) {
            if (bpf) f = fromAggregate(bpf->snapshot(), classifier);
            else if (helper && helper->aggregate()) f = fromAggregate(*helper->aggregate(), classifier);
        } else {
            uint64_t lost = 0;
            if (tracefs) {
                tracefs->flushCounts(store);
                // the ring buffers' overrun counters and the pages' missed-events markers count
                // the same losses (a page's marker is the overrun since the last page read): the
                // counters are the whole of it, the markers the part read so far
                lost = std::max(tracefs->overruns(), store.anomaly(Anomaly::LostEvents));
            } else if (bpf) {
                bpf->flushCounts(store);
                lost = store.anomaly(Anomaly::LostEvents);
            } else {
                helper->flushCounts(store);
                lost = store.anomaly(Anomaly::LostEvents);
            }
            store.finish();
            // --window bounds memory on long captures: keep only the last S seconds.
            if (*window > 0 && store.size() > 0) {
                const auto span = static_cast<uint64_t>(*window * 1e9);
                if (store.lastTs() > span) trimmed += store.trim(store.lastTs() - span);
            }
            f = fromStore(store, classifier, lost);
            f.events += trimmed;
            lostSoFar = lost;
        }
        const double elapsed = since();
        const double rate = final ? static_cast<double>(f.events) / elapsed
                                  : static_cast<double>(f.events - lastEvents) / std::max(elapsed - lastT, 1e-3);
        lastEvents = f.events;
        lastT = elapsed;
        if (json) {
            nlohmann::json j{{"source", sourceLabel}, {"t_s", elapsed},         {"final", final},
                             {"events", f.events},    {"events_per_s", rate},   {"events_by_kind", f.byKind},
                             {"lost_events", f.lost}, {"migrations_by_level", f.byLevel},
                             {"migrations_by_cause", f.byCause}};
            for (auto& [k, v] : f.extra.items()) j[k] = v;
            if (!aggregate) j["stored_events"] = store.size();  // what --window keeps in memory
            std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
        } else {
            std::printf("%s%6.1fs  %8.0f events/s  %llu events  %llu lost  migrations:", final ? "total " : "", elapsed,
                        rate, static_cast<unsigned long long>(f.events), static_cast<unsigned long long>(f.lost));
            for (const auto& [name, n] : f.byLevel.items()) std::printf(" %s=%llu", name.c_str(), n.get<unsigned long long>());
            if (const auto seen = f.extra.value("migrations_seen_in_switches", 0ULL))
                std::printf(" (%llu seen in the switches)", seen);
            if (f.extra.contains("wait_time_ns_p50"))
                std::printf("  wait p50/p99 <%llu/%llu ns", f.extra["wait_time_ns_p50"].get<unsigned long long>(),
                            f.extra["wait_time_ns_p99"].get<unsigned long long>());
            std::printf("\n");
            if (final) {  // the breakdowns once, under the total (--json has them on every line)
                auto breakdown = [](const char* title, const nlohmann::json& counts) {
                    std::printf("  %s:", title);
                    bool any = false;
                    for (const auto& [name, n] : counts.items())
                        if (n.is_number() && n.get<unsigned long long>() > 0) {
                            std::printf(" %s=%llu", name.c_str(), n.get<unsigned long long>());
                            any = true;
                        }
                    std::printf("%s\n", any ? "" : " none");
                };
                breakdown("events by kind", f.byKind);
                breakdown("migrations by cause", f.byCause);
            }
            std::fflush(stdout);
        }
    };
    auto pollOnce = [&](double maxWait) -> Status {
        const int ms = static_cast<int>(std::max(0.0, maxWait) * 1000);
        if (tracefs) {
            sleepUnlessStopped(maxWait);
            if (auto r = tracefs->poll(store); !r) return Error{r.error()};
            for (const auto& w : tracefs->takeWarnings()) std::cerr << "schedscope-cli: live: " << w << "\n";
        } else if (bpf) {
            if (aggregate) sleepUnlessStopped(maxWait);
            else if (auto r = bpf->poll(store, ms); !r) return Error{r.error()};
        } else {
            auto r = helper->pump(store, ms);
            if (!r) return Error{r.error()};
            if (!*r) return Error{"the capture helper ended"};
        }
        return {};
    };
    double next = *interval;
    while (!stopRequested()) {
        const double elapsed = since();
        if (elapsed >= *duration) break;
        if (Status s = pollOnce(std::min(0.1, *duration - elapsed)); !s) return failRuntime("live: " + s.error());
        if (*interval > 0 && since() >= next) {
            report(false);
            next += *interval;
        }
    }
    if (tracefs) {
        if (auto r = tracefs->poll(store); !r) return failRuntime("live: " + r.error());
    } else if (bpf && !aggregate) {
        if (auto r = bpf->poll(store, 0); !r) return failRuntime("live: " + r.error());
    } else if (helper) {
        (void)helper->pump(store, 150);  // the latest snapshot / records
    }
    report(true);
    if (tracefs && lostSoFar > 0)
        std::cerr << "schedscope-cli: live: note: " << lostEventsAdvice(lostSoFar, tracefs->bufferKb()) << "\n";
    if (helper) helper->close();
    return 0;
}

}  // namespace schedscope::cli
