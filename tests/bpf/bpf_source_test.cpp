// BpfSource in both modes on a known workload: pinned sched_setaffinity moves of a busy thread
// must be seen as "affinity" migrations at the level the topology gives for CPUs 0 and 1.
// Skips (with the reason) without root/CAP_BPF, kernel BTF or a BPF build.
#include <gtest/gtest.h>

#include <unistd.h>

#include "bpf_source.h"
#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "support/fixtures.h"
#include "support/pinned_moves.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

struct Machine {
    DomainTree tree;
    MigrationClassifier classifier;
};

std::unique_ptr<Machine> localMachine() {
    auto tree = test::localDomainTree();
    if (!tree) return nullptr;
    return std::unique_ptr<Machine>(new Machine{*tree, MigrationClassifier(*tree)});
}

}  // namespace

#define SKIP_WITHOUT_BPF_OR_TWO_CPUS()                                                              \
    do {                                                                                            \
        if (auto why = BpfSource::unavailableReason(); !why.empty()) GTEST_SKIP() << "BPF capture unavailable: " << why; \
        if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs at least 2 online CPUs";      \
    } while (0)

TEST(BpfSource, StreamSeesAffinityMovesWithCauseAndLevel) {
    SKIP_WITHOUT_BPF_OR_TWO_CPUS();
    auto m = localMachine();
    ASSERT_TRUE(m);
    BpfOptions opt;
    opt.ignoreSelf = false;  // the workload is this process's threads
    auto source = BpfSource::start(opt);
    ASSERT_TRUE(source) << source.error();
    EventStore store;
    const int moves = 6;
    const pid_t tid = test::runPinnedMoves(moves, [&] { ASSERT_TRUE((*source)->poll(store, 0)); });
    ASSERT_TRUE((*source)->poll(store, 0));
    (*source)->flushCounts(store);
    store.finish();
    EXPECT_GT(store.count(EventKind::Switch), 0u);
    EXPECT_GT(store.count(EventKind::Waking), 0u);
    EXPECT_EQ(store.anomaly(Anomaly::LostEvents), 0u);
    EXPECT_EQ(store.anomaly(Anomaly::Malformed), 0u);
    EXPECT_FALSE(store.commAt(tid, store.lastTs()).empty()) << "comm records reach the store";
    // Moving a running thread wakes the CPU's stopper from sched_setaffinity() in this thread:
    // the waking records name it as the waker.
    int stopperWakesByUs = 0;
    store.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::Waking && store.commAt(e.pid, e.ts).starts_with("migration/"))
            stopperWakesByUs += e.waker == getpid();
        return true;
    });
    EXPECT_GE(stopperWakesByUs, 1);
    auto report = m->classifier.classify(store);
    int affinity = 0;
    std::string seen;
    for (const auto& mig : report.migrations) {
        if (mig.pid != tid) continue;
        seen += " " + std::to_string(mig.src) + "->" + std::to_string(mig.dst) + ":" + std::string(migrationCauseName(mig.cause));
        if (mig.cause == MigrationCause::Affinity) {
            ++affinity;
            EXPECT_EQ(m->classifier.levelNames()[static_cast<size_t>(mig.level)], m->tree.lowestCommonLevel(mig.src, mig.dst));
        }
    }
    EXPECT_GE(affinity, moves - 1) << "migrations of the moved thread:" << seen;
}

TEST(BpfSource, AggregateCountsAffinityMovesInTheKernel) {
    SKIP_WITHOUT_BPF_OR_TWO_CPUS();
    auto m = localMachine();
    ASSERT_TRUE(m);
    BpfOptions opt;
    opt.mode = BpfMode::Aggregate;
    auto source = BpfSource::start(opt);
    ASSERT_TRUE(source) << source.error();
    const int moves = 6;
    test::runPinnedMoves(moves, [] {});
    auto snap = (*source)->snapshot();
    EXPECT_GT(snap.eventsByKind[static_cast<size_t>(EventKind::Switch)], 0u);
    EXPECT_GT(snap.eventsByKind[static_cast<size_t>(EventKind::MigrateTask)], 0u);
    uint64_t affinity01 = 0, runs = 0, waits = 0;
    std::string seen;
    for (const auto& mc : snap.migrations) {
        seen += " " + std::to_string(mc.src) + "->" + std::to_string(mc.dst) + ":" +
                std::string(migrationCauseName(mc.cause)) + "=" + std::to_string(mc.count);
        if (mc.cause == MigrationCause::Affinity && ((mc.src == 0 && mc.dst == 1) || (mc.src == 1 && mc.dst == 0))) {
            affinity01 += mc.count;
            const int level = m->classifier.level(mc.src, mc.dst);
            ASSERT_GE(level, 0);
            EXPECT_EQ(m->classifier.levelNames()[static_cast<size_t>(level)], m->tree.lowestCommonLevel(mc.src, mc.dst));
        }
    }
    for (uint64_t v : snap.runTotal()) runs += v;
    for (uint64_t v : snap.waitTotal()) waits += v;
    EXPECT_GE(affinity01, static_cast<uint64_t>(moves - 1)) << "kernel counters:" << seen;
    EXPECT_GT(runs, 0u);
    EXPECT_GT(waits, 0u);
    EXPECT_GT(histQuantileNs(snap.waitTotal(), 0.5), 0u);
}

TEST(BpfSource, RawTracepointFallbackStreamsAndAggregates) {
    SKIP_WITHOUT_BPF_OR_TWO_CPUS();
    for (BpfMode mode : {BpfMode::Stream, BpfMode::Aggregate}) {
        BpfOptions opt;
        opt.mode = mode;
        opt.rawTpOnly = true;
        opt.ignoreSelf = false;
        auto source = BpfSource::start(opt);
        ASSERT_TRUE(source) << source.error();
        EXPECT_STREQ((*source)->attachKind(), "raw_tp");
        EventStore store;
        const pid_t tid = test::runPinnedMoves(2, [] {});
        ASSERT_TRUE((*source)->poll(store, 0));
        store.finish();
        auto snap = (*source)->snapshot();
        EXPECT_GT(snap.eventsByKind[static_cast<size_t>(EventKind::Switch)], 0u);
        if (mode == BpfMode::Stream) {
            EXPECT_GT(store.count(EventKind::Switch), 0u);
            int moved = 0;
            for (const auto& mig : inferMigrations(store)) moved += mig.pid == tid;
            EXPECT_GE(moved, 1);
        } else {
            EXPECT_EQ(store.size(), 0u);
            EXPECT_FALSE(snap.migrations.empty());
        }
    }
}
