// The what-if panel: statistics, the table model under QAbstractItemModelTester, a real run on
// a preset (table, bars, heat, JSON/CSV export) and cancelling while the GUI stays responsive.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QHeaderView>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <qcustomplot.h>

#include "gui_test_util.h"
#include "painted_text.h"
#include <QDir>
#include <QFile>

#include "qt_convert.h"
#include "support/fixtures.h"
#include "session_loader.h"
#include "topology/topology_source.h"
#include "trace_loader.h"
#include "topology_view.h"
#include "value_ticks.h"
#include "whatif_panel.h"
#include "whatif_runner.h"
#include "whatif_table_model.h"

namespace schedscope::gui {
namespace {

QStringList* g_warnings = nullptr;
void captureWhatIfWarnings(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (g_warnings && type != QtDebugMsg && type != QtInfoMsg) g_warnings->append(msg);
}

WhatIfResult handMadeResult() {
    WhatIfResult r;
    const double throughput[2][3] = {{10, 12, 14}, {15, 15, 15}};
    for (int k = 0; k < 3; ++k)
        for (int setting = 0; setting < 2; ++setting) {
            WhatIfRun run;
            run.setting = setting;
            run.seed = 1 + k;
            run.metrics = {{"throughput", throughput[setting][k]}, {"migrations", setting ? 4.0 : 8.0}};
            run.migrationsByLevel = {{"MC", setting ? 1 : 5}, {"CLS", setting ? 3 : 0}};
            run.cpuUtilisation = {0.5, setting ? 1.0 : 0.0};
            r.runs.push_back(run);
        }
    return r;
}

// Sets the panel up for a comparison of `workload` on a preset machine.
void setUpComparison(WhatIfPanel& panel, const char* preset, const char* workload, const char* compare, int seeds,
                     double duration) {
    panel.setTopologyPreset(QString::fromLatin1(preset));
    panel.setWorkload(QString::fromLatin1(workload));
    panel.setCompare(QString::fromLatin1(compare));
    panel.setSeeds(seeds);
    panel.setDuration(duration);
}

// completion_s is NaN for a run whose tasks had not finished: such runs stay out of the mean,
// and a side where none finished says so instead of showing a number.
TEST(WhatIfStats, UnfinishedRunsStayOutOfTheMeans) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    WhatIfResult r;
    const double completion[2][3] = {{nan, nan, nan}, {2.0, nan, 4.0}};
    for (int k = 0; k < 3; ++k)
        for (int setting = 0; setting < 2; ++setting) {
            WhatIfRun run;
            run.setting = setting;
            run.seed = 1 + k;
            run.metrics = {{"completion_s", completion[setting][k]}};
            r.runs.push_back(run);
        }
    const auto rows = r.rows();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].off.n, 0);
    EXPECT_EQ(rows[0].on.n, 2);
    EXPECT_EQ(rows[0].on.runs, 3);
    EXPECT_DOUBLE_EQ(rows[0].on.mean, 3.0);
    WhatIfTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    model.setResult(r);
    EXPECT_EQ(model.index(0, WhatIfTableModel::OffMeanColumn).data().toString(), QStringLiteral("not finished"));
    EXPECT_EQ(model.index(0, WhatIfTableModel::OnMeanColumn).data().toString(), QStringLiteral("3.000"));
    EXPECT_EQ(model.index(0, WhatIfTableModel::DeltaColumn).data().toString(), QStringLiteral("\u2013"));
    EXPECT_TRUE(model.index(0, WhatIfTableModel::OnMeanColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("2 of 3 seeds finished")));
    EXPECT_NE(r.toCsv().find("completion_s,,,,,0,3,1.414213562,2,4,2,,,,\n"), std::string::npos) << r.toCsv();
    EXPECT_TRUE(r.toJson()["metrics"]["completion_s"]["off"]["mean"].is_null());
}

// The placement spread changes a lot between settings (1 -> 4 busy clusters) without being
// better or worse in itself: its change is not coloured; migrations going down is.
TEST(WhatIfStats, SpreadChangesAreNotColouredAsBetterOrWorse) {
    WhatIfResult r;
    for (int setting = 0; setting < 2; ++setting) {
        WhatIfRun run;
        run.setting = setting;
        run.metrics = {{"busy_clusters", setting ? 4.0 : 1.0}, {"migrations", setting ? 2.0 : 8.0}};
        r.runs.push_back(run);
    }
    WhatIfTableModel model;
    model.setResult(r);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, WhatIfTableModel::DeltaColumn).data().toString(), QStringLiteral("+300.0%"));
    EXPECT_FALSE(model.index(0, WhatIfTableModel::DeltaColumn).data(Qt::ForegroundRole).isValid());
    EXPECT_TRUE(model.index(1, WhatIfTableModel::DeltaColumn).data(Qt::ForegroundRole).isValid());
    EXPECT_EQ(betterDirection("throughput"), 1);
    EXPECT_EQ(betterDirection("wait_p99_us"), -1);
    EXPECT_EQ(betterDirection("busy_nodes"), 0);
}

TEST(WhatIfStats, MeanSpreadAndRelativeChange) {
    const auto rows = handMadeResult().rows();
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].metric, "throughput");
    EXPECT_DOUBLE_EQ(rows[0].change.relativePct, 25.0);
    EXPECT_DOUBLE_EQ(rows[1].change.relativePct, -50.0);
    const WhatIfResult r = handMadeResult();
    EXPECT_DOUBLE_EQ(r.meanMigrations(0, "MC"), 5);
    EXPECT_DOUBLE_EQ(r.meanMigrations(1, "CLS"), 3);
    EXPECT_EQ(r.meanUtilisation(1), (std::vector<double>{0.5, 1.0}));
    const std::string csv = r.toCsv();
    EXPECT_NE(csv.find("throughput,12,2,10,14,3,15,0,15,15,3,25"), std::string::npos) << csv;
}

// Seeds whose spread can explain a change: the change is shown grey, not as better or worse,
// and its 95% interval (Welch's t) is in the tooltip, the JSON and the CSV; a change well
// outside the spread keeps its colour.
TEST(WhatIfStats, ChangesWithinTheSeedsNoiseAreNotCalledBetter) {
    WhatIfResult r;
    const double throughput[2][3] = {{10, 12, 14}, {15, 15, 15}}, waits[2][3] = {{100, 101, 99}, {80, 81, 79}};
    for (int k = 0; k < 3; ++k)
        for (int setting = 0; setting < 2; ++setting) {
            WhatIfRun run;
            run.setting = setting;
            run.seed = 1 + k;
            run.metrics = {{"throughput", throughput[setting][k]}, {"wait_p99_us", waits[setting][k]}};
            r.runs.push_back(run);
        }
    WhatIfTableModel model;
    model.setResult(r);
    ASSERT_EQ(model.rowCount(), 2);
    const QModelIndex noisy = model.index(0, WhatIfTableModel::DeltaColumn), clear = model.index(1, WhatIfTableModel::DeltaColumn);
    EXPECT_EQ(noisy.data(Qt::ForegroundRole).value<QColor>(), QColor(0x80, 0x80, 0x80));
    const QString tip = noisy.data(Qt::ToolTipRole).toString();
    // 3 +- 4.3027 * sqrt(4 / 3) = 3 +- 4.968 over 12: -16.40% .. +66.40%
    EXPECT_TRUE(tip.contains(QStringLiteral("-16.40% to +66.40%")) && tip.contains(QStringLiteral("within the seeds' noise")))
        << tip.toStdString();
    // waits 100 -> 80 with sd 1: -20%, interval -22.3..-17.7%: lower waits are better
    EXPECT_EQ(clear.data(Qt::ForegroundRole).value<QColor>(), QColor(0x1b, 0x7a, 0x1b));
    EXPECT_FALSE(clear.data(Qt::ToolTipRole).toString().contains(QStringLiteral("noise")));
    const auto j = r.toJson()["metrics"];
    EXPECT_FALSE(j["throughput"]["significant"].get<bool>());
    EXPECT_NEAR(j["throughput"]["ci95_pct"][0].get<double>(), -16.40, 0.01);
    EXPECT_TRUE(j["wait_p99_us"]["significant"].get<bool>());
    EXPECT_LT(j["wait_p99_us"]["ci95_pct"][1].get<double>(), 0);
    const std::string csv = r.toCsv();
    EXPECT_NE(csv.find("relative_pct,ci95_low_pct,ci95_high_pct,significant\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("throughput,12,2,10,14,3,15,0,15,15,3,25,-16.40"), std::string::npos) << csv;
}

// A wait percentile one 2% histogram bucket apart on every seed is within resolution: grey,
// not the red of a regression.
TEST(WhatIfStats, AWaitPercentileOneBucketApartIsGrey) {
    WhatIfResult r;
    for (int k = 0; k < 2; ++k)
        for (int setting = 0; setting < 2; ++setting) {
            WhatIfRun run;
            run.setting = setting;
            run.seed = 1 + k;
            run.metrics = {{"wait_p95_us", setting ? 359.55 : 352.5}};
            r.runs.push_back(run);
        }
    WhatIfTableModel model;
    model.setResult(r);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.data(model.index(0, WhatIfTableModel::DeltaColumn)).toString(), QStringLiteral("+2.0%"));
    EXPECT_EQ(model.data(model.index(0, WhatIfTableModel::DeltaColumn), Qt::ForegroundRole).value<QColor>(), QColor(0x80, 0x80, 0x80));
}

TEST(WhatIfTableModel, PassesTheModelTesterThroughResets) {
    QStringList warnings;
    g_warnings = &warnings;
    const QtMessageHandler previous = qInstallMessageHandler(captureWhatIfWarnings);
    {
        WhatIfTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
        EXPECT_EQ(model.rowCount(), 0);
        model.setResult(handMadeResult());
        ASSERT_EQ(model.rowCount(), 2);
        EXPECT_EQ(model.columnCount(), WhatIfTableModel::ColumnCount);
        EXPECT_EQ(model.data(model.index(0, WhatIfTableModel::MetricColumn)).toString(), QStringLiteral("throughput"));
        EXPECT_EQ(model.data(model.index(0, WhatIfTableModel::OffMeanColumn), WhatIfTableModel::ValueRole).toDouble(), 12.0);
        EXPECT_EQ(model.data(model.index(0, WhatIfTableModel::DeltaColumn)).toString(), QStringLiteral("+25.0%"));
        // 10/12/14 against 15/15/15: +25%, but its interval (-16.4..+66.4%) holds 0
        EXPECT_EQ(model.data(model.index(0, WhatIfTableModel::DeltaColumn), Qt::ForegroundRole).value<QColor>(), QColor(0x80, 0x80, 0x80));
        // 8 against 4 migrations on every seed: no interval, coloured as the model's own difference
        EXPECT_EQ(model.data(model.index(1, WhatIfTableModel::DeltaColumn), Qt::ForegroundRole).value<QColor>(), QColor(0x1b, 0x7a, 0x1b));
        EXPECT_TRUE(model.headerData(WhatIfTableModel::OffMeanColumn, Qt::Horizontal).toString().contains(QStringLiteral("CLS off")));
        // the change stands next to its metric, where a narrow panel cannot scroll it out of sight
        EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("\u0394 on\nvs off"));
        EXPECT_EQ(model.data(model.index(0, 1)).toString(), QStringLiteral("+25.0%"));
        model.setResult(WhatIfResult{});
        EXPECT_EQ(model.rowCount(), 0);
    }
    qInstallMessageHandler(previous);
    g_warnings = nullptr;
    EXPECT_TRUE(warnings.isEmpty()) << warnings.join(QLatin1Char('\n')).toStdString();
}

TEST(WhatIfPanel, RunsBothSettingsAndShowsTableBarsHeatAndExports) {
    WhatIfPanel panel;
    panel.resize(1100, 720);
    panel.show();
    setUpComparison(panel, "kunpeng920-24", "stream:threads=4,cpus=0-23", "cls", 2, 0.2);
    auto* bar = panel.findChild<QProgressBar*>();
    ASSERT_NE(bar, nullptr);
    EXPECT_EQ(bar->text(), QStringLiteral("no runs yet"));
    // before a run the empty plot and heat maps say what fills them, not "Nothing open"
    EXPECT_TRUE(panel.plotNoteText().startsWith(QStringLiteral("No runs yet: press Run")))
        << panel.plotNoteText().toStdString();
    for (int setting = 0; setting < 2; ++setting)
        EXPECT_TRUE(panel.heatView(setting)->titleText().startsWith(QStringLiteral("No runs yet")))
            << panel.heatView(setting)->titleText().toStdString();
    EXPECT_FALSE(panel.plot()->legend->visible());  // no bars to name; it lay under the note
    QSignalSpy progress(panel.runner(), &WhatIfRunner::progress);
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    EXPECT_TRUE(panel.running());
    ASSERT_TRUE(finished.wait(120'000));
    EXPECT_FALSE(panel.running());
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Done"))) << panel.statusText().toStdString();
    const QString model = panel.findChild<QLabel*>(QStringLiteral("whatIfStatus"))->toolTip();
    EXPECT_TRUE(model.startsWith(QStringLiteral("Contention model: node 56 GB/s, cluster 46 GB/s; caches: cluster 4 MB, LLC 24 MB")))
        << model.toStdString();
    EXPECT_EQ(bar->text(), QStringLiteral("4 of 4 runs"));
    // One progress step per finished run, up to 2 settings x 2 seeds.
    ASSERT_GE(progress.size(), 5);
    EXPECT_EQ(progress.last().at(0).toInt(), 4);
    EXPECT_EQ(progress.last().at(1).toInt(), 4);

    const WhatIfResult& r = panel.runner()->result();
    EXPECT_EQ(r.runsOf(0), 2);
    EXPECT_EQ(r.runsOf(1), 2);
    // the runs ran at once on the cores; they are kept in (seed, setting) order, each as the
    // same run alone gives it
    ASSERT_EQ(r.runs.size(), 4u);
    for (size_t i = 0; i < r.runs.size(); ++i) {
        EXPECT_EQ(r.runs[i].setting, static_cast<int>(i % 2)) << i;
        EXPECT_EQ(r.runs[i].seed, r.runs[0].seed + i / 2) << i;
        const WhatIfRun alone = runWhatIfJob(*r.setup, r.runs[i].setting, static_cast<int>(i / 2));
        ASSERT_EQ(alone.metrics.size(), r.runs[i].metrics.size());
        for (size_t m = 0; m < alone.metrics.size(); ++m) {
            const auto& [name, v] = r.runs[i].metrics[m];
            EXPECT_EQ(alone.metrics[m].first, name);
            if (std::isnan(v)) EXPECT_TRUE(std::isnan(alone.metrics[m].second)) << name;  // completion_s: not finished
            else EXPECT_EQ(alone.metrics[m].second, v) << name << " of run " << i;
        }
    }
    EXPECT_GE(panel.model()->rowCount(), 5);
    EXPECT_EQ(panel.plot()->plottableCount(), 2);
    // the legend beside the axes, never over the bars (it covered them in a narrow plot)
    panel.plot()->replot();
    EXPECT_TRUE(panel.plot()->legend->visible());
    EXPECT_FALSE(panel.plot()->legend->outerRect().intersects(panel.plot()->axisRect()->rect()))
        << "legend over the axes";
    const auto levels = r.levels();
    EXPECT_NE(std::find(levels.begin(), levels.end(), "CLS"), levels.end());
    // The off tree has no CLS level, the on tree has.
    EXPECT_EQ(panel.heatView(0)->session()->tree->domainsOf(0).front().level, "MC");
    EXPECT_EQ(panel.heatView(1)->session()->tree->domainsOf(0).front().level, "CLS");
    EXPECT_EQ(panel.heatView(1)->heat().size(), 96u);
    EXPECT_TRUE(panel.plotNoteText().isEmpty()) << panel.plotNoteText().toStdString();
    EXPECT_TRUE(panel.heatView(0)->titleText().startsWith(QStringLiteral("kunpeng920-24"))) << panel.heatView(0)->titleText().toStdString();
    double busy = 0;
    for (double u : panel.heatView(1)->heat()) busy += std::isnan(u) ? 0 : u;
    EXPECT_GT(busy, 1.0);  // four threads keep several CPUs busy

    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("r.json")), csv = dir.filePath(QStringLiteral("r.csv"));
    ASSERT_TRUE(panel.exportJson(json).isEmpty());
    ASSERT_TRUE(panel.exportCsv(csv).isEmpty());
    QFile jf(json);
    ASSERT_TRUE(jf.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(jf.readAll()).object();
    EXPECT_EQ(o.value(QStringLiteral("topology")).toString(), QStringLiteral("kunpeng920-24"));
    EXPECT_EQ(o.value(QStringLiteral("compare")).toString(), QStringLiteral("cls"));
    EXPECT_TRUE(o.value(QStringLiteral("metrics")).toObject().contains(QStringLiteral("throughput")));
    EXPECT_EQ(o.value(QStringLiteral("runs")).toArray().size(), 4);
    QFile cf(csv);
    ASSERT_TRUE(cf.open(QIODevice::ReadOnly));
    const QByteArray csvText = cf.readAll();
    EXPECT_TRUE(csvText.startsWith("metric,off_mean")) << csvText.constData();
    EXPECT_TRUE(csvText.contains("migrations_CLS")) << csvText.constData();

    const QImage shot = panel.grab().toImage();
    test::keepShot(shot, QStringLiteral("whatif"));
    EXPECT_GE(test::distinctColours(shot), 40);
}

// hackbench:groups=2 on the Kunpeng 920 preset, 50 ms per run, comparing `compare`
WhatIfRequest hackbenchOnAKunpeng(const std::string& compare) {
    WhatIfRequest q;
    q.spec.kind = TopologySpec::Kind::Preset;
    q.spec.value = "kunpeng920-24";
    q.workload = "hackbench:groups=2";
    q.compare = compare;
    q.durationS = 0.05;
    return q;
}

// Both settings of a prepared comparison, seed 0 each; every run must succeed.
WhatIfResult runBothSettings(const std::shared_ptr<const WhatIfSetup>& setup) {
    WhatIfResult r;
    r.setup = setup;
    for (int setting = 0; setting < 2; ++setting) {
        r.runs.push_back(runWhatIfJob(*setup, setting, 0, {}));
        EXPECT_TRUE(r.runs.back().error.empty()) << r.runs.back().error;
    }
    return r;
}

double metricOf(const WhatIfRun& run, const std::string& name) {
    for (const auto& [n, v] : run.metrics)
        if (n == name) return v;
    return std::nan("");
}

// The what-if panel's Compare box offers `compare` and a request made from it asks for it.
void expectThePanelOffers(const std::string& compare) {
    WhatIfPanel panel;
    panel.setCompare(QString::fromStdString(compare));
    EXPECT_EQ(panel.request().compare, compare);
}

// The machine of a 6.1 guest's kernel log runs under that kernel's rules (linux-6.9, the newest
// its log's format allows) unless a profile is picked, as `simulate --from-kernel-log` does, and
// the panel's first profile choice says so once that machine is open.
TEST(WhatIfRun, AKernelLogsMachineRunsUnderItsKernel) {
    WhatIfRequest q;
    q.spec = {TopologySpec::Kind::KernelLog, schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt")};
    q.workload = "stream:threads=4";
    q.durationS = 0.2;
    q.seeds = 1;
    // (its LLCs are its nodes and it has no cluster: CLS and NODE off and on would be the same run)
    auto same = prepareWhatIf(q);
    ASSERT_FALSE(same.ok());
    EXPECT_EQ(same.error(), "what-if: kernel-log.txt has no CLS domain of its own (no cluster wider than a core and "
                            "narrower than its LLC): both runs would be the same");
    q.compare = "numa-balancing";
    q.durationS = 2;  // past NUMA balancing's scan delay, which a shorter run never reaches
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    EXPECT_EQ((*setup)->profileName, "linux-6.9");
    q.profile = "linux-6.1";
    auto picked = prepareWhatIf(q);
    ASSERT_TRUE(picked.ok()) << picked.error();
    EXPECT_EQ((*picked)->profileName, "linux-6.1");

    auto topo = loadTopology(q.spec);
    ASSERT_TRUE(topo.ok()) << topo.error();
    auto session = std::make_shared<Session>();
    session->topology = std::make_shared<const Topology>(std::move(*topo));
    WhatIfPanel panel;
    panel.setSession(session);
    const auto* profiles = panel.findChild<QComboBox*>(QStringLiteral("whatIfProfile"));
    ASSERT_TRUE(profiles);
    EXPECT_TRUE(profiles->itemText(0).startsWith(QStringLiteral("the open machine's (linux-6.9)")))
        << profiles->itemText(0).toStdString();
}

// The window's session of a Kunpeng 920 (24 CPUs) whose domains the toolbar built under 6.1.
SessionPtr kunpengBuiltUnder61() {
    TopologySpec spec{TopologySpec::Kind::Preset, "kunpeng920-24"};
    auto topo = loadTopology(spec);
    EXPECT_TRUE(topo.ok()) << (topo.ok() ? "" : topo.error());
    if (!topo.ok()) return nullptr;
    auto session = std::make_shared<Session>();
    session->spec = spec;
    session->topology = std::make_shared<const Topology>(std::move(*topo));
    session->choices.profile = "linux-6.1";
    return session;
}

// A generator on the open machine runs under the profile the window built its domains under
// (this machine's running kernel's, as `simulate --local` runs it, or one the user picked in
// the toolbar), not the newest; a profile picked in the panel wins, and a preset of the panel's
// own runs under the newest.
TEST(WhatIfRun, TheOpenMachineRunsUnderTheWindowsProfile) {
    const SessionPtr session = kunpengBuiltUnder61();
    ASSERT_TRUE(session);
    WhatIfPanel panel;
    panel.setSession(session);
    panel.setWorkload(QStringLiteral("stream:threads=4,cpus=0-23"));
    const auto* profiles = panel.findChild<QComboBox*>(QStringLiteral("whatIfProfile"));
    ASSERT_TRUE(profiles);
    EXPECT_TRUE(profiles->itemText(0).startsWith(QStringLiteral("the open machine's (linux-6.1)"))) << profiles->itemText(0).toStdString();
    auto open = prepareWhatIf(panel.request());
    ASSERT_TRUE(open.ok()) << open.error();
    EXPECT_EQ((*open)->profileName, "linux-6.1");
    EXPECT_EQ((*open)->trees[1]->profile->fairClass, FairClass::Cfs);
    panel.setProfile(QStringLiteral("linux-6.12"));
    auto picked = prepareWhatIf(panel.request());
    ASSERT_TRUE(picked.ok()) << picked.error();
    EXPECT_EQ((*picked)->profileName, "linux-6.12");
    panel.setProfile(QString());
    panel.setTopologyPreset(QStringLiteral("kunpeng920-24"));
    auto preset = prepareWhatIf(panel.request());
    ASSERT_TRUE(preset.ok()) << preset.error();
    EXPECT_EQ((*preset)->profileName, defaultProfile().name);
}

// A trace replays under its own kernel's profile; one that names no kernel (no uname in the
// file) under the profile the window built the open machine with, as the first choice says.
TEST(WhatIfRun, ATraceThatNamesNoKernelRunsUnderTheOpenMachinesProfile) {
    const SessionPtr session = kunpengBuiltUnder61();
    ASSERT_TRUE(session);
    for (const auto& [file, expected] : {std::pair{"traces/record-v6.dat", "linux-6.1"},
                                         std::pair{"traces/qemu/x86-4c-linux-6.1-hackbench.dat", "linux-6.1"},
                                         std::pair{"traces/uname-v6.dat", "linux-6.18.33"}}) {
        const TraceLoadOutcome loaded = loadTraceSession(qs(schedscope::test::dataPath(file)), nullptr, DomainChoices{});
        ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
        WhatIfPanel panel;
        panel.setSession(session);
        panel.setTrace(loaded.trace);
        panel.setWorkload(panel.traceWorkloadText());
        const auto* profiles = panel.findChild<QComboBox*>(QStringLiteral("whatIfProfile"));
        ASSERT_TRUE(profiles);
        EXPECT_TRUE(profiles->itemText(0).contains(QStringLiteral("(%1)").arg(QLatin1String(expected))))
            << file << ": " << profiles->itemText(0).toStdString();
        auto setup = prepareWhatIf(panel.request());
        ASSERT_TRUE(setup.ok()) << setup.error();
        EXPECT_EQ((*setup)->profileName, expected) << file;
    }
}

// DELAY_DEQUEUE off vs on is a comparison too: one tree, the profile's behaviours with the
// feature off and on; hackbench's wakers find wakees still queued, so fewer wakeups migrate.
TEST(WhatIfRun, DelayDequeueOffVersusOn) {
    WhatIfRequest q = hackbenchOnAKunpeng("delay-dequeue");
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*setup)->features[setting].has_value());
        EXPECT_EQ((*setup)->features[setting]->delayDequeue, setting == 1);
    }
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "DELAY_DEQUEUE off");
    EXPECT_EQ(r.settingName(1), "DELAY_DEQUEUE on");
    EXPECT_LT(metricOf(r.runs[1], "migrations"), metricOf(r.runs[0], "migrations"));
    EXPECT_EQ(r.toJson()["delay_dequeue"], "compared");

    q.profile = "linux-6.1";
    auto cfs = prepareWhatIf(q);
    ASSERT_FALSE(cfs.ok());
    EXPECT_EQ(cfs.error(), "what-if: DELAY_DEQUEUE needs an EEVDF profile (linux-6.6 or later), not linux-6.1");

    expectThePanelOffers("delay-dequeue");
}

// NUMA balancing off vs on (numa_balancing=0 and 1): on a NUMA machine mcf's copies the balancer
// moves off their memory's node are taken back only with it on; a run no longer than its scan
// delay (1 s) and a one-node machine have nothing to compare; the panel offers it.
TEST(WhatIfRun, NumaBalancingOffVersusOn) {
    WhatIfRequest q;
    q.spec = {TopologySpec::Kind::Preset, "kunpeng920-32"};
    q.workload = "mcf:copies=32";
    q.profile = "linux-6.1";
    q.compare = "numa-balancing";
    q.durationS = 5;
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "NUMA balancing off");
    EXPECT_EQ(r.settingName(1), "NUMA balancing on");
    EXPECT_EQ(metricOf(r.runs[0], "numa_migrations"), 0);
    EXPECT_GT(metricOf(r.runs[1], "numa_migrations"), 0);
    EXPECT_GT(metricOf(r.runs[1], "throughput"), metricOf(r.runs[0], "throughput"));
    EXPECT_EQ(r.toJson()["numa_balancing"], "compared");

    q.durationS = 1;
    auto tooShort = prepareWhatIf(q);
    ASSERT_FALSE(tooShort.ok());
    EXPECT_EQ(tooShort.error(), "what-if: a run of 1 s ends before any task has run NUMA balancing's scan delay (1 s of "
                                "CPU time, when a task gets its preferred node and its memory may follow it): NUMA "
                                "balancing off and on would be the same (a longer Duration)");

    q.spec = {TopologySpec::Kind::Synthetic, "core:4 pu:2"};
    q.workload = "stream:threads=4";
    auto oneNode = prepareWhatIf(q);
    ASSERT_FALSE(oneNode.ok());
    EXPECT_EQ(oneNode.error(), "what-if: the machine has one NUMA node: NUMA balancing off and on would be the same");

    expectThePanelOffers("numa-balancing");
}

// Task groups compared: every task in one group against each in its workload group (cgroups.json:
// the web group's share of the CPU time rises from about half to four fifths); a workload
// without groups has nothing to compare; the panel offers it.
TEST(WhatIfRun, TaskGroupsOneForAllVersusTheWorkloads) {
    WhatIfRequest q;
    q.spec = {TopologySpec::Kind::Preset, "kunpeng920-24"};
    q.workload = resourcesDir() + "/workloads/cgroups.json";
    q.compare = "task-groups";
    q.durationS = 1;
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "task groups off");
    EXPECT_EQ(r.settingName(1), "task groups on");
    EXPECT_LT(metricOf(r.runs[0], "cpu_share_web"), 0.56);
    EXPECT_NEAR(metricOf(r.runs[1], "cpu_share_web"), 0.8, 0.05);
    EXPECT_EQ(r.toJson()["task_groups"], "compared");

    q.workload = "stream:threads=4";
    auto none = prepareWhatIf(q);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error(), "what-if: the workload has no task groups (a workload file's groups, or a recording's groups "
                            "sidecar): one group for all and its own groups would be the same");

    expectThePanelOffers("task-groups");
}

// Bandwidth limits compared: cpu-limit.json's batch group unlimited, then held to one CPU's worth
// per period (throttled only then); a workload without limits has nothing to compare; the panel
// offers it.
TEST(WhatIfRun, BandwidthLimitsNoneVersusTheGroups) {
    WhatIfRequest q;
    q.spec = {TopologySpec::Kind::Preset, "kunpeng920-24"};
    q.workload = resourcesDir() + "/workloads/cpu-limit.json";
    q.compare = "bandwidth";
    q.durationS = 1;
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "bandwidth limits off");
    EXPECT_EQ(r.settingName(1), "bandwidth limits on");
    EXPECT_EQ(metricOf(r.runs[0], "throttled_s_batch"), 0);
    EXPECT_GT(metricOf(r.runs[1], "throttled_s_batch"), 1.0);
    EXPECT_LT(metricOf(r.runs[1], "cpu_share_batch"), metricOf(r.runs[0], "cpu_share_batch") - 0.1);
    EXPECT_EQ(r.toJson()["bandwidth_limits"], "compared");

    q.workload = resourcesDir() + "/workloads/cgroups.json";
    auto none = prepareWhatIf(q);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error(), "what-if: no group of the workload has a CPU bandwidth limit (a workload file's quota_us, or "
                            "cpu.max in a recording's groups sidecar): with and without limits would be the same");

    expectThePanelOffers("bandwidth");
}

// Two seeds of mcf's copies, which never sleep, give the same run on each side: the result says
// so (the panel's status adds it); hackbench's wakeups differ by seed, and it does not.
TEST(WhatIfRun, ResultSaysWhenTheSeedsGaveOneRun) {
    auto twoSeeds = [](const WhatIfRequest& q) {
        auto setup = prepareWhatIf(q);
        EXPECT_TRUE(setup.ok()) << (setup.ok() ? "" : setup.error());
        WhatIfResult r;
        if (!setup.ok()) return r;
        r.setup = *setup;
        for (int setting = 0; setting < 2; ++setting)
            for (int seed = 0; seed < 2; ++seed) r.runs.push_back(runWhatIfJob(**setup, setting, seed, {}));
        return r;
    };
    WhatIfRequest mcf;
    mcf.spec = {TopologySpec::Kind::Preset, "kunpeng920-32"};
    mcf.workload = "mcf:copies=8,cpus=0-31";
    mcf.durationS = 0.5;
    const WhatIfResult alike = twoSeeds(mcf);
    EXPECT_TRUE(alike.seedsGaveOneRun());
    EXPECT_TRUE(alike.toJson()["seeds_gave_one_run"].get<bool>());
    EXPECT_FALSE(twoSeeds(hackbenchOnAKunpeng("cls")).seedsGaveOneRun());
}

// NI_RANDOM off vs on: the newest profile with every newidle visit balancing, and with the visits
// of rarely successful domains skipped; the panel offers it.
TEST(WhatIfRun, NiRandomOffVersusOn) {
    WhatIfRequest q = hackbenchOnAKunpeng("ni-random");
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*setup)->features[setting].has_value());
        EXPECT_EQ((*setup)->features[setting]->newidleRandom, setting == 1);
        EXPECT_TRUE((*setup)->features[setting]->delayDequeue) << "the profile's DELAY_DEQUEUE stays";
    }
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "NI_RANDOM off");
    EXPECT_EQ(r.settingName(1), "NI_RANDOM on");
    EXPECT_LT(metricOf(r.runs[1], "newidle_passes"), metricOf(r.runs[0], "newidle_passes") * 0.75);
    EXPECT_EQ(r.toJson()["ni_random"], "compared");

    expectThePanelOffers("ni-random");
}

// UTIL_EST off vs on: hackbench's CPUs read busier with their tasks' estimates, so SIS_UTIL scans
// fewer CPUs for an idle one and fewer wakeups move a task; the panel offers it.
TEST(WhatIfRun, UtilEstOffVersusOn) {
    WhatIfRequest q = hackbenchOnAKunpeng("util-est");
    q.workload = "hackbench:groups=4";
    q.durationS = 0.2;
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*setup)->features[setting].has_value());
        EXPECT_EQ((*setup)->features[setting]->utilEst, setting == 1);
    }
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "UTIL_EST off");
    EXPECT_EQ(r.settingName(1), "UTIL_EST on");
    EXPECT_LT(metricOf(r.runs[1], "migrations"), metricOf(r.runs[0], "migrations") * 0.8);
    EXPECT_EQ(r.toJson()["util_est"], "compared");

    expectThePanelOffers("util-est");
}

// RUN_TO_PARITY off vs on: the profile's behaviours with the wakeup preemption guard off and on
// (its effect on the runs: Cli.RunToParityIsAWhatIf and the replay tests); EEVDF profiles only,
// and the panel offers it.
TEST(WhatIfRun, RunToParityOffVersusOn) {
    WhatIfRequest q = hackbenchOnAKunpeng("run-to-parity");
    q.profile = "linux-6.12";
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*setup)->features[setting].has_value());
        EXPECT_EQ((*setup)->features[setting]->runToParity, setting == 1);
        EXPECT_TRUE((*setup)->features[setting]->delayDequeue) << "the rest is linux-6.12's";
    }
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "RUN_TO_PARITY off");
    EXPECT_EQ(r.settingName(1), "RUN_TO_PARITY on");
    EXPECT_EQ(r.toJson()["run_to_parity"], "compared");

    q.profile = "linux-6.1";
    auto cfs = prepareWhatIf(q);
    ASSERT_FALSE(cfs.ok());
    EXPECT_EQ(cfs.error(), "what-if: RUN_TO_PARITY needs an EEVDF profile (linux-6.6 or later), not linux-6.1");

    expectThePanelOffers("run-to-parity");
}

// UTIL_EST for both runs of another comparison: the panel's box sets it, and the box has nothing
// to say while UTIL_EST itself is compared.
TEST(WhatIfRun, UtilEstSetForBothRuns) {
    WhatIfRequest q = hackbenchOnAKunpeng("cls");
    q.utilEst = true;
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*setup)->features[setting].has_value());
        EXPECT_TRUE((*setup)->features[setting]->utilEst);
    }
    WhatIfPanel panel;
    panel.setCompare(QStringLiteral("cls"));
    EXPECT_FALSE(panel.request().utilEst.has_value()) << "off by default";
    panel.setUtilEst(QStringLiteral("on"));
    EXPECT_EQ(panel.request().utilEst, std::optional<bool>(true));
    panel.setCompare(QStringLiteral("util-est"));
    EXPECT_FALSE(panel.request().utilEst.has_value());
    auto* box = panel.findChild<QComboBox*>(QStringLiteral("whatIfUtilEst"));
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->isEnabled());
}

// wake_wide() off vs on (seed 001): off, no wakeup goes wide and every one may be affine; on, the
// kernel's LLC factor. pgbench's row lock makes its backends flip, so at 48 clients on one
// 24-CPU node the two runs differ; the panel offers it.
TEST(WhatIfRun, WakeWideOffVersusOn) {
    WhatIfRequest q = hackbenchOnAKunpeng("wake-wide");
    q.workload = "pgbench:clients=48,scale=1,cpus=0-23";
    q.durationS = 0.3;
    auto setup = prepareWhatIf(q);
    ASSERT_TRUE(setup.ok()) << setup.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*setup)->features[setting].has_value());
        EXPECT_EQ((*setup)->features[setting]->wakeWide, setting == 1 ? sim::WakeWide::Llc : sim::WakeWide::Off);
    }
    const WhatIfResult r = runBothSettings(*setup);
    EXPECT_EQ(r.settingName(0), "wake_wide off");
    EXPECT_EQ(r.settingName(1), "wake_wide on");
    EXPECT_NE(metricOf(r.runs[1], "migrations"), metricOf(r.runs[0], "migrations"));
    EXPECT_EQ(r.toJson()["wake_wide"], "compared");

    expectThePanelOffers("wake-wide");

    // the cluster's factor on the on side (seed 001's other setting), and for both runs of a CLS
    // comparison; the panel's wake_wide box sets it
    q.wakeWide = sim::WakeWide::Cluster;
    auto cluster = prepareWhatIf(q);
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    EXPECT_EQ((*cluster)->features[0]->wakeWide, sim::WakeWide::Off);
    EXPECT_EQ((*cluster)->features[1]->wakeWide, sim::WakeWide::Cluster);
    q.compare = "cls";
    auto both = prepareWhatIf(q);
    ASSERT_TRUE(both.ok()) << both.error();
    for (int setting = 0; setting < 2; ++setting) EXPECT_EQ((*both)->features[setting]->wakeWide, sim::WakeWide::Cluster);
    WhatIfResult r2;
    r2.setup = *both;
    EXPECT_EQ(r2.toJson()["wake_wide"], "cluster");
    WhatIfPanel panel;
    EXPECT_FALSE(panel.request().wakeWide.has_value()) << "the kernel's by default";
    panel.setWakeWide(QStringLiteral("cluster"));
    EXPECT_EQ(panel.request().wakeWide, sim::WakeWide::Cluster);
    panel.setWakeWide(QStringLiteral("off"));
    EXPECT_EQ(panel.request().wakeWide, sim::WakeWide::Off);
    panel.setWakeWide(QStringLiteral("llc"));
    EXPECT_FALSE(panel.request().wakeWide.has_value());
}

// A knob's box in the panel: the profile's by default, on or off for both runs as chosen; greyed
// out, and set per run, while the knob is the comparison.
void expectKnobBoxForBothRuns(void (WhatIfPanel::*set)(const QString&), std::optional<bool> WhatIfRequest::*knob,
                              const char* boxName, const char* compare) {
    WhatIfPanel panel;
    EXPECT_FALSE((panel.request().*knob).has_value());
    (panel.*set)(QStringLiteral("off"));
    ASSERT_TRUE((panel.request().*knob).has_value());
    EXPECT_FALSE(*(panel.request().*knob));
    (panel.*set)(QStringLiteral("on"));
    EXPECT_TRUE(*(panel.request().*knob));
    panel.setCompare(QString::fromLatin1(compare));
    EXPECT_FALSE((panel.request().*knob).has_value()) << "compared: set per run";
    auto* box = panel.findChild<QComboBox*>(QString::fromLatin1(boxName));
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->isEnabled());
    panel.setCompare(QStringLiteral("cls"));
    EXPECT_TRUE(box->isEnabled());
}

// Outside its own comparison DELAY_DEQUEUE is one setting for both runs: the profile's, or on or
// off as chosen (the kernel's sched_features knob); on needs an EEVDF profile.
TEST(WhatIfRun, DelayDequeueSetForBothRuns) {
    WhatIfRequest q = hackbenchOnAKunpeng("cls");
    auto profiles = prepareWhatIf(q);
    ASSERT_TRUE(profiles.ok()) << profiles.error();
    EXPECT_FALSE((*profiles)->features[0].has_value()) << "the profile's own";
    q.delayDequeue = false;
    auto off = prepareWhatIf(q);
    ASSERT_TRUE(off.ok()) << off.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*off)->features[setting].has_value());
        EXPECT_FALSE((*off)->features[setting]->delayDequeue);
    }
    // the same seed on the same tree: only DELAY_DEQUEUE differs, and hackbench's wakeups see it
    const WhatIfRun withIt = runWhatIfJob(**profiles, 1, 0, {});
    const WhatIfRun without = runWhatIfJob(**off, 1, 0, {});
    ASSERT_TRUE(withIt.error.empty() && without.error.empty()) << withIt.error << without.error;
    EXPECT_NE(withIt.metrics, without.metrics);
    WhatIfResult r;
    r.setup = *off;
    EXPECT_EQ(r.toJson()["delay_dequeue"], false);

    q.profile = "linux-6.1";
    EXPECT_TRUE(prepareWhatIf(q).ok()) << "off on a CFS kernel is what it has anyway";
    q.delayDequeue = true;
    auto cfs = prepareWhatIf(q);
    ASSERT_FALSE(cfs.ok());
    EXPECT_EQ(cfs.error(), "what-if: DELAY_DEQUEUE needs an EEVDF profile (linux-6.6 or later), not linux-6.1");

    expectKnobBoxForBothRuns(&WhatIfPanel::setDelayDequeue, &WhatIfRequest::delayDequeue, "whatIfDelayDequeue",
                             "delay-dequeue");
}

// Outside its own comparison NI_RANDOM is one setting for both runs too: the profile's (on from
// 6.19), or on or off as chosen; forced off, the newest kernel visits every domain on newidle.
TEST(WhatIfRun, NiRandomSetForBothRuns) {
    WhatIfRequest q = hackbenchOnAKunpeng("cls");
    auto profiles = prepareWhatIf(q);
    ASSERT_TRUE(profiles.ok()) << profiles.error();
    q.newidleRandom = false;
    auto off = prepareWhatIf(q);
    ASSERT_TRUE(off.ok()) << off.error();
    for (int setting = 0; setting < 2; ++setting) {
        ASSERT_TRUE((*off)->features[setting].has_value());
        EXPECT_FALSE((*off)->features[setting]->newidleRandom);
        EXPECT_TRUE((*off)->features[setting]->delayDequeue) << "the profile's DELAY_DEQUEUE stays";
    }
    const WhatIfRun withIt = runWhatIfJob(**profiles, 1, 0, {});
    const WhatIfRun without = runWhatIfJob(**off, 1, 0, {});
    ASSERT_TRUE(withIt.error.empty() && without.error.empty()) << withIt.error << without.error;
    EXPECT_LT(metricOf(withIt, "newidle_passes"), metricOf(without, "newidle_passes") * 0.75);
    WhatIfResult r;
    r.setup = *off;
    EXPECT_EQ(r.toJson()["ni_random"], false);

    expectKnobBoxForBothRuns(&WhatIfPanel::setNiRandom, &WhatIfRequest::newidleRandom, "whatIfNiRandom", "ni-random");
}

// The open trace is a workload: its tasks, derived as replay derives them, run on a preset with
// CLS off and on. The recording's 2 CPUs are CPUs 0-1 of the Kunpeng, which share a cluster.
TEST(WhatIfPanel, TheOpenTraceIsAWorkload) {
    const QString path = qs(schedscope::test::dataPath("traces/replay/pingpong.dat"));
    const TraceLoadOutcome loaded = loadTraceSession(path, nullptr, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    WhatIfPanel panel;
    EXPECT_TRUE(panel.traceWorkloadText().isEmpty());
    panel.setTrace(loaded.trace);
    ASSERT_TRUE(panel.traceWorkloadText().contains(QStringLiteral("pingpong.dat"))) << panel.traceWorkloadText().toStdString();
    panel.setWorkload(panel.traceWorkloadText());
    panel.setTopologyPreset(QStringLiteral("kunpeng920-24"));
    panel.setSeeds(2);
    const WhatIfRequest request = panel.request();
    ASSERT_TRUE(request.trace.has_value());
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    ASSERT_TRUE(finished.wait(120'000));
    const WhatIfResult& r = panel.runner()->result();
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_EQ(r.runs.size(), 4u);
    for (const auto& run : r.runs) EXPECT_TRUE(run.error.empty()) << run.error;
    // replay derives 16 tasks from this trace (2 kernel threads dropped): the same derivation
    EXPECT_EQ(r.setup->workload.tasks.size(), 16u);
    for (const auto& run : r.runs) {
        for (size_t c = 2; c < run.cpuUtilisation.size(); ++c) EXPECT_EQ(run.cpuUtilisation[c], 0.0) << "cpu " << c;
        long long cls = run.migrationsByLevel.count("CLS") ? run.migrationsByLevel.at("CLS") : 0;
        if (run.setting == 0) {
            EXPECT_EQ(cls, 0) << "no CLS level with CLS off";
        }
        EXPECT_EQ(run.migrationsByLevel.count("NUMA"), 0u);
    }
    EXPECT_GT(r.meanMigrations(1, "CLS"), 0.0) << "CPUs 0-1 share a cluster: with CLS on, moves between them are CLS";
    EXPECT_EQ(r.setup->idleExitNs, 0) << "no wakeup onto an idle CPU in this recording: the wakee runs at once";

    // --spread: the tasks that were not pinned use the whole machine
    panel.setTraceSpread(true);
    ASSERT_TRUE(panel.request().trace->spread);
    panel.run();
    ASSERT_TRUE(finished.wait(120'000));
    const WhatIfResult& spread = panel.runner()->result();
    ASSERT_TRUE(spread.error.empty()) << spread.error;
    int used = 0;
    for (double u : spread.meanUtilisation(1)) used += u > 0;
    EXPECT_GT(used, 2) << "the derived tasks stayed on the recording's 2 CPUs";

    // every wakeup WF_SYNC (replay's --sync-wakeups all): the derived wakes say so
    auto syncCount = [](const WhatIfResult& result) {
        long long sync = 0, wakes = 0;
        for (const auto& t : result.setup->workload.tasks)
            for (const auto& op : t.script)
                if (op.kind == workload::OpKind::Wake) {
                    ++wakes;
                    sync += op.sync;
                }
        return std::pair{sync, wakes};
    };
    const auto [guessed, wakes] = syncCount(spread);
    ASSERT_GT(wakes, 0);
    EXPECT_LT(guessed, wakes) << "by default only the wakes whose waker blocks right after";
    panel.setTraceSyncWakeups(true);
    ASSERT_TRUE(panel.request().trace->allWakeupsSync);
    panel.run();
    ASSERT_TRUE(finished.wait(120'000));
    const WhatIfResult& synced = panel.runner()->result();
    ASSERT_TRUE(synced.error.empty()) << synced.error;
    EXPECT_EQ(syncCount(synced), std::pair(wakes, wakes));

    panel.setTrace(nullptr);  // the trace closed: the workload goes with it
    EXPECT_TRUE(panel.traceWorkloadText().isEmpty());
    EXPECT_FALSE(panel.request().trace.has_value());
}

// The panel simulating the trace's own tasks on a Kunpeng 920 (24 CPUs).
void useTraceOnKunpeng(WhatIfPanel& panel, const TraceSessionPtr& trace) {
    panel.setTrace(trace);
    panel.setWorkload(panel.traceWorkloadText());
    panel.setTopologyPreset(QStringLiteral("kunpeng920-24"));
}

// A window session of a topology input, built with the default choices.
SessionPtr sessionOf(const TopologySpec& spec) {
    auto topo = loadTopology(spec);
    EXPECT_TRUE(topo.ok()) << (topo.ok() ? "" : topo.error());
    return topo.ok() ? sessionFromTopology(std::move(*topo), spec, DomainChoices{}).session : nullptr;
}

// The recorder's groups sidecar comes with the trace: the what-if replays each task in its task
// group (job-beside-session.dat: the job in the recorder's autogroup, six hogs in another's). A
// sidecar that cannot be read is a notice and the trace opens without it.
TEST(WhatIfPanel, TheTracesTaskGroupsGoWithItsTasks) {
    const QString path = qs(schedscope::test::dataPath("traces/replay/job-beside-session.dat"));
    const TraceLoadOutcome loaded = loadTraceSession(path, nullptr, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    ASSERT_TRUE(loaded.trace->taskGroups);
    EXPECT_TRUE(loaded.trace->groupsError.isEmpty());
    WhatIfPanel panel;
    useTraceOnKunpeng(panel, loaded.trace);
    ASSERT_TRUE(panel.request().trace && panel.request().trace->taskGroups);
    auto setup = prepareWhatIf(panel.request());
    ASSERT_TRUE(setup.ok()) << setup.error();
    const workload::Workload& wl = (*setup)->workload;
    ASSERT_GE(wl.groups.size(), 2u);
    int hogs = 0;
    for (const auto& t : wl.tasks) {
        if (!t.name.starts_with("spin:") || t.group < 0) continue;
        const std::string& group = wl.groups[static_cast<size_t>(t.group)].name;
        if (t.startAtBegin) {
            EXPECT_EQ(group, "autogroup-6") << t.name;
            ++hogs;
        } else {
            EXPECT_EQ(group, "autogroup-1") << t.name << ": the job, in the recorder's session";
        }
    }
    EXPECT_EQ(hogs, 6);
    EXPECT_NE(wl.spec.find("task groups"), std::string::npos) << wl.spec;

    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("job.dat"));
    ASSERT_TRUE(QFile::copy(path, copy));
    ASSERT_TRUE(QFile::copy(path + QStringLiteral(".topology.json"), copy + QStringLiteral(".topology.json")));
    std::ofstream(ss(copy + QStringLiteral(".groups.json"))) << "[1, 2";
    const TraceLoadOutcome broken = loadTraceSession(copy, nullptr, DomainChoices{});
    ASSERT_TRUE(broken.trace) << "a bad groups sidecar does not stop the trace: " << broken.error.toStdString();
    EXPECT_FALSE(broken.trace->taskGroups);
    EXPECT_TRUE(broken.trace->groupsError.startsWith(copy + QStringLiteral(".groups.json: not valid JSON")))
        << broken.trace->groupsError.toStdString();
    WhatIfPanel other;
    useTraceOnKunpeng(other, broken.trace);
    auto flat = prepareWhatIf(other.request());
    ASSERT_TRUE(flat.ok()) << flat.error();
    EXPECT_TRUE((*flat)->workload.groups.empty());
}

// A trace without a groups sidecar (trace-cmd records none) replays in the root group unless its
// sessions are guessed from its forks: messaging.dat's copy without its sidecar puts perf's 160
// children in the recorder's session then. With the sidecar the box is off: the sidecar says.
TEST(WhatIfPanel, ATraceWithoutAGroupsSidecarMayHaveItsSessionsGuessed) {
    const QString path = qs(schedscope::test::dataPath("traces/replay/messaging.dat"));
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("messaging.dat"));
    ASSERT_TRUE(QFile::copy(path, copy));
    ASSERT_TRUE(QFile::copy(path + QStringLiteral(".topology.json"), copy + QStringLiteral(".topology.json")));
    const TraceLoadOutcome bare = loadTraceSession(copy, nullptr, DomainChoices{});
    ASSERT_TRUE(bare.trace) << bare.error.toStdString();
    ASSERT_FALSE(bare.trace->taskGroups);
    WhatIfPanel panel;
    useTraceOnKunpeng(panel, bare.trace);
    auto* box = panel.findChild<QCheckBox*>(QStringLiteral("whatIfSessionsFromForks"));
    ASSERT_TRUE(box);
    EXPECT_TRUE(box->isEnabled());
    auto plain = prepareWhatIf(panel.request());
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_TRUE((*plain)->workload.groups.empty());
    panel.setTraceSessionsFromForks(true);
    auto guessed = prepareWhatIf(panel.request());
    ASSERT_TRUE(guessed.ok()) << guessed.error();
    const workload::Workload& wl = (*guessed)->workload;
    std::set<int> messagingGroups;
    int messaging = 0;
    for (const auto& t : wl.tasks)
        if (t.name.starts_with("sched-messaging:")) {
            messagingGroups.insert(t.group);
            ++messaging;
        }
    EXPECT_EQ(messaging, 161);
    ASSERT_EQ(messagingGroups.size(), 1u) << "perf and its children in one session";
    ASSERT_GE(*messagingGroups.begin(), 0);
    EXPECT_TRUE(wl.groups[static_cast<size_t>(*messagingGroups.begin())].name.starts_with("session-"));
    EXPECT_NE(wl.spec.find("sessions guessed from forks"), std::string::npos) << wl.spec;

    const TraceLoadOutcome withSidecar = loadTraceSession(path, nullptr, DomainChoices{});
    ASSERT_TRUE(withSidecar.trace && withSidecar.trace->taskGroups);
    panel.setTrace(withSidecar.trace);
    panel.setWorkload(panel.traceWorkloadText());
    EXPECT_FALSE(box->isEnabled());
    EXPECT_FALSE(panel.request().trace->sessionsFromForks) << "the sidecar's groups, not a guess";
}

// A trace replays under its own kernel's profile unless one is picked: uname-v6.dat was recorded
// on a 6.18 kernel; a copy whose uname says 5.18 stands for a CFS kernel's trace.
TEST(WhatIfPanel, ATraceRunsUnderItsKernelsProfile) {
    QTemporaryDir dir;
    std::string bytes = schedscope::test::readFile(schedscope::test::dataPath("traces/uname-v6.dat"));
    const auto at = bytes.find("Linux vm 6.18.44");
    ASSERT_NE(at, std::string::npos);
    bytes[at + 9] = '5';
    const QString older = dir.filePath(QStringLiteral("older.dat"));
    std::ofstream(ss(older), std::ios::binary) << bytes;
    ASSERT_TRUE(QFile::copy(qs(schedscope::test::dataPath("traces/uname-v6.dat.topology.json")), older + QStringLiteral(".topology.json")));
    const TraceLoadOutcome loaded = loadTraceSession(older, nullptr, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    WhatIfPanel panel;
    useTraceOnKunpeng(panel, loaded.trace);
    auto setup = prepareWhatIf(panel.request());
    ASSERT_TRUE(setup) << setup.error();
    EXPECT_EQ((*setup)->profileName, "linux-5.18");
    EXPECT_EQ((*setup)->trees[1]->profile->fairClass, FairClass::Cfs);
    panel.setProfile(QStringLiteral("linux-6.12"));  // a profile picked wins
    auto picked = prepareWhatIf(panel.request());
    ASSERT_TRUE(picked) << picked.error();
    EXPECT_EQ((*picked)->profileName, "linux-6.12");
    panel.setWorkload(QStringLiteral("stream:threads=4"));  // a generator: the newest, as before
    panel.setProfile(QString());
    auto generator = prepareWhatIf(panel.request());
    ASSERT_TRUE(generator) << generator.error();
    EXPECT_EQ((*generator)->profileName, defaultProfile().name);
}

// The GUI's what-if derives a trace's work as replay does: a real 6.12 trace of 24 hogs on a
// 16-CPU SMT machine (traces/qemu) ran with busy siblings, so its work is less than its CPU time.
TEST(WhatIfPanel, ATracesCpuTimeWithBusySiblingsIsLessWork) {
    const SessionPtr machine = sessionOf({TopologySpec::Kind::SysfsRoot,
                                          schedscope::test::extractFixture("oracle/linux-6.12-x86-2s4n4c2t/sysfs.tar.xz")});
    ASSERT_TRUE(machine);
    const TraceLoadOutcome loaded =
        loadTraceSession(qs(schedscope::test::dataPath("traces/qemu/x86-2s4n4c2t-linux-6.12.dat")), machine, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    WhatIfPanel panel;
    useTraceOnKunpeng(panel, loaded.trace);
    auto setup = prepareWhatIf(panel.request());
    ASSERT_TRUE(setup) << setup.error();
    double work = 0;
    for (const auto& t : (*setup)->workload.tasks)
        for (const auto& op : t.script)
            if (op.kind == workload::OpKind::Run) work += op.amountNs;
    // 74.5 s of work in the 118.7 s of CPU time the kept tasks ran (replay's figure)
    EXPECT_GT(work, 118.7e9 / 1.6);
    EXPECT_LT(work, 0.9 * 118.7e9);
}

// A trace read against the open topology says when its own kernel would have built other levels
// there: a 5.10 kernel gave two x86 cores sharing an L2 no CLS level, the window's newest profile does.
TEST(TraceLoading, NamesTheLevelsTheTracesKernelWouldHaveBuilt) {
    QTemporaryDir dir;
    std::string bytes = schedscope::test::readFile(schedscope::test::dataPath("traces/uname-v6.dat"));
    const auto at = bytes.find("Linux vm 6.18.44");
    ASSERT_NE(at, std::string::npos);
    bytes.replace(at + 9, 4, "5.10");
    const QString older = dir.filePath(QStringLiteral("older.dat"));
    std::ofstream(ss(older), std::ios::binary) << bytes;
    // a 2-CPU x86 machine (as the recording VM) whose two cores share an L2: a cluster since 5.16
    TopologySpec cluster{TopologySpec::Kind::Synthetic, "pack:1 l3:1 l2:1 core:2 pu:1"};
    cluster.arch = Arch::X86_64;
    cluster.archGiven = true;
    const SessionPtr machine = sessionOf(cluster);
    ASSERT_TRUE(machine);

    const TraceLoadOutcome loaded = loadTraceSession(older, machine, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    EXPECT_EQ(loaded.trace->topology, machine);
    const QString note = loaded.trace->topologyNote;
    EXPECT_TRUE(note.contains(QStringLiteral("levels (CLS)"))) << note.toStdString();
    EXPECT_TRUE(note.contains(QStringLiteral("the trace's kernel 5.10.44-"))) << note.toStdString();
    EXPECT_TRUE(note.contains(QStringLiteral("builds MC here: choose profile linux-5.10"))) << note.toStdString();

    // the recording machine's own kernel: nothing to say
    const TraceLoadOutcome own =
        loadTraceSession(qs(schedscope::test::dataPath("traces/uname-v6.dat")), machine, DomainChoices{});
    ASSERT_TRUE(own.trace) << own.error.toStdString();
    EXPECT_FALSE(own.trace->topologyNote.contains(QStringLiteral("choose profile"))) << own.trace->topologyNote.toStdString();
}

// A trace with a sidecar opened with a machine named (schedscope FILE --preset NAME) is read
// against that machine, as trace stats FILE --preset NAME reads it; without, against its sidecar's.
TEST(TraceLoading, AMachineNamedWithTheTraceWinsOverItsSidecar) {
    // another 2-CPU machine than the sidecar's (one of two packages, not two threads of a core)
    const SessionPtr other = sessionOf({TopologySpec::Kind::Synthetic, "pack:2 core:1 pu:1"});
    ASSERT_TRUE(other);
    const QString sample = qs(schedscope::test::dataPath("traces/replay/pingpong.dat"));
    const TraceLoadOutcome named = loadTraceSession(sample, other, DomainChoices{}, {}, nullptr, {}, true);
    ASSERT_TRUE(named.trace) << named.error.toStdString();
    EXPECT_EQ(named.trace->topology, other);
    EXPECT_FALSE(named.trace->showsOwnTopology);
    EXPECT_EQ(named.trace->topologyNote, QStringLiteral("classified on synthetic, as named (not its sidecar's machine)"));
    const TraceLoadOutcome own = loadTraceSession(sample, other, DomainChoices{});
    ASSERT_TRUE(own.trace) << own.error.toStdString();
    EXPECT_NE(own.trace->topology, other);
    EXPECT_TRUE(own.trace->showsOwnTopology);
    EXPECT_EQ(own.trace->topology->topology->cpus.size(), 2u);
    // a machine with more CPUs than the recording's header names is not its machine: the
    // sidecar's is used, not a classification on CPUs that never ran it
    const SessionPtr kunpeng = sessionOf({TopologySpec::Kind::Preset, "kunpeng920-24"});
    ASSERT_TRUE(kunpeng);
    const TraceLoadOutcome bigger = loadTraceSession(sample, kunpeng, DomainChoices{}, {}, nullptr, {}, true);
    ASSERT_TRUE(bigger.trace) << bigger.error.toStdString();
    EXPECT_NE(bigger.trace->topology, kunpeng);
    EXPECT_EQ(bigger.trace->topology->topology->cpus.size(), 2u);
}

// A trace whose wakeups land on idle CPUs: the simulated wakees wait the recording's idle exit
// latency (34 us on this VM), as replay's do.
TEST(WhatIfPanel, TheOpenTracesIdleExitLatencyIsSimulated) {
    const TraceLoadOutcome loaded =
        loadTraceSession(qs(schedscope::test::dataPath("traces/replay/pingpong-raced-wakeup.dat")), nullptr, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    WhatIfPanel panel;
    useTraceOnKunpeng(panel, loaded.trace);
    panel.setSeeds(1);
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    ASSERT_TRUE(finished.wait(120'000));
    const WhatIfResult& r = panel.runner()->result();
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_GT(r.setup->idleExitNs, 5000);
    EXPECT_LT(r.setup->idleExitNs, 1000000);
    EXPECT_DOUBLE_EQ(r.toJson()["idle_exit_us"].get<double>(), static_cast<double>(r.setup->idleExitNs) / 1000.0);
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("idle exit"))) << panel.statusText().toStdString();
}

// A trace from a larger machine than the one picked fails in one line naming both, and the
// panel keeps its form for the next try.
TEST(WhatIfPanel, TraceOnASmallerMachineFailsInOneLine) {
    const TraceLoadOutcome loaded =
        loadTraceSession(qs(schedscope::test::dataPath("traces/replay/pingpong.dat")), nullptr, DomainChoices{});
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    WhatIfPanel panel;
    panel.setSession(test::loadNow(test::syntheticSpec("pack:1 core:1 pu:1")));
    panel.setTrace(loaded.trace);
    panel.setWorkload(panel.traceWorkloadText());
    panel.setTopologyPreset(QString());  // the open topology: 1 CPU
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    ASSERT_TRUE(finished.wait(60'000));
    const QString status = panel.statusText();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Failed:"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("the recording has 2 CPUs"))) << status.toStdString();
    EXPECT_FALSE(status.contains(QLatin1Char('\n')));
    EXPECT_EQ(panel.request().workload, panel.traceWorkloadText().toStdString());
}

TEST(WhatIfPanel, BadWorkloadFailsInOneLine) {
    WhatIfPanel panel;
    panel.setTopologyPreset(QStringLiteral("kunpeng920-24"));
    panel.setWorkload(QStringLiteral("nosuchbench:threads=4"));
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    ASSERT_TRUE(finished.wait(60'000));
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Failed"))) << panel.statusText().toStdString();
    EXPECT_FALSE(panel.statusText().contains(QLatin1Char('\n')));
}

// A workload file whose tasks wait for each other: every run stalls, and the status says when
// and who waits, where the table only shows completion_s missing.
TEST(WhatIfPanel, AStalledWorkloadIsNamedInTheStatus) {
    const QString file = qs(std::string(SCHEDSCOPE_TEST_SCRATCH)) + QStringLiteral("/whatif-deadlock.json");
    QDir().mkpath(qs(std::string(SCHEDSCOPE_TEST_SCRATCH)));
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"name": "deadlock", "tasks": [{"name": "a", "script": [{"run_ns": 1e6}, {"wait": true}, {"wake": 1}]},)"
            R"( {"name": "b", "script": [{"run_ns": 3e6}, {"wait": true}, {"wake": 0}]}]})");
    f.close();
    WhatIfPanel panel;
    panel.setTopologyPreset(QStringLiteral("kunpeng920-24"));
    panel.setWorkload(file);
    panel.setCompare(QStringLiteral("cls"));
    panel.setSeeds(1);
    panel.setDuration(0.05);
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    ASSERT_TRUE(finished.wait(60'000));
    const QString status = panel.statusText();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Done"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral(" 2 of them stalled at 0.003000 s: 2 task(s) blocked in a Wait, a Barrier or a Take")))
        << status.toStdString();
    EXPECT_FALSE(status.contains(QLatin1Char('\n')));
}

// At the screenshot's default size the table's columns fit its width: one-line headers
// ("NI_RANDOM off mean", "spread (sd)") made them wider than their numbers and pushed the
// change column past the edge.
// The panel `width` px wide after a short comparison of `compare` has run: its results table.
QTableView* tableAfterARun(WhatIfPanel& panel, int width, const char* compare) {
    panel.resize(width, 860);
    panel.show();
    setUpComparison(panel, "kunpeng920-24", "stream:threads=2,cpus=0-23", compare, 2, 0.02);
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    panel.run();
    if (!finished.wait(120'000)) return nullptr;
    QTest::qWait(0);
    return panel.findChild<QTableView*>();
}

TEST(WhatIfPanel, TheTableFitsTheDefaultSize) {
    WhatIfPanel panel;
    QTableView* table = tableAfterARun(panel, 1400, "ni-random");
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->horizontalScrollBar()->maximum(), 0)
        << "the table is " << table->width() << " px wide, " << table->horizontalHeader()->length() << " px of columns";
}

// A wide window leaves room to the right of the table rather than stretching its last column:
// stretched, the on side's spreads sat at the far right (±0.0294 some 300 px from "CLS on mean").
TEST(WhatIfPanel, TheLastColumnIsAsWideAsItsFigures) {
    WhatIfPanel panel;
    QTableView* table = tableAfterARun(panel, 1800, "cls");
    ASSERT_NE(table, nullptr);
    QHeaderView* header = table->horizontalHeader();
    const int last = header->count() - 1;
    // the widest of the column's texts, its header's included, plus the cells' margins
    int widest = header->fontMetrics().horizontalAdvance(table->model()->headerData(last, Qt::Horizontal).toString());
    for (int row = 0; row < table->model()->rowCount(); ++row)
        widest = std::max(widest, table->fontMetrics().horizontalAdvance(table->model()->index(row, last).data().toString()));
    EXPECT_LE(header->sectionSize(last), widest + 40) << "the table is " << table->viewport()->width() << " px wide";
    EXPECT_LT(header->length(), table->viewport()->width()) << "a window this wide has room to spare";
}

// The migrations plot's title fits the plot, as the trace plots' titles do: a point or two
// smaller, then elided at its end, never cut at both sides as it was at the plot's narrowest
// (220 px) or in a small export.
TEST(WhatIfPanel, TheMigrationsPlotsTitleFitsThePlot) {
    WhatIfPanel panel;
    QCustomPlot* plot = panel.plot();
    const QString whole = QStringLiteral("Migrations per level (mean per run)");
    for (const int width : {220, 160, 600}) {
        test::TextRecorder recorder(QSize(width, 160));
        {
            QCPPainter p(&recorder);
            plot->toPainter(&p, width, 160);
        }
        const QString shown = panel.plotTitleText();
        EXPECT_TRUE(shown.startsWith(QStringLiteral("Migrations"))) << width << ": " << shown.toStdString();
        if (width >= 600) EXPECT_EQ(shown, whole);
        else EXPECT_TRUE(shown == whole || shown.endsWith(QChar(0x2026))) << width << ": " << shown.toStdString();
        bool inside = false;
        QStringList all;
        for (const auto& t : recorder.texts()) {
            all << t.text;
            if (t.text == shown)
                inside = t.at.x() >= 0 && t.at.x() + QFontMetricsF(t.font).horizontalAdvance(t.text) <= width;
        }
        EXPECT_TRUE(inside) << width << ": " << all.join(QStringLiteral(" | ")).toStdString();
    }
}

// The migrations axis's numbers stand a label's height apart however short the plot: beside a
// lesson at 1920x1080 it was 90 px tall and "0 0.5 1 1.5 2 2.5 3" ran into one smear. A tall
// plot keeps the usual finer ticks.
TEST(WhatIfPanel, TheMigrationsAxisNumbersNeverOverlap) {
    WhatIfPanel panel;
    ASSERT_NE(tableAfterARun(panel, 1400, "cls"), nullptr);
    QCustomPlot* plot = panel.plot();
    for (const int height : {100, 130, 180, 400}) {
        const test::AxisNumbers numbers = test::leftAxisNumbers(plot, QSize(400, height));
        const auto& baselines = numbers.baselines;
        ASSERT_GE(baselines.size(), 2u) << height << " px: the axis shows at least its ends";
        for (size_t i = 1; i < baselines.size(); ++i)
            EXPECT_GE(baselines[i] - baselines[i - 1], numbers.labelHeight) << height << " px: labels " << i - 1 << " and " << i;
        if (height >= 400) {
            EXPECT_GE(baselines.size(), 4u) << "a tall plot keeps its finer ticks";
        }
    }
}

TEST(ValueTicks, AsManyAsFitWithHalfALabelBetween) {
    EXPECT_EQ(ticksThatFit(13 * 2.5, 13), 2);  // label, half a label, label
    EXPECT_EQ(ticksThatFit(13 * 2.5 - 1, 13), 1);
    EXPECT_EQ(ticksThatFit(13 * 5.5, 13), 4);
    EXPECT_EQ(ticksThatFit(1000, 13), 5);      // no more than the ticker's usual
    EXPECT_EQ(ticksThatFit(0, 13), 1);
}

// Two settings' long names side by side ran past the plot's right edge in a 1300 px window
// (the legend showed "DELAY_DEQUE"): where they do not fit, the entries stand one under the other,
// each as wide as its name needs and inside the plot; where they fit, side by side.
TEST(WhatIfPanel, TheLegendsEntriesStayWholeInsideThePlot) {
    WhatIfPanel panel;
    QCustomPlot* plot = panel.plot();
    plot->clearPlottables();
    for (const char* name : {"DELAY_DEQUEUE off", "DELAY_DEQUEUE on"})
        (new QCPBars(plot->xAxis, plot->yAxis))->setName(QString::fromLatin1(name));
    plot->legend->setVisible(true);
    ASSERT_EQ(plot->legend->itemCount(), 2);
    for (const int width : {240, 900}) {
        const QSize before = plot->size();
        plot->resize(width, 300);
        QResizeEvent resized(plot->size(), before);
        QCoreApplication::sendEvent(plot, &resized);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (int i = 0; i < 2; ++i) {
            const QCPLayoutElement* item = plot->legend->item(i);
            const QRect r = item->outerRect();
            EXPECT_GE(r.width(), item->minimumOuterSizeHint().width()) << width << ": entry " << i << " cut";
            EXPECT_LE(r.right(), width) << width << ": entry " << i << " past the edge";
        }
        const bool sideBySide = plot->legend->item(0)->outerRect().top() == plot->legend->item(1)->outerRect().top();
        EXPECT_EQ(sideBySide, width == 900) << width;
    }
}

// In a small window the heat maps' titles ("Per-CPU utilisation, setting off (0 runs)") are
// wider than their boxes: wrapped whole, not cut at both ends ("r-CPU utilisation ... (0 run").
TEST(WhatIfPanel, TheHeatTitlesFitASmallWindow) {
    WhatIfPanel source;
    WhatIfPanel panel;  // as `--screenshot --view whatif --size 640x480` shows it, at once
    panel.mirror(source);
    panel.setAttribute(Qt::WA_DontShowOnScreen);
    panel.resize(640, 480);
    panel.show();
    int titles = 0;
    for (QLabel* label : panel.findChildren<QLabel*>()) {
        if (!label->text().startsWith(QStringLiteral("Per-CPU utilisation"))) continue;
        ++titles;
        const int needs = QFontMetrics(label->font()).horizontalAdvance(label->text());
        if (needs <= label->contentsRect().width()) continue;
        EXPECT_TRUE(label->wordWrap()) << label->text().toStdString() << " cut at " << label->width() << " px";
        EXPECT_GE(label->height(), label->heightForWidth(label->width())) << label->text().toStdString();
    }
    EXPECT_EQ(titles, 2);
}

TEST(WhatIfPanel, NothingOpenSaysSo) {
    WhatIfPanel panel;
    panel.setTopologyPreset(QString());
    panel.run();
    EXPECT_FALSE(panel.running());
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("No topology is open")));
}

// A cancel stops the simulation in flight: closing the panel (which waits for its worker) does
// not wait for a long run to end. One run here takes about a minute on this machine.
TEST(WhatIfPanel, CancelStopsTheRunInFlight) {
    auto* panel = new WhatIfPanel;
    panel->setTopologyPreset(QStringLiteral("epyc7601-2s"));
    panel->setCompare(QStringLiteral("node"));  // Naples has no cluster: its NODE level, then
    panel->setWorkload(QStringLiteral("hackbench:groups=8"));
    panel->setSeeds(1);
    panel->setDuration(60.0);
    QSignalSpy progress(panel->runner(), &WhatIfRunner::progress);
    QSignalSpy advanced(panel->runner(), &WhatIfRunner::advanced);
    panel->run();
    ASSERT_EQ(progress.size(), 1);  // started (0 of 2): the setup runs, then the first simulation
    QTest::qWait(1500);
    ASSERT_TRUE(panel->running());
    EXPECT_TRUE(panel->runner()->result().runs.empty());
    // no run has finished, yet the bar moves with the simulated time the runs in flight have done
    ASSERT_FALSE(advanced.isEmpty());
    const double runsDone = advanced.last().at(0).toDouble();
    EXPECT_GT(runsDone, 0.0);
    EXPECT_LT(runsDone, 1.0);
    EXPECT_EQ(advanced.last().at(1).toInt(), 2);
    const auto* bar = panel->findChild<QProgressBar*>();
    ASSERT_NE(bar, nullptr);
    EXPECT_GT(bar->value(), 0);
    EXPECT_TRUE(bar->text().startsWith(QStringLiteral("0 of 2 runs"))) << bar->text().toStdString();
    panel->cancel();
    QElapsedTimer clock;
    clock.start();
    delete panel;  // ~WhatIfRunner waits for its worker
    EXPECT_LT(clock.elapsed(), 3000) << "the worker ran its simulation to the end after the cancel";
}

TEST(WhatIfPanel, CancelAnswersAtOnceAndTheGuiStaysResponsive) {
    WhatIfPanel panel;
    panel.resize(1000, 700);
    panel.show();
    panel.setTopologyPreset(QStringLiteral("kunpeng920-24"));
    panel.setWorkload(QStringLiteral("stream:threads=8,cpus=0-23"));
    // Long enough that an optimised build cannot finish all 200 runs before the cancel lands.
    panel.setSeeds(100);
    panel.setDuration(10.0);
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    QSignalSpy progress(panel.runner(), &WhatIfRunner::progress);
    panel.run();
    // Let the setup and at least one simulation finish, so the cancel lands mid-experiment.
    while (progress.size() < 2) ASSERT_TRUE(progress.wait(60'000));
    EXPECT_TRUE(panel.running());

    // The event loop keeps turning while simulations run on the worker.
    QElapsedTimer clock;
    clock.start();
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(10);
    QTest::qWait(300);
    EXPECT_GE(ticks, 10) << "the GUI thread was blocked while the simulations ran";

    clock.restart();
    panel.cancel();
    EXPECT_LT(clock.elapsed(), 100) << "cancel blocked the GUI thread";
    EXPECT_FALSE(panel.running());
    ASSERT_EQ(finished.size(), 1);
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Cancelled"))) << panel.statusText().toStdString();
    EXPECT_TRUE(panel.runner()->result().cancelled);
    EXPECT_LT(int(panel.runner()->result().runs.size()), 200);
    // Partial results stay on screen and can be exported.
    EXPECT_GE(panel.model()->rowCount(), 1);
    // No late result from the simulation in flight changes what is shown.
    const size_t shown = panel.runner()->result().runs.size();
    QTest::qWait(500);
    EXPECT_EQ(panel.runner()->result().runs.size(), shown);
    EXPECT_EQ(finished.size(), 1);
}

}  // namespace
}  // namespace schedscope::gui
