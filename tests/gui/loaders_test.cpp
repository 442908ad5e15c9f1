// The background loaders of topologies and traces: what they report while they work, and that
// the result comes after the last report.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "session_loader.h"
#include "trace_loader.h"
#include "trace_workspace.h"

using namespace schedscope;
using namespace schedscope::gui;

TEST(TraceLoaderTest, ReportsRealProgressAndDeliversTheTrace) {
    TraceLoader loader;
    QSignalSpy progress(&loader, &TraceLoader::progress);
    QSignalSpy loaded(&loader, &TraceLoader::loaded);
    QSignalSpy idle(&loader, &TraceLoader::idle);
    loader.load(TraceWorkspace::sampleTracePath(), nullptr, {});
    ASSERT_TRUE(idle.wait(60'000));
    ASSERT_EQ(loaded.size(), 1);
    // Every stage is shown, however fast the load (a 3 ms load once showed none of them, and
    // whether the first step arrived depended on the thread's timing), in order, never backwards.
    QStringList stages;
    int last = -1;
    for (const auto& args : progress) {
        EXPECT_GE(args.at(0).toInt(), last);
        last = args.at(0).toInt();
        const QString stage = args.at(1).toString().section(QLatin1Char(' '), 0, 0);
        if (stages.isEmpty() || stages.back() != stage) stages << stage;
    }
    EXPECT_EQ(stages, (QStringList{QStringLiteral("reading"), QStringLiteral("topology"), QStringLiteral("analysing")}));
    EXPECT_EQ(last, 1000);
}

TEST(SessionLoaderTest, ShowsEveryStageBeforeTheSession) {
    SessionLoader loader;
    QStringList stages;
    bool loadedAfterDone = false;
    QObject::connect(&loader, &SessionLoader::progress, [&](int, int, const QString& stage) {
        if (stages.isEmpty() || stages.back() != stage) stages << stage;
    });
    QObject::connect(&loader, &SessionLoader::loaded, [&] { loadedAfterDone = !stages.isEmpty() && stages.back() == QStringLiteral("done"); });
    QSignalSpy idle(&loader, &SessionLoader::idle);
    QSignalSpy failed(&loader, &SessionLoader::failed);
    TopologySpec spec;
    spec.kind = TopologySpec::Kind::Preset;
    spec.value = "kunpeng920-24";
    loader.load(spec, {});
    ASSERT_TRUE(idle.wait(60'000));
    ASSERT_TRUE(failed.isEmpty()) << failed.front().at(0).toString().toStdString();
    EXPECT_EQ(stages, (QStringList{QStringLiteral("loading topology"), QStringLiteral("building sched domains"),
                                   QStringLiteral("validating"), QStringLiteral("done")}));
    EXPECT_TRUE(loadedAfterDone) << "the session arrived before its last progress step";
}
