// Live capture: two busy threads, one moved between CPUs with sched_setaffinity; the moves must
// show up as "affinity" migrations at the level the topology gives for those CPUs.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "tracefs_instance.h"
#include "support/fixtures.h"
#include "support/pinned_moves.h"
#include "task_groups.h"
#include "trace_reader.h"
#include "tracefs_source.h"

using namespace schedscope;
using namespace schedscope::tracing;


TEST(Live, AffinityMovesAreSeenWithCauseAndLevel) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs at least 2 online CPUs";
    auto tree = test::localDomainTree();
    ASSERT_TRUE(tree) << tree.error();
    MigrationClassifier classifier(*tree);

    auto source = TracefsSource::start();
    ASSERT_TRUE(source) << source.error();
    EventStore store;
    // "taskset from a user task on the source CPU": the mover runs where the loop is.
    const pid_t moved = test::runPinnedMoves(6, [&] { EXPECT_TRUE((*source)->poll(store)); });
    ASSERT_TRUE((*source)->poll(store));
    store.finish();
    // the instance enables every event it has a format for: one that never fired here (a NUMA
    // balancing stick on a machine of one node) is recorded as none, not as unknown
    EXPECT_TRUE(store.recorded(EventKind::MigrateTask));
    if (std::filesystem::exists(std::string(kTracingDir) + "/events/sched/sched_stick_numa") &&
        store.count(EventKind::StickNuma) == 0) {
        EXPECT_TRUE(store.recorded(EventKind::StickNuma));
    }
    auto report = classifier.classify(store);
    int affinity = 0;
    std::string seen;
    for (const auto& mig : report.migrations) {
        if (mig.pid != moved) continue;
        seen += " " + std::to_string(mig.src) + "->" + std::to_string(mig.dst) + ":" +
                std::string(migrationCauseName(mig.cause));
        if (mig.cause == MigrationCause::Affinity) {
            ++affinity;
            EXPECT_EQ(classifier.levelNames()[static_cast<size_t>(mig.level)], tree->lowestCommonLevel(mig.src, mig.dst));
        }
    }
    EXPECT_GE(affinity, 6 - 1) << "migrations of the moved thread:" << seen;
}

// schedscope-cli record: libtracecmd's recorder and writer into a trace.dat that libtracecmd
// reads back, with the kernel's uname (the replay's profile) and the topology sidecar.
TEST(Live, RecordWritesATraceWithItsKernelAndSidecar) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::filesystem::path dir = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "record";
    std::filesystem::create_directories(dir);
    for (const std::string version : {"6", "7"}) {
        const std::string out = (dir / ("rec-v" + version + ".dat")).string();
        std::ostringstream cmd;  // (one '+' chain of these tripped GCC 12's -Warray-bounds)
        const std::string err = out + ".stderr";
        cmd << SCHEDSCOPE_CLI << " record -o '" << out << "' --file-version " << version
            << " -- sh -c 'for i in 1 2 3 4 5; do sleep 0.01; done' >/dev/null 2>'" << err << "'";
        ASSERT_EQ(std::system(cmd.str().c_str()), 0) << cmd.str();
        // a good recording says what it wrote and nothing else (libtracecmd's own warnings included)
        std::ifstream errText(err);
        const std::string said(std::istreambuf_iterator<char>(errText), {});
        EXPECT_TRUE(said.starts_with("record: wrote ")) << said;
        EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
        auto store = readTraceDat(out);
        ASSERT_TRUE(store) << store.error();
        EXPECT_GT(store->count(EventKind::Switch), 5u) << version;
        utsname u{};
        ASSERT_EQ(uname(&u), 0);
        EXPECT_EQ(store->kernelRelease(), u.release) << version;
        EXPECT_TRUE(std::filesystem::exists(out + ".topology.json")) << version;
        // and every task's group as the workload began: the sh the recorder ran is not in it
        // (it started after the snapshot), but it is in its parent's group through the trace's fork
        auto groups = readGroupsSidecar(out);
        ASSERT_TRUE(groups.ok()) << groups.error();
        ASSERT_TRUE(groups->has_value()) << version;
        EXPECT_GT((*groups)->groupOf.size(), 5u);
        std::vector<int32_t> forked;  // the workload's sh and its sleeps among them
        store->forEach([&](const SchedEvent& e) {
            if (e.kind != EventKind::ProcessFork || (*groups)->groupOf.count(e.pid2)) return true;
            const std::string_view comm = store->commAt(e.pid2, UINT64_MAX);
            if (comm == "sh" || comm == "sleep") forked.push_back(e.pid2);
            return true;
        });
        ASSERT_FALSE(forked.empty()) << version;
        for (const auto& [pid, group] : groupsOfTasks(**groups, *store, forked))
            EXPECT_FALSE(group.empty()) << "task " << pid << ", forked while recording, has no group";
        EXPECT_EQ(store->traceClock(), "local") << "the file names its clock, as trace-cmd record's do: " << version;
    }
}

// record also takes sched_setaffinity()'s syscall events where the kernel has syscall
// tracepoints: `taskset -c 0 true` makes one call on itself, entered and left
TEST(Live, RecordTakesTheSetaffinityCalls) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    if (!std::filesystem::exists(std::string(kTracingDir) + "/events/syscalls/sys_enter_sched_setaffinity"))
        GTEST_SKIP() << "this kernel has no syscall tracepoints (CONFIG_FTRACE_SYSCALLS)";
    if (std::system("command -v taskset >/dev/null") != 0) GTEST_SKIP() << "no taskset (util-linux) here";
    const std::filesystem::path dir = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "record";
    std::filesystem::create_directories(dir);
    const std::string out = (dir / "setaffinity.dat").string();
    std::ostringstream cmd;
    cmd << SCHEDSCOPE_CLI << " record -o '" << out << "' -- taskset -c 0 true >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.str().c_str()), 0) << cmd.str();
    auto store = readTraceDat(out);
    ASSERT_TRUE(store) << store.error();
    // a call of a task on itself, entered and then left (its comm at the call may still be its
    // parent's: no sched event need name the exec'd taskset before it; and another program on
    // this machine may make calls of its own)
    int selfCalls = 0;
    const auto& records = store->affinityCallRecords();
    for (const auto& enter : records) {
        if (enter.exit || enter.target != enter.caller) continue;
        for (const auto& exit : records)
            if (exit.exit && exit.caller == enter.caller && exit.ts >= enter.ts) {
                ++selfCalls;
                break;
            }
    }
    EXPECT_GE(selfCalls, 1) << records.size() << " records";
}

// --clock picks the trace clock as trace-cmd record -C does, and the file says which: a clock
// that counts ns (mono) gives durations, one that does not (counter) is flagged as such. A
// clock the kernel does not have is a one-line error listing those it has.
TEST(Live, RecordTakesATraceClock) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::filesystem::path dir = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "record";
    std::filesystem::create_directories(dir);
    for (const std::string version : {"6", "7"}) {
        for (const std::string clock : {"mono", "counter"}) {
            std::string name = "clock-";
            name += clock;
            name += "-v";
            name += version;
            name += ".dat";
            const std::string out = (dir / name).string();
            std::ostringstream cmd;
            cmd << SCHEDSCOPE_CLI << " record -o '" << out << "' --file-version " << version << " --clock " << clock
                << " -- sh -c 'for i in 1 2 3; do sleep 0.01; done' >/dev/null 2>&1";
            ASSERT_EQ(std::system(cmd.str().c_str()), 0) << cmd.str();
            auto store = readTraceDat(out);
            ASSERT_TRUE(store) << store.error();
            EXPECT_GT(store->count(EventKind::Switch), 3u) << clock << " v" << version;
            EXPECT_EQ(store->traceClock(), clock) << "v" << version;
            EXPECT_EQ(store->clockCountsNs(), clock == "mono") << clock << " v" << version;
        }
    }
    const std::string out = (dir / "clock-bogus.dat").string();
    std::ostringstream cmd;
    cmd << SCHEDSCOPE_CLI << " record -o '" << out << "' --clock bogus --duration 0.1 2>&1";
    std::string text;
    FILE* p = popen(cmd.str().c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[512];
    while (fgets(buf, sizeof buf, p)) text += buf;
    const int status = pclose(p);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << "bad input, said before recording: " << text;
    EXPECT_NE(text.find("--clock bogus: not a trace clock of this kernel (it has: local,"), std::string::npos) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_FALSE(std::filesystem::exists(out));
}

// --buffer-kb sizes each CPU's ring buffer, as trace-cmd record -b does. A buffer of one page
// cannot hold a burst of 300 fork+exec+exits between two of the recorder's reads: record says how
// many events were lost, in the size it recorded with, and the size that keeps more. A buffer of
// 4 MB keeps the same burst whole.
TEST(Live, RecordSaysWhatASmallBufferLostAndTheSizeThatKeepsIt) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::filesystem::path dir = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "record";
    std::filesystem::create_directories(dir);
    // The burst runs while record is stopped (the command stops its parent, then continues it), so
    // nothing reads the buffers meanwhile: a page or two per CPU overflows however fast the
    // recorder would have been, 4 MB holds all of it. (Left running, the recorder kept up with
    // 300 forks in a 4 KB buffer in 1 run in 5 here.)
    auto recordBurst = [&](const std::string& kb) {
        const std::string out = (dir / ("buffer-" + kb + ".dat")).string();
        std::ostringstream cmd;
        cmd << SCHEDSCOPE_CLI << " record -o '" << out << "' --buffer-kb " << kb
            << " -- sh -c 'kill -STOP $PPID; i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done; kill -CONT $PPID'"
            << " 2>&1 >/dev/null";
        std::string text;
        FILE* p = popen(cmd.str().c_str(), "r");
        EXPECT_NE(p, nullptr);
        if (!p) return text;
        char buf[512];
        while (fgets(buf, sizeof buf, p)) text += buf;
        EXPECT_EQ(pclose(p), 0) << text;
        EXPECT_TRUE(readTraceDat(out)) << out;
        return text;
    };
    const std::string small = recordBurst("4");
    const auto lostAt = small.find(" events lost: the ring buffers (");
    ASSERT_NE(lostAt, std::string::npos) << small;
    const auto noteAt = small.rfind("note: ", lostAt);
    ASSERT_NE(noteAt, std::string::npos) << small;
    const std::string lost = small.substr(small.find(": ", noteAt + 6) + 2, lostAt - small.find(": ", noteAt + 6) - 2);
    EXPECT_NE(small.find(", " + lost + " events lost), "), std::string::npos) << "the summary line counts the same: " << small;
    const int kb = std::atoi(small.c_str() + lostAt + std::string(" events lost: the ring buffers (").size());
    EXPECT_GE(kb, 4) << small;
    EXPECT_LE(kb, 8) << "a page or two, as asked: " << small;
    EXPECT_NE(small.find("--buffer-kb " + std::to_string(kb * 4) + " keeps more"), std::string::npos) << small;
    // the file keeps the buffers' stats, as trace-cmd record's do: a reader of it counts the same loss
    auto recorded = readTraceDat((dir / "buffer-4.dat").string());
    ASSERT_TRUE(recorded) << recorded.error();
    EXPECT_EQ(std::to_string(recorded->anomaly(Anomaly::LostEvents)), lost);
    EXPECT_EQ(recorded->anomaly(Anomaly::LostUnknown), 0u);

    const std::string big = recordBurst("4096");
    EXPECT_NE(big.find(", 0 events lost), "), std::string::npos) << big;
    EXPECT_EQ(big.find("events lost:"), std::string::npos) << big;
}
