// `perf script` text of `perf sched record` (perf 6.1): the same kernel print formats as the
// tracefs trace file, with "<comm> <pid>" for the task column and "sched:" before the event
// name. The fixture was recorded twice at once: perf's recording of the workload inside a
// `schedscope-cli record` of the whole run (see tests/data/traces/README.md), so the trace.dat
// holds every event perf saw. The two use different clock bases, so events are compared by
// their order on each CPU, not by time.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "event_store.h"
#include "support/fixtures.h"
#include "trace_reader.h"

using namespace schedscope::tracing;

namespace {

using Key = std::tuple<int, int32_t, int32_t, int, int32_t, int32_t>;  // kind pid pid2 state dstCpu waker

std::vector<Key> keysOn(const EventStore& s, int cpu) {
    std::vector<Key> out;
    for (size_t i = 0; i < s.cpuSize(cpu); ++i) {
        const SchedEvent e = s.at(cpu, i);
        if (e.kind != EventKind::Switch && e.kind != EventKind::Waking && e.kind != EventKind::MigrateTask) continue;
        out.emplace_back(static_cast<int>(e.kind), e.pid, e.pid2, static_cast<int>(e.state), e.dstCpu,
                         isWakeKind(e.kind) ? e.waker : -1);
    }
    return out;
}

TEST(PerfScript, PerfSchedRecordTextGivesTheEventsTheTraceDatHasOnEachCpu) {
    auto perf = readFtraceText(schedscope::test::dataPath("traces/perf/perf-pipe.perf-script.txt"));
    ASSERT_TRUE(perf.ok()) << perf.error();
    auto dat = readTraceDat(schedscope::test::dataPath("traces/perf/perf-pipe.dat"));
    ASSERT_TRUE(dat.ok()) << dat.error();
    EXPECT_EQ(perf->anomaly(Anomaly::GarbageLine), 0u);
    EXPECT_EQ(perf->anomaly(Anomaly::Malformed), 0u);
    EXPECT_EQ(perf->count(EventKind::Switch), 227u);  // grep -c sched_switch on the text
    EXPECT_GT(perf->count(EventKind::Waking), 100u);
    EXPECT_GT(perf->otherEvents().count("sched_stat_runtime"), 0u);
    size_t matched = 0;
    for (int cpu = 0; cpu < perf->cpuCount(); ++cpu) {
        const std::vector<Key> p = keysOn(*perf, cpu), d = keysOn(*dat, cpu);
        ASSERT_FALSE(p.empty()) << "cpu " << cpu;
        const auto at = std::search(d.begin(), d.end(), p.begin(), p.end());
        EXPECT_NE(at, d.end()) << "cpu " << cpu << ": perf's " << p.size()
                               << " switches, wakings and migrations are not a run of the trace.dat's " << d.size();
        if (at != d.end()) matched += p.size();
    }
    EXPECT_GT(matched, 300u);
    // the task column names the running task: "perf 20827 [000]" reads as pid 20827, comm perf
    bool perfNamed = false;
    perf->forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::Switch && perf->commAt(e.pid, e.ts) == "perf") perfNamed = true;
        return !perfNamed;
    });
    EXPECT_TRUE(perfNamed);
}

TEST(PerfScript, ATaskColumnWithPidAndTidReadsTheTid) {
    const std::string text =
        "cpus=1\n"
        "  Web Content  4100/4123 [000] 100.000001:       sched:sched_switch: prev_comm=Web Content prev_pid=4123 "
        "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
        "  kworker/u8:2-ev   77 [000] 100.000002:       sched:sched_waking: comm=Web Content pid=4123 prio=120 "
        "target_cpu=000\n";
    auto store = parseFtraceText(text, "perf.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    ASSERT_EQ(store->size(), 2u);
    EXPECT_EQ(store->at(0, 0).pid, 4123);
    EXPECT_EQ(store->commAt(4123, 100000001000), "Web Content");
    EXPECT_EQ(store->at(0, 1).waker, 77);
    EXPECT_EQ(store->commAt(77, 100000002000), "kworker/u8:2-ev");
}

TEST(PerfScript, CallChainsOfAnEventRecordedWithGAreSkippedNotCountedAsGarbage) {
    // perf record -g -e sched:sched_switch: frames under each event; "dd" is all hex letters
    const std::string text =
        "perf 27107 [000] 33945.484556: sched:sched_waking: comm=dd pid=900 prio=120 target_cpu=000\n"
        "\tffffffff813b4b86 try_to_wake_up+0x3b6 ([kernel.kallsyms])\n"
        "\t          146f2c [unknown] (/usr/bin/perf)\n"
        "\n"
        "              dd   900 [000] 33945.484600: sched:sched_switch: prev_comm=dd prev_pid=900 prev_prio=120 "
        "prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
        "\tffffffff8224a3c1 __schedule+0x3c1 ([kernel.kallsyms])\n";
    auto store = parseFtraceText(text, "perf-g.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store->size(), 2u);
    EXPECT_EQ(store->anomaly(Anomaly::GarbageLine), 0u);
    EXPECT_EQ(store->at(0, 1).pid, 900);
    EXPECT_EQ(store->at(0, 1).state, TaskState::DiskSleep);
}

}  // namespace
