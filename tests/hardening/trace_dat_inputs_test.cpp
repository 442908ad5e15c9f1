// Bad-input catalogue, trace.dat rows: one test per row, each asserting the exact one-line error
// or the anomaly counter. Corruptions are byte patches of the committed fixtures at offsets
// found with libtracecmd (tracecmd_read_cpu_first/read_data give each record's file offset) and
// `trace-cmd dump --flyrecord` (v7 CPU data sections); each test checks its patch landed where
// it should by reading the unpatched value first.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "hardening_support.h"
#include "support/fixtures.h"
#include "trace_reader.h"

using namespace schedscope;
using namespace schedscope::tracing;
using namespace schedscope::hardening;

namespace {

// record-v6.dat (uncompressed, 4 KB ring-buffer pages, page header = u64 ts + u64 commit).
// CPU 0's buffer starts at 32768 (first page).
constexpr size_t kV6Cpu0Page1 = 36864;         // second page
constexpr size_t kV6Cpu0Page2 = 40960;         // third page
constexpr size_t kV6SwitchCommonType = 32888;  // common_type of CPU 0's first sched_switch
constexpr uint16_t kSchedSwitchId = 372;
// Events of the third page (moved 1 s back) that arrive older than the newest seen on CPU 0.
constexpr uint64_t kBackwardsExpected = 71;
// mixed-v7.dat (zstd): CPU 0's data section (`trace-cmd dump --flyrecord`: "0 1019904 14692").
constexpr size_t kV7Cpu0Data = 1019904;

std::string v6() { return test::readFile(test::dataPath("traces/record-v6.dat")); }
std::string v7() { return test::readFile(test::dataPath("traces/mixed-v7.dat")); }

Result<EventStore> loadBytes(const std::string& name, const std::string& bytes, std::string* path = nullptr) {
    const std::string p = scratchPath("dat/" + name);
    writeFile(p, bytes);
    if (path) *path = p;
    return readTraceDat(p);
}

void expectInTimeOrder(const EventStore& s) {
    uint64_t last = 0;
    size_t n = 0;
    s.forEach([&](const SchedEvent& e) {
        EXPECT_GE(e.ts, last);
        last = e.ts;
        ++n;
        return true;
    });
    EXPECT_EQ(n, s.size());
}

TEST(BadTraceDat, ZeroBytes) {
    std::string path;
    auto r = loadBytes("zero.dat", "", &path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), path + ": empty file");
    auto any = readTraceFile(path);  // the format detector says the same
    ASSERT_FALSE(any);
    EXPECT_EQ(any.error(), path + ": empty file");
}

TEST(BadTraceDat, NoRegularFile) {
    // a FIFO would block libtracecmd's open and /dev/zero never ends: both report a size of 0
    const std::string fifo = scratchPath("dat/fifo.dat");
    std::filesystem::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& path : {fifo, std::string("/dev/zero")}) {
        auto r = readTraceDat(path);
        ASSERT_FALSE(r) << path;
        EXPECT_EQ(r.error(), path + ": not a regular file");
        auto any = readTraceFile(path);
        ASSERT_FALSE(any) << path;
        EXPECT_EQ(any.error(), path + ": not a regular file");
    }
}

TEST(BadTraceDat, WrongMagic) {
    std::string bytes = v6();
    bytes[3] = 'T';  // "\x17\x08\x44tracing" -> "\x17\x08\x44Tracing"
    std::string path;
    auto r = loadBytes("magic.dat", bytes, &path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), path + ": not a trace.dat file (wrong magic)");
}

// Cut inside its 10-byte magic: a trace.dat cut short, not text that no line of parses.
TEST(BadTraceDat, TruncatedInsideTheMagic) {
    for (size_t cut : {size_t{1}, size_t{3}, size_t{9}}) {
        std::string path;
        auto r = loadBytes("magic-cut" + std::to_string(cut) + ".dat", v6().substr(0, cut), &path);
        ASSERT_FALSE(r) << cut;
        const std::string said = path + ": a trace.dat cut short: its " + std::to_string(cut) +
                                 (cut == 1 ? " byte ends" : " bytes end") + " inside the file's magic";
        EXPECT_EQ(r.error(), said) << cut;
        auto any = readTraceFile(path);
        ASSERT_FALSE(any) << cut;
        EXPECT_EQ(any.error(), said) << cut;
    }
}

TEST(BadTraceDat, TruncatedHeader) {
    for (size_t cut : {size_t{12}, size_t{100}, size_t{2000}}) {
        std::string path;
        auto r = loadBytes("header-cut" + std::to_string(cut) + ".dat", v6().substr(0, cut), &path);
        ASSERT_FALSE(r) << cut;
        EXPECT_EQ(r.error(), path + ": libtracecmd cannot read its headers (truncated or corrupt trace.dat)") << cut;
    }
}

TEST(BadTraceDat, TruncatedInTheMiddleOfACpuBuffer) {
    // v6: cut inside CPU 0's second page. libtracecmd maps the CPU data by the sizes in the
    // header, so the short file is refused as a whole.
    // libtracecmd printf()s its own "File possibly truncated" there, which must not reach stdout
    // (where `--json` writes): the one-line error says it.
    std::string path;
    testing::internal::CaptureStdout();
    auto r = loadBytes("cpu-cut-v6.dat", v6().substr(0, kV6Cpu0Page1 + 2000), &path);
    std::printf("after\n");
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "after\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), path + ": libtracecmd cannot read its CPU data (truncated or corrupt trace.dat)");
    // v7 keeps its options section after the CPU data, so a cut there fails at the headers.
    auto r7 = loadBytes("cpu-cut-v7.dat", v7().substr(0, kV7Cpu0Data + 9000), &path);
    ASSERT_FALSE(r7);
    EXPECT_EQ(r7.error(), path + ": libtracecmd cannot read its headers (truncated or corrupt trace.dat)");
}

// The file's per-CPU "read events" is the kernel's count when the recording ended: one more than
// the records in a healthy file is the recorder's last read (trace-cmd report reads as many as
// we do), not a damaged part; a chunk's worth missing is.
TEST(BadTraceDat, AReadCountOneAboveTheRecordsIsNoDamage) {
    const std::string good = test::readFile(test::dataPath("traces/cpumask-cpu1.dat"));
    const std::string stat = "read events: 899\n";
    const size_t at = good.find(stat);
    ASSERT_NE(at, std::string::npos);
    for (const auto& [count, unreadable] : std::vector<std::pair<std::string, uint64_t>>{{"900", 0}, {"901", 0}, {"999", 100}}) {
        std::string bytes = good;
        bytes.replace(at + 13, 3, count);
        auto r = loadBytes("read-count-" + count + ".dat", bytes);
        ASSERT_TRUE(r) << r.error();
        EXPECT_GT(r->count(EventKind::Switch), 0u);
        EXPECT_EQ(r->anomaly(Anomaly::Unreadable), unreadable) << count;
    }
}

TEST(BadTraceDat, V7CorruptCompressedChunk) {
    auto whole = readTraceDat(test::dataPath("traces/mixed-v7.dat"));
    ASSERT_TRUE(whole) << whole.error();
    EXPECT_EQ(whole->anomaly(Anomaly::Unreadable), 0u);
    std::string bytes = v7();
    ASSERT_EQ(readValue<uint32_t>(bytes, kV7Cpu0Data), 2u);  // two compressed chunks on CPU 0
    for (size_t i = kV7Cpu0Data + 200; i < kV7Cpu0Data + 216; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    auto r = loadBytes("v7-chunk.dat", bytes);
    ASSERT_TRUE(r) << r.error();
    // libtracecmd silently stops at the damage; the file's own per-CPU count tells how much.
    EXPECT_EQ(r->anomaly(Anomaly::Unreadable), 163u);
    EXPECT_LT(r->size(), whole->size());
    expectInTimeOrder(*r);
    // said where one looks: trace stats' first line (it read "0 lost events" alone) and replay's
    // assumptions
    const std::string path = scratchPath("dat/v7-chunk.dat");
    CliRun stats = runCli("trace stats '" + path + "'");
    ASSERT_EQ(stats.status, 0) << stats.err;
    EXPECT_NE(stats.out.find("0 lost events, 163 records unreadable (a corrupt or cut part of the file)"), std::string::npos)
        << stats.out.substr(0, 400);
    CliRun replay = runCli("replay '" + path + "' --local");
    ASSERT_EQ(replay.status, 0) << replay.err;
    EXPECT_NE(replay.out.find("the trace has 163 records unreadable"), std::string::npos) << replay.out;
}

// One bit flipped in a zstd-compressed format section that still decompresses: libtraceevent
// 1.7's tep_parse_event() faults on the garbage (trace-cmd report crashes on this file). Found
// by fuzz_trace_dat; a one-line error here, and the process reads the next file.
TEST(BadTraceDat, FormatSectionTheParserCrashesOn) {
    std::string bytes = test::readFile(test::dataPath("traces/clock-x86-tsc.dat"));
    ASSERT_GT(bytes.size(), 2680u);
    bytes[2680] = static_cast<char>(bytes[2680] ^ 0x40);
    std::string path;
    auto r = loadBytes("format-bitflip.dat", bytes, &path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), path + ": libtraceevent crashes reading its headers (corrupt event formats or sections)");
    auto good = readTraceDat(test::dataPath("traces/clock-x86-tsc.dat"));
    ASSERT_TRUE(good) << good.error();
    EXPECT_GT(good->size(), 0u);
}

TEST(BadTraceDat, EventWhoseFormatTheFileDoesNotDescribe) {
    auto whole = readTraceDat(test::dataPath("traces/record-v6.dat"));
    ASSERT_TRUE(whole);
    std::string bytes = v6();
    ASSERT_EQ(readValue<uint16_t>(bytes, kV6SwitchCommonType), kSchedSwitchId);
    patchValue<uint16_t>(bytes, kV6SwitchCommonType, 32767);
    auto r = loadBytes("unknown-id.dat", bytes);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::UnknownEvent), 1u);
    EXPECT_EQ(r->count(EventKind::Switch) + 1, whole->count(EventKind::Switch));
}

TEST(BadTraceDat, LostEvents) {
    std::string bytes = v6();
    const auto commit = readValue<uint32_t>(bytes, kV6Cpu0Page1 + 8);
    ASSERT_LE(16 + commit + 8, 4096u) << "room after the data for the stored count";
    // RB_MISSED_EVENTS | RB_MISSED_STORED, count after the page data (as the kernel writes it).
    patchValue<uint32_t>(bytes, kV6Cpu0Page1 + 8, commit | 1u << 31 | 1u << 30);
    patchValue<uint64_t>(bytes, kV6Cpu0Page1 + 16 + commit, 42);
    auto r = loadBytes("lost.dat", bytes);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::LostEvents), 42u);
    EXPECT_EQ(r->anomaly(Anomaly::LostUnknown), 0u);

    std::string unknown = v6();
    patchValue<uint32_t>(unknown, kV6Cpu0Page1 + 8, commit | 1u << 31);  // missed, count not stored
    auto u = loadBytes("lost-unknown.dat", unknown);
    ASSERT_TRUE(u) << u.error();
    EXPECT_EQ(u->anomaly(Anomaly::LostUnknown), 1u);
    EXPECT_EQ(u->anomaly(Anomaly::LostEvents), 0u);
}

// A page header whose commit size runs far past its 4 KB page: libtracecmd's
// kbuffer_load_subbuffer() reads off its buffer and the process died (trace-cmd report does on
// the same file). The read of each CPU's records survives it and names the CPU.
TEST(BadTraceDat, APageCommitSizeThatCrashesLibtracecmd) {
    std::string bytes = v6();
    const auto commit = readValue<uint32_t>(bytes, kV6Cpu0Page2 + 8);
    ASSERT_LT(commit, 4096u) << "the third page's commit size";
    patchValue<uint32_t>(bytes, kV6Cpu0Page2 + 8, 0xffffffffu);
    std::string path;
    auto r = loadBytes("page-commit.dat", bytes, &path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), path + ": libtracecmd crashes reading CPU 0's events (a corrupt page in the event data)");
    // the reader is usable afterwards: the intact file still loads
    auto again = loadBytes("page-commit-intact.dat", v6());
    ASSERT_TRUE(again) << again.error();
    EXPECT_GT(again->size(), 1000u);
}

TEST(BadTraceDat, TimestampsGoingBackwards) {
    auto whole = readTraceDat(test::dataPath("traces/record-v6.dat"));
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->anomaly(Anomaly::OutOfOrder), 0u);
    std::string bytes = v6();
    const auto ts = readValue<uint64_t>(bytes, kV6Cpu0Page2);
    ASSERT_GT(ts, readValue<uint64_t>(bytes, kV6Cpu0Page1));
    patchValue<uint64_t>(bytes, kV6Cpu0Page2, ts - 1'000'000'000);  // the third page starts 1 s earlier
    auto r = loadBytes("backwards.dat", bytes);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->size(), whole->size());
    EXPECT_EQ(r->anomaly(Anomaly::OutOfOrder), kBackwardsExpected);
    expectInTimeOrder(*r);  // the store re-sorted the CPU
}

TEST(BadTraceDat, PidReuse) {
    // A fork creating a pid that exited earlier (the kernel recycled it). Built as text: the
    // reader-independent part (EventStore::finish) is what counts it, for every source.
    const std::string text =
        "  sh-10 [000] 1.000000: sched_process_fork: comm=sh pid=10 child_comm=sh child_pid=77\n"
        "  sh-77 [000] 1.100000: sched_process_exit: comm=sh pid=77 prio=120\n"
        "  sh-10 [001] 1.200000: sched_process_fork: comm=sh pid=10 child_comm=cc child_pid=77\n"
        "  cc-77 [001] 1.300000: sched_process_exit: comm=cc pid=77 prio=120\n"
        "  sh-10 [000] 1.400000: sched_process_fork: comm=sh pid=10 child_comm=ld child_pid=77\n";
    auto r = parseFtraceText(text, "reuse.txt");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::PidReuse), 2u);
    EXPECT_EQ(r->commAt(77, 1'250'000'000), "cc");
    // A corrupt pid far above PID_MAX_LIMIT must not size the pid bitsets (it used to: 256 MB).
    auto huge = parseFtraceText(
        "  sh-10 [000] 1.0: sched_process_exit: comm=x pid=2147483647 prio=120\n"
        "  sh-10 [000] 1.1: sched_process_fork: comm=sh pid=10 child_comm=y child_pid=2147483647\n",
        "huge-pid.txt");
    ASSERT_TRUE(huge) << huge.error();
    EXPECT_LT(huge->residentBytes(), size_t{1} << 20);
}

TEST(BadTraceDat, MillionDistinctComms) {
    // 10^6 tasks, each with its own name, as a text trace generated here (10^5 under ASan,
    // where the million takes over a minute; the release run does the million).
    const int kTasks = kSanitized ? 100'000 : 1'000'000;
    std::string text;
    text.reserve(static_cast<size_t>(kTasks) * 96);
    char line[160];
    for (int i = 0; i < kTasks; ++i) {
        const int n = std::snprintf(line, sizeof line,
                                    "  t%d-%d [%03d] %d.%09d: sched_waking: comm=t%d pid=%d prio=120 target_cpu=%03d\n",
                                    i, i + 1, i % 4, 10 + i / 1'000'000, i % 1'000'000 * 1000, i, i + 1, (i + 1) % 4);
        text.append(line, static_cast<size_t>(n));
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto r = parseFtraceText(text, "comms.txt");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->size(), static_cast<size_t>(kTasks));
    EXPECT_EQ(r->taskCount(), static_cast<size_t>(kTasks));
    EXPECT_EQ(r->commAt(1, 0), "t0");
    EXPECT_EQ(r->commAt(kTasks, UINT64_MAX), "t" + std::to_string(kTasks - 1));
    EXPECT_EQ(r->anomaly(Anomaly::GarbageLine), 0u);
    RecordProperty("parse_seconds", std::to_string(s));
    RecordProperty("resident_mb", std::to_string(r->residentBytes() >> 20));
}

}  // namespace
