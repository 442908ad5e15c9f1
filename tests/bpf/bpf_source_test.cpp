// BpfSource in both modes on a known workload: pinned sched_setaffinity moves of a busy thread
// must be seen as "affinity" migrations at the level the topology gives for CPUs 0 and 1.
// Skips (with the reason) without root/CAP_BPF, kernel BTF or a BPF build.
#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <functional>
#include <set>
#include <thread>

#include "bpf_source.h"
#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "sched_tracker.h"
#include "support/fixtures.h"
#include "support/pinned_moves.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

pid_t threadId() { return static_cast<pid_t>(syscall(SYS_gettid)); }

// A thread that sleeps 1 ms `rounds` times (each wakeup is its hrtimer's expiry, in a hardirq)
// and two that pass a byte back and forth through pipes (each woken by the other's write).
struct TimerAndPipeWakeups {
    std::atomic<pid_t> sleeper{0}, ping{0}, pong{0};
    void run(int rounds, const std::function<void()>& pollStore) {
        int ab[2], ba[2];
        ASSERT_EQ(pipe(ab), 0);
        ASSERT_EQ(pipe(ba), 0);
        std::atomic<int> done{0};
        std::thread s([&] {
            sleeper = threadId();
            const timespec ms{0, 1'000'000};
            for (int i = 0; i < rounds; ++i) nanosleep(&ms, nullptr);
            ++done;
        });
        std::thread a([&] {
            ping = threadId();
            char c = 0;
            for (int i = 0; i < rounds; ++i)
                if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) break;
            ++done;
        });
        std::thread b([&] {
            pong = threadId();
            char c = 0;
            for (int i = 0; i < rounds; ++i)
                if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1) break;
            ++done;
        });
        while (done < 3) {
            pollStore();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        s.join();
        a.join();
        b.join();
        for (int fd : {ab[0], ab[1], ba[0], ba[1]}) close(fd);
    }
};

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

namespace {

// Runs /bin/true (a fork and an exec) to its end; its pid, or -1 when it could not start.
pid_t runTrue() {
    pid_t child = 0;
    char arg0[] = "true";
    char* argv[] = {arg0, nullptr};
    if (posix_spawn(&child, "/bin/true", nullptr, nullptr, argv, environ) != 0) return -1;
    int status = 0;
    waitpid(child, &status, 0);
    return child;
}

}  // namespace

// execve()'s sched_exec() moves the task with its CPU's stopper, as an affinity change does:
// the stream's migrate record says the task was inside execve() (task_struct::in_execve), so
// those moves are exec's. Children /bin/true next to a busy thread, as
// tests/data/traces/exec-balance.dat recorded them.
TEST(BpfSource, StreamTellsExecBalancingFromAffinityChanges) {
    SKIP_WITHOUT_BPF_OR_TWO_CPUS();
    BpfOptions opt;
    opt.ignoreSelf = false;
    auto source = BpfSource::start(opt);
    ASSERT_TRUE(source) << source.error();
    EventStore store;
    std::atomic<bool> stop{false};
    std::thread hog([&] {
        while (!stop) {}
    });
    std::set<pid_t> children;
    for (int i = 0; i < 400; ++i) {
        const pid_t child = runTrue();
        if (child <= 0) continue;
        children.insert(child);
        if (i % 50 == 0) {
            ASSERT_TRUE((*source)->poll(store, 0));
        }
    }
    stop = true;
    hog.join();
    ASSERT_TRUE((*source)->poll(store, 0));
    store.finish();
    int exec = 0, affinity = 0;
    for (const auto& mig : inferMigrations(store)) {
        if (!children.count(mig.pid)) continue;
        exec += mig.cause == MigrationCause::Exec;
        affinity += mig.cause == MigrationCause::Affinity;
    }
    if (exec + affinity == 0) GTEST_SKIP() << "no stopper moved an exec'ing child on this run (the CPUs were idle enough)";
    EXPECT_EQ(affinity, 0) << exec << " exec moves";
    EXPECT_GT(exec, 0);
}

// The stream records sched_process_exec as trace.dat does (the task, the thread that called
// execve(), its new name): 40 children that exec /bin/true give 40 of them. (It had none: the
// exec cause came from in_execve alone, and the counts said no task ever exec'ed.)
TEST(BpfSource, StreamRecordsEachExec) {
    SKIP_WITHOUT_BPF_OR_TWO_CPUS();
    BpfOptions opt;
    opt.ignoreSelf = false;
    auto source = BpfSource::start(opt);
    ASSERT_TRUE(source) << source.error();
    EventStore store;
    std::set<pid_t> children;
    for (int i = 0; i < 40; ++i) {
        const pid_t child = runTrue();
        ASSERT_GT(child, 0);
        children.insert(child);
    }
    ASSERT_TRUE((*source)->poll(store, 0));
    store.finish();
    EXPECT_TRUE(store.recorded(EventKind::ProcessExec));
    std::set<pid_t> execed;
    store.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::ProcessExec && children.count(e.pid)) {
            execed.insert(e.pid);
            EXPECT_EQ(e.pid2, e.pid) << "a single-threaded exec keeps its pid";
            EXPECT_EQ(store.commAt(e.pid, e.ts + 1), "true");
        }
        return true;
    });
    EXPECT_EQ(execed, children);
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

TEST(BpfSource, WakeupsATimerDidAreMarkedAndThoseATaskDidAreNot) {
    SKIP_WITHOUT_BPF_OR_TWO_CPUS();
    for (bool rawTp : {false, true}) {
        BpfOptions opt;
        opt.ignoreSelf = false;  // the workload is this process's threads
        opt.rawTpOnly = rawTp;
        auto source = BpfSource::start(opt);
        ASSERT_TRUE(source) << source.error();
        EventStore store;
        TimerAndPipeWakeups w;
        w.run(200, [&] { ASSERT_TRUE((*source)->poll(store, 0)); });
        ASSERT_TRUE((*source)->poll(store, 0));
        store.finish();
        int timerWakings = 0, timerByInterrupt = 0, pipeWakings = 0, pipeByInterrupt = 0;
        store.forEach([&](const SchedEvent& e) {
            if (e.kind != EventKind::Waking) return true;
            if (e.pid == w.sleeper) {
                ++timerWakings;
                timerByInterrupt += e.byInterrupt;
                EXPECT_EQ(wakerOf(e, e.waker), e.byInterrupt ? -1 : e.waker);
            } else if (e.pid == w.ping || e.pid == w.pong) {
                ++pipeWakings;
                pipeByInterrupt += e.byInterrupt;
            }
            return true;
        });
        const char* kind = (*source)->attachKind();
        std::printf("%s: sleeper %d of %d wakings by an interrupt, pipe %d of %d\n", kind, timerByInterrupt, timerWakings,
                    pipeByInterrupt, pipeWakings);
        EXPECT_GE(timerWakings, 150) << kind;
        EXPECT_GE(timerByInterrupt, timerWakings * 9 / 10) << kind << ": " << timerByInterrupt << " of " << timerWakings;
        EXPECT_GE(pipeWakings, 150) << kind;
        EXPECT_EQ(pipeByInterrupt, 0) << kind << ": of " << pipeWakings;
    }
}
