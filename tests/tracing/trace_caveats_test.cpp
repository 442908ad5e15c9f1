// What a trace lost, said wherever a trace is shown: the events ring-buffer overruns dropped, with
// the counts the kernel reported and the drops whose size it did not know (lossy.dat, recorded
// here with a 4 KiB buffer per CPU, and full.dat, the same run recorded whole), the CPUs it
// has no event of (cpumask-cpu1.dat, recorded on CPU 1 only), and the counts of events it did not
// record (switches-only/switches.dat: sched_switch alone).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "event_store.h"
#include "lost_events.h"
#include "silent_cpus.h"
#include "support/fixtures.h"
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

}  // namespace
