// `trace-cmd report` prints a trace.dat in several shapes: the sched plugins' default, -l (the
// latency format: comm cut to 8 characters, CPU and irq flags run together), -R (raw fields:
// sched_switch without "==>", prev_state a number), --ts-diff ("(+ns)" after the timestamp),
// -R -l (common_flags in hex), -w (each switch's wakeup latency appended, a summary at the end). Each text of the same recording must give the events the
// trace.dat reader gives, field by field: the plugin's own prev_state letters ("SDTtZXxW", so
// an idle kthread's I prints as W) included. Then the old kernels' renderings the tracker must
// still end tasks on.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "event_store.h"
#include "sched_tracker.h"
#include "support/fixtures.h"
#include "trace_reader.h"

using namespace schedscope::tracing;

namespace {

struct Variant {
    const char* file;
    const char* name;
    bool flags;  // the text keeps the record's irq flags (-l)
};

class ReportVariants : public testing::TestWithParam<Variant> {};

TEST_P(ReportVariants, GiveTheEventsOfTheTraceDatFieldByField) {
    auto bin = readTraceDat(schedscope::test::dataPath("traces/replay/forkstorm.dat"));
    ASSERT_TRUE(bin.ok()) << bin.error();
    auto text = readFtraceText(schedscope::test::dataPath(std::string("traces/report-variants/") + GetParam().file));
    ASSERT_TRUE(text.ok()) << text.error();
    EXPECT_EQ(text->anomaly(Anomaly::GarbageLine), 0u);
    EXPECT_EQ(text->anomaly(Anomaly::Malformed), 0u);
    ASSERT_EQ(text->size(), bin->size());
    ASSERT_EQ(text->cpuCount(), bin->cpuCount());
    int idleKthreadSwitches = 0, interruptWakings = 0;
    for (int cpu = 0; cpu < bin->cpuCount(); ++cpu) {
        ASSERT_EQ(text->cpuSize(cpu), bin->cpuSize(cpu)) << "cpu " << cpu;
        for (size_t i = 0; i < bin->cpuSize(cpu); ++i) {
            const SchedEvent b = bin->at(cpu, i), t = text->at(cpu, i);
            SCOPED_TRACE("cpu " + std::to_string(cpu) + " event " + std::to_string(i) + " (" +
                         std::string(eventKindName(b.kind)) + " at " + std::to_string(b.ts) + ")");
            // report prints microseconds, rounded
            EXPECT_LE(t.ts > b.ts ? t.ts - b.ts : b.ts - t.ts, 500u);
            EXPECT_EQ(t.kind, b.kind);
            EXPECT_EQ(t.pid, b.pid);
            EXPECT_EQ(t.pid2, b.pid2);
            EXPECT_EQ(t.prio, b.prio);
            EXPECT_EQ(t.srcCpu, b.srcCpu);
            EXPECT_EQ(t.dstCpu, b.dstCpu);
            if (b.kind == EventKind::Switch) {
                EXPECT_EQ(t.state, b.state);
                idleKthreadSwitches += b.state == TaskState::Idle;
            }
            if (isWakeKind(b.kind)) {
                EXPECT_EQ(t.waker, b.waker);
                if (GetParam().flags) {
                    EXPECT_EQ(t.byInterrupt, b.byInterrupt);
                }
                interruptWakings += b.byInterrupt;
            }
        }
    }
    // the comms are whole, though -l cuts the task column's to 8 characters: at the end of the
    // trace every task has the name the default report gives it
    if (GetParam().flags) {
        auto plain = readFtraceText(schedscope::test::dataPath("traces/report-variants/forkstorm.report.txt"));
        ASSERT_TRUE(plain.ok()) << plain.error();
        const uint64_t end = plain->lastTs();
        plain->forEach([&](const SchedEvent& e) {
            if (e.kind == EventKind::Switch) {
                EXPECT_EQ(text->commAt(e.pid, end), plain->commAt(e.pid, end)) << e.pid;
            }
            return true;
        });
    }
    EXPECT_GT(idleKthreadSwitches, 0) << "the recording has switches out in I (the plugin's W)";
    EXPECT_GT(interruptWakings, 0);
}

INSTANTIATE_TEST_SUITE_P(TraceCmdReport, ReportVariants,
                         testing::Values(Variant{"forkstorm.report.txt", "plugins", false},
                                         Variant{"forkstorm.report-l.txt", "latency", true},
                                         Variant{"forkstorm.report-R.txt", "raw", false},
                                         Variant{"forkstorm.report-R-l.txt", "raw_latency", true},
                                         Variant{"forkstorm.report-ts-diff.txt", "ts_diff", false},
                                         Variant{"forkstorm.report-w.txt", "wakeup_latency", false}),
                         [](const testing::TestParamInfo<Variant>& i) { return std::string(i.param.name); });

// The plugin prints every kernel's prev_state with 2.6's letters: on a 4.14+ kernel, where x is
// P (64), a task is not ended by it; on an older one, where x was TASK_DEAD, it is the exiting
// task's last switch, which its sched_process_exit announces. A sleep after the exit event is
// not the end (exit_mm() and exit_files() may block).
TEST(ReportVariants, AfterItsExitEventATaskEndsAtItsFirstSwitchThatIsNotASleep) {
    const std::string text =
        "cpus=1\n"
        "          worker-100   [000]  10.000100: sched_process_exit:   comm=worker pid=100 prio=120\n"
        "          worker-100   [000]  10.000200: sched_switch:         worker:100 [120] D ==> sh:200 [120]\n"
        "              sh-200   [000]  10.000300: sched_waking:         comm=worker pid=100 prio=120 target_cpu=000\n"
        "              sh-200   [000]  10.000400: sched_switch:         sh:200 [120] S ==> worker:100 [120]\n"
        "          worker-100   [000]  10.000500: sched_switch:         worker:100 [120] x ==> kthreadd:2 [120]\n"
        "        kthreadd-2     [000]  10.000600: sched_switch:         kthreadd:2 [120] x ==> swapper/0:0 [120]\n";
    auto store = parseFtraceText(text, "old-kernel-report.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store->at(0, 4).state, TaskState::Parked);  // the plugin's x, read as a 4.14+ kernel's
    uint64_t workerEnd = 0, kthreadEnd = 0;
    int workerSleeps = 0;
    for (const TaskInterval& iv : computeTaskIntervals(*store)) {
        if (iv.pid == 100) {
            workerEnd = std::max(workerEnd, iv.end);
            workerSleeps += iv.phase == TaskPhase::Sleeping;
        }
        if (iv.pid == 2) kthreadEnd = std::max(kthreadEnd, iv.end);
    }
    EXPECT_EQ(workerSleeps, 1);             // the D sleep in exit, and nothing after the x
    EXPECT_EQ(workerEnd, 10000500000u);     // ended at its final switch
    EXPECT_GT(kthreadEnd, 10000600000u - 1);  // parked, not exited: still there at the end
}

}  // namespace
