// sched_exec() on a real trace: execve() has its CPU's stopper move the task before it loads the
// binary, which trace.dat shows as an affinity-like stopper run followed by the task's own
// sched_process_exec. tests/data/traces/exec-balance.dat: 400 /bin/true next to a CPU hog.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "affinity_calls.h"
#include "migration_causes.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "trace_reader.h"

namespace schedscope::tracing {
namespace {

std::map<MigrationCause, int> causesOf(const EventStore& store) {
    std::map<MigrationCause, int> n;
    for (const auto& m : inferMigrations(store)) ++n[m.cause];
    return n;
}

TEST(ExecBalance, TheStoppersMovesBeforeAnExecAreExecsNotAffinityChanges) {
    auto trace = readTraceDat(test::dataPath("traces/exec-balance.dat"));
    ASSERT_TRUE(trace.ok()) << trace.error();
    auto causes = causesOf(*trace);
    // the 324 moves by migration/0 in `trace-cmd report`, each followed by its task's exec
    EXPECT_EQ(causes[MigrationCause::Exec], 324);
    EXPECT_EQ(causes[MigrationCause::Affinity], 0) << "no task changed its affinity";
    // without sched_process_exec nothing tells them from a task that moved itself with
    // sched_setaffinity(): they are affinity changes
    std::set<EventKind> kinds;
    for (size_t k = 0; k < static_cast<size_t>(EventKind::Count); ++k)
        if (static_cast<EventKind>(k) != EventKind::ProcessExec) kinds.insert(static_cast<EventKind>(k));
    causes = causesOf(test::onlyKinds(*trace, kinds));
    EXPECT_EQ(causes[MigrationCause::Exec], 0);
    EXPECT_EQ(causes[MigrationCause::Affinity], 324);
}

// tests/data/traces/self-affinity.dat: a task moving itself between the CPUs 40 times with
// sched_setaffinity(0, ...). trace-cmd report shows each move inside the wakeup its CPU's
// stopper gives it (it blocked before the stopper ran), and two pulls by an idle CPU in the
// scheduler's softirq (flags "d.s2."), which is periodic balancing, not newidle.
TEST(ExecBalance, ATaskMovingItselfIsAnAffinityChangeNotAWakeup) {
    auto trace = readTraceDat(test::dataPath("traces/self-affinity.dat"));
    ASSERT_TRUE(trace.ok()) << trace.error();
    std::map<MigrationCause, int> ofMover;
    std::map<uint64_t, MigrationCause> softirqPulls;
    for (const auto& m : inferMigrations(*trace)) {
        const std::string_view comm = trace->commAt(m.pid, m.ts);  // (recorded from a binary named selfpin)
        if (comm == "selfpin" || comm == "self-affinity") ++ofMover[m.cause];
        for (const uint64_t reportUs : {43846323163ull, 43846343151ull})  // trace-cmd report's microseconds
            if (m.ts + 500 >= reportUs * 1000 && m.ts < reportUs * 1000 + 500) softirqPulls[m.ts] = m.cause;  // (rounded)
    }
    EXPECT_EQ(ofMover[MigrationCause::Affinity], 40);
    EXPECT_EQ(ofMover.size(), 1u) << "every move of the mover is its own affinity change";
    ASSERT_EQ(softirqPulls.size(), 2u);
    for (const auto& [ts, cause] : softirqPulls) EXPECT_EQ(cause, MigrationCause::LoadBalancePeriodic) << ts;
}

// tests/data/traces/replay/pinned-setaffinity.dat: pinned.sh recorded with the syscall events
// of sched_setaffinity(). `taskset -c 0 ./spin` started on CPU 1 (pid 4847) changed its own mask,
// its CPU's stopper moved it inside the call (trace-cmd report: enter at 60037.586926,
// migration/1 moves it at .586938, exit at .587000 on CPU 0), and it then exec'd spin: with the
// call in the trace that move is an affinity change; without it, an exec's. The shell's own
// moves by the stopper before it exec'd taskset (pids 4852 and 4854) are sched_exec()'s either
// way, and `taskset -pc 1`'s three moves are affinity changes.
TEST(ExecBalance, AMoveInsideASetaffinityCallIsAnAffinityChangeNotAnExec) {
    auto trace = readTraceDat(test::dataPath("traces/replay/pinned-setaffinity.dat"));
    ASSERT_TRUE(trace.ok()) << trace.error();
    EXPECT_EQ(trace->affinityCallRecords().size(), 12u);  // 6 calls, each entered and left
    std::map<int32_t, std::vector<MigrationCause>> byPid;
    for (const auto& m : inferMigrations(*trace)) byPid[m.pid].push_back(m.cause);
    EXPECT_EQ(byPid[4847], (std::vector<MigrationCause>{MigrationCause::Affinity, MigrationCause::Affinity}));
    EXPECT_EQ(byPid[4852], std::vector<MigrationCause>{MigrationCause::Exec});
    EXPECT_EQ(byPid[4854], std::vector<MigrationCause>{MigrationCause::Exec});
    for (const int32_t spin : {4846, 4848}) EXPECT_EQ(byPid[spin], std::vector<MigrationCause>{MigrationCause::Affinity}) << spin;
    // the same events without the syscall records, as pinned.dat was recorded: taskset's move
    // reads as sched_exec()'s
    std::set<EventKind> kinds;
    for (size_t k = 0; k < static_cast<size_t>(EventKind::Count); ++k) kinds.insert(static_cast<EventKind>(k));
    const EventStore sched = test::onlyKinds(*trace, kinds);
    ASSERT_TRUE(sched.affinityCallRecords().empty());
    std::vector<MigrationCause> of4847;
    for (const auto& m : inferMigrations(sched))
        if (m.pid == 4847) of4847.push_back(m.cause);
    EXPECT_EQ(of4847, (std::vector<MigrationCause>{MigrationCause::Exec, MigrationCause::Affinity}));
}

// trace-cmd report prints the syscall events with their arguments in hex: the text reader takes
// the same calls from it as the trace.dat reader from the records (report's microseconds)
TEST(AffinityCalls, ReportTextGivesTheCallsTheTraceDatHas) {
    auto bin = readTraceDat(test::dataPath("traces/replay/pinned-setaffinity.dat"));
    ASSERT_TRUE(bin.ok()) << bin.error();
    // `trace-cmd report pinned-setaffinity.dat | grep sched_setaffinity`, and the move inside
    // taskset's own call (a text needs a sched event to be a trace)
    const std::string text =
        "cpus=2\n"
        "            spin-4848  [000] 60037.583218: sys_enter_sched_setaffinity: pid: 0x00000000, len: 0x00000020, user_mask_ptr: 0x5559275423b0\n"
        "            spin-4848  [000] 60037.583225: sys_exit_sched_setaffinity: 0x0\n"
        "            spin-4846  [000] 60037.584647: sys_enter_sched_setaffinity: pid: 0x00000000, len: 0x00000020, user_mask_ptr: 0x564c14eb33b0\n"
        "            spin-4846  [000] 60037.584651: sys_exit_sched_setaffinity: 0x0\n"
        "            spin-4847  [001] 60037.586926: sys_enter_sched_setaffinity: pid: 0x00000000, len: 0x00000020, user_mask_ptr: 0x55b53d44e3b0\n"
        "     migration/1-23    [001] 60037.586938: sched_migrate_task:   comm=taskset pid=4847 prio=120 orig_cpu=1 dest_cpu=0\n"
        "            spin-4847  [000] 60037.587000: sys_exit_sched_setaffinity: 0x0\n"
        "         taskset-4852  [001] 60037.868408: sys_enter_sched_setaffinity: pid: 0x000012ee, len: 0x00000020, user_mask_ptr: 0x5574c6424630\n"
        "         taskset-4852  [001] 60037.868452: sys_exit_sched_setaffinity: 0x0\n"
        "         taskset-4853  [000] 60037.870876: sys_enter_sched_setaffinity: pid: 0x000012ef, len: 0x00000020, user_mask_ptr: 0x562296516630\n"
        "         taskset-4853  [000] 60037.870885: sys_exit_sched_setaffinity: 0x0\n"
        "         taskset-4854  [000] 60037.874742: sys_enter_sched_setaffinity: pid: 0x000012f0, len: 0x00000020, user_mask_ptr: 0x5565c3651630\n"
        "         taskset-4854  [000] 60037.874748: sys_exit_sched_setaffinity: 0x0\n"
        ;
    auto parsed = parseFtraceText(text, "report.txt");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    auto byTs = [](std::vector<AffinityCallRecord> v) {
        std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.ts < b.ts; });
        return v;
    };
    const auto want = byTs(bin->affinityCallRecords()), got = byTs(parsed->affinityCallRecords());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(static_cast<double>(got[i].ts), static_cast<double>(want[i].ts), 1000.0) << i;
        EXPECT_EQ(got[i].caller, want[i].caller) << i;
        EXPECT_EQ(got[i].target, want[i].target) << i;
        EXPECT_EQ(got[i].exit, want[i].exit) << i;
    }
    EXPECT_EQ(got[8].target, 4847) << "taskset -pc 1 4847: 0x000012ef";
}

// The calls' spans: an enter and its caller's next exit, in whatever order the CPUs' records
// came; a call on another task (taskset -p) is that task's; an enter whose exit was lost counts
// for kAffinityCallWithoutExitNs, or until its caller's next enter
TEST(AffinityCalls, AnEnterAndItsCallersNextExitBoundTheCallOnItsTarget) {
    const std::vector<AffinityCallRecord> records = {
        {2000, 10, -1, true},    // (read first: CPU 0's records before CPU 1's)
        {1000, 10, 10, false},   // pid 10 on itself, 1000..2000
        {5000, 20, 30, false},   // pid 20 on pid 30, its exit lost
        {9000, 20, 40, false},   // pid 20 again, on pid 40: ends the call on 30
        {9500, 20, -1, true},
        {9600, 99, -1, true},    // an exit whose enter came before the trace
    };
    const AffinityCalls calls(records);
    EXPECT_FALSE(calls.covers(10, 999));
    EXPECT_TRUE(calls.covers(10, 1000));
    EXPECT_TRUE(calls.covers(10, 2000));
    EXPECT_FALSE(calls.covers(10, 2001));
    EXPECT_FALSE(calls.covers(20, 5500)) << "the caller is not the target";
    EXPECT_TRUE(calls.covers(30, 8999));
    EXPECT_FALSE(calls.covers(30, 9001));
    EXPECT_TRUE(calls.covers(40, 9500));
    EXPECT_FALSE(calls.covers(99, 9600));
    EXPECT_EQ(calls.callEnds(30), std::vector<uint64_t>{9000});
    const AffinityCalls lost({{1000, 7, 7, false}});
    EXPECT_TRUE(lost.covers(7, 1000 + kAffinityCallWithoutExitNs));
    EXPECT_FALSE(lost.covers(7, 1001 + kAffinityCallWithoutExitNs));
}

}  // namespace
}  // namespace schedscope::tracing
