// Wakeups in a hardware interrupt: a trace record's flags say when its tracepoint ran in a
// hardirq or an NMI. A sched_waking there (an hrtimer's expiry: nanosleep, timerfd, a futex
// timeout; a device) is no task's doing, though its common_pid names the task it interrupted:
// wakerOf() gives it no waker, so a replay turns the sleep it ends into a timed sleep instead
// of a wait on a CPU hog that happened to be running.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "event_store.h"
#include "sched_tracker.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "trace_reader.h"

using namespace schedscope::tracing;

namespace {

std::string stressDuringApt() { return schedscope::test::dataPath("traces/replay/stress-during-apt.dat"); }

TEST(HardirqWakeups, TheRecordFlagsSayWhichWakeupsRanInAHardwareInterrupt) {
    auto store = readTraceDat(stressDuringApt());
    ASSERT_TRUE(store.ok()) << store.error();
    std::map<EventKind, int> hardirq, all;
    store->forEach([&](const SchedEvent& e) {
        if (!isWakeKind(e.kind)) return true;
        ++all[e.kind];
        hardirq[e.kind] += e.inHardirq;
        return true;
    });
    // `trace-cmd report -l` (3.1.6) on this file: the sched_waking and sched_wakeup records whose
    // flags column has h, H, z or Z in its third place
    EXPECT_EQ(all[EventKind::Waking], 1443);
    EXPECT_EQ(hardirq[EventKind::Waking], 337);
    EXPECT_EQ(hardirq[EventKind::Wakeup], 371);  // mostly the wake list's IPI on the target CPU
    EXPECT_EQ(hardirq[EventKind::WakeupNew], 0);  // a fork's wakeup runs in the parent
}

TEST(HardirqWakeups, ASleepEndedInAHardirqHasNoWakerAndOthersKeepTheirs) {
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
        if (w.inHardirq) {
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

TEST(HardirqWakeups, TheStoreKeepsTheFlagBesideTheSwitchState) {
    EventStore s;
    SchedEvent sw = schedscope::test::switchEvent(10, 0, 5, 6, TaskState::Idle);
    sw.inHardirq = true;
    s.append(sw);
    SchedEvent wake = schedscope::test::wakeEvent(20, 0, EventKind::Waking, 7, 1, 6);
    wake.inHardirq = true;
    s.append(wake);
    s.append(schedscope::test::wakeEvent(30, 0, EventKind::Waking, 8, 1, 6));
    s.finish();
    const SchedEvent a = s.at(0, 0), b = s.at(0, 1), c = s.at(0, 2);
    EXPECT_EQ(a.state, TaskState::Idle);
    EXPECT_TRUE(a.inHardirq);
    EXPECT_EQ(b.state, TaskState::Unknown);
    EXPECT_TRUE(b.inHardirq);
    EXPECT_EQ(b.waker, 6);  // the interrupted task: still the evidence of what ran there
    EXPECT_EQ(wakerOf(b, 6), -1);
    EXPECT_FALSE(c.inHardirq);
    EXPECT_EQ(wakerOf(c, 6), 6);
}

TEST(HardirqWakeups, TheTextFormatsFlagsColumnSaysItToo) {
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
        flags[e.pid].push_back(e.inHardirq);
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
TEST(HardirqWakeups, ASchedWakeupInAHardirqCreditsNoTaskWithoutSchedWaking) {
    using schedscope::test::switchEvent;
    using schedscope::test::wakeEvent;
    constexpr int P = 10, C = 20, D = 30;
    EventStore s;
    s.append(switchEvent(0, 0, 0, P, TaskState::Runnable));
    s.append(switchEvent(1, 1, C, 0, TaskState::Sleeping));
    s.append(switchEvent(2, 1, D, 0, TaskState::Sleeping));
    SchedEvent ipi = wakeEvent(100, 0, EventKind::Wakeup, C, 0, P);  // on CPU 0, where P runs
    ipi.inHardirq = true;
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
