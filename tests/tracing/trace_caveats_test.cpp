// What a trace lost, said wherever a trace is shown: the events ring-buffer overruns dropped, with
// the counts the kernel reported and the drops whose size it did not know (lossy.dat, recorded
// here with a 4 KiB buffer per CPU, and full.dat, the same run recorded whole), the CPUs it
// has no event of (cpumask-cpu1.dat, recorded on CPU 1 only), and the counts of events it did not
// record (switches-only/switches.dat: sched_switch alone), and the switches missing from the
// chains (idle-filters.dat: one run with the switches out of idle filtered away in one buffer,
// into idle in another, and a third buffer whole).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "event_store.h"
#include "lost_events.h"
#include "silent_cpus.h"
#include "support/fixtures.h"
#include "switch_gaps.h"
#include "trace_reader.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

std::string described(uint64_t counted, uint64_t unknown) {
    EventStore s;
    for (uint64_t i = 0; i < unknown; ++i) s.addAnomaly(Anomaly::LostUnknown);
    if (counted) s.addAnomaly(Anomaly::LostEvents, counted);
    s.finish();
    return describeLostEvents(s);
}

TEST(LostEvents, CountsAndDropsOfUnknownSizeAreBothSaid) {
    EXPECT_EQ(described(0, 0), "");
    EXPECT_EQ(described(1, 0), "1 lost event");
    EXPECT_EQ(described(1290, 0), "1290 lost events");
    EXPECT_EQ(described(1290, 2), "at least 1290 lost events and 2 drops of unknown size");
    EXPECT_EQ(described(0, 1), "events lost in 1 place (count unknown)");
    EXPECT_EQ(described(0, 3), "events lost in 3 places (count unknown)");
}

TEST(LostEvents, TraceStatsAndReplaySayWhatTheRecordingLost) {
    auto lossy = readTraceDat(test::dataPath("traces/lossy/lossy.dat"));
    auto full = readTraceDat(test::dataPath("traces/lossy/full.dat"));
    ASSERT_TRUE(lossy.ok()) << lossy.error();
    ASSERT_TRUE(full.ok()) << full.error();
    const std::string lost = describeLostEvents(*lossy);
    EXPECT_EQ(lost, "at least " + std::to_string(lossy->anomaly(Anomaly::LostEvents)) + " lost events and " +
                        std::to_string(lossy->anomaly(Anomaly::LostUnknown)) + " drops of unknown size");
    EXPECT_GT(lossy->anomaly(Anomaly::LostEvents), 500u);
    EXPECT_EQ(describeLostEvents(*full), "");

    const std::string file = test::dataPath("traces/lossy/lossy.dat");
    const std::string stats = std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "'";
    const auto j = nlohmann::json::parse(test::commandOutput(stats + " --json"));
    EXPECT_EQ(j["lost"], lost);
    const std::string text = test::commandOutput(stats);
    EXPECT_NE(text.find(", " + lost + " (topology:"), std::string::npos) << text.substr(0, 300);
    const std::string replay = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' 2>&1");
    EXPECT_NE(replay.find("the trace has " + lost + " (its ring buffer overran)"), std::string::npos) << replay.substr(0, 2000);
}

TEST(SilentCpus, ACpuLeftOutOfTheRecordingIsSaid) {
    auto masked = readTraceDat(test::dataPath("traces/cpumask-cpu1.dat"));
    auto whole = readTraceDat(test::dataPath("traces/mixed-v7.dat"));
    ASSERT_TRUE(masked.ok()) << masked.error();
    ASSERT_TRUE(whole.ok()) << whole.error();
    EXPECT_EQ(silentCpus(*masked, 2), std::vector<int>{0});
    EXPECT_TRUE(silentCpus(*whole, 2).empty());
    // a CPU past the store's own, from the machine's topology
    EXPECT_EQ(silentCpus(*whole, 4), (std::vector<int>{2, 3}));
    EXPECT_EQ(describeSilentCpus({2, 3}), "no events at all on CPUs 2-3 (not traced: trace-cmd record -M? or idle throughout)");
    EXPECT_EQ(describeSilentCpus({}), "");

    const std::string file = test::dataPath("traces/cpumask-cpu1.dat");
    const auto j = nlohmann::json::parse(test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' --synthetic \"core:2 pu:1\" --json"));
    EXPECT_EQ(j["silent_cpus"], std::vector<int>{0});
    const std::string replay = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' --synthetic \"core:2 pu:1\" 2>&1");
    EXPECT_NE(replay.find("the trace has no events at all on CPU 0 (not traced"), std::string::npos) << replay.substr(0, 2000);
}

TEST(UnrecordedEvents, TheirCountsAreNotZeros) {
    const std::string stats = std::string(SCHEDSCOPE_CLI) + " trace stats '" + test::dataPath("traces/switches-only/switches.dat") + "'";
    const auto j = nlohmann::json::parse(test::commandOutput(stats + " --json"));
    EXPECT_TRUE(j["fork_placements"].is_null());
    EXPECT_TRUE(j["interrupt_wakings"].is_null());
    const std::string text = test::commandOutput(stats);
    EXPECT_NE(text.find("replay counts them as fork migrations): n/a (sched_wakeup_new not recorded)"), std::string::npos) << text;
    EXPECT_NE(text.find("no task woke them): n/a (sched_waking not recorded)"), std::string::npos) << text;
    // recorded, they are counts
    const auto whole = nlohmann::json::parse(
        test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + test::dataPath("traces/switches-only/full.dat") + "' --json"));
    EXPECT_TRUE(whole["fork_placements"].is_number());
    EXPECT_TRUE(whole["interrupt_wakings"].is_number());
}

EventStore bufferOf(const std::string& file, const std::string& buffer) {
    LoadOptions opt;
    opt.buffer = buffer;
    auto store = readTraceDat(test::dataPath(file), opt);
    EXPECT_TRUE(store.ok()) << store.error();
    return store.ok() ? std::move(*store) : EventStore{};
}

TEST(SwitchGaps, AFilterOnTheIdleTaskIsToldFromTheSameRunRecordedWhole) {
    const SwitchGaps noExits = switchGaps(bufferOf("traces/idle-filters.dat", "top"));       // -f 'prev_pid != 0'
    const SwitchGaps noEntries = switchGaps(bufferOf("traces/idle-filters.dat", "noidlein"));  // -f 'next_pid != 0'
    const SwitchGaps whole = switchGaps(bufferOf("traces/idle-filters.dat", "full"));
    // the whole buffer: every switch into idle has its way out, and the chains hold
    ASSERT_GT(whole.intoIdle, 500u);
    EXPECT_LE(whole.intoIdle, whole.outOfIdle + 2);
    EXPECT_LE(whole.outOfIdle, whole.intoIdle + 2);
    EXPECT_LT(whole.gaps * 100, whole.switches);
    EXPECT_EQ(describeSwitchGaps(whole), "");
    // each filter took one direction away, and the same run's other direction is all there
    EXPECT_EQ(noExits.outOfIdle, 0u);
    EXPECT_EQ(noExits.intoIdle, whole.intoIdle);
    EXPECT_GE(noExits.gaps, whole.outOfIdle);  // each lost exit breaks its CPU's chain
    EXPECT_EQ(noEntries.intoIdle, 0u);
    EXPECT_EQ(noEntries.outOfIdle, whole.outOfIdle);
    // (not so the switch counts: the top buffer also leaves out trace-cmd's own threads, and the
    // instances start a few switches apart)
    EXPECT_EQ(describeSwitchGaps(noExits),
              "no sched_switch leaves the idle task (" + std::to_string(whole.intoIdle) +
                  " enter it): the recording filtered them (trace-cmd record -f 'prev_pid != 0'?), so runs that began "
                  "on an idle CPU are not seen and migrations are undercounted");
    EXPECT_NE(describeSwitchGaps(noEntries).find("no sched_switch enters the idle task (" + std::to_string(whole.outOfIdle) +
                                                 " leave it)"),
              std::string::npos);
}

TEST(SwitchGaps, AKernelThatDropsIdleExitsIsToldFromATraceThatDropsNone) {
    // this VM's 6.18 kernel dropped ~80% of the idle -> task switches on CPU 1 in this recording
    const SwitchGaps dropped = switchGaps(bufferOf("traces/replay/pingpong-lost-switches.dat", ""));
    const std::string note = describeSwitchGaps(dropped);
    EXPECT_GT(dropped.gaps * 10, dropped.switches);
    EXPECT_NE(note.find("do not follow on from their CPU's previous switch: switches are missing, most of them out of "
                        "the idle task (" + std::to_string(dropped.intoIdle) + " switches enter it, " +
                        std::to_string(dropped.outOfIdle) + " leave it)"),
              std::string::npos)
        << note;
    // Debian's 6.12 kernel booted in QEMU, recording CPU hogs and forks: no gap at all
    const SwitchGaps kept = switchGaps(bufferOf("traces/qemu/x86-2s4n4c2t-linux-6.12.dat", ""));
    EXPECT_GT(kept.switches, 1000u);
    EXPECT_EQ(kept.gaps, 0u);
    EXPECT_EQ(describeSwitchGaps(kept), "");
}

TEST(SwitchGaps, TraceStatsAndReplaySayIt) {
    const std::string file = test::dataPath("traces/idle-filters.dat");
    const std::string stats = std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' --synthetic \"core:2 pu:1\"";
    const auto j = nlohmann::json::parse(test::commandOutput(stats + " --json"));
    const SwitchGaps g = switchGaps(bufferOf("traces/idle-filters.dat", "top"));
    EXPECT_EQ(j["switch_gaps"]["switches"], g.switches);
    EXPECT_EQ(j["switch_gaps"]["gaps"], g.gaps);
    EXPECT_EQ(j["switch_gaps"]["into_idle"], g.intoIdle);
    EXPECT_EQ(j["switch_gaps"]["out_of_idle"], 0);
    EXPECT_EQ(j["switch_gaps"]["note"], describeSwitchGaps(g));
    const std::string text = test::commandOutput(stats + " 2>&1");
    EXPECT_NE(text.find("note: " + file + ": no sched_switch leaves the idle task"), std::string::npos) << text.substr(0, 600);
    const auto whole = nlohmann::json::parse(test::commandOutput(stats + " --buffer full --json"));
    EXPECT_EQ(whole["switch_gaps"]["note"], "");
    const std::string replay = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' --synthetic \"core:2 pu:1\" 2>&1");
    EXPECT_NE(replay.find("in the trace no sched_switch leaves the idle task"), std::string::npos) << replay.substr(0, 2000);
}

}  // namespace
