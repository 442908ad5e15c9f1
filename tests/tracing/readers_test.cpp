// Readers against independent counts: `trace-cmd report` run on the file (when trace-cmd is
// installed) and the committed report text, counted with a regex, not with our parser.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "trace_reader.h"
#include "trace_topology.h"

using namespace schedscope;
using namespace schedscope::tracing;
namespace fs = std::filesystem;

namespace {

std::map<std::string, uint64_t> countByRegex(const std::string& text) {
    static const std::regex line(R"(\[\d+\]\s+(?:\S+\s+)?\d+\.\d+:\s+([a-z_0-9]+):)");
    std::map<std::string, uint64_t> counts;
    std::istringstream in(text);
    std::string l;
    std::smatch m;
    while (std::getline(in, l))
        if (std::regex_search(l, m, line)) ++counts[m[1]];
    return counts;
}

std::map<std::string, uint64_t> countsOf(const EventStore& s) {
    std::map<std::string, uint64_t> c;
    for (int k = 0; k < kEventKindCount; ++k)
        if (auto n = s.count(static_cast<EventKind>(k))) c[std::string(eventKindName(static_cast<EventKind>(k)))] = n;
    for (const auto& [name, n] : s.otherEvents()) c[name] += n;
    return c;
}

bool haveTraceCmd() { return std::system("trace-cmd -h >/dev/null 2>&1") != 127 && access("/usr/bin/trace-cmd", X_OK) == 0; }

std::string run(const std::string& cmd) { return test::commandOutput(cmd); }

std::string scratch(const std::string& name) {
    fs::create_directories(SCHEDSCOPE_TEST_SCRATCH "/traces");
    return SCHEDSCOPE_TEST_SCRATCH "/traces/" + name;
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

class TraceDatFile : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceDatFile, CountsPerEventEqualTraceCmdReport) {
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed; the committed report text is checked instead";
    const std::string path = test::dataPath("traces/" + GetParam());
    auto store = readTraceDat(path);
    ASSERT_TRUE(store) << store.error();
    auto expected = countByRegex(run("trace-cmd report '" + path + "' 2>/dev/null"));
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(countsOf(*store), expected);
    EXPECT_EQ(store->anomaly(Anomaly::Malformed), 0u);
}
INSTANTIATE_TEST_SUITE_P(Fixtures, TraceDatFile, ::testing::Values("mixed-v7.dat", "record-v6.dat"));

TEST(TraceDat, CountsEqualCommittedReportText) {
    auto store = readTraceDat(test::dataPath("traces/mixed-v7.dat"));
    ASSERT_TRUE(store) << store.error();
    EXPECT_EQ(countsOf(*store), countByRegex(test::readFile(test::dataPath("traces/mixed-v7.report.txt"))));
}

TEST(TraceDat, ReportTextGivesTheSameStoreAsTheBinary) {
    auto bin = readTraceFile(test::dataPath("traces/mixed-v7.dat"));
    auto text = readTraceFile(test::dataPath("traces/mixed-v7.report.txt"));
    ASSERT_TRUE(bin) << bin.error();
    ASSERT_TRUE(text) << text.error();
    EXPECT_EQ(countsOf(*bin), countsOf(*text));
    EXPECT_EQ(bin->taskCount(), text->taskCount());
    EXPECT_EQ(text->anomaly(Anomaly::GarbageLine), 0u);
    // The report prints microseconds: compare the event sequences at that precision. The waker
    // of wake events is common_pid in the binary and the task column in the text.
    std::vector<std::tuple<uint64_t, int, int, int, int, int>> a, b;
    size_t wakersNotIdle = 0;
    bin->forEach([&](const SchedEvent& e) {
        a.emplace_back((e.ts + 500) / 1000, e.cpu, int(e.kind), e.pid, e.pid2, e.waker);
        wakersNotIdle += e.kind == EventKind::Waking && e.waker > 0;
        return true;
    });
    text->forEach([&](const SchedEvent& e) { b.emplace_back(e.ts / 1000, e.cpu, int(e.kind), e.pid, e.pid2, e.waker); return true; });
    EXPECT_GT(wakersNotIdle, bin->count(EventKind::Waking) / 2);
    // Same-microsecond events on two CPUs may print in either order: compare as multisets.
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
}

TEST(TraceDat, ProgressReachesOneAndCancelStops) {
    double last = 0;
    LoadOptions opt;
    opt.progress = [&](double f) { last = f; };
    ASSERT_TRUE(readTraceDat(test::dataPath("traces/mixed-v7.dat"), opt));
    EXPECT_DOUBLE_EQ(last, 1.0);
}

TEST(TraceDat, BadInputsGiveOneLineErrorsNamingTheFile) {
    const std::string missing = scratch("missing.dat");
    unlink(missing.c_str());
    const std::string empty = scratch("empty.dat");
    writeBytes(empty, "");
    const std::string magic = scratch("magic.dat");
    writeBytes(magic, std::string("\x17\x08\x44notatrace", 13) + std::string(4096, 'x'));
    for (const auto& p : {missing, empty, magic}) {
        auto r = readTraceDat(p);
        ASSERT_FALSE(r) << p;
        EXPECT_NE(r.error().find(p), std::string::npos) << r.error();
        EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
    }
}

TEST(TraceDat, TruncatedFilesNeverCrash) {
    // instance-only.dat: its top-level buffer is empty, so a cut file is read through an instance's handle
    for (const char* name : {"mixed-v7.dat", "record-v6.dat", "instance-only.dat"}) {
        const std::string whole = test::readFile(test::dataPath(std::string("traces/") + name));
        for (size_t cut : {size_t{5}, size_t{12}, size_t{100}, size_t{1000}, size_t{5000}, whole.size() / 3,
                           whole.size() / 2, whole.size() - 1000}) {
            const std::string p = scratch(std::string("cut-") + std::to_string(cut) + "-" + name);
            writeBytes(p, whole.substr(0, cut));
            auto r = readTraceFile(p);
            // Either an error naming the file, or fewer events than the whole file: never a crash.
            if (!r) {
                EXPECT_NE(r.error().find(p), std::string::npos) << r.error();
            }
        }
    }
}

TEST(FtraceText, TracefsTraceCountsEqualRegexCounts) {
    const std::string path = test::dataPath("traces/tracefs-trace.txt");
    auto store = readFtraceText(path);
    ASSERT_TRUE(store) << store.error();
    EXPECT_EQ(countsOf(*store), countByRegex(test::readFile(path)));
    EXPECT_EQ(store->anomaly(Anomaly::GarbageLine), 0u);
}

TEST(FtraceText, CrlfAndGarbageLinesAreCountedNotFatal) {
    const std::string text = test::readFile(test::dataPath("traces/tracefs-trace.txt"));
    auto clean = parseFtraceText(text, "clean");
    ASSERT_TRUE(clean);
    std::string dirty;
    std::istringstream in(text);
    std::string l;
    int garbage = 0, n = 0;
    while (std::getline(in, l)) {
        dirty += l + "\r\n";
        if (++n % 50 == 0) {
            dirty += "this is not an event \x01\x02 ]]] [[[\r\n";
            ++garbage;
        }
    }
    dirty += "bash-1 [000] 12.5: sched_switch: prev_comm=x\r\n";  // a known event without its fields
    auto r = parseFtraceText(dirty, "dirty");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(countsOf(*r), countsOf(*clean));
    EXPECT_EQ(r->anomaly(Anomaly::GarbageLine), static_cast<uint64_t>(garbage));
    EXPECT_EQ(r->anomaly(Anomaly::Malformed), 1u);
}

TEST(FtraceText, LostEventLinesAreCounted) {
    auto r = parseFtraceText("CPU:1 [LOST 42 EVENTS]\n  bash-5 [001] d..2. 1.000001: sched_waking: comm=a pid=3 prio=120 target_cpu=000\n", "t");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::LostEvents), 42u);
    EXPECT_EQ(r->size(), 1u);
}

// trace-cmd report marks a page that lost events with "CPU:N [COUNT EVENTS DROPPED]", or
// "CPU:N [EVENTS DROPPED]" when the kernel stored no count (the lossy fixture's report has both):
// read as tracefs's [LOST] lines are, where they were garbage and the losses vanished.
TEST(FtraceText, TraceCmdDroppedEventLinesAreCounted) {
    std::ifstream in(test::dataPath("traces/mixed-v7.report.txt"));
    std::string text, line;
    for (int n = 0; std::getline(in, line); ++n) {
        text += line + "\n";
        if (n == 200) text += "CPU:1 [425 EVENTS DROPPED]\n";
        if (n == 400) text += "CPU:0 [EVENTS DROPPED]\n";
    }
    auto r = parseFtraceText(text, "report.txt");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::LostEvents), 425u);
    EXPECT_EQ(r->anomaly(Anomaly::LostUnknown), 1u);
    EXPECT_EQ(r->anomaly(Anomaly::GarbageLine), 0u);
}

TEST(FtraceText, NoEventsIsAnError) {
    auto r = parseFtraceText("hello\nworld\n", "junk.txt");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().find("junk.txt"), std::string::npos);
    auto s = parseFtraceText("  bash-5 [001] 1.000001: irq_handler_entry: irq=1 name=x\n", "irqs.txt");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().find("no sched events"), std::string::npos);
}

TEST(FtraceText, LatencyFormatTextIsRefusedForWhatItIs) {
    // tracefs with options/latency-format on prints "608us" since the trace began, no timestamps
    const std::string file = test::dataPath("traces/tracefs-latency-format.txt");
    auto r = readFtraceText(file);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().find(file + ": ftrace latency-format text"), 0u) << r.error();
    EXPECT_EQ(r.error().find('\n'), std::string::npos);
}

// trace-cmd record -B NAME puts the events in an instance buffer; `trace-cmd report` prints its
// lines with a "NAME: " prefix. (buffers.sh in the data directory recorded both files.)
std::string linesOfBuffer(const std::string& report, const std::string& name) {
    std::istringstream in(report);
    std::string l, out;
    while (std::getline(in, l)) {
        const auto sp = l.find(' ');
        const bool prefixed = !l.empty() && l.front() != ' ' && sp != std::string::npos && sp > 0 && l[sp - 1] == ':';
        if (name.empty() ? !prefixed : l.starts_with(name + ": ")) out += l + "\n";
    }
    return out;
}

TEST(TraceDatBuffers, AnInstanceOnlyRecordingIsReadFromItsInstance) {
    const std::string path = test::dataPath("traces/instance-only.dat");
    auto store = readTraceDat(path);
    ASSERT_TRUE(store) << store.error();
    EXPECT_EQ(store->buffer(), "ssinst");
    EXPECT_GT(store->count(EventKind::Switch), 500u);
    EXPECT_EQ(store->anomaly(Anomaly::Unreadable), 0u);
    if (haveTraceCmd()) {
        EXPECT_EQ(countsOf(*store), countByRegex(run("trace-cmd report '" + path + "' 2>/dev/null")));
    }
    LoadOptions top;
    top.buffer = "top";
    auto none = readTraceDat(path, top);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().find("no sched events in its buffer 'top'"), std::string::npos) << none.error();
    EXPECT_NE(none.error().find("its buffers: top, ssinst"), std::string::npos) << none.error();
}

TEST(TraceDatBuffers, TheTopBufferFirstAndAnInstanceOnRequest) {
    const std::string path = test::dataPath("traces/top-and-instance.dat");
    const std::string report = test::readFile(test::dataPath("traces/top-and-instance.report.txt"));
    auto top = readTraceDat(path);
    ASSERT_TRUE(top) << top.error();
    EXPECT_EQ(top->buffer(), "");
    EXPECT_EQ(countsOf(*top), countByRegex(linesOfBuffer(report, "")));
    EXPECT_EQ(top->size(), top->count(EventKind::Switch));  // the top buffer recorded sched_switch only
    LoadOptions opt;
    opt.buffer = "ssinst";
    auto inst = readTraceDat(path, opt);
    ASSERT_TRUE(inst) << inst.error();
    EXPECT_EQ(inst->buffer(), "ssinst");
    EXPECT_EQ(countsOf(*inst), countByRegex(linesOfBuffer(report, "ssinst")));
    EXPECT_GT(inst->count(EventKind::Wakeup), 0u);
    opt.buffer = "nope";
    auto missing = readTraceDat(path, opt);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find(path), std::string::npos);
    EXPECT_NE(missing.error().find("no buffer 'nope'"), std::string::npos) << missing.error();
    EXPECT_EQ(missing.error().find('\n'), std::string::npos);
}

TEST(FtraceText, AReportOfSeveralBuffersKeepsThemApart) {
    const std::string dat = test::dataPath("traces/top-and-instance.dat");
    const std::string text = test::dataPath("traces/top-and-instance.report.txt");
    for (const std::string buffer : {"", "ssinst", "top"}) {
        LoadOptions opt;
        opt.buffer = buffer;
        auto fromDat = readTraceDat(dat, opt);
        auto fromText = readFtraceText(text, opt);
        ASSERT_TRUE(fromDat) << fromDat.error();
        ASSERT_TRUE(fromText) << fromText.error();
        EXPECT_EQ(countsOf(*fromText), countsOf(*fromDat)) << buffer;
        EXPECT_EQ(fromText->buffer(), fromDat->buffer()) << buffer;
        EXPECT_EQ(fromText->anomaly(Anomaly::GarbageLine), 0u) << buffer;
    }
    // every line of an instance-only recording carries the prefix: the instance is chosen
    const std::string report = test::readFile(text);
    auto onlyInstance = parseFtraceText(linesOfBuffer(report, "ssinst"), "instance.txt");
    ASSERT_TRUE(onlyInstance) << onlyInstance.error();
    EXPECT_EQ(onlyInstance->buffer(), "ssinst");
    auto missing = parseFtraceText(report, "report.txt", kMaxTextLineBytes, "nope");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("its buffers: top, ssinst"), std::string::npos) << missing.error();
}

TEST(TraceTopology, SidecarIsUsedAndCpuMismatchNamesBoth) {
    const std::string path = test::dataPath("traces/record-v6.dat");
    auto store = readTraceDat(path);
    ASSERT_TRUE(store) << store.error();
    auto topo = topologyForTrace(path, *store, std::nullopt);
    ASSERT_TRUE(topo) << topo.error();
    EXPECT_GE(static_cast<int>(topo->cpus.size()), store->cpuCount());

    auto noSidecar = topologyForTrace(test::dataPath("traces/mixed-v7.dat"), *store, std::nullopt);
    ASSERT_FALSE(noSidecar);
    EXPECT_NE(noSidecar.error().find("--preset"), std::string::npos);

    TopologySpec one{TopologySpec::Kind::Synthetic, "pack:1 core:1 pu:1"};
    auto small = topologyForTrace(path, *store, one);
    ASSERT_FALSE(small);
    EXPECT_NE(small.error().find(path), std::string::npos) << small.error();
    EXPECT_NE(small.error().find("pack:1 core:1 pu:1"), std::string::npos) << small.error();

    // The header names the recording machine's CPU count (trace-cmd writes it whatever -M
    // traced): a bigger topology is another machine, even with room for every CPU the events use.
    ASSERT_EQ(store->recordedCpus(), 2);
    TopologySpec bigger{TopologySpec::Kind::Synthetic, "pack:2 core:8 pu:2"};
    auto other = topologyForTrace(path, *store, bigger);
    ASSERT_FALSE(other);
    EXPECT_EQ(other.error(), path + ": the trace was recorded on 2 CPUs (its header) but topology --synthetic \"pack:2 core:8 pu:2\" "
                                   "has 32: name the machine it was recorded on") << other.error();
    // a CPU-masked recording (trace-cmd record -M 2) still names both CPUs: its own machine fits
    auto masked = readTraceDat(test::dataPath("traces/cpumask-cpu1.dat"));
    ASSERT_TRUE(masked) << masked.error();
    EXPECT_EQ(masked->recordedCpus(), 2);
    EXPECT_TRUE(topologyForTrace("cpumask-cpu1.dat", *masked, TopologySpec{TopologySpec::Kind::Synthetic, "pack:1 core:2 pu:1"}));
}

// A text trace's header counts the CPUs online (#P): a machine with CPUs offline is its machine
// when as many are online, whatever ids the offline ones had.
TEST(TraceTopology, OnlyTheOnlineCpusAreComparedWithTheHeader) {
    auto topo = loadHwlocXml(test::dataPath("topologies/xml/offline-cpu0-node0.xml"), Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    const int online = topo->onlineCpus().count();
    ASSERT_LT(online, static_cast<int>(topo->cpus.size())) << "the fixture has offline CPUs";
    EventStore store;
    store.setRecordedCpus(online);
    EXPECT_EQ(traceTopologyMismatch(store, *topo, "r630"), "");
    store.setRecordedCpus(online - 1);
    EXPECT_EQ(traceTopologyMismatch(store, *topo, "r630"),
              "the trace was recorded on " + std::to_string(online - 1) + " CPUs (its header) but topology r630 has " +
                  std::to_string(online) + " online: name the machine it was recorded on");
}

// Without a topology option a trace is classified on its recording machine (the sidecar), and
// the help says so: it used to call --local the default, which a trace without a sidecar refutes.
TEST(TraceStatsCli, HelpNamesTheSidecarAsTheDefaultTopology) {
    const std::string help = run(std::string(SCHEDSCOPE_CLI) + " trace stats --help");
    const auto local = help.find("--local");
    ASSERT_NE(local, std::string::npos) << help;
    const std::string localLine = help.substr(local, help.find('\n', local) - local);
    EXPECT_EQ(localLine.find("(default)"), std::string::npos) << localLine;
    EXPECT_NE(localLine.find("sidecar"), std::string::npos) << localLine;
    const std::string err =
        run(std::string(SCHEDSCOPE_CLI) + " trace stats '" + test::dataPath("traces/mixed-v7.dat") + "' 2>&1");
    EXPECT_NE(err.find("no topology sidecar"), std::string::npos) << err;
}

// A trace from another machine, with no sidecar and no topology named, is still summarised: its
// events, tasks and migrations by cause; only the levels, which need that machine, are left out
// (null in JSON), with a note on stderr naming the file and how to get them.
TEST(TraceStatsCli, ATraceWithoutATopologyIsSummarisedWithoutLevels) {
    const std::string path = test::dataPath("traces/mixed-v7.dat");
    const std::string both = run(std::string(SCHEDSCOPE_CLI) + " trace stats '" + path + "' 2>&1 >/dev/null");
    EXPECT_NE(both.find(path + ": no topology sidecar"), std::string::npos) << both;
    EXPECT_NE(both.find("--preset"), std::string::npos) << both;
    const std::string out = run(std::string(SCHEDSCOPE_CLI) + " trace stats '" + path + "' --json 2>/dev/null");
    auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << out;
    auto store = readTraceDat(path);
    ASSERT_TRUE(store);
    EXPECT_TRUE(j["topology"].is_null());
    EXPECT_TRUE(j["migrations_by_level"].is_null());
    EXPECT_EQ(j["events"].get<uint64_t>(), store->size());
    EXPECT_EQ(j["tasks"].get<uint64_t>(), store->taskCount());
    EXPECT_EQ(j["migrations"].get<uint64_t>(), store->count(EventKind::MigrateTask));
    uint64_t byCause = 0;
    for (const auto& [k, v] : j["migrations_by_cause"].items()) byCause += v.get<uint64_t>();
    EXPECT_EQ(byCause, store->count(EventKind::MigrateTask));
    // named, the same trace's migrations get their levels
    const std::string named = run(std::string(SCHEDSCOPE_CLI) + " trace stats '" + path + "' --synthetic 'pack:1 core:2 pu:1' --json");
    auto k = nlohmann::json::parse(named, nullptr, false);
    ASSERT_FALSE(k.is_discarded()) << named;
    EXPECT_TRUE(k["migrations_by_level"].is_object());
}

TEST(TraceStatsCli, JsonHasTheDocumentedKeysAndCounts) {
    const std::string path = test::dataPath("traces/record-v6.dat");
    const std::string out = run(std::string(SCHEDSCOPE_CLI) + " trace stats '" + path + "' --json");
    auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << out;
    for (const char* key : {"events_by_kind", "events_by_cpu", "tasks", "duration_s", "lost_events",
                            "migrations_by_level", "migrations_by_cause", "anomalies"})
        EXPECT_TRUE(j.contains(key)) << key;
    auto store = readTraceDat(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(j["events_by_kind"]["sched_switch"].get<uint64_t>(), store->count(EventKind::Switch));
    uint64_t byLevel = 0;
    for (const auto& [k, v] : j["migrations_by_level"].items()) byLevel += v.get<uint64_t>();
    EXPECT_EQ(byLevel, store->count(EventKind::MigrateTask));
}

TEST(TraceStatsCli, BufferOptionPicksTheInstanceAndNamesIt) {
    const std::string path = test::dataPath("traces/top-and-instance.dat");
    const std::string cli = std::string(SCHEDSCOPE_CLI) + " trace stats '" + path + "' --synthetic 'pack:1 core:2 pu:1'";
    auto top = nlohmann::json::parse(run(cli + " --json"), nullptr, false);
    auto inst = nlohmann::json::parse(run(cli + " --json --buffer ssinst"), nullptr, false);
    ASSERT_FALSE(top.is_discarded());
    ASSERT_FALSE(inst.is_discarded());
    EXPECT_EQ(top["buffer"], "top");
    EXPECT_EQ(inst["buffer"], "ssinst");
    EXPECT_FALSE(top["events_by_kind"].contains("sched_wakeup"));
    EXPECT_TRUE(inst["events_by_kind"].contains("sched_wakeup"));
    const std::string line = run(cli + " --buffer ssinst");
    EXPECT_NE(line.find("; buffer ssinst; kernel 6.18.44-fc-v1045; profile linux-6.18"), std::string::npos) << line;
    EXPECT_EQ(inst["kernel_release"], "6.18.44-fc-v1045");
    const std::string err = run(cli + " --buffer nope 2>&1; echo rc=$?");
    EXPECT_NE(err.find("no buffer 'nope' in the trace (its buffers: top, ssinst)"), std::string::npos) << err;
    EXPECT_NE(err.find("rc=2"), std::string::npos) << err;
    // read without --buffer, the buffers after the one read are named, with the way to read one
    const std::string notes = run(cli + " 2>&1 >/dev/null");
    EXPECT_NE(notes.find(path + ": read its top-level buffer, the first with sched events; not read: ssinst (--buffer NAME reads one)"),
              std::string::npos) << notes;
    EXPECT_EQ(run(cli + " --buffer top 2>&1 >/dev/null").find("not read:"), std::string::npos);
}

TEST(TraceDat, TheRecordingKernelsReleaseFromItsUnameOption) {
    auto traceCmd = readTraceDat(test::dataPath("traces/mixed-v7.dat"));  // trace-cmd record
    auto ours = readTraceDat(test::dataPath("traces/uname-v6.dat"));       // schedscope-cli record
    auto before = readTraceDat(test::dataPath("traces/record-v6.dat"));    // ours, before it saved one
    ASSERT_TRUE(traceCmd && ours && before);
    EXPECT_EQ(traceCmd->kernelRelease(), "6.18.44-fc-v782");
    EXPECT_EQ(ours->kernelRelease(), "6.18.44-fc-v1045");
    EXPECT_EQ(before->kernelRelease(), "");
    if (haveTraceCmd()) {
        const std::string dump = run("trace-cmd dump --options '" + test::dataPath("traces/mixed-v7.dat") + "' 2>&1");
        EXPECT_NE(dump.find("Linux vm " + traceCmd->kernelRelease() + " "), std::string::npos) << dump;
    }
}
