// computeTaskIntervals() when a wakeup races the wakee's way to sleep: try_to_wake_up() finds the
// task still on its CPU with its sleeping state set, so sched_waking is recorded before the
// wakee's sched_switch out (prev_state S). The kernel does not lose that wakeup: it wakes the
// task from the sleep it is entering (ttwu_runnable() while still queued, else the wake list
// once it is off the CPU). The sleep that follows is the one that waking ends.
#include <gtest/gtest.h>

#include <vector>

#include "event_store.h"
#include "sched_tracker.h"
#include "support/sched_events.h"

using namespace schedscope::tracing;

// Its own namespace: P and C name other pids in causes_test.cpp, which a unity build compiles
// in the same translation unit.
namespace raced_wakeup_test {
namespace {

constexpr int P = 10, C = 20;  // P on CPU 0 wakes C on CPU 1

SchedEvent sw(uint64_t ts, int cpu, int prev, int next, TaskState st) {
    return schedscope::test::switchEvent(ts, cpu, prev, next, st);
}
SchedEvent wake(uint64_t ts, int cpu, EventKind k, int pid, int dst, int waker) {
    return schedscope::test::wakeEvent(ts, cpu, k, pid, dst, waker);
}

std::vector<TaskInterval> intervalsOf(const std::vector<SchedEvent>& events, int pid) {
    EventStore s;
    for (const auto& e : events) s.append(e);
    s.finish();
    std::vector<TaskInterval> out;
    for (const auto& iv : computeTaskIntervals(s))
        if (iv.pid == pid) out.push_back(iv);
    return out;
}

// P and C running on their CPUs from t = 0.
std::vector<SchedEvent> bothRunning() {
    return {sw(0, 0, 0, P, TaskState::Runnable), sw(0, 1, 0, C, TaskState::Runnable)};
}

}  // namespace

TEST(RacedWakeup, TheWakeupAfterTheSwitchCompletesTheRacedWaking) {
    auto ev = bothRunning();
    ev.push_back(wake(100, 0, EventKind::Waking, C, 1, P));  // C has set TASK_INTERRUPTIBLE
    ev.push_back(sw(102, 1, C, 0, TaskState::Sleeping));      // ... and blocks
    ev.push_back(wake(104, 1, EventKind::Wakeup, C, 1, 0));   // from the wake list, in idle context
    ev.push_back(sw(105, 1, 0, C, TaskState::Runnable));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 4u);
    EXPECT_EQ(iv[0].phase, TaskPhase::Running) << "still on its CPU when P ran sched_waking";
    EXPECT_EQ(iv[0].end, 102u);
    EXPECT_EQ(iv[1].phase, TaskPhase::Sleeping);
    EXPECT_EQ(iv[2].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[2].start, 104u);
    EXPECT_EQ(iv[2].waker, P) << "the waking ended this sleep, not the idle task running the wakeup";
    EXPECT_EQ(iv[2].wokenAt, 100u);
    EXPECT_EQ(iv[3].phase, TaskPhase::Running);
}

TEST(RacedWakeup, LostWakeupAndSwitchInEndTheSleepAtTheNextSwitchOut) {
    // The recording VM drops idle-context events on CPU 1: neither C's sched_wakeup nor its
    // switch in is there. C runs anyway (it wakes P), then blocks again and P wakes it.
    auto ev = bothRunning();
    ev.push_back(wake(100, 0, EventKind::Waking, C, 1, P));
    ev.push_back(sw(102, 1, C, 0, TaskState::Sleeping));
    ev.push_back(sw(105, 0, P, 0, TaskState::Sleeping));
    ev.push_back(wake(110, 1, EventKind::Waking, P, 0, C));
    ev.push_back(sw(120, 1, C, 0, TaskState::Sleeping));
    ev.push_back(wake(130, 0, EventKind::Waking, C, 1, P));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 5u);
    EXPECT_EQ(iv[1].phase, TaskPhase::Sleeping);
    EXPECT_EQ(iv[1].start, 102u);
    EXPECT_EQ(iv[2].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[2].waker, P);
    EXPECT_EQ(iv[2].wokenAt, 100u);
    EXPECT_EQ(iv[2].start, 120u) << "the latest the lost wakeup can have been";
    EXPECT_EQ(iv[2].end, 120u);
    EXPECT_EQ(iv[3].phase, TaskPhase::Sleeping) << "a zero-length runnable sorts before the sleep it precedes";
    EXPECT_EQ(iv[3].start, 120u);
    EXPECT_EQ(iv[4].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[4].waker, P);
    EXPECT_EQ(iv[4].wokenAt, 130u);
}

TEST(RacedWakeup, AWakeupBeforeTheSwitchWonTheRaceAndNothingIsPending) {
    // ttwu_runnable(): C was still queued, is set running and never sleeps (no switch out).
    // Its later real sleep ends by a timer (sched_wakeup from idle): P did not end it.
    auto ev = bothRunning();
    ev.push_back(wake(100, 0, EventKind::Waking, C, 1, P));
    ev.push_back(wake(101, 0, EventKind::Wakeup, C, 1, P));
    ev.push_back(sw(200, 1, C, 0, TaskState::Sleeping));
    ev.push_back(wake(300, 1, EventKind::Wakeup, C, 1, 0));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 3u);
    EXPECT_EQ(iv[0].phase, TaskPhase::Running);
    EXPECT_EQ(iv[0].end, 200u);
    EXPECT_EQ(iv[2].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[2].start, 300u);
    EXPECT_NE(iv[2].waker, P);
}

TEST(RacedWakeup, APreemptionBeforeTheSwitchMeansTheWakeWonTheRace) {
    // ttwu set C running before schedule() read its state: the switch out says R (preempted).
    auto ev = bothRunning();
    ev.push_back(wake(100, 0, EventKind::Waking, C, 1, P));
    ev.push_back(sw(102, 1, C, 30, TaskState::Runnable));
    ev.push_back(sw(150, 1, 30, C, TaskState::Sleeping));
    ev.push_back(sw(200, 1, C, 0, TaskState::Sleeping));
    ev.push_back(wake(300, 1, EventKind::Wakeup, C, 1, 0));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 5u);
    EXPECT_EQ(iv[1].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[1].waker, -1) << "preempted, not woken";
    EXPECT_EQ(iv[4].phase, TaskPhase::Runnable);
    EXPECT_NE(iv[4].waker, P);
}

TEST(RacedWakeup, AnOrdinaryWakeupIsWokenAtItsOwnStart) {
    auto ev = bothRunning();
    ev.push_back(sw(50, 1, C, 0, TaskState::Sleeping));
    ev.push_back(wake(100, 0, EventKind::Waking, C, 1, P));
    ev.push_back(wake(104, 1, EventKind::Wakeup, C, 1, 0));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 3u);
    EXPECT_EQ(iv[2].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[2].start, 100u);
    EXPECT_EQ(iv[2].wokenAt, 100u);
    EXPECT_EQ(iv[2].waker, P);
}

TEST(RacedWakeup, ASecondWakingWhileTheRacedSleepLooksOpenRacedTheNextSleep) {
    // C's sched_wakeup and switch in after the first raced sleep are lost; C runs, wakes P and is
    // on its way to sleep again when P's next waking comes: that one ends C's next sleep.
    auto ev = bothRunning();
    ev.push_back(wake(100, 0, EventKind::Waking, C, 1, P));
    ev.push_back(sw(102, 1, C, 0, TaskState::Sleeping));
    ev.push_back(sw(105, 0, P, 0, TaskState::Sleeping));
    ev.push_back(wake(110, 1, EventKind::Waking, P, 0, C));
    ev.push_back(wake(115, 0, EventKind::Wakeup, P, 0, 0));
    ev.push_back(sw(116, 0, 0, P, TaskState::Runnable));
    ev.push_back(wake(140, 0, EventKind::Waking, C, 1, P));
    ev.push_back(sw(142, 1, C, 0, TaskState::Sleeping));
    ev.push_back(sw(145, 0, P, 0, TaskState::Sleeping));
    ev.push_back(wake(150, 1, EventKind::Waking, P, 0, C));
    ev.push_back(sw(160, 1, C, 0, TaskState::Sleeping));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 7u);
    EXPECT_EQ(iv[1].phase, TaskPhase::Sleeping);
    EXPECT_EQ(iv[1].start, 102u);
    EXPECT_EQ(iv[2].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[2].start, 140u);
    EXPECT_EQ(iv[2].wokenAt, 100u);
    // its switch out at 142 shows it ran: from 142 at the latest, how long it waited unknown
    EXPECT_EQ(iv[3].phase, TaskPhase::Running);
    EXPECT_EQ(iv[3].start, 142u);
    EXPECT_TRUE(iv[3].startUnseen);
    EXPECT_EQ(iv[4].phase, TaskPhase::Sleeping);
    EXPECT_EQ(iv[4].start, 142u);
    EXPECT_EQ(iv[4].end, 160u);
    EXPECT_EQ(iv[5].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[5].waker, P);
    EXPECT_EQ(iv[5].wokenAt, 140u) << "the second waking ended the sleep at 142, not a later one";
    EXPECT_EQ(iv[6].phase, TaskPhase::Sleeping);
}

// A switch in lost while the task waited (work.dat of a QA sweep: ld preempted at .351159, seen
// running a sched_waking at .359139 with no switch to it between): the wait ends unseen, and
// is no wait of 8 ms that ran on past the task's own events; the next wait is whole.
TEST(RacedWakeup, ALostSwitchInEndsTheWaitUnseen) {
    auto ev = bothRunning();
    ev.push_back(sw(100, 1, C, 0, TaskState::Runnable));     // C preempted (the idle task next, for brevity)
    ev.push_back(wake(900, 1, EventKind::Waking, P, 0, C));  // C runs: its switch in was lost
    ev.push_back(sw(910, 1, C, 0, TaskState::Runnable));
    ev.push_back(sw(925, 1, 0, C, TaskState::Runnable));
    const auto iv = intervalsOf(ev, C);
    ASSERT_EQ(iv.size(), 5u);
    EXPECT_EQ(iv[1].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[1].end, 900u);
    EXPECT_EQ(iv[2].phase, TaskPhase::Running);
    EXPECT_TRUE(iv[2].startUnseen);
    EXPECT_EQ(iv[3].phase, TaskPhase::Runnable);
    EXPECT_EQ(iv[3].start, 910u);
    EXPECT_EQ(iv[4].phase, TaskPhase::Running);
    EXPECT_FALSE(iv[4].startUnseen);
}

}  // namespace raced_wakeup_test
