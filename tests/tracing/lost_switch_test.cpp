// computeTaskIntervals() when a sched_switch that took a task off its CPU was lost (this VM's
// kernel drops some, uncounted): the task must not stay Running over the tasks that ran after
// it. On the recorded traces, Running intervals on one CPU never overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
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

std::vector<TaskInterval> intervals(const std::vector<SchedEvent>& events) {
    EventStore s;
    for (const auto& e : events) s.append(e);
    s.finish();
    return computeTaskIntervals(s);
}

const TaskInterval* runningOf(const std::vector<TaskInterval>& ivs, int pid) {
    for (const auto& iv : ivs)
        if (iv.pid == pid && iv.phase == TaskPhase::Running) return &iv;
    return nullptr;
}

}  // namespace

TEST(LostSwitch, ASwitchNamingAnotherPrevEndsTheStaleRunningTask) {
    // idle -> 10 on CPU 0 at 100; 10's switch out (10 -> 20) is lost; 20 -> idle at 500
    const auto ivs = intervals({switchEvent(100, 0, 0, 10, TaskState::Runnable),
                                switchEvent(500, 0, 20, 0, TaskState::Sleeping),
                                switchEvent(900, 1, 0, 30, TaskState::Runnable)});
    const TaskInterval* ten = runningOf(ivs, 10);
    ASSERT_NE(ten, nullptr);
    EXPECT_EQ(ten->start, 100u);
    EXPECT_EQ(ten->end, 500u) << "not until the end of the trace";
}

// A sched_waking's common_pid is the task running on its CPU: 10 running at 100 with the next
// switch at 500 (10 or 20 switching out) ends at 300 when 20 runs that waking, not when 10 does.
TEST(LostSwitch, AWakingInAnotherTasksContextEndsItEarlier) {
    for (const int wakerContext : {20, 10}) {
        const int prevAt500 = wakerContext;  // the task the switch at 500 says was running
        const auto ivs = intervals({switchEvent(100, 0, 0, 10, TaskState::Runnable),
                                    wakeEvent(300, 0, EventKind::Waking, 40, 1, wakerContext),
                                    switchEvent(500, 0, prevAt500, 0, TaskState::Sleeping)});
        const TaskInterval* ten = runningOf(ivs, 10);
        ASSERT_NE(ten, nullptr);
        EXPECT_EQ(ten->end, wakerContext == 10 ? 500u : 300u) << "waking in " << wakerContext << "'s context";
    }
}

class RecordedTrace : public ::testing::TestWithParam<std::string> {};

// Before the lost-switch rule, pinned.dat's tokio-rt-worker stayed Running on CPU 0 from its
// last switch in to the end of the trace (0.51 s over the spin loops that ran there).
TEST_P(RecordedTrace, RunningIntervalsOnOneCpuNeverOverlap) {
    auto store = readTraceDat(schedscope::test::dataPath("traces/" + GetParam()));
    ASSERT_TRUE(store) << store.error();
    std::map<int32_t, std::vector<const TaskInterval*>> byCpu;
    const auto ivs = computeTaskIntervals(*store);
    for (const auto& iv : ivs)
        if (iv.phase == TaskPhase::Running && iv.end > iv.start) byCpu[iv.cpu].push_back(&iv);
    for (auto& [cpu, list] : byCpu) {
        std::sort(list.begin(), list.end(), [](const TaskInterval* a, const TaskInterval* b) { return a->start < b->start; });
        for (size_t i = 1; i < list.size(); ++i)
            ASSERT_LE(list[i - 1]->end, list[i]->start)
                << GetParam() << " cpu " << cpu << ": pid " << list[i - 1]->pid << " running " << list[i - 1]->start << ".."
                << list[i - 1]->end << " overlaps pid " << list[i]->pid << " from " << list[i]->start;
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RecordedTrace,
                         ::testing::Values("record-v6.dat", "mixed-v7.dat", "replay/pingpong.dat", "replay/forkstorm.dat",
                                           "replay/pinned.dat", "replay/hackbench.dat", "replay/pingpong-lost-switches.dat",
                                           "replay/pingpong-raced-wakeup.dat"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& c : name)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });
