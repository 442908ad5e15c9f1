// schedscope-cli live [--duration S] [--window S] [--json]: events/s, lost events and migrations
// per level of this machine, every second and at the end. --window bounds memory for long
// captures: the store keeps only the last S seconds (EventStore::trim).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "capture_signals.h"
#include "commands.h"
#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "topology/hwloc_loader.h"
#include "trace_cmds.h"
#include "tracefs_instance.h"
#include "tracefs_source.h"

namespace schedscope::cli {

int runLive(const Args& args) {
    using namespace schedscope::tracing;
    auto duration = args.number("duration", 10.0);
    if (!duration) return fail("live: " + duration.error());
    auto window = args.number("window", 0.0);
    if (!window) return fail("live: " + window.error());
    if (*window < 0 || *window > 1e6) return fail("live: --window must be in [0, 1000000] seconds");
    if (auto why = tracefsUnavailableReason(); !why.empty()) return failRuntime("live: " + why);
    auto topo = loadLocalTopology();
    if (!topo) return failRuntime("live: this machine's topology: " + topo.error());
    DomainBuildOptions opt;
    opt.arch = topo->arch;
    auto tree = buildDomains(*topo, opt);
    if (!tree) return failRuntime("live: " + tree.error());
    MigrationClassifier classifier(*tree);

    installStopSignals();
    auto source = TracefsSource::start();
    if (!source) return failRuntime("live: " + source.error());
    EventStore store;
    const bool json = args.has("json");
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t lastEvents = 0;
    uint64_t trimmed = 0;  // events dropped by the window, still counted in the totals
    auto report = [&](bool final) {
        (*source)->flushCounts(store);
        store.finish();
        if (*window > 0 && store.size() > 0) {
            const auto span = static_cast<uint64_t>(*window * 1e9);
            if (store.lastTs() > span) trimmed += store.trim(store.lastTs() - span);
        }
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        auto mig = classifier.classify(store);
        nlohmann::json levels = nlohmann::json::object();
        for (size_t l = 0; l < mig.levels.size(); ++l) levels[mig.levels[l]] = mig.byLevel[l];
        const uint64_t events = store.size() + trimmed;
        const double rate = final ? static_cast<double>(events) / elapsed : static_cast<double>(events - lastEvents);
        lastEvents = events;
        const uint64_t lost = (*source)->overruns() + store.anomaly(Anomaly::LostEvents);
        if (json) {
            std::cout << nlohmann::json{{"t_s", elapsed}, {"final", final}, {"events", events}, {"events_per_s", rate},
                                        {"lost_events", lost}, {"migrations_by_level", levels},
                                        {"stored_events", store.size()}, {"store_bytes", store.residentBytes()}}
                             .dump()
                      << std::endl;
        } else {
            std::printf("%s%6.1fs  %8.0f events/s  %llu events  %llu lost  migrations:", final ? "total " : "", elapsed,
                        rate, static_cast<unsigned long long>(events), static_cast<unsigned long long>(lost));
            for (const auto& [name, n] : levels.items()) std::printf(" %s=%llu", name.c_str(), n.get<unsigned long long>());
            std::printf("\n");
            std::fflush(stdout);
        }
    };
    double next = 1.0;
    while (!stopRequested()) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (elapsed >= *duration) break;
        sleepUnlessStopped(std::min(0.1, *duration - elapsed));
        if (auto r = (*source)->poll(store); !r) return failRuntime("live: " + r.error());
        if (elapsed >= next) {
            report(false);
            next += 1.0;
        }
    }
    if (auto r = (*source)->poll(store); !r) return failRuntime("live: " + r.error());
    report(true);
    return 0;
}

}  // namespace schedscope::cli
