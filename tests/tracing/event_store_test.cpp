#include <gtest/gtest.h>

#include <map>

#include "event_store.h"
#include "sched_tracker.h"
#include "support/sched_events.h"

using namespace schedscope::tracing;

namespace {
SchedEvent ev(uint64_t ts, int cpu, EventKind k, int pid, int pid2 = -1) {
    return schedscope::test::schedEvent(ts, cpu, k, pid, pid2);
}
}  // namespace

TEST(EventStore, RoundTripsEveryColumnPerKind) {
    EventStore s;
    SchedEvent sw = ev(100, 1, EventKind::Switch, 10, 20);
    sw.prio = 120;
    sw.state = TaskState::DiskSleep;
    SchedEvent mig = ev(200, 0, EventKind::MigrateTask, 10);
    mig.srcCpu = 1;
    mig.dstCpu = 3;
    SchedEvent wk = ev(150, 0, EventKind::Waking, 30);
    wk.dstCpu = 2;
    wk.prio = 98;
    SchedEvent swap = ev(300, 2, EventKind::SwapNuma, 5, 6);
    swap.srcCpu = 2;
    swap.dstCpu = 7;
    for (const auto& e : {sw, mig, wk, swap}) s.append(e);
    s.finish();
    ASSERT_EQ(s.size(), 4u);
    std::vector<SchedEvent> seen;
    s.forEach([&](const SchedEvent& e) { seen.push_back(e); return true; });
    ASSERT_EQ(seen.size(), 4u);
    EXPECT_EQ(seen[0].ts, 100u);
    EXPECT_EQ(seen[0].pid2, 20);
    EXPECT_EQ(seen[0].state, TaskState::DiskSleep);
    EXPECT_EQ(seen[0].prio, 120);
    EXPECT_EQ(seen[1].kind, EventKind::Waking);
    EXPECT_EQ(seen[1].dstCpu, 2);
    EXPECT_EQ(seen[1].prio, 98);
    EXPECT_EQ(seen[2].srcCpu, 1);
    EXPECT_EQ(seen[2].dstCpu, 3);
    EXPECT_EQ(seen[3].pid2, 6);
    EXPECT_EQ(seen[3].srcCpu, 2);
    EXPECT_EQ(seen[3].dstCpu, 7);
}

TEST(EventStore, WakeEventsKeepTheirWakerWhateverThePidsSize) {
    EventStore s;
    SchedEvent known = ev(100, 0, EventKind::Waking, 30);
    known.dstCpu = 8191;  // the last CPU of the largest machine
    known.waker = 262142;  // the largest waker the arg column holds alone
    SchedEvent big = ev(200, 0, EventKind::Wakeup, 31);
    big.dstCpu = 2;
    big.waker = 262143;  // past it: its high bits in a column of their own, with its target CPU
    SchedEvent none = ev(300, 1, EventKind::WakeupNew, 32);  // a source without common_pid
    none.dstCpu = -1;
    SchedEvent idle = ev(400, 1, EventKind::Waking, 33);  // woken from an interrupt on an idle CPU
    idle.dstCpu = 1;
    idle.waker = 0;
    SchedEvent badCpu = ev(500, 1, EventKind::Waking, 34);
    badCpu.dstCpu = 9000;  // corrupt input: no CPU rather than a wrong one
    badCpu.waker = 7;
    SchedEvent extremes = ev(600, 1, EventKind::Waking, 35);  // a corrupt record's extremes
    extremes.dstCpu = INT32_MAX;
    extremes.waker = INT32_MIN;
    // systemd's pid_max on 64-bit machines is 2^22: a long-running server's pids have 7 digits.
    // Recorded out of order, so the partition is sorted with the wakers kept aside.
    SchedEvent sevenDigits = ev(150, 0, EventKind::Waking, 36);
    sevenDigits.dstCpu = 3;
    sevenDigits.waker = 4194303;  // PID_MAX_LIMIT - 1
    SchedEvent pastTheKernels = ev(160, 0, EventKind::Waking, 37);
    pastTheKernels.dstCpu = 3;
    pastTheKernels.waker = 4194304;  // no pid can be this: unknown
    for (const auto& e : {known, big, none, idle, badCpu, extremes, sevenDigits, pastTheKernels}) s.append(e);
    s.finish();
    std::vector<SchedEvent> seen;
    s.forEach([&](const SchedEvent& e) { seen.push_back(e); return true; });
    ASSERT_EQ(seen.size(), 8u);
    EXPECT_EQ(seen[0].dstCpu, 8191);
    EXPECT_EQ(seen[0].waker, 262142);
    EXPECT_EQ(seen[1].pid, 36);
    EXPECT_EQ(seen[1].dstCpu, 3);
    EXPECT_EQ(seen[1].waker, 4194303);
    EXPECT_EQ(seen[2].pid, 37);
    EXPECT_EQ(seen[2].dstCpu, 3);
    EXPECT_EQ(seen[2].waker, -1);
    EXPECT_EQ(seen[3].dstCpu, 2);
    EXPECT_EQ(seen[3].waker, 262143);
    EXPECT_EQ(seen[4].dstCpu, -1);
    EXPECT_EQ(seen[4].waker, -1);
    EXPECT_EQ(seen[5].waker, 0);
    EXPECT_EQ(seen[6].dstCpu, -1);
    EXPECT_EQ(seen[6].waker, 7);
    EXPECT_EQ(seen[6].pid, 34);
    EXPECT_EQ(seen[7].dstCpu, -1);
    EXPECT_EQ(seen[7].waker, -1);
}

TEST(EventStore, ResortsOutOfOrderEventsAndCountsThem) {
    EventStore s;
    for (uint64_t t : {10u, 30u, 20u, 40u}) s.append(ev(t, 0, EventKind::Wakeup, 1));
    s.finish();
    EXPECT_EQ(s.anomaly(Anomaly::OutOfOrder), 1u);
    std::vector<uint64_t> ts;
    s.forEach([&](const SchedEvent& e) { ts.push_back(e.ts); return true; });
    EXPECT_EQ(ts, (std::vector<uint64_t>{10, 20, 30, 40}));
}

TEST(EventStore, KeepsTimestampsAcrossLongGapsAndBlocks) {
    EventStore s;
    std::vector<uint64_t> want;
    uint64_t t = 5;
    for (int i = 0; i < 3000; ++i) {
        t += (i % 1000 == 999) ? 10'000'000'000ull : 1234;  // 10 s gaps overflow the u32 delta
        want.push_back(t);
        s.append(ev(t, 0, EventKind::Wakeup, i));
    }
    s.finish();
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(s.tsAt(0, i), want[i]) << i;
}

TEST(EventStore, MergesCpusInTimeOrder) {
    EventStore s;
    s.append(ev(5, 1, EventKind::Wakeup, 1));
    s.append(ev(7, 1, EventKind::Wakeup, 2));
    s.append(ev(1, 0, EventKind::Wakeup, 3));
    s.append(ev(6, 0, EventKind::Wakeup, 4));
    s.append(ev(7, 0, EventKind::Wakeup, 5));
    s.finish();
    std::vector<int> pids;
    s.forEach([&](const SchedEvent& e) { pids.push_back(e.pid); return true; });
    EXPECT_EQ(pids, (std::vector<int>{3, 1, 4, 5, 2}));
}

TEST(EventStore, PidReuseCountedInTimeOrder) {
    EventStore s;
    // Appended per CPU out of global order: the exit (t=50) precedes the second fork (t=60).
    s.append(ev(10, 0, EventKind::ProcessFork, 1, 99));
    s.append(ev(60, 0, EventKind::ProcessFork, 1, 99));
    s.append(ev(50, 1, EventKind::ProcessExit, 99));
    s.finish();
    EXPECT_EQ(s.anomaly(Anomaly::PidReuse), 1u);
}

// finish() judges each batch on its own (a live view finishes a chunk on every refresh): an
// exit seen in one batch leaves nothing behind for a fork in the next, however big the pid.
TEST(EventStore, FinishLeavesNoExitBehind) {
    EventStore s;
    s.append(ev(10, 0, EventKind::ProcessExit, 99));
    s.append(ev(20, 0, EventKind::ProcessExit, 4000000));
    s.finish();
    s.append(ev(30, 0, EventKind::ProcessFork, 1, 99));
    s.append(ev(40, 0, EventKind::ProcessFork, 1, 4000000));
    s.append(ev(50, 0, EventKind::ProcessExit, 98));
    s.append(ev(60, 0, EventKind::ProcessFork, 1, 98));
    s.finish();
    EXPECT_EQ(s.anomaly(Anomaly::PidReuse), 1u);  // only 98, exit and fork in the same batch
}

// The kernel's pids stay below PID_MAX_LIMIT (2^22): a larger one is a corrupt record, kept as
// an event but not counted as a task, and it sizes no per-pid bitset.
TEST(EventStore, PidsFromTheKernelsRangeOnlyAreTasks) {
    EventStore s;
    s.append(ev(10, 0, EventKind::Waking, (1 << 22) - 1));
    s.finish();
    EXPECT_EQ(s.taskCount(), 1u);
    const size_t withLargestPid = s.residentBytes();
    s.append(ev(20, 0, EventKind::Waking, 1 << 22));
    s.append(ev(30, 0, EventKind::ProcessFork, 1, 60000000));
    s.append(ev(40, 0, EventKind::ProcessExit, 60000000));
    s.finish();
    EXPECT_EQ(s.size(), 4u);
    EXPECT_EQ(s.taskCount(), 2u);  // the valid pid and the parent, 1
    EXPECT_LT(s.residentBytes(), withLargestPid + 4096);
}

TEST(EventStore, CommHistoryPerTask) {
    EventStore s;
    s.noteComm(7, 100, "bash");
    s.noteComm(7, 100, "bash");
    s.noteComm(7, 300, "stress-ng");
    EXPECT_EQ(s.commAt(7, 50), "bash");
    EXPECT_EQ(s.commAt(7, 200), "bash");
    EXPECT_EQ(s.commAt(7, 300), "stress-ng");
    EXPECT_EQ(s.commAt(8, 300), "");
}

TEST(EventStore, ResidentSizeAtMost16BytesPerEvent) {
    EventStore s;
    for (int i = 0; i < 200000; ++i) {
        SchedEvent e = ev(1000ull * static_cast<uint64_t>(i), i % 4, EventKind::Switch, i % 300, (i + 1) % 300);
        s.append(e);
        if (i % 1000 == 0) s.noteComm(i % 300, e.ts, "task" + std::to_string(i % 300));
    }
    s.finish();
    EXPECT_LE(static_cast<double>(s.residentBytes()) / static_cast<double>(s.size()), 16.0);
}

TEST(SchedTracker, RunSlicesAndTaskStatesWithWaker) {
    EventStore s;
    SchedEvent a = ev(100, 0, EventKind::Switch, 0, 10);  // idle -> 10
    a.state = TaskState::Runnable;
    SchedEvent w = ev(150, 0, EventKind::Waking, 20);  // 10 wakes 20 on cpu 1
    w.dstCpu = 1;
    SchedEvent b = ev(200, 1, EventKind::Switch, 0, 20);
    b.state = TaskState::Runnable;
    SchedEvent c = ev(300, 0, EventKind::Switch, 10, 0);  // 10 sleeps
    c.state = TaskState::Sleeping;
    for (const auto& e : {a, w, b, c}) s.append(e);
    s.finish();
    auto slices = computeRunSlices(s);
    ASSERT_EQ(slices.size(), 2u);
    ASSERT_GE(slices[0].size(), 2u);
    EXPECT_EQ(slices[0][1].pid, 10);
    EXPECT_EQ(slices[0][1].start, 100u);
    EXPECT_EQ(slices[0][1].end, 300u);
    EXPECT_EQ(slices[0][1].endState, TaskState::Sleeping);
    auto ivs = computeTaskIntervals(s);
    std::vector<TaskInterval> of20;
    for (const auto& iv : ivs)
        if (iv.pid == 20) of20.push_back(iv);
    ASSERT_EQ(of20.size(), 2u);
    EXPECT_EQ(of20[0].phase, TaskPhase::Runnable);
    EXPECT_EQ(of20[0].waker, 10);
    EXPECT_EQ(of20[0].start, 150u);
    EXPECT_EQ(of20[0].end, 200u);
    EXPECT_EQ(of20[1].phase, TaskPhase::Running);
}

TEST(SchedTracker, WakerFromTheWakingRecordSurvivesALostSwitch) {
    // CPU 0 runs 10, which switches to 20 but that switch was lost; 20 then wakes 30. The
    // switches still say 10 is current; the waking record's common_pid says 20.
    EventStore s;
    SchedEvent a = ev(100, 0, EventKind::Switch, 0, 10);
    SchedEvent w = ev(200, 0, EventKind::Waking, 30);
    w.dstCpu = 1;
    w.waker = 20;
    SchedEvent old = ev(300, 0, EventKind::Waking, 40);  // a source without common_pid
    old.dstCpu = 1;
    SchedEvent wu = ev(400, 1, EventKind::Wakeup, 50);  // sched_wakeup from the remote wakeup list
    wu.dstCpu = 1;
    wu.waker = 0;
    for (const auto& e : {a, w, old, wu}) s.append(e);
    s.finish();
    std::map<int32_t, int32_t> wakerOfPid;
    for (const auto& iv : computeTaskIntervals(s))
        if (iv.phase == TaskPhase::Runnable) wakerOfPid[iv.pid] = iv.waker;
    EXPECT_EQ(wakerOfPid[30], 20);
    EXPECT_EQ(wakerOfPid[40], 10);  // falls back to the switches
    EXPECT_EQ(wakerOfPid[50], -1);  // nothing ran on CPU 1 yet: not the idle task named by the record
}

TEST(EventStore, TrimKeepsOnlyTheWindow) {
    EventStore s;
    // 3000 events per CPU over blocks, a 10 s gap (overflowing deltas), and an out-of-order one.
    for (int cpu = 0; cpu < 2; ++cpu)
        for (uint64_t i = 0; i < 3000; ++i) 
            s.append(ev(1000 + i * 10 + (i >= 2000 ? 10'000'000'000ull : 0), cpu, EventKind::Wakeup, static_cast<int>(i)));
    s.append(ev(1005, 1, EventKind::Switch, 7, 8));  // out of order on CPU 1
    s.noteComm(7, 1000, "old");
    s.noteComm(7, 2000, "mid");
    s.noteComm(7, 30000, "new");
    const uint64_t anomaliesBefore = s.anomaly(Anomaly::OutOfOrder);
    EXPECT_EQ(s.trim(1000 + 1500 * 10), 2 * 1500u + 1);
    EXPECT_EQ(s.size(), 2 * 1500u);
    EXPECT_EQ(s.count(EventKind::Switch), 0u);
    EXPECT_EQ(s.count(EventKind::Wakeup), 3000u);
    EXPECT_EQ(s.firstTs(), 1000u + 1500 * 10);
    EXPECT_EQ(s.anomaly(Anomaly::OutOfOrder), anomaliesBefore) << "counters are cumulative";
    for (int cpu = 0; cpu < 2; ++cpu) {
        ASSERT_EQ(s.cpuSize(cpu), 1500u);
        EXPECT_EQ(s.at(cpu, 0).pid, 1500);
        EXPECT_EQ(s.tsAt(cpu, 500), 1000u + 2000 * 10 + 10'000'000'000ull);  // the overflowing one survives
    }
    EXPECT_EQ(s.commAt(7, 0), "mid") << "the name at the cut is kept, older ones dropped";
    EXPECT_EQ(s.commAt(7, 40000), "new");
    // Appending after a trim continues normally; trimming everything empties the store.
    s.append(ev(20'000'000'000ull, 0, EventKind::Wakeup, 1));
    s.finish();
    EXPECT_EQ(s.size(), 3001u);
    EXPECT_EQ(s.trim(UINT64_MAX), 3001u);
    EXPECT_EQ(s.size(), 0u);
    size_t n = 0;
    s.forEach([&](const SchedEvent&) {
        ++n;
        return true;
    });
    EXPECT_EQ(n, 0u);
}
