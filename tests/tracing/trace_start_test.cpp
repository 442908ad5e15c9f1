// Tasks the trace finds on a CPU when it starts: the prev of a CPU's first sched_switch ran
// there since the trace began, a switch's next that no wakeup preceded was runnable since then
// (computeTaskIntervals(), computeRunSlices()). A CPU makes no sched event while it runs one
// task, so its first event is no start of anything.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "event_store.h"
#include "sched_tracker.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "trace_reader.h"

using namespace schedscope::tracing;
using schedscope::test::switchEvent;
using schedscope::test::wakeEvent;

namespace {

EventStore traceStartStore(const std::vector<SchedEvent>& events, uint64_t lost = 0) {
    EventStore s;
    for (const auto& e : events) s.append(e);
    if (lost) s.addAnomaly(Anomaly::LostEvents, lost);
    s.finish();
    return s;
}

const TaskInterval* firstIntervalOf(const std::vector<TaskInterval>& ivs, int pid) {
    for (const auto& iv : ivs)
        if (iv.pid == pid) return &iv;
    return nullptr;
}

// CPU 1 starts the trace at 50; CPU 0's first events: 10 wakes 40 at 120, then switches to 20
// (never woken in the trace) at 200 and sleeps.
const std::vector<SchedEvent> kTraceStartEvents = {switchEvent(50, 1, 0, 30, TaskState::Runnable),
                                          wakeEvent(120, 0, EventKind::Waking, 40, 1, 10),
                                          switchEvent(200, 0, 10, 20, TaskState::Sleeping)};

}  // namespace

TEST(TraceStart, TheFirstSwitchsPrevRanAndItsNextWaitedSinceTheTraceBegan) {
    const EventStore s = traceStartStore(kTraceStartEvents);
    const auto ivs = computeTaskIntervals(s);
    const TaskInterval* ten = firstIntervalOf(ivs, 10);
    ASSERT_NE(ten, nullptr);
    EXPECT_EQ(ten->phase, TaskPhase::Running);
    EXPECT_EQ(ten->start, 50u) << "the trace's start, not CPU 0's first event";
    EXPECT_EQ(ten->end, 200u);
    EXPECT_EQ(ten->cpu, 0);
    EXPECT_TRUE(ten->startUnseen);
    const TaskInterval* twenty = firstIntervalOf(ivs, 20);
    ASSERT_NE(twenty, nullptr);
    EXPECT_EQ(twenty->phase, TaskPhase::Runnable);
    EXPECT_EQ(twenty->start, 50u);
    EXPECT_EQ(twenty->end, 200u);
    EXPECT_TRUE(twenty->startUnseen) << "a wait of unknown start: wait latencies leave it out";
    // the run slices agree: CPU 0 ran 10 from the start
    const auto slices = computeRunSlices(s);
    ASSERT_FALSE(slices[0].empty());
    EXPECT_EQ(slices[0].front().start, 50u);
    EXPECT_EQ(slices[0].front().pid, 10);
}

TEST(TraceStart, WhereTheTraceLostEventsACpuIsKnownFromItsOwnFirstEvent) {
    // an overwritten ring buffer may have dropped the CPU's earliest events
    const EventStore s = traceStartStore(kTraceStartEvents, 3);
    EXPECT_EQ(cpuKnownFrom(s, 0), 120u);
    EXPECT_EQ(cpuKnownFrom(s, 1), 50u);
    const auto ivs = computeTaskIntervals(s);
    const TaskInterval* ten = firstIntervalOf(ivs, 10);
    ASSERT_NE(ten, nullptr);
    EXPECT_EQ(ten->start, 120u);
    EXPECT_EQ(computeRunSlices(s)[0].front().start, 120u);
}

TEST(TraceStart, APrevWhoseSwitchInWasLostGetsNoRunningInterval) {
    // CPU 0's first switch put 10 there; 20 shows up as a later switch's prev: when it began is
    // not known, and before the switch the CPU was 10's
    const EventStore s = traceStartStore({switchEvent(100, 0, 0, 10, TaskState::Runnable),
                                  switchEvent(300, 0, 20, 0, TaskState::Sleeping)});
    const auto ivs = computeTaskIntervals(s);
    const TaskInterval* twenty = firstIntervalOf(ivs, 20);
    ASSERT_NE(twenty, nullptr);
    EXPECT_EQ(twenty->phase, TaskPhase::Sleeping);
    EXPECT_EQ(twenty->start, 300u);
}

// job-in-cgroups.dat: the trace starts with the recorder's fork on CPU 1 while CPU 0 runs a
// cc1plus whose first switch comes 3 ms later. That cc1plus ran from the trace's start, and
// the other one, switched in without a wakeup, waited from it.
TEST(TraceStart, ARecordingsBusyCpuIsBusyFromItsFirstTimestamp) {
    auto store = readTraceDat(schedscope::test::dataPath("traces/replay/job-in-cgroups.dat"));
    ASSERT_TRUE(store) << store.error();
    const auto ivs = computeTaskIntervals(*store);
    const TaskInterval* ran = firstIntervalOf(ivs, 29447);
    ASSERT_NE(ran, nullptr);
    EXPECT_EQ(ran->phase, TaskPhase::Running);
    EXPECT_EQ(ran->start, store->firstTs());
    EXPECT_EQ(ran->cpu, 0);
    EXPECT_GT(ran->end - ran->start, 2'500'000u) << "3 ms of CPU time the trace's start used to hide";
    const TaskInterval* waited = firstIntervalOf(ivs, 29440);
    ASSERT_NE(waited, nullptr);
    EXPECT_EQ(waited->phase, TaskPhase::Runnable);
    EXPECT_EQ(waited->start, store->firstTs());
    EXPECT_TRUE(waited->startUnseen);
}
