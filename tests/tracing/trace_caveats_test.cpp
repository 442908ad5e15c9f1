// What a trace lost, said wherever a trace is shown: the events ring-buffer overruns dropped, with
// the counts the kernel reported and the drops whose size it did not know (lossy.dat, recorded
// here with a 4 KiB buffer per CPU, and full.dat, the same run recorded whole), the CPUs it
// has no event of (cpumask-cpu1.dat and cpumask-cpu1-busy.dat, recorded on CPU 1 only, and
// cpumask-cpu0.dat on CPU 0 only), and the counts of events it did not
// record (switches-only/switches.dat: sched_switch alone), and the switches missing from the
// chains (idle-filters.dat: one run with the switches out of idle filtered away in one buffer,
// into idle in another, and a third buffer whole).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "event_store.h"
#include "input_anomalies.h"
#include "lost_events.h"
#include "plausible_span.h"
#include "silent_cpus.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
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
    // The pages say 511 lost and 2 drops of unknown size; the ring buffers' stats the file keeps
    // count every overwritten record: overrun 204 + 613 (trace-cmd report --stat), the loss.
    EXPECT_EQ(lost, "817 lost events");
    EXPECT_EQ(lossy->anomaly(Anomaly::LostUnknown), 0u);
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

TEST(SilentCpus, TheLastCpuLeftOutIsSaidByTheFilesCpuCount) {
    // recorded on CPU 0 of 2 (-M 1): the store's own CPUs end at CPU 0, the file says 2
    const std::string file = test::dataPath("traces/cpumask-cpu0.dat");
    auto masked = readTraceDat(file);
    ASSERT_TRUE(masked.ok()) << masked.error();
    EXPECT_EQ(masked->cpuCount(), 1);
    EXPECT_EQ(masked->recordedCpus(), 2);
    EXPECT_EQ(silentCpus(*masked, 0), std::vector<int>{1});
    const auto j = nlohmann::json::parse(test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' --json"));
    EXPECT_EQ(j["silent_cpus"], std::vector<int>{1});
    EXPECT_EQ(j["events_by_cpu"].size(), 2u);
    EXPECT_EQ(j["events_by_cpu"]["1"], 0);
    EXPECT_EQ(j["events_by_cpu"]["0"], masked->size());
}

TEST(SilentCpus, TextHeadersNameTheRecordedCpusAndALineBeyondThemIsOutOfRange) {
    // trace-cmd report's "cpus=N" and tracefs's "#P:N"
    const std::string line0 = "  bash-100 [000] 10.000001: sched_waking: comm=cat pid=101 prio=120 target_cpu=000\n";
    const std::string line5 = "  bash-100 [005] 10.000002: sched_waking: comm=cat pid=101 prio=120 target_cpu=000\n";
    auto report = parseFtraceText("cpus=4\n" + line0 + line5, "report.txt");
    ASSERT_TRUE(report.ok()) << report.error();
    EXPECT_EQ(report->recordedCpus(), 4);
    EXPECT_EQ(report->size(), 1u);  // CPU 5 of a 4-CPU recording: a damaged line, dropped
    EXPECT_EQ(report->anomaly(Anomaly::CpuOutOfRange), 1u);
    EXPECT_EQ(silentCpus(*report, 0), (std::vector<int>{1, 2, 3}));
    auto tracefs = parseFtraceText("# entries-in-buffer/entries-written: 2/2   #P:8\n" + line0 + line5, "trace");
    ASSERT_TRUE(tracefs.ok()) << tracefs.error();
    EXPECT_EQ(tracefs->recordedCpus(), 8);
    EXPECT_EQ(tracefs->size(), 2u);
    EXPECT_EQ(tracefs->anomaly(Anomaly::CpuOutOfRange), 0u);
    // no header: no count, every CPU kept
    auto bare = parseFtraceText(line0 + line5, "bare.txt");
    ASSERT_TRUE(bare.ok()) << bare.error();
    EXPECT_EQ(bare->recordedCpus(), 0);
    EXPECT_EQ(bare->size(), 2u);
}

// Machines past 4096 CPUs record traces too: a #P:5000 header's CPUs 4500 and 4999 are CPUs of
// the recording (the tool reads 8192, as its topologies); CPU 9000 is past both limits.
TEST(SilentCpus, ATraceOfMoreThan4096CpusKeepsItsEvents) {
    auto line = [](int cpu) {
        return "  bash-100 [" + std::to_string(cpu) + "] 10.000001: sched_waking: comm=cat pid=101 prio=120 target_cpu=" +
               std::to_string(cpu) + "\n";
    };
    auto big = parseFtraceText("# entries-in-buffer/entries-written: 3/3   #P:5000\n" + line(0) + line(4500) + line(4999),
                               "big.txt");
    ASSERT_TRUE(big.ok()) << big.error();
    EXPECT_EQ(big->recordedCpus(), 5000);
    EXPECT_EQ(big->size(), 3u);
    EXPECT_EQ(big->anomaly(Anomaly::CpuOutOfRange), 0u);
    std::vector<SchedEvent> seen;
    big->forEach([&](const SchedEvent& e) { seen.push_back(e); return true; });
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[2].cpu, 4999);
    EXPECT_EQ(seen[2].dstCpu, 4999);
    auto past = parseFtraceText(line(0) + line(9000), "past.txt");
    ASSERT_TRUE(past.ok()) << past.error();
    EXPECT_EQ(past->size(), 1u);
    EXPECT_EQ(past->anomaly(Anomaly::CpuOutOfRange), 1u);
}

// A sched_migrate_task to or from a CPU the recording does not have is damage, not a move
// nobody can classify: dropped as out of range (the kernel's names two real CPUs).
TEST(SilentCpus, AMigrationNamingACpuTheRecordingLacksIsOutOfRange) {
    const std::string head = "# entries-in-buffer/entries-written: 4/4   #P:2\n";
    const std::string sw = "  a-1 [000] d..2.  1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S "
                           "==> next_comm=b next_pid=2 next_prio=120\n";
    auto migrate = [](const std::string& orig, const std::string& dest) {
        return "  x-1 [001] d..3.  1.100000: sched_migrate_task: comm=t pid=2 prio=120 orig_cpu=" + orig +
               " dest_cpu=" + dest + "\n";
    };
    for (const auto& [orig, dest] : {std::pair<std::string, std::string>{"0", "99999"}, {"-1", "1"}, {"0", "2"}}) {
        auto store = parseFtraceText(head + sw + migrate(orig, dest), "m.txt");
        ASSERT_TRUE(store.ok()) << store.error();
        EXPECT_EQ(store->count(EventKind::MigrateTask), 0u) << orig << " -> " << dest;
        EXPECT_EQ(store->anomaly(Anomaly::CpuOutOfRange), 1u) << orig << " -> " << dest;
    }
    auto real = parseFtraceText(head + sw + migrate("0", "1"), "m.txt");
    ASSERT_TRUE(real.ok()) << real.error();
    EXPECT_EQ(real->count(EventKind::MigrateTask), 1u);
    EXPECT_EQ(real->anomaly(Anomaly::CpuOutOfRange), 0u);
}

// A text timestamp past 2^64 ns (584 years) is no timestamp: its line is skipped, not wrapped
// round to a stamp that looks plausible (10^15 s read as 2.0e9 s made a 63-year trace).
TEST(PlausibleSpan, ATextTimestampPastTheClocksRangeIsNotWrapped) {
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += "  a-1 [000] d..2.  1." + std::to_string(100000 + i * 1000) +
                ": sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n";
    text += "  a-1 [000] d..2.  1000000000000000.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 "
            "prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n";
    auto store = parseFtraceText(text, "far.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store->size(), 50u);
    EXPECT_EQ(store->anomaly(Anomaly::GarbageLine), 1u);
    EXPECT_LT(store->lastTs() - store->firstTs(), 1'000'000'000u);
    // 18446744073.709551615 s is the last stamp that fits; one more second does not
    auto edge = parseFtraceText(text.substr(0, text.find('\n') + 1) +
                                    "  a-1 [000] d..2.  18446744073.709551615: sched_switch: prev_comm=a prev_pid=1 "
                                    "prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n"
                                    "  a-1 [000] d..2.  18446744074.709551615: sched_switch: prev_comm=a prev_pid=1 "
                                    "prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n",
                                "edge.txt");
    ASSERT_TRUE(edge.ok()) << edge.error();
    EXPECT_EQ(edge->size(), 2u);
    EXPECT_EQ(edge->lastTs(), UINT64_MAX);
    EXPECT_EQ(edge->anomaly(Anomaly::GarbageLine), 1u);
}

TEST(SilentCpus, AnUntracedCpuIsNoEvidenceOfAffinity) {
    // CPU 1 of 2 traced under load: tasks wait on CPU 1 while CPU 0's empty lane looks idle, and
    // the causes guessed without CPU 0's switches include affinity moves. Nothing was pinned.
    const std::string file = test::dataPath("traces/cpumask-cpu1-busy.dat");
    const auto j = nlohmann::json::parse(
        test::commandOutput(std::string(SCHEDSCOPE_CLI) + " replay '" + file + "' --synthetic \"core:2 pu:1\" --json 2>/dev/null"));
    ASSERT_TRUE(j["derived"]["tasks"].is_array());
    ASSERT_GT(j["derived"]["tasks"].size(), 3u);
    for (const auto& t : j["derived"]["tasks"]) EXPECT_FALSE(t["affinity_from_trace"].get<bool>()) << t["name"];
}

TEST(InterruptWakingsInText, UnknownWithoutAnIrqFlagsColumn) {
    // trace-cmd report's default lines have no irq-flags column; -l's and tracefs's do
    const std::string plain = test::dataPath("traces/report-variants/forkstorm.report.txt");
    const std::string latency = test::dataPath("traces/report-variants/forkstorm.report-l.txt");
    auto a = readFtraceText(plain);
    auto b = readFtraceText(latency);
    ASSERT_TRUE(a.ok()) << a.error();
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_FALSE(a->irqContextKnown());
    EXPECT_TRUE(b->irqContextKnown());
    auto stats = [](const std::string& f) {
        return nlohmann::json::parse(test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + f + "' --json"));
    };
    EXPECT_TRUE(stats(plain)["interrupt_wakings"].is_null());
    EXPECT_TRUE(stats(latency)["interrupt_wakings"].is_number());
    const std::string text = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + plain + "'");
    EXPECT_NE(text.find("no task woke them): n/a (these text lines have no irq-flags column"), std::string::npos) << text;
}

TEST(UnrecordedEvents, MigrationsAreUnknownWithNeitherMigrateNorSwitchEvents) {
    // only the sched_wakeup lines of a report: no event can show a task changing CPU
    std::ifstream in(test::dataPath("traces/report-variants/forkstorm.report.txt"));
    const std::filesystem::path dir = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "caveats";
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "wakeups-only.txt").string();
    std::ofstream out(file);
    int kept = 0;
    for (std::string l; std::getline(in, l);)
        if (l.starts_with("cpus=") || l.find(" sched_wakeup: ") != std::string::npos) {
            out << l << "\n";
            kept += l.starts_with("cpus=") ? 0 : 1;
        }
    out.close();
    ASSERT_GT(kept, 10);
    const std::string stats = std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' --synthetic \"core:2 pu:1\"";
    const auto j = nlohmann::json::parse(test::commandOutput(stats + " --json"));
    EXPECT_EQ(j["events"], kept);
    EXPECT_TRUE(j["migrations"].is_null());
    EXPECT_TRUE(j["migrations_by_level"].is_null());
    EXPECT_TRUE(j["migrations_by_cause"].is_null());
    const std::string text = test::commandOutput(stats);
    EXPECT_NE(text.find("migrations: n/a (neither sched_migrate_task nor sched_switch recorded)"), std::string::npos) << text;
    EXPECT_EQ(text.find("migrations by cause"), std::string::npos) << text;
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

// A store of `n` switches 1 ms apart from 1 s on, alternating CPUs 0 and 1.
EventStore steadySwitches(int n) {
    EventStore s;
    for (int i = 0; i < n; ++i)
        s.append(test::schedEvent(1'000'000'000ull + uint64_t(i) * 1'000'000ull, i % 2, EventKind::Switch, 10 + i % 5, 10 + (i + 1) % 5));
    return s;
}

TEST(PlausibleSpan, EventsYearsAwayFromTheRestAreSetAside) {
    EventStore s = steadySwitches(1000);
    // a corrupt time extend: the top byte of three timestamps flipped, as a bit flip in a trace.dat does
    for (int i = 0; i < 3; ++i) s.append(test::schedEvent(0xff00'0000'0000'0000ull + uint64_t(i), 1, EventKind::Switch, 11, 12));
    s.finish();
    const PlausibleSpan span = plausibleSpan(s);
    EXPECT_EQ(span.first, 1'000'000'000u);
    EXPECT_EQ(span.last, 1'999'000'000u);
    EXPECT_EQ(span.before, 0u);
    EXPECT_EQ(span.after, 3u);
    EXPECT_EQ(span.gapAfter, 0xff00'0000'0000'0000ull - 1'999'000'000u);
    EXPECT_EQ(describeImplausibleTimestamps(s, span),
              "broken timestamps: of the 1003 events, 3 are stamped 582 years after the rest, which spans 999 ms (a "
              "corrupt file?): the views show only those 999 ms");
}

TEST(PlausibleSpan, TheBulkOfTheEventsSetsTheScaleBeforeAndAfterIt) {
    EventStore s = steadySwitches(1000);
    s.append(test::schedEvent(5, 0, EventKind::Switch, 11, 12));  // 1 s before: plausible
    s.finish();
    EXPECT_TRUE(plausibleSpan(s).whole());
    EventStore before;  // a bulk 2^56 ns into the clock, and two events stamped near its start
    for (int i = 0; i < 1000; ++i)
        before.append(test::schedEvent(0x0100'0000'0000'0000ull + uint64_t(i) * 1'000'000ull, i % 2, EventKind::Switch, 11, 12));
    for (int i = 0; i < 2; ++i) before.append(test::schedEvent(1'000'000'000ull + uint64_t(i), 0, EventKind::Switch, 11, 12));
    before.finish();
    const PlausibleSpan early = plausibleSpan(before);
    EXPECT_EQ(early.before, 2u);
    EXPECT_EQ(early.after, 0u);
    EXPECT_EQ(early.first, 0x0100'0000'0000'0000ull);
    EXPECT_EQ(early.gapBefore, 0x0100'0000'0000'0000ull - 1'000'000'001ull);
    EXPECT_TRUE(describeImplausibleTimestamps(before, early).starts_with("broken timestamps: of the 1002 events, 2 are stamped 2.28 years before the rest, which spans 999 ms"))
        << describeImplausibleTimestamps(before, early);
    EventStore late = steadySwitches(1000);
    for (int i = 0; i < 1000; ++i)  // the same 999 ms, 3 hours on
        late.append(test::schedEvent(10'800'000'000'000ull + uint64_t(i) * 1'000'000ull, 0, EventKind::Switch, 11, 12));
    late.append(test::schedEvent(1, 1, EventKind::Switch, 11, 12));
    late.finish();
    // the bulk spans 3 hours; 1 ns after boot is within 1000 times that of it
    EXPECT_TRUE(plausibleSpan(late).whole());
    EventStore later = steadySwitches(1000);
    for (int i = 0; i < 2; ++i) later.append(test::schedEvent(3'000'000'000'000ull + uint64_t(i), 1, EventKind::Switch, 11, 12));
    later.finish();
    // 1 s of events, and two 50 minutes on: more than 1000 s past them
    const PlausibleSpan span = plausibleSpan(later);
    EXPECT_EQ(span.after, 2u);
    EXPECT_EQ(describeImplausibleTimestamps(later, span),
              "broken timestamps: of the 1002 events, 2 are stamped 50 minutes after the rest, which spans 999 ms (a "
              "corrupt file?): the views show only those 999 ms");
}

TEST(PlausibleSpan, AQuietStretchOrAFewEventsAreNoBrokenTimestamps) {
    EXPECT_TRUE(plausibleSpan(EventStore{}).whole());
    EventStore two;
    two.append(test::schedEvent(1, 0, EventKind::Switch, 11, 12));
    two.append(test::schedEvent(0xff00'0000'0000'0000ull, 0, EventKind::Switch, 12, 11));
    two.finish();
    EXPECT_TRUE(plausibleSpan(two).whole());  // nothing to tell which one is wrong
    EXPECT_EQ(describeImplausibleTimestamps(two, plausibleSpan(two)), "");
    EventStore quiet = steadySwitches(1000);
    quiet.append(test::schedEvent(600'000'000'000ull, 0, EventKind::Switch, 11, 12));  // 10 minutes on
    quiet.finish();
    EXPECT_TRUE(plausibleSpan(quiet).whole());
}

TEST(PlausibleSpan, RoughDurationsPickAReadableUnit) {
    EXPECT_EQ(roughDuration(850), "850 ns");
    EXPECT_EQ(roughDuration(12'345'678), "12.3 ms");
    EXPECT_EQ(roughDuration(1'029'000'000), "1.03 s");
    EXPECT_EQ(roughDuration(90'000'000'000), "90 s");
    EXPECT_EQ(roughDuration(9'000'000'000'000), "2.5 hours");
    EXPECT_EQ(roughDuration(0xff00'0000'0000'0000ull), "582 years");
}

// The tester's corrupt file: record-v6.dat with 64 bytes flipped from offset 90000 (a time extend
// of CPU 1 among them) reads as a trace of 582 years with thousands of events out of order.
TEST(PlausibleSpan, ACorruptTraceDatIsShownOverItsPlausibleSpanAndTraceStatsSaysSo) {
    std::string bytes = test::readFile(test::dataPath("traces/record-v6.dat"));
    for (size_t k = 0; k < 64; ++k) bytes[90000 + k * 7] = char(bytes[90000 + k * 7] ^ 0xff);
    const std::string file = (std::filesystem::path(::testing::TempDir()) / "v6-flip90000.dat").string();
    std::ofstream(file, std::ios::binary) << bytes;
    auto store = readTraceDat(file);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_GT(store->lastTs() - store->firstTs(), 0xf000'0000'0000'0000ull);
    const PlausibleSpan span = plausibleSpan(*store);
    EXPECT_FALSE(span.whole());
    EXPECT_LT(span.last - span.first, 2'000'000'000u);
    EXPECT_LT(span.before + span.after, store->size() / 100);
    const std::string note = describeImplausibleTimestamps(*store, span);
    EXPECT_TRUE(note.starts_with("broken timestamps: of the " + std::to_string(store->size()) + " events, ")) << note;
    const std::string err = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' 2>&1 >/dev/null");
    EXPECT_NE(err.find("note: " + file + ": " + note + "\n"), std::string::npos) << err;
    // and its figures are over the plausible span too: not a duration of 582 years in bins of 2 days
    std::filesystem::copy_file(test::dataPath("traces/record-v6.dat.topology.json"), file + ".topology.json",
                               std::filesystem::copy_options::overwrite_existing);
    const auto j = nlohmann::json::parse(test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats --json '" + file + "' 2>/dev/null"));
    EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), static_cast<double>(span.last - span.first) / 1e9);
    EXPECT_EQ(j["implausible_events"], span.before + span.after);
    EXPECT_EQ(j["bin_s"], 1.0);
    EXPECT_EQ(j["migrations_by_level_over_time"].size(), 2u);
}

TEST(InputAnomalies, EachCountIsSaidByTraceStatsKeyWithWhatItMeans) {
    EXPECT_EQ(describeInputAnomalies(EventStore{}), "");
    EventStore s;
    s.addAnomaly(Anomaly::OutOfOrder, 12);
    s.addAnomaly(Anomaly::GarbageLine, 22);
    s.addAnomaly(Anomaly::CpuOutOfRange);
    // said elsewhere (lost events, unreadable records) or no fault of the input (pid reuse)
    s.addAnomaly(Anomaly::LostEvents, 5);
    s.addAnomaly(Anomaly::Unreadable, 7);
    s.addAnomaly(Anomaly::PidReuse, 3);
    EXPECT_EQ(describeInputAnomalies(s),
              "anomalies in the input: out_of_order 12 (events older than the one before them on their CPU: put back in "
              "order), garbage_line 22 (lines that are no event, header or comment: skipped), cpu_out_of_range 1 (events "
              "on a CPU the recording does not have, or past the 8192 CPUs the tool reads: dropped)");
    EventStore bad;
    bad.addAnomaly(Anomaly::Malformed, 2);
    bad.addAnomaly(Anomaly::UnknownEvent, 7);
    EXPECT_EQ(describeInputAnomalies(bad),
              "anomalies in the input: malformed 2 (events whose fields could not be read: skipped), unknown_event 7 "
              "(records of an event the file has no format for: skipped)");
}

// The tester's damaged forkstorm text: garbage lines, an event on CPU 999 of a 2-CPU recording
// and a line moved out of order. trace stats lists them under "anomalies:" and says them in a
// note, the same sentence the GUI's banner shows.
TEST(InputAnomalies, ADamagedTextTraceIsSaidByTraceStats) {
    std::vector<std::string> lines;
    {
        std::istringstream in(test::readFile(test::dataPath("traces/report-variants/forkstorm.report.txt")));
        for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    ASSERT_GT(lines.size(), 20u);
    ASSERT_EQ(lines[0], "cpus=2");
    ASSERT_NE(lines[6].find("[001]"), std::string::npos);
    std::string cpu999 = lines[6];
    cpu999.replace(cpu999.find("[001]"), 5, "[999]");
    std::string text;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i == 3) continue;  // moved after line 8: older than the CPU's events before it
        text += lines[i] + "\n";
        if (i == 5) text += "\x01\x02 not an event\n#\n=== garbage ===\n" + cpu999 + "\n";
        if (i == 8) text += lines[3] + "\n";
    }
    auto store = parseFtraceText(text, "damaged.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store->anomaly(Anomaly::GarbageLine), 2u);
    EXPECT_EQ(store->anomaly(Anomaly::CpuOutOfRange), 1u);
    EXPECT_GE(store->anomaly(Anomaly::OutOfOrder), 1u);
    const std::string note = describeInputAnomalies(*store);
    EXPECT_NE(note.find("garbage_line 2 ("), std::string::npos) << note;
    EXPECT_NE(note.find("cpu_out_of_range 1 ("), std::string::npos) << note;
    EXPECT_NE(note.find("out_of_order "), std::string::npos) << note;
    const std::string file = (std::filesystem::path(::testing::TempDir()) / "forkstorm-damaged.txt").string();
    std::ofstream(file) << text;
    const std::string err = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + file + "' 2>&1 >/dev/null");
    EXPECT_NE(err.find("note: " + file + ": " + note + "\n"), std::string::npos) << err;
    // the clean trace: no note
    const std::string clean = test::dataPath("traces/report-variants/forkstorm.report.txt");
    EXPECT_EQ(test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats '" + clean + "' 2>&1 >/dev/null").find("anomalies"),
              std::string::npos);
}

}  // namespace
