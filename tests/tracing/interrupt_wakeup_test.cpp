// Wakeups an interrupt did (interrupt_context.h): a trace record's flags say when its
// tracepoint ran in a hardirq or an NMI, or in a softirq, and the trace's softirq_entry events
// say what that softirq served. A sched_waking in a hardirq (an hrtimer's expiry: nanosleep,
// timerfd, a futex timeout; a device) or in a timer, block, RCU... softirq is no task's doing,
// though its common_pid names the task it interrupted: wakerOf() gives it no waker, so a replay
// turns the sleep it ends into a timed sleep instead of a wait on a CPU hog that happened to be
// running. A network softirq's wakeup stays with its task (loopback TCP).
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "event_store.h"
#include "interrupt_context.h"
#include "sched_tracker.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "trace_reader.h"

using namespace schedscope::tracing;

namespace {

std::string stressDuringApt() { return schedscope::test::dataPath("traces/replay/stress-during-apt.dat"); }
std::string busyIo() { return schedscope::test::dataPath("traces/replay/busy-io.dat"); }

int interruptWakings(const EventStore& store) {
    int n = 0;
    store.forEach([&](const SchedEvent& e) {
        n += e.kind == EventKind::Waking && e.byInterrupt;
        return true;
    });
    return n;
}

TEST(InterruptWakeups, TheRecordFlagsSayWhichWakeupsRanInAHardwareInterrupt) {
    auto store = readTraceDat(stressDuringApt());
    ASSERT_TRUE(store.ok()) << store.error();
    std::map<EventKind, int> hardirq, all;
    store->forEach([&](const SchedEvent& e) {
        if (!isWakeKind(e.kind)) return true;
        ++all[e.kind];
        hardirq[e.kind] += e.byInterrupt;
        return true;
    });
    // `trace-cmd report -l` (3.1.6) on this file: the sched_waking and sched_wakeup records whose
    // flags column has h, H, z or Z in its third place
    EXPECT_EQ(all[EventKind::Waking], 1443);
    EXPECT_EQ(hardirq[EventKind::Waking], 337);
    EXPECT_EQ(hardirq[EventKind::Wakeup], 371);  // mostly the wake list's IPI on the target CPU
    EXPECT_EQ(hardirq[EventKind::WakeupNew], 0);  // a fork's wakeup runs in the parent
}

TEST(InterruptWakeups, ASleepEndedInAHardirqHasNoWakerAndOthersKeepTheirs) {
    auto store = readTraceDat(stressDuringApt());
    ASSERT_TRUE(store.ok()) << store.error();
    // the wakings that open a Runnable interval at their own time (a raced waking opens it later)
    std::map<std::pair<int32_t, uint64_t>, SchedEvent> wakings;
    store->forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::Waking) wakings[{e.pid, e.ts}] = e;
        return true;
    });
    int fromHardirq = 0, fromTask = 0;
    for (const TaskInterval& iv : computeTaskIntervals(*store)) {
        if (iv.phase != TaskPhase::Runnable) continue;
        auto it = wakings.find({iv.pid, iv.start});
        if (it == wakings.end()) continue;
        const SchedEvent& w = it->second;
        if (w.byInterrupt) {
            EXPECT_EQ(iv.waker, -1) << "pid " << iv.pid << " at " << iv.start << ": credited to " << iv.waker;
            ++fromHardirq;
        } else {
            EXPECT_EQ(iv.waker, w.waker) << "pid " << iv.pid << " at " << iv.start;
            ++fromTask;
        }
    }
    std::printf("sleeps ended by a waking in a hardirq: %d, elsewhere: %d\n", fromHardirq, fromTask);
    EXPECT_GT(fromHardirq, 200);
    EXPECT_GT(fromTask, 500);
}

TEST(InterruptWakeups, TheStoreKeepsTheFlagBesideTheSwitchState) {
    EventStore s;
    SchedEvent sw = schedscope::test::switchEvent(10, 0, 5, 6, TaskState::Idle);
    sw.byInterrupt = true;
    s.append(sw);
    SchedEvent wake = schedscope::test::wakeEvent(20, 0, EventKind::Waking, 7, 1, 6);
    wake.byInterrupt = true;
    s.append(wake);
    s.append(schedscope::test::wakeEvent(30, 0, EventKind::Waking, 8, 1, 6));
    s.finish();
    const SchedEvent a = s.at(0, 0), b = s.at(0, 1), c = s.at(0, 2);
    EXPECT_EQ(a.state, TaskState::Idle);
    EXPECT_TRUE(a.byInterrupt);
    EXPECT_EQ(b.state, TaskState::Unknown);
    EXPECT_TRUE(b.byInterrupt);
    EXPECT_EQ(b.waker, 6);  // the interrupted task: still the evidence of what ran there
    EXPECT_EQ(wakerOf(b, 6), -1);
    EXPECT_FALSE(c.byInterrupt);
    EXPECT_EQ(wakerOf(c, 6), 6);
}

TEST(InterruptWakeups, TheTextFormatsFlagsColumnSaysItToo) {
    const std::string text =
        "  stress-ng-cpu-6686 [001] d.h2. 19083.500000: sched_waking: comm=apt-get pid=6618 prio=120 target_cpu=000\n"
        "  stress-ng-cpu-6686 [001] d.s3. 19083.500100: sched_waking: comm=mandb pid=6690 prio=120 target_cpu=001\n"
        "  stress-ng-cpu-6686 [001] d.H3. 19083.500200: sched_waking: comm=dpkg pid=6632 prio=120 target_cpu=001\n"
        "  dpkg-6632 [000] d..3. 19083.500300: sched_waking: comm=rm pid=6685 prio=120 target_cpu=000\n"
        "  dpkg-6632 [000] 19083.500400: sched_waking: comm=rm pid=6685 prio=120 target_cpu=000\n";
    auto store = parseFtraceText(text, "flags.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    std::map<int32_t, std::vector<bool>> flags;
    store->forEach([&](const SchedEvent& e) {
        flags[e.pid].push_back(e.byInterrupt);
        return true;
    });
    EXPECT_EQ(flags[6618], std::vector<bool>{true});
    EXPECT_EQ(flags[6690], std::vector<bool>{false});  // a softirq keeps its task
    EXPECT_EQ(flags[6632], std::vector<bool>{true});   // a hardirq that came in during a softirq
    EXPECT_EQ(flags[6685], (std::vector<bool>{false, false}));  // no flags column: not known
}

}  // namespace

namespace {

// A trace without sched_waking (kernels before 4.3, or a recording that left it out): the
// sched_wakeup starts the wakee's runnable interval and its waker is the CPU's current task,
// unless it ran in a hardirq: then it is the wake list's IPI or an interrupt, and nobody's.
TEST(InterruptWakeups, ASchedWakeupInAHardirqCreditsNoTaskWithoutSchedWaking) {
    using schedscope::test::switchEvent;
    using schedscope::test::wakeEvent;
    constexpr int P = 10, C = 20, D = 30;
    EventStore s;
    s.append(switchEvent(0, 0, 0, P, TaskState::Runnable));
    s.append(switchEvent(1, 1, C, 0, TaskState::Sleeping));
    s.append(switchEvent(2, 1, D, 0, TaskState::Sleeping));
    SchedEvent ipi = wakeEvent(100, 0, EventKind::Wakeup, C, 0, P);  // on CPU 0, where P runs
    ipi.byInterrupt = true;
    s.append(ipi);
    s.append(wakeEvent(200, 0, EventKind::Wakeup, D, 0, P));  // P's own wakeup of D
    s.finish();
    std::map<int32_t, int32_t> wakerOfSleeper;
    for (const TaskInterval& iv : computeTaskIntervals(s))
        if (iv.phase == TaskPhase::Runnable) wakerOfSleeper[iv.pid] = iv.waker;
    EXPECT_EQ(wakerOfSleeper.at(C), -1);
    EXPECT_EQ(wakerOfSleeper.at(D), P);
}

}  // namespace

namespace {

// busy-io.dat, recorded with softirq_entry: two CPU hogs beside a loop of direct-I/O dd and
// sleeps. `trace-cmd report -l` on it, each CPU's latest softirq_entry vector followed by hand:
// 985 sched_waking, 339 in a hardirq, 422 in a softirq serving TIMER (48), BLOCK (310) or RCU
// (64), 224 in task context, none in a network softirq.
TEST(InterruptWakeups, TheSoftirqEntryVectorSaysWhatASoftirqWakeupServed) {
    auto store = readTraceDat(busyIo());
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store->count(EventKind::Waking), 985u);
    EXPECT_EQ(interruptWakings(*store), 339 + 422);
}

TEST(InterruptWakeups, TheCpuHogsWakeNobodyButTheirParent) {
    auto store = readTraceDat(busyIo());
    ASSERT_TRUE(store.ok()) << store.error();
    std::map<int32_t, std::string> comm;
    std::map<int32_t, int32_t> parent;
    store->forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::ProcessFork) parent[e.pid2] = e.pid;
        return true;
    });
    int fromHogs = 0, dd = 0;
    for (const TaskInterval& iv : computeTaskIntervals(*store)) {
        if (iv.phase != TaskPhase::Runnable || iv.waker <= 0) continue;
        const std::string waker(store->commAt(iv.waker, iv.start));
        if (waker == "stress-ng-cpu") {
            // a hog makes no system call that wakes anyone: only its exit wakes stress-ng
            EXPECT_EQ(iv.pid, parent[iv.waker]) << "stress-ng-cpu " << iv.waker << " credited with waking " << iv.pid;
            ++fromHogs;
        }
        if (store->commAt(iv.pid, iv.start) == "dd") ++dd;
    }
    EXPECT_LE(fromHogs, 2);
    // dd's 30 x 8 direct writes completed in BLOCK softirqs and hardirqs, mostly while a hog ran
    std::printf("dd's sleeps ended by a task: %d\n", dd);
    EXPECT_LT(dd, 10);
}

TEST(InterruptWakeups, ANetworkSoftirqWakeupKeepsItsTaskAndOthersDoNot) {
    EXPECT_FALSE(byInterrupt(false, false, -1));
    EXPECT_TRUE(byInterrupt(true, false, -1));
    EXPECT_FALSE(byInterrupt(false, true, -1));  // a softirq of unknown purpose
    EXPECT_FALSE(byInterrupt(false, true, static_cast<int>(SoftirqVec::NetRx)));
    EXPECT_FALSE(byInterrupt(false, true, static_cast<int>(SoftirqVec::NetTx)));
    for (SoftirqVec v : {SoftirqVec::Hi, SoftirqVec::Timer, SoftirqVec::Block, SoftirqVec::IrqPoll, SoftirqVec::Tasklet,
                         SoftirqVec::Sched, SoftirqVec::Hrtimer, SoftirqVec::Rcu})
        EXPECT_TRUE(byInterrupt(false, true, static_cast<int>(v))) << static_cast<int>(v);
    SoftirqTracker t;
    EXPECT_EQ(t.vec(3), -1);
    t.enter(3, 4);
    EXPECT_EQ(t.vec(3), 4);
    EXPECT_EQ(t.vec(2), -1);
    t.enter(3, 3);  // the next vector of the same __do_softirq(): no exit needed
    EXPECT_EQ(t.vec(3), 3);
    t.exit(3);
    EXPECT_EQ(t.vec(3), -1);
    t.enter(3, 12);  // not a vector this code knows
    EXPECT_EQ(t.vec(3), -1);
}

TEST(InterruptWakeups, TheTextFormatsSoftirqEntryLinesCountToo) {
    const std::string text =
        "  stress-ng-cpu-6686 [001] d.s3. 19083.500000: sched_waking: comm=dd pid=70 prio=120 target_cpu=001\n"
        "  stress-ng-cpu-6686 [001] ..s1. 19083.500100: softirq_entry: vec=4 [action=BLOCK]\n"
        "  stress-ng-cpu-6686 [001] d.s3. 19083.500200: sched_waking: comm=dd pid=71 prio=120 target_cpu=001\n"
        "  stress-ng-cpu-6686 [001] ..s1. 19083.500300: softirq_exit: vec=4 [action=BLOCK]\n"
        "  python3-90 [000] ..s1. 19083.500400: softirq_entry: vec=3 [action=NET_RX]\n"
        "  python3-90 [000] d.s5. 19083.500500: sched_waking: comm=python3 pid=91 prio=120 target_cpu=001\n";
    auto store = parseFtraceText(text, "softirq.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    std::map<int32_t, bool> byPid;
    store->forEach([&](const SchedEvent& e) {
        byPid[e.pid] = e.byInterrupt;
        return true;
    });
    EXPECT_FALSE(byPid.at(70));  // before any softirq_entry on its CPU: of unknown purpose
    EXPECT_TRUE(byPid.at(71));   // BLOCK
    EXPECT_FALSE(byPid.at(91));  // NET_RX: the sender's
    EXPECT_EQ(store->otherEvents().at("softirq_entry"), 2u);
}

}  // namespace
