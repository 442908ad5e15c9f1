// The trace clock: traces recorded with a clock that does not count nanoseconds (trace-cmd
// record -C x86-tsc or -C counter, recorded here by tests/data/traces/clocks.sh) are read with
// their clock named and flagged, so their spans are not reported as seconds; the report text of
// such a trace prints plain counts, which the text reader takes as such.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "support/fixtures.h"
#include "trace_clock_units.h"
#include "trace_reader.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

std::string runCommand(const std::string& cmd) { return test::commandOutput(cmd); }

TEST(TraceClock, TraceDatFilesNameTheirClockAndWhetherItCountsNs) {
    auto tsc = readTraceDat(test::dataPath("traces/clock-x86-tsc.dat"));
    auto counter = readTraceDat(test::dataPath("traces/clock-counter.dat"));
    auto local = readTraceDat(test::dataPath("traces/mixed-v7.dat"));  // trace-cmd's default clock
    ASSERT_TRUE(tsc.ok()) << tsc.error();
    ASSERT_TRUE(counter.ok()) << counter.error();
    ASSERT_TRUE(local.ok()) << local.error();
    EXPECT_EQ(tsc->traceClock(), "x86-tsc");
    EXPECT_FALSE(tsc->clockCountsNs());
    EXPECT_EQ(counter->traceClock(), "counter");
    EXPECT_FALSE(counter->clockCountsNs());
    EXPECT_EQ(local->traceClock(), "local");
    EXPECT_TRUE(local->clockCountsNs());
    // the counter clock ticks once per event, so its span is about the number of events
    EXPECT_GT(counter->size(), 500u);
    EXPECT_LT(counter->lastTs() - counter->firstTs(), 4 * counter->size());
}

TEST(TraceClock, UptimeCountsTicksAndBootCountsNsWhateverLibtracecmdSays) {
    // libtracecmd flags `uptime` as ns and `boot` as not; the kernel's trace_clocks[] has them
    // the other way round (uptime: USER_HZ ticks; boot: CLOCK_BOOTTIME in ns)
    auto uptime = readTraceDat(test::dataPath("traces/clock-uptime.dat"));
    auto boot = readTraceDat(test::dataPath("traces/clock-boot.dat"));
    ASSERT_TRUE(uptime.ok()) << uptime.error();
    ASSERT_TRUE(boot.ok()) << boot.error();
    EXPECT_EQ(uptime->traceClock(), "uptime");
    EXPECT_FALSE(uptime->clockCountsNs());
    EXPECT_EQ(boot->traceClock(), "boot");
    EXPECT_TRUE(boot->clockCountsNs());
    // the same 200 round trips: about 10 ms of CPU time, a few 10 ms ticks of uptime
    EXPECT_GT(boot->lastTs() - boot->firstTs(), 1000000u);
    EXPECT_LT(boot->lastTs() - boot->firstTs(), 2000000000u);
    EXPECT_LT(uptime->lastTs() - uptime->firstTs(), 200u);
    // a counter converted to ns by trace-cmd --tsc2nsec keeps libtracecmd's word, as does a
    // clock the kernel's table does not name
    EXPECT_TRUE(traceClockCountsNs("x86-tsc", true));
    EXPECT_FALSE(traceClockCountsNs("x86-tsc", false));
    EXPECT_TRUE(traceClockCountsNs("tai", false));
    EXPECT_FALSE(traceClockCountsNs("uptime", true));
    EXPECT_TRUE(traceClockCountsNs("some-new-clock", true));
    // how to get times: --tsc2nsec converts a TSC, nothing converts jiffies
    EXPECT_EQ(nsClockAdvice("uptime"), "record with a ns clock, e.g. trace-cmd record -C local");
    EXPECT_NE(nsClockAdvice("x86-tsc").find(", or with --tsc2nsec"), std::string::npos);
    const std::string file = test::dataPath("traces/clock-uptime.dat");
    const std::string replay = runCommand(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' --local 2>&1");
    EXPECT_NE(replay.find(file + ": its trace clock uptime does not count nanoseconds, and replay needs run and sleep "
                                 "times (record with a ns clock, e.g. trace-cmd record -C local)"),
              std::string::npos)
        << replay;
}

TEST(TraceClock, TextWhoseEventsAllHaveOneTimestampIsSaidToTimeNothing) {
    // trace-cmd report prints an uptime-clock trace's jiffies as seconds: all 966 events read
    // 0.002075. Stats say so; replay refuses it for that reason, not for an empty window.
    const std::string file = test::dataPath("traces/clock-uptime.report.txt");
    auto text = readFtraceText(file);
    ASSERT_TRUE(text.ok()) << text.error();
    EXPECT_EQ(text->firstTs(), text->lastTs());
    EXPECT_EQ(oneTimestampProblem(*text).find("all " + std::to_string(text->size()) + " events have one timestamp"), 0u);
    auto timed = readTraceDat(test::dataPath("traces/clock-boot.dat"));
    ASSERT_TRUE(timed.ok()) << timed.error();
    EXPECT_EQ(oneTimestampProblem(*timed), "");
    const std::string stats = runCommand(std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' 2>&1");
    EXPECT_NE(stats.find("note: " + file + ": all "), std::string::npos) << stats;
    const std::string replay = runCommand(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' --local 2>&1");
    EXPECT_NE(replay.find(file + ": all " + std::to_string(text->size()) + " events have one timestamp, so nothing can be timed"),
              std::string::npos)
        << replay;
}

TEST(TraceClock, AReportOfRawCountsIsReadAsCountsNotRejected) {
    // "core_tests-16358 [001]       10741: sched_migrate_task: ..." : no seconds, no dot
    auto text = readFtraceText(test::dataPath("traces/clock-counter.report.txt"));
    auto dat = readTraceDat(test::dataPath("traces/clock-counter.dat"));
    ASSERT_TRUE(text.ok()) << text.error();
    ASSERT_TRUE(dat.ok());
    EXPECT_FALSE(text->clockCountsNs());
    EXPECT_EQ(text->size(), dat->size());
    EXPECT_EQ(text->firstTs(), dat->firstTs());
    EXPECT_EQ(text->lastTs(), dat->lastTs());
    // counts of 13 digits or more (x86-tsc) fill trace-cmd's column: "[001]1184092722685551:",
    // with no space after the CPU; that report read as "no sched events"
    auto tsc = readFtraceText(test::dataPath("traces/clock-x86-tsc.report.txt"));
    auto tscDat = readTraceDat(test::dataPath("traces/clock-x86-tsc.dat"));
    ASSERT_TRUE(tsc.ok()) << tsc.error();
    ASSERT_TRUE(tscDat.ok()) << tscDat.error();
    EXPECT_FALSE(tsc->clockCountsNs());
    EXPECT_EQ(tsc->size(), tscDat->size());
    EXPECT_EQ(tsc->firstTs(), tscDat->firstTs());
    EXPECT_EQ(tsc->lastTs(), tscDat->lastTs());
    EXPECT_EQ(tsc->anomaly(Anomaly::GarbageLine), 0u);
    // a report in seconds stays in ns
    auto seconds = readFtraceText(test::dataPath("traces/mixed-v7.report.txt"));
    ASSERT_TRUE(seconds.ok());
    EXPECT_TRUE(seconds->clockCountsNs());
}

TEST(TraceClock, TraceStatsGivesTheSpanInClockCountsNotSeconds) {
    const std::string file = test::dataPath("traces/clock-x86-tsc.dat");
    const std::string cli = std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' --local";
    const auto j = nlohmann::json::parse(runCommand(cli + " --json"));
    EXPECT_EQ(j["trace_clock"], "x86-tsc");
    EXPECT_EQ(j["clock_counts_ns"], false);
    EXPECT_TRUE(j["duration_s"].is_null());
    EXPECT_GT(j["duration_clock_counts"].get<uint64_t>(), 0u);
    const std::string text = runCommand(cli);
    EXPECT_NE(text.find(" x86-tsc counts (the trace clock does not count ns"), std::string::npos) << text.substr(0, 300);
    // replay needs times: a one-line error naming the file and the clock
    const std::string replay = runCommand(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' --local 2>&1; echo rc=$?");
    EXPECT_NE(replay.find(file + ": its trace clock x86-tsc does not count nanoseconds"), std::string::npos) << replay;
    EXPECT_NE(replay.find("rc=2"), std::string::npos) << replay;
}

}  // namespace
