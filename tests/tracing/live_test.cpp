// Live capture: two busy threads, one moved between CPUs with sched_setaffinity; the moves must
// show up as "affinity" migrations at the level the topology gives for those CPUs.
#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "topology/hwloc_loader.h"
#include "tracefs_instance.h"
#include "tracefs_source.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {
void pin(pid_t tid, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(tid, sizeof set, &set);
}
}  // namespace

TEST(Live, AffinityMovesAreSeenWithCauseAndLevel) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs at least 2 online CPUs";
    auto topo = loadLocalTopology();
    ASSERT_TRUE(topo) << topo.error();
    DomainBuildOptions opt;
    opt.arch = topo->arch;
    auto tree = buildDomains(*topo, opt);
    ASSERT_TRUE(tree) << tree.error();
    MigrationClassifier classifier(*tree);

    auto source = TracefsSource::start();
    ASSERT_TRUE(source) << source.error();
    std::atomic<bool> stop{false};
    std::atomic<pid_t> tids[2] = {0, 0};
    std::vector<std::thread> loops;
    for (int i = 0; i < 2; ++i)
        loops.emplace_back([&, i] {
            tids[i] = static_cast<pid_t>(syscall(SYS_gettid));
            pin(0, i);
            while (!stop.load(std::memory_order_relaxed)) {
            }
        });
    while (!tids[0] || !tids[1]) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EventStore store;
    const int moves = 6;
    for (int m = 0; m < moves; ++m) {
        // "taskset from a user task on the source CPU": the mover runs where the loop is.
        pin(0, m % 2);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        pin(tids[0], (m + 1) % 2);  // 0 -> 1 -> 0 ...
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        ASSERT_TRUE((*source)->poll(store));
    }
    stop = true;
    for (auto& t : loops) t.join();
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
    sched_setaffinity(0, sizeof all, &all);
    ASSERT_TRUE((*source)->poll(store));
    store.finish();
    auto report = classifier.classify(store);
    int affinity = 0;
    std::string seen;
    for (const auto& mig : report.migrations) {
        if (mig.pid != tids[0]) continue;
        seen += " " + std::to_string(mig.src) + "->" + std::to_string(mig.dst) + ":" +
                std::string(migrationCauseName(mig.cause));
        if (mig.cause == MigrationCause::Affinity) {
            ++affinity;
            EXPECT_EQ(classifier.levelNames()[static_cast<size_t>(mig.level)], tree->lowestCommonLevel(mig.src, mig.dst));
        }
    }
    EXPECT_GE(affinity, moves - 1) << "migrations of the moved thread:" << seen;
}
