// Bad-input catalogue, ftrace text rows.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "hardening_support.h"
#include "support/fixtures.h"
#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "plausible_span.h"
#include "topology/hwloc_loader.h"
#include "trace_reader.h"

using namespace schedscope;
using namespace schedscope::tracing;
using namespace schedscope::hardening;

namespace {

std::string tracefsText() { return test::readFile(test::dataPath("traces/tracefs-trace.txt")); }

uint64_t keptEvents(const EventStore& s) {
    uint64_t n = 0;
    for (int k = 0; k < kEventKindCount; ++k) n += s.count(static_cast<EventKind>(k));
    return n;
}

TEST(BadText, GarbageLines) {
    auto only = parseFtraceText("\x7f" "ELF\x02\x01\n}{][\nhello world\n", "garbage.txt");
    ASSERT_FALSE(only);
    EXPECT_EQ(only.error(), "garbage.txt: not an ftrace text trace (no line parses as an event)");

    const std::string clean = tracefsText();
    auto base = parseFtraceText(clean, "clean");
    ASSERT_TRUE(base) << base.error();
    std::string dirty = "]]]]\n" + clean + "[[[[ 1.0: sched_switch:\n-[1] x\n  bash-1 [000] nan: sched_switch: x\n";
    auto r = parseFtraceText(dirty, "dirty");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::GarbageLine), 4u);
    EXPECT_EQ(r->size(), base->size());
}

TEST(BadText, MixedFormats) {
    // tracefs key=value lines and trace-cmd report (sched plugin) lines in one file.
    const std::string text =
        "  bash-5 [001] d..2. 1.000001: sched_switch: prev_comm=bash prev_pid=5 prev_prio=120 prev_state=S ==> "
        "next_comm=swapper/1 next_pid=0 next_prio=120\n"
        "           bash-5     [000]     2.000001: sched_switch:         bash:5 [120] R ==> cc:7 [120]\n"
        "           bash-5     [000]     2.000002: sched_wakeup:         cc:7 [120] CPU:001\n"
        "  bash-5 [001] d..2. 2.000003: sched_waking: comm=cc pid=7 prio=120 target_cpu=001\n";
    auto r = parseFtraceText(text, "mixed.txt");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->count(EventKind::Switch), 2u);
    EXPECT_EQ(r->count(EventKind::Wakeup), 1u);
    EXPECT_EQ(r->count(EventKind::Waking), 1u);
    EXPECT_EQ(r->anomaly(Anomaly::GarbageLine), 0u);
    EXPECT_EQ(r->commAt(7, 3'000'000'000), "cc");
}

TEST(BadText, WindowsLineEndings) {
    const std::string unix = tracefsText();
    std::string dos;
    for (char c : unix) {
        if (c == '\n') dos += '\r';
        dos += c;
    }
    auto a = parseFtraceText(unix, "unix");
    auto b = parseFtraceText(dos, "dos");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(b->size(), a->size());
    EXPECT_EQ(b->anomaly(Anomaly::GarbageLine), 0u);
    EXPECT_EQ(b->otherEvents(), a->otherEvents());
    for (int k = 0; k < kEventKindCount; ++k)
        EXPECT_EQ(b->count(static_cast<EventKind>(k)), a->count(static_cast<EventKind>(k)));
}

TEST(BadText, VeryLongSingleLine) {
    const std::string clean = tracefsText();
    auto base = parseFtraceText(clean, "base");
    ASSERT_TRUE(base);
    // 64 MB in one line, shaped to be expensive to parse ("[" and " =" over and over): above
    // the cap, so it is counted as garbage without being parsed.
    std::string longLine = "  x-1 [000] 1.0: sched_switch: prev_pid=1";
    while (longLine.size() < (size_t{64} << 20)) longLine += " [a =";
    const size_t mid = clean.find('\n', clean.size() / 2) + 1;  // between two lines
    const std::string text = clean.substr(0, mid) + longLine + "\n" + clean.substr(mid);
    const auto t0 = std::chrono::steady_clock::now();
    auto r = parseFtraceText(text, "long.txt");
    RecordProperty("parse_seconds",
                   std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->anomaly(Anomaly::GarbageLine), 1u);
    EXPECT_EQ(keptEvents(*r), keptEvents(*base));

    // The same with the cap lowered: a 200-byte line over a 128-byte cap.
    const std::string shortCap =
        "  bash-5 [001] 1.000001: sched_waking: comm=a pid=3 prio=120 target_cpu=000\n" + std::string(200, 'y') + "\n";
    auto c = parseFtraceText(shortCap, "cap.txt", 128);
    ASSERT_TRUE(c) << c.error();
    EXPECT_EQ(c->anomaly(Anomaly::GarbageLine), 1u);
    EXPECT_EQ(c->size(), 1u);

    // Lines under the cap but quadratic for a naive parser ("[[[[...]" before the CPU column, a
    // comm of 200k words before the next key=) parse in linear time.
    std::string words;
    for (int i = 0; i < 200000; ++i) words += " w";
    const std::string nasty = "  x-1 [" + std::string(400000, '[') + "] 1.0: sched_waking: comm=a pid=1\n" +
                              "  x-1 [000] 1.0: sched_waking: comm=a" + words + " pid=1 prio=1 target_cpu=0\n";
    auto d = parseFtraceText(nasty, "nasty.txt");
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->size(), 1u);
    EXPECT_EQ(d->anomaly(Anomaly::GarbageLine), 1u);
    EXPECT_EQ(d->commAt(1, 0).size(), 1 + words.size());
}

TEST(BadText, FileReaderRefusesBinaryAndNamesTheFile) {
    const std::string p = scratchPath("text/binary.txt");
    writeFile(p, std::string("abc\0def\n", 8));
    auto r = readFtraceText(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), p + ": binary data, not a text trace or trace.dat");

    // what a demanding user opens by mistake: perf's own recording, a compressed text trace
    const std::string perf = scratchPath("text/perf.data");
    writeFile(perf, std::string("PERFILE2\x68\0\0\0\0\0\0\0", 16));
    auto q = readFtraceText(perf);
    ASSERT_FALSE(q);
    EXPECT_EQ(q.error(), perf + ": a perf.data recording, not a trace: turn it into text with `perf script -i " + perf +
                             " > sched.txt` and open that");
    const std::string gz = scratchPath("text/trace.txt.gz");
    writeFile(gz, std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10));
    auto z = readFtraceText(gz);
    ASSERT_FALSE(z);
    EXPECT_EQ(z.error(), gz + ": gzip-compressed: decompress it first (gunzip)");
}

}  // namespace

namespace {

// One stray timestamp far in the future (a corrupt line, a clock jump) makes the trace span
// 31 years: the migration histogram is over the span the other timestamps plausibly cover, in the
// bins asked for, instead of a billion bins or bins widened to years (plausible_span.h).
TEST(BadText, AFarFutureTimestampIsLeftOutOfTheHistogramBins) {
    std::string text = tracefsText();
    const auto at = text.rfind("1213.284453:");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 4, "999999999");  // 999999999.284453 s
    auto store = parseFtraceText(text, "future.txt");
    ASSERT_TRUE(store) << store.error();
    auto topo = loadHwlocSynthetic("pack:1 core:2 pu:1", Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree) << tree.error();
    const PlausibleSpan span = plausibleSpan(*store);
    ASSERT_EQ(span.after, 1u);
    const MigrationReport r = MigrationClassifier(*tree).classify(*store, 1000000000ull);
    EXPECT_EQ(r.binNs, 1000000000ull);
    EXPECT_EQ(r.firstTs, span.first);
    EXPECT_EQ(r.byLevelOverTime.size(), (span.last - span.first) / r.binNs + 1);
    uint64_t binned = 0, inSpan = 0;
    for (const auto& bin : r.byLevelOverTime)
        for (uint64_t n : bin) binned += n;
    for (const auto& m : r.migrations) inSpan += m.ts >= span.first && m.ts <= span.last;
    EXPECT_GT(inSpan, 0u);
    EXPECT_EQ(binned, inSpan) << "every migration in the plausible span lands in a bin";
}

// A bin far finer than the trace (1 ns over seconds) is widened to at most kMaxBins bins.
TEST(BadText, AFineBinOverALongTraceIsWidened) {
    auto store = parseFtraceText(tracefsText(), "trace.txt");
    ASSERT_TRUE(store) << store.error();
    auto topo = loadHwlocSynthetic("pack:1 core:2 pu:1", Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree) << tree.error();
    const MigrationReport r = MigrationClassifier(*tree).classify(*store, 1);
    EXPECT_LE(r.byLevelOverTime.size(), MigrationClassifier::kMaxBins);
    EXPECT_GT(r.binNs, 1u);
    EXPECT_GE(r.binNs * r.byLevelOverTime.size(), store->lastTs() - store->firstTs());
    uint64_t binned = 0;
    for (const auto& bin : r.byLevelOverTime)
        for (uint64_t n : bin) binned += n;
    EXPECT_GT(binned, 0u);
    EXPECT_EQ(binned, r.migrations.size()) << "every migration still lands in a bin";
}

}  // namespace
