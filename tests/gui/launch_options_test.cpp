#include <gtest/gtest.h>

#include "launch_options.h"
#include "live_feed.h"
#include "lost_events.h"

namespace schedscope::gui {
namespace {

LaunchOptions parse(QStringList args) {
    args.prepend(QStringLiteral("schedscope"));
    return parseLaunchOptions(args);
}

TEST(LaunchOptions, DefaultsToThisMachine) {
    auto o = parse({});
    EXPECT_TRUE(o.error.isEmpty());
    EXPECT_EQ(o.spec.kind, TopologySpec::Kind::Local);
    EXPECT_TRUE(o.choices.cls);
    EXPECT_TRUE(o.choices.node);
    EXPECT_TRUE(o.screenshot.isEmpty());
}

// A trace FILE given with a topology option is read against that machine, not its sidecar's.
TEST(LaunchOptions, ATraceWithATopologyIsReadAgainstIt) {
    EXPECT_FALSE(parse({QStringLiteral("sample.dat")}).topologyGiven);
    auto o = parse({QStringLiteral("sample.dat"), QStringLiteral("--preset"), QStringLiteral("kunpeng920-24")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_TRUE(o.topologyGiven);
    EXPECT_EQ(o.traceFile, QStringLiteral("sample.dat"));
    EXPECT_TRUE(parse({QStringLiteral("--local")}).topologyGiven);
}

// --isolate and --partition are the topology's cpusets (applied when it loads), as the CLI's
TEST(LaunchOptions, CpusetsGoWithTheTopology) {
    auto o = parse({QStringLiteral("--preset"), QStringLiteral("kunpeng920-24"), QStringLiteral("--isolate"),
                    QStringLiteral("4-7"), QStringLiteral("--partition"), QStringLiteral("24-47"),
                    QStringLiteral("--partition"), QStringLiteral("72-95")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.spec.isolate.toList(), "4-7");
    ASSERT_TRUE(o.spec.partitions);
    ASSERT_EQ(o.spec.partitions->size(), 2u);
    EXPECT_EQ((*o.spec.partitions)[1].toList(), "72-95");
    EXPECT_EQ(o.spec.describe(), "--preset kunpeng920-24 --isolate 4-7 --partition 24-47 --partition 72-95");
    o = parse({QStringLiteral("--partition"), QStringLiteral("2-x")});
    EXPECT_TRUE(o.error.startsWith(QStringLiteral("--partition: "))) << o.error.toStdString();
}

// --numa-distances goes with the topology too, and the window's status names it (describe())
TEST(LaunchOptions, NumaDistancesGoWithTheTopology) {
    auto o = parse({QStringLiteral("--preset"), QStringLiteral("kunpeng920-32"), QStringLiteral("--numa-distances"),
                    QStringLiteral("10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    ASSERT_TRUE(o.spec.numaDistances);
    EXPECT_EQ((*o.spec.numaDistances)[3], (std::vector<int>{20, 20, 20, 10}));
    EXPECT_EQ(o.spec.describe(), "--preset kunpeng920-32 --numa-distances \"10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10\"");
    o = parse({QStringLiteral("--numa-distances"), QStringLiteral("10,20;20")});
    EXPECT_EQ(o.error, QStringLiteral("--numa-distances: row 2 has 1 distances, row 1 2"));
}

TEST(LaunchOptions, LiveCaptureThroughTheHelper) {
    auto o = parse({QStringLiteral("--attach-capture"), QStringLiteral("/run/user/1000/ss.sock")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.attachCapture, QStringLiteral("/run/user/1000/ss.sock"));
    EXPECT_FALSE(o.captureHelper);
    o = parse({QStringLiteral("--capture-helper")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_TRUE(o.captureHelper);
    // Attaching shows this machine live: nothing else to show at the same time.
    for (const QStringList& bad : {QStringList{QStringLiteral("--attach-capture"), QStringLiteral("/s"), QStringLiteral("trace.dat")},
                                   QStringList{QStringLiteral("--attach-capture"), QStringLiteral("/s"), QStringLiteral("--preset"),
                                               QStringLiteral("kunpeng920-24")},
                                   QStringList{QStringLiteral("--attach-capture"), QStringLiteral("/s"), QStringLiteral("--capture-helper")},
                                   QStringList{QStringLiteral("--attach-capture=")}}) {
        o = parse(bad);
        EXPECT_FALSE(o.error.isEmpty()) << bad.join(QLatin1Char(' ')).toStdString();
    }
}

// --buffer-kb sizes live capture's ring buffers, with the CLI's bounds; a helper started
// elsewhere sizes its own.
TEST(LaunchOptions, LiveBufferSize) {
    EXPECT_EQ(parse({}).liveBufferKb, 0u);
    auto o = parse({QStringLiteral("--buffer-kb"), QStringLiteral("4096")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.liveBufferKb, 4096u);
    for (const char* bad : {"3", "x", "1048577", "-8", ""}) {
        o = parse({QStringLiteral("--buffer-kb"), QString::fromLatin1(bad)});
        EXPECT_TRUE(o.error.startsWith(QStringLiteral("--buffer-kb: '"))) << bad << ": " << o.error.toStdString();
    }
    o = parse({QStringLiteral("--buffer-kb"), QStringLiteral("64"), QStringLiteral("--attach-capture"), QStringLiteral("/s")});
    EXPECT_TRUE(o.error.contains(QStringLiteral("--ring-mb"))) << o.error.toStdString();
    // through the helper: its one ring holds what the per-CPU buffers would, in MB, a power of two
    EXPECT_EQ(helperRingMbFor(4096, 2), 8u);
    EXPECT_EQ(helperRingMbFor(4096, 3), 16u);
    EXPECT_EQ(helperRingMbFor(4, 2), 1u);
    EXPECT_EQ(helperRingMbFor(tracing::kMaxBufferKb, 128), 256u);
    EXPECT_EQ(helperRingMbFor(512, 0), 1u);
}

TEST(LaunchOptions, TopologySourcesAndDomainChoices) {
    auto o = parse({QStringLiteral("--preset"), QStringLiteral("kunpeng920-24"), QStringLiteral("--no-cls"),
                    QStringLiteral("--no-node"), QStringLiteral("--profile"), QStringLiteral("linux-6.1"),
                    QStringLiteral("--arch"), QStringLiteral("arm64")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.spec.kind, TopologySpec::Kind::Preset);
    EXPECT_EQ(o.spec.value, "kunpeng920-24");
    EXPECT_TRUE(o.spec.archGiven);
    EXPECT_EQ(o.spec.arch, Arch::Arm64);
    EXPECT_FALSE(o.choices.cls);
    EXPECT_FALSE(o.choices.node);
    EXPECT_EQ(o.choices.profile, "linux-6.1");

    o = parse({QStringLiteral("--synthetic"), QStringLiteral("pack:2 core:2 pu:1")});
    EXPECT_EQ(o.spec.kind, TopologySpec::Kind::Synthetic);
    EXPECT_EQ(o.spec.value, "pack:2 core:2 pu:1");
    o = parse({QStringLiteral("--sysfs-root"), QStringLiteral("/tmp/snap")});
    EXPECT_EQ(o.spec.kind, TopologySpec::Kind::SysfsRoot);
    o = parse({QStringLiteral("--xml"), QStringLiteral("m.xml"), QStringLiteral("trace.dat")});
    EXPECT_EQ(o.spec.kind, TopologySpec::Kind::HwlocXml);
    EXPECT_EQ(o.traceFile, QStringLiteral("trace.dat"));
}

TEST(LaunchOptions, Screenshot) {
    auto o = parse({QStringLiteral("--screenshot"), QStringLiteral("out.png"), QStringLiteral("--view"),
                    QStringLiteral("Topology"), QStringLiteral("--size"), QStringLiteral("640x480")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.screenshot, QStringLiteral("out.png"));
    EXPECT_EQ(o.view, QStringLiteral("topology"));
    EXPECT_EQ(o.size, QSize(640, 480));
    // The trace views, with a trace FILE (without one: an error, see below).
    for (const char* view : {"timeline", "matrix", "rates", "latency", "tasks"}) {
        o = parse({QStringLiteral("sample.dat"), QStringLiteral("--screenshot"), QStringLiteral("out.png"),
                   QStringLiteral("--view"), QLatin1String(view)});
        ASSERT_TRUE(o.error.isEmpty()) << view << ": " << o.error.toStdString();
        EXPECT_EQ(o.view, QLatin1String(view));
        EXPECT_EQ(o.traceFile, QStringLiteral("sample.dat"));
    }
}

TEST(LaunchOptions, ErrorsAreOneLineAndNameTheOption) {
    const QStringList bad[] = {
        {QStringLiteral("--preset"), QStringLiteral("a"), QStringLiteral("--xml"), QStringLiteral("b")},
        {QStringLiteral("--arch"), QStringLiteral("sparc")},
        {QStringLiteral("--profile"), QStringLiteral("linux-0.1")},
        {QStringLiteral("--screenshot"), QStringLiteral("o.png"), QStringLiteral("--size"), QStringLiteral("big")},
        {QStringLiteral("--screenshot"), QStringLiteral("o.png"), QStringLiteral("--view"), QStringLiteral("timeline")},
        {QStringLiteral("--size"), QStringLiteral("800x600")},
        {QStringLiteral("--bogus")},
        {QStringLiteral("a.dat"), QStringLiteral("b.dat")},
        {QStringLiteral("--buffer"), QStringLiteral("ssw")},
    };
    for (const auto& args : bad) {
        auto o = parse(args);
        EXPECT_FALSE(o.error.isEmpty()) << args.join(QLatin1Char(' ')).toStdString();
        EXPECT_FALSE(o.error.contains(QLatin1Char('\n'))) << o.error.toStdString();
    }
    EXPECT_TRUE(parse({QStringLiteral("--profile"), QStringLiteral("linux-0.1")}).error.contains(QStringLiteral("linux-6.1")));
    // the CLI's message: the GUI takes any linux-X.Y in range too, so it says so
    const QString profile = parse({QStringLiteral("--profile"), QStringLiteral("linux-7.5")}).error;
    EXPECT_EQ(profile.toStdString(), "--profile: " + unknownProfileError("linux-7.5"));
    EXPECT_TRUE(profile.contains(QStringLiteral("or any linux-X.Y[.Z] from 4.14 to"))) << profile.toStdString();
}

TEST(LaunchOptions, BufferGoesWithTheTraceFile) {
    auto o = parse({QStringLiteral("t.dat"), QStringLiteral("--buffer"), QStringLiteral("ssw")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.traceFile, QStringLiteral("t.dat"));
    EXPECT_EQ(o.traceBuffer, QStringLiteral("ssw"));
    EXPECT_TRUE(parse({QStringLiteral("--buffer"), QStringLiteral("ssw")}).error.startsWith(QStringLiteral("--buffer")));
}

}  // namespace
}  // namespace schedscope::gui
