// The trace half of the window on the bundled sample trace: every trace view renders a
// non-blank picture, the task table passes QAbstractItemModelTester, a broken trace keeps the
// open one, selections drive the timeline and the topology heat, and live capture (skipped
// without root and tracefs).
#include <gtest/gtest.h>

#include <unistd.h>

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "banner.h"
#include "gui_test_util.h"
#include "input_anomalies.h"
#include "live_capture.h"
#include "painted_text.h"
#include "plausible_span.h"
#include "lost_events.h"
#include "support/fixtures.h"
#include "switch_migrations.h"
#include "task_table_model.h"
#include "timeline_view.h"
#include "topology_view.h"
#include "trace_plots.h"
#include "trace_workspace.h"

namespace schedscope::gui {
namespace {

QString samplePath() { return TraceWorkspace::sampleTracePath(); }

// Opens a trace through the window (worker, progress) and waits for it to be shown.
bool openTraceNow(MainWindow& w, const QString& path) {
    QSignalSpy shown(w.traceWorkspace(), &TraceWorkspace::traceShown);
    w.openTraceFile(path);
    return shown.wait(60'000);
}

// Opens a fixture trace on a synthetic two-CPU machine (the traces recorded on this VM fit it).
bool openFixtureOnTwoCpus(MainWindow& w, const std::string& fixture) {
    QSignalSpy shown(&w, &MainWindow::sessionShown);
    w.open(test::syntheticSpec("pack:1 core:2 pu:1"));
    if (!shown.wait(60'000)) return false;
    return openTraceNow(w, QString::fromStdString(schedscope::test::dataPath(fixture)));
}

// Writes `text` as `name` into `dir` and returns its path.
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QString path = dir.filePath(name);
    QFile out(path);
    if (out.open(QIODevice::WriteOnly)) out.write(text);
    return path;
}

class TraceWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(QFile::exists(samplePath())) << samplePath().toStdString();
        window.resize(1200, 800);
        window.show();
    }
    MainWindow window;

    // Opens the 2-socket, 4-node SMT QEMU guest's sysfs (oracle/x86-2s4n4c2t), then `fixture`,
    // a trace recorded on it; false when either did not load.
    bool openQemuTraceOnItsMachine(const std::string& fixture) {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        TopologySpec spec;
        spec.kind = TopologySpec::Kind::SysfsRoot;
        spec.value = schedscope::test::extractFixture("oracle/x86-2s4n4c2t/sysfs.tar.xz");
        window.open(spec);
        return shown.wait(60'000) && openTraceNow(window, QString::fromStdString(schedscope::test::dataPath(fixture)));
    }

    // Opens the trace at `path` over a 2-CPU synthetic machine (its own topology unknown) and
    // returns its session, null when either did not load.
    TraceSessionPtr openOverTwoCpus(const QString& path) {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        window.open(test::syntheticSpec("pack:1 core:2 pu:1"));
        if (!shown.wait(60'000) || !openTraceNow(window, path)) return nullptr;
        return window.traceWorkspace()->trace();
    }

    // The forkstorm report with `damage` appended, as forkstorm-damaged.txt in `dir`, opened over
    // a 2-CPU machine; null when it did not load.
    TraceSessionPtr openDamagedForkstorm(const QTemporaryDir& dir, const std::string& damage) {
        const std::string text =
            schedscope::test::readFile(schedscope::test::dataPath("traces/report-variants/forkstorm.report.txt")) + damage;
        return openOverTwoCpus(writeFile(dir, QStringLiteral("forkstorm-damaged.txt"), QByteArray::fromStdString(text)));
    }
};

TEST_F(TraceWindowTest, OpensTheSampleTraceWithItsSidecarTopology) {
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->data);
    EXPECT_TRUE(t->showsOwnTopology);
    EXPECT_EQ(window.session(), t->topology) << "the window shows the trace's own topology";
    EXPECT_TRUE(t->topologyNote.isEmpty());
    EXPECT_EQ(t->data->cpus, 2);
    EXPECT_GT(t->data->store->size(), 1000u);
    EXPECT_GT(t->data->migrations.size(), 0u);
    EXPECT_GT(t->data->tasks.size(), 10u);
    EXPECT_FALSE(t->data->waitLatencies.empty());
    EXPECT_EQ(t->data->waitP95, percentile(t->data->waitLatencies, 95));
    EXPECT_EQ(t->data->waitP50, percentile(t->data->waitLatencies, 50));
    uint64_t binned = 0;
    for (auto c : t->data->waitHistogram.counts) binned += c;
    EXPECT_EQ(binned, t->data->waitLatencies.size());
    EXPECT_EQ(window.traceWorkspace()->taskModel()->rowCount(), int(t->data->tasks.size()));
    EXPECT_TRUE(window.banner()->isHidden() || !window.banner()->isError()) << window.banner()->text().toStdString();
    // The topology view shows migrations per CPU as heat.
    ASSERT_EQ(window.topologyView()->heat().size(), 2u);
    EXPECT_GT(window.topologyView()->heat()[0] + window.topologyView()->heat()[1], 0.0);
}

class TraceViewScreenshot : public ::testing::TestWithParam<const char*> {};

TEST_P(TraceViewScreenshot, IsNotBlankAndHasTheRequestedSize) {
    const QString view = QString::fromLatin1(GetParam());
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    const QSize size(1000, 620);
    const QImage image = window.renderView(view, size);
    test::keepShot(image, QStringLiteral("trace-") + view);
    EXPECT_EQ(image.size(), size);
    EXPECT_GE(test::distinctColours(image), test::kManyColours);

    QTemporaryDir dir;
    for (const char* suffix : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(view + QLatin1Char('.') + QLatin1String(suffix));
        const QString error = window.exportView(view, path, size);
        ASSERT_TRUE(error.isEmpty()) << error.toStdString();
        EXPECT_GT(QFileInfo(path).size(), 1000) << suffix;
    }
}

INSTANTIATE_TEST_SUITE_P(Views, TraceViewScreenshot, ::testing::Values("timeline", "matrix", "rates", "latency", "tasks"));

TEST_F(TraceWindowTest, WholeWindowWithATraceIsNotBlank) {
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    const QImage image = window.renderView(QStringLiteral("window"), window.size());
    test::keepShot(image, QStringLiteral("trace-window"));
    EXPECT_GE(test::distinctColours(image), test::kManyColours);
}

TEST_F(TraceWindowTest, BrokenTraceKeepsTheOpenOneAndShowsTheError) {
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    const TraceSessionPtr before = window.traceWorkspace()->trace();
    const SessionPtr topologyBefore = window.session();
    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("broken.dat"));
    {
        QFile f(broken);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        QFile sample(samplePath());
        ASSERT_TRUE(sample.open(QIODevice::ReadOnly));
        f.write(sample.read(300));  // a trace.dat cut inside its header
    }
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openTraceFile(broken);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.traceWorkspace()->trace(), before);
    EXPECT_EQ(window.session(), topologyBefore);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->isError());
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("broken.dat"))) << window.banner()->text().toStdString();
    EXPECT_FALSE(window.banner()->text().contains(QLatin1Char('\n')));
    // A text file that is no trace at all, too.
    const QString garbage = dir.filePath(QStringLiteral("garbage.txt"));
    {
        QFile f(garbage);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("hello\nthis is not a trace\n");
    }
    window.openTraceFile(garbage);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.traceWorkspace()->trace(), before);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("garbage.txt"))) << window.banner()->text().toStdString();
    // And one whose format section crashes libtraceevent's parser (the loader thread's fault is
    // caught there: crash_guard.h).
    const QString crashing = QString::fromStdString(
        schedscope::test::dataPath("fuzz-regressions/fuzz_trace_dat/format-section-bitflip-segv-in-tep-parse-event.dat"));
    window.openTraceFile(crashing);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.traceWorkspace()->trace(), before);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("libtraceevent crashes reading its headers")))
        << window.banner()->text().toStdString();
}

// A topology opened as the trace (`schedscope local.xml`) says what it is and how to open it,
// not only that it is no ftrace text.
TEST_F(TraceWindowTest, ATopologyOpenedAsTheTraceSaysHowToOpenIt) {
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    const QString xml = QString::fromStdString(schedscope::test::dataPath("topologies/xml/64amd64-4p2n4ca2co.xml"));
    window.openTraceFile(xml);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("hwloc XML, a topology rather than a trace: open it with --xml ") + xml))
        << window.banner()->text().toStdString();
    const QString sidecar = QString::fromStdString(schedscope::test::dataPath("traces/record-v6.dat.topology.json"));
    window.openTraceFile(sidecar);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("a topology JSON sidecar, not a trace: open the trace it belongs to (") +
                                                 sidecar.chopped(int(std::strlen(".topology.json"))) + QLatin1Char(')')))
        << window.banner()->text().toStdString();
}

TEST_F(TraceWindowTest, WithoutSidecarTheOpenTopologyIsUsedOrAFlatOneWhenTooSmall) {
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("nosidecar.dat"));
    ASSERT_TRUE(QFile::copy(samplePath(), copy));
    // A one-CPU topology cannot hold a 2-CPU trace: it opens on a flat stand-in for its CPUs,
    // which the window shows, and says its migrations' levels are unknown.
    {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        window.open(test::syntheticSpec("pack:1 core:1 pu:1"));
        ASSERT_TRUE(shown.wait(60'000));
    }
    ASSERT_TRUE(openTraceNow(window, copy));
    {
        const TraceSessionPtr flat = window.traceWorkspace()->trace();
        EXPECT_TRUE(flat->showsOwnTopology);
        EXPECT_EQ(flat->topology->topology->name, "2 CPUs, layout unknown");
        EXPECT_EQ(flat->data->cpus, 2);
        ASSERT_FALSE(flat->data->migrations.empty());
        EXPECT_EQ(flat->data->levels, std::vector<std::string>{"unknown"}) << "no level is made up for them";
        for (const auto& m : flat->data->migrations) EXPECT_EQ(m.level, -1);
        EXPECT_TRUE(flat->topologyNote.contains(QStringLiteral("has only 1 CPUs"))) << flat->topologyNote.toStdString();
        EXPECT_TRUE(flat->topologyNote.startsWith(QStringLiteral("no topology sidecar, and the trace has CPU 1 but topology ")))
            << flat->topologyNote.toStdString();
        EXPECT_TRUE(flat->topologyNote.contains(QStringLiteral("not classified by level"))) << flat->topologyNote.toStdString();
        EXPECT_EQ(window.session(), flat->topology);
        // and the banner says so: the stand-in's domains are no machine's
        EXPECT_TRUE(flat->flatStandIn);
        EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("nosidecar.dat: ") + flat->topologyNote))
            << window.banner()->text().toStdString();
    }
    // A 64-CPU topology is not the 2-CPU machine its header names: classified there, its
    // migrations would cross levels they never crossed, so it opens on the stand-in again and
    // the note says why.
    {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        window.open(test::syntheticSpec());
        ASSERT_TRUE(shown.wait(60'000));
    }
    ASSERT_TRUE(openTraceNow(window, copy));
    {
        const TraceSessionPtr t = window.traceWorkspace()->trace();
        EXPECT_TRUE(t->flatStandIn);
        EXPECT_EQ(t->data->cpus, 2);
        EXPECT_TRUE(t->topologyNote.contains(QStringLiteral("recorded on 2 CPUs (its header) but topology"))) << t->topologyNote.toStdString();
    }
    // A 2-CPU topology holds it: read against the open topology.
    {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        window.open(test::syntheticSpec("pack:1 core:2 pu:1"));
        ASSERT_TRUE(shown.wait(60'000));
    }
    ASSERT_TRUE(openTraceNow(window, copy));
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    EXPECT_FALSE(t->showsOwnTopology);
    EXPECT_FALSE(t->flatStandIn);
    EXPECT_EQ(t->topology, window.session());
    EXPECT_EQ(t->data->cpus, 2);
    // the user is told the trace is read against a topology that may not be its machine's
    EXPECT_TRUE(t->topologyNote.startsWith(QStringLiteral("no topology sidecar: classified on ")))
        << t->topologyNote.toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(t->topologyNote)) << window.statusBar()->currentMessage().toStdString();
}

// A trace-cmd record -B recording: the events are in its instance buffer, which the window
// reads and names (title and status bar) instead of failing on an empty top-level buffer.
TEST_F(TraceWindowTest, ATraceRecordedIntoAnInstanceIsReadFromIt) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/instance-only.dat"));
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->data);
    EXPECT_EQ(t->buffer, QStringLiteral("ssinst"));
    EXPECT_EQ(t->name, QStringLiteral("instance-only.dat [ssinst]"));
    EXPECT_GT(t->data->store->size(), 1000u);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("from its buffer ssinst")))
        << window.statusBar()->currentMessage().toStdString();
}

// A file with more buffers than the one read: the banner names those not read and how to read one.
TEST_F(TraceWindowTest, TheBuffersNotReadAreNamed) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/top-and-instance.dat"));
    EXPECT_TRUE(window.banner()->text().contains(
        QStringLiteral("top-and-instance.dat: read its top-level buffer, the first with sched events; not read: ssinst (--buffer NAME reads one)")))
        << window.banner()->text().toStdString();
}

// A trace-cmd record -e sched_switch recording has no sched_migrate_task: the window shows the
// moves its switches show, and says so in the status bar.
TEST_F(TraceWindowTest, ASwitchOnlyTraceShowsTheMovesItsSwitchesShow) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/switches.dat"));
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->data);
    EXPECT_EQ(t->data->store->count(tracing::EventKind::MigrateTask), 0u);
    EXPECT_EQ(t->data->migrations.size(), tracing::migrationsFromSwitches(*t->data->store).size());
    EXPECT_GT(t->data->migrations.size(), 50u);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(
        QStringLiteral("no sched_migrate_task: migrations inferred from sched_switch")))
        << window.statusBar()->currentMessage().toStdString();
}

// A recording whose sched_migrate_task filter matched nothing: the empty rates plot and matrix
// say why across their axes (the event is in the formats, none of its events are, and the
// switches show tasks moving), not only "MC (0)" on blank axes. A trace with migrations says nothing.
// With no trace open the plots show their title alone: axes of CPUs 0-5 and a colour scale of
// 0-6 migrations read as data about the open machine. A trace brings them back.
TEST_F(TraceWindowTest, PlotsWithoutATraceShowNoAxes) {
    TraceWorkspace* ws = window.traceWorkspace();
    ASSERT_FALSE(ws->trace());
    for (TracePlot* plot : std::initializer_list<TracePlot*>{ws->matrix(), ws->rates(), ws->latency()}) {
        EXPECT_FALSE(plot->axisRect()->visible()) << plot->title().toStdString();
        EXPECT_TRUE(plot->title().contains(QStringLiteral("no trace open"))) << plot->title().toStdString();
    }
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/full.dat"));
    for (TracePlot* plot : std::initializer_list<TracePlot*>{ws->matrix(), ws->rates(), ws->latency()})
        EXPECT_TRUE(plot->axisRect()->visible()) << plot->title().toStdString();
}

TEST_F(TraceWindowTest, EmptyMigrationPlotsSayWhyTheyAreEmpty) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/migrate-filtered.dat"));
    TraceWorkspace* ws = window.traceWorkspace();
    ASSERT_TRUE(ws->trace() && ws->trace()->data);
    const TraceAnalysis& d = *ws->trace()->data;
    ASSERT_TRUE(d.migrations.empty());
    EXPECT_GT(d.movesOnlyInSwitches, 0u);
    EXPECT_EQ(d.movesOnlyInSwitches, tracing::migrationsFromSwitches(*d.store).size());
    const QString why = QStringLiteral("%1 task moves between CPUs").arg(d.movesOnlyInSwitches);
    for (TracePlot* plot : std::initializer_list<TracePlot*>{ws->rates(), ws->matrix()}) {
        const QString reason = plot->emptyReasonText();
        EXPECT_TRUE(reason.startsWith(QStringLiteral("No migrations recorded: "))) << reason.toStdString();
        EXPECT_TRUE(reason.contains(QStringLiteral("a filter that matched nothing"))) << reason.toStdString();
        EXPECT_TRUE(reason.contains(why)) << reason.toStdString();
        // painted in the plot itself (a screenshot or an export shows it)
        test::TextRecorder recorder(QSize(700, 400));
        {
            QPainter p(&recorder);
            plot->paintTo(p, QRectF(0, 0, 700, 400));
        }
        QString painted;
        for (const auto& t : recorder.texts()) painted += t.text + QLatin1Char('|');
        EXPECT_TRUE(painted.contains(QStringLiteral("No migrations recorded"))) << painted.toStdString();
    }
    EXPECT_EQ(ws->matrix()->visibleCellLabels(), 0);  // a grid of zeros would sit under the note
    // and it is seen, not drawn under the colour map's white cells: grey text inside the axes
    MigrationMatrixPlot* matrix = ws->matrix();
    matrix->resize(600, 400);
    matrix->replot();
    const QImage shot = matrix->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QRect inside = matrix->axisRect()->rect().adjusted(10, 10, -10, -10);
    int grey = 0;
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x) {
            const QRgb px = shot.pixel(x, y);
            grey += qGray(px) < 110 && std::abs(qRed(px) - qBlue(px)) < 30;
        }
    EXPECT_GT(grey, 100) << "the note is not visible over the matrix";

    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/full.dat"));
    ASSERT_FALSE(ws->trace()->data->migrations.empty());
    EXPECT_TRUE(ws->rates()->emptyReasonText().isEmpty()) << ws->rates()->emptyReasonText().toStdString();
    EXPECT_TRUE(ws->matrix()->emptyReasonText().isEmpty()) << ws->matrix()->emptyReasonText().toStdString();
}

// The rates' and the wait latency's value axes keep their numbers a label's height apart in a
// short dock, as the what-if's migrations axis does (value_ticks.h).
TEST_F(TraceWindowTest, TheTracePlotsAxisNumbersNeverOverlap) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/full.dat"));
    for (QCustomPlot* plot : {static_cast<QCustomPlot*>(window.traceWorkspace()->rates()),
                              static_cast<QCustomPlot*>(window.traceWorkspace()->latency())}) {
        for (const int height : {110, 150, 220}) {
            const test::AxisNumbers numbers = test::leftAxisNumbers(plot, QSize(420, height));
            const auto& baselines = numbers.baselines;
            ASSERT_GE(baselines.size(), 2u) << plot->objectName().toStdString() << " at " << height << " px";
            for (size_t i = 1; i < baselines.size(); ++i)
                EXPECT_GE(baselines[i] - baselines[i - 1], numbers.labelHeight)
                    << plot->objectName().toStdString() << " at " << height << " px: labels " << i - 1 << " and " << i << " at " << baselines[i - 1] << ", " << baselines[i] << " (" << numbers.labelHeight << ")";
        }
    }
}

// The rates plot draws a line per cause on request (its context menu): each line's migrations,
// summed over its bins, are that cause's migrations in the trace, and its name says how many.
TEST_F(TraceWindowTest, TheRatesPlotGroupsByCauseOnRequest) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/full.dat"));
    LevelRatePlot* rates = window.traceWorkspace()->rates();
    const auto& d = *window.traceWorkspace()->trace()->data;
    std::map<QString, uint64_t> expected;
    for (const auto& m : d.migrations) ++expected[QString::fromStdString(std::string(tracing::migrationCauseName(m.cause)))];
    ASSERT_GE(expected.size(), 3u);
    rates->setGrouping(LevelRatePlot::Grouping::Cause);
    ASSERT_EQ(size_t(rates->graphCount()), expected.size());
    const double binS = double(d.rateBinNs) / 1e9;
    for (int i = 0; i < rates->graphCount(); ++i) {
        const QCPGraph* g = rates->graph(i);
        const QString cause = g->name().section(QLatin1Char(' '), 0, 0);
        ASSERT_TRUE(expected.count(cause)) << g->name().toStdString();
        EXPECT_EQ(g->name(), QStringLiteral("%1 (%2)").arg(cause).arg(expected[cause]));
        double sum = 0;
        const auto data = g->data();
        for (int k = 0; k + 1 < data->size(); ++k) sum += data->at(k)->value * binS;  // the last point closes the step
        EXPECT_NEAR(sum, double(expected[cause]), 1e-6) << cause.toStdString();
    }
    rates->setGrouping(LevelRatePlot::Grouping::Level);
    EXPECT_TRUE(rates->graph(0)->name().startsWith(QString::fromStdString(d.levels.front()))) << rates->graph(0)->name().toStdString();
}

// A trace.dat with sched events in two buffers (trace-cmd record -B): Trace > Buffer lists them,
// the shown one checked, and picking the other reads the file again from it. A buffer the file
// lacks is a one-line error naming the file and its buffers, and the shown trace stays.
TEST_F(TraceWindowTest, TheBufferMenuSwitchesBetweenTheFilesBuffers) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/switches.dat"));
    TraceWorkspace* ws = window.traceWorkspace();
    EXPECT_EQ(ws->trace()->fileBuffers, (QStringList{QStringLiteral("top"), QStringLiteral("ssw")}));
    EXPECT_EQ(ws->trace()->data->store->count(tracing::EventKind::Wakeup), 0u);
    QMenu* menu = ws->bufferMenu();
    ASSERT_TRUE(menu);
    EXPECT_TRUE(menu->isEnabled());
    const auto actions = menu->actions();
    ASSERT_EQ(actions.size(), 2);
    EXPECT_TRUE(actions[0]->isChecked());
    EXPECT_FALSE(actions[1]->isChecked());
    QSignalSpy shown(ws, &TraceWorkspace::traceShown);
    actions[1]->trigger();
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(ws->trace()->buffer, QStringLiteral("ssw"));
    EXPECT_EQ(ws->trace()->name, QStringLiteral("switches.dat [ssw]"));
    EXPECT_GT(ws->trace()->data->store->count(tracing::EventKind::Wakeup), 0u);
    EXPECT_TRUE(ws->bufferMenu()->actions()[1]->isChecked());

    const TraceSessionPtr before = ws->trace();
    QSignalSpy failed(ws, &TraceWorkspace::loadFailed);
    ws->openTrace(before->path, QStringLiteral("nope"));
    ASSERT_TRUE(failed.wait(60'000));
    const QString error = failed.front().front().toString();
    EXPECT_TRUE(error.contains(QStringLiteral("switches.dat: no buffer 'nope' in the trace (its buffers: top, ssw)")))
        << error.toStdString();
    EXPECT_EQ(ws->trace(), before);

    // a file of one buffer: nothing to pick
    ASSERT_TRUE(openTraceNow(window, QString::fromStdString(schedscope::test::dataPath("traces/switches-only/full.dat"))));
    EXPECT_FALSE(ws->bufferMenu()->isEnabled());
}

// A trace stamped by a clock that does not count ns (trace-cmd record -C x86-tsc) opens, and
// the banner says its times are clock counts and what-if replay cannot use them.
TEST_F(TraceWindowTest, ATraceWhoseClockIsNotNsIsOpenedWithANotice) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/clock-x86-tsc.dat"));
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->data);
    EXPECT_FALSE(t->data->store->clockCountsNs());
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->text().startsWith(
        QStringLiteral("clock-x86-tsc.dat: its trace clock x86-tsc does not count nanoseconds")))
        << window.banner()->text().toStdString();
    // the views that show durations give them in the clock's counts, never as µs or ms
    TraceWorkspace* ws = window.traceWorkspace();
    TaskTableModel* tasks = ws->taskModel();
    EXPECT_EQ(tasks->headerData(TaskTableModel::CpuTime, Qt::Horizontal).toString(), QStringLiteral("CPU time (x86-tsc counts)"));
    EXPECT_EQ(tasks->headerData(TaskTableModel::WaitP95, Qt::Horizontal).toString(), QStringLiteral("Wait p95 (x86-tsc counts)"));
    ASSERT_GT(tasks->rowCount(), 0);
    const TaskSummary& first = t->data->tasks.front();
    EXPECT_EQ(tasks->data(tasks->index(0, TaskTableModel::CpuTime)).toString(), QString::number(qulonglong(first.cpuNs)));
    EXPECT_TRUE(ws->latency()->xAxis->label().contains(QStringLiteral("x86-tsc counts"))) << ws->latency()->xAxis->label().toStdString();
    EXPECT_DOUBLE_EQ(ws->latency()->xAxis->range().upper, t->data->waitHistogram.hi);
    EXPECT_EQ(ws->rates()->yAxis->label(), QStringLiteral("migrations / bin"));
    EXPECT_TRUE(ws->rates()->xAxis->label().contains(QStringLiteral("x86-tsc counts")));
    // a trace whose clock counts ns keeps its ms and µs
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    EXPECT_EQ(tasks->headerData(TaskTableModel::CpuTime, Qt::Horizontal).toString(), QStringLiteral("CPU time (ms)"));
    EXPECT_EQ(ws->rates()->yAxis->label(), QStringLiteral("migrations / s"));
    EXPECT_DOUBLE_EQ(ws->latency()->xAxis->range().upper, window.traceWorkspace()->trace()->data->waitHistogram.hi / 1e3);
    // the longest wait is marked, beyond p99: its bin is a sliver on the count axis
    const auto& waits = window.traceWorkspace()->trace()->data->waitLatencies;
    ASSERT_FALSE(waits.empty());
    const double longestUs = double(*std::max_element(waits.begin(), waits.end())) / 1e3;
    bool marked = false;
    for (int i = 0; i < ws->latency()->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(ws->latency()->item(i)); text && text->text().startsWith(QStringLiteral(" max ")))
            marked = std::abs(text->position->coords().x() - longestUs) < 1e-6 * longestUs;
    EXPECT_TRUE(marked) << longestUs;
}

// A corrupt trace.dat (the tester's: 64 bytes of record-v6.dat flipped from offset 90000) stamps
// some events 582 years after the rest. The views show the second the others span, not a 1 ns
// axis (the unsigned span wrapped negative) or an empty rates plot, and the banner says why.
TEST_F(TraceWindowTest, BrokenTimestampsAreLeftOutOfTheTimeAxesWithANotice) {
    QByteArray bytes = QByteArray::fromStdString(schedscope::test::readFile(schedscope::test::dataPath("traces/record-v6.dat")));
    for (int k = 0; k < 64; ++k) bytes[90000 + k * 7] = char(bytes[90000 + k * 7] ^ 0xff);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("v6-flip90000.dat"));
    QFile out(path);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();
    const TraceSessionPtr t = openOverTwoCpus(path);
    ASSERT_TRUE(t && t->data);
    const auto& store = *t->data->store;
    ASSERT_GT(store.lastTs() - store.firstTs(), 0xf000'0000'0000'0000ull);  // still the broken file
    EXPECT_FALSE(t->data->span.whole());
    const TimeAxis& axis = window.traceWorkspace()->timeline()->axis();
    EXPECT_GT(axis.boundSpan(), 500'000'000);
    EXPECT_LT(axis.boundSpan(), 2'000'000'000);
    // every migration in the plausible span is on the rates plot, over that span
    uint64_t binned = 0, inSpan = 0;
    for (const auto& level : t->data->ratesByLevel)
        for (uint64_t n : level) binned += n;
    for (const auto& m : t->data->migrations) inSpan += m.ts >= t->data->firstTs && m.ts <= t->data->lastTs;
    EXPECT_GT(binned, 0u);
    EXPECT_EQ(binned, inSpan);
    EXPECT_LT(window.traceWorkspace()->rates()->xAxis->range().upper, 2.0);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("v6-flip90000.dat: ") +
                                                 QString::fromStdString(tracing::describeImplausibleTimestamps(store, t->data->span))))
        << window.banner()->text().toStdString();
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("broken timestamps"))) << window.banner()->text().toStdString();
}

// A damaged text trace opens with a notice of what its reader found wrong, in trace stats' words:
// garbage lines and an event on CPU 999 of a 2-CPU recording (the tester's forkstorm-damaged.txt
// looked exactly like the clean file).
TEST_F(TraceWindowTest, InputAnomaliesAreNoticedInTheBanner) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const TraceSessionPtr t = openDamagedForkstorm(
        dir, "=== not an event ===\n??\n"
             "       forkstorm-8254  [999]  3036.987289: sched_switch:         forkstorm:8254 [120] R ==> schedscope-cli:8226 [120]\n");
    ASSERT_TRUE(t && t->data);
    const auto& store = *t->data->store;
    EXPECT_EQ(store.anomaly(tracing::Anomaly::GarbageLine), 2u);
    EXPECT_EQ(store.anomaly(tracing::Anomaly::CpuOutOfRange), 1u);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_FALSE(window.banner()->isError());
    const QString expected = QStringLiteral("forkstorm-damaged.txt: ") + QString::fromStdString(tracing::describeInputAnomalies(store));
    EXPECT_TRUE(window.banner()->text().contains(expected)) << window.banner()->text().toStdString();
    EXPECT_TRUE(expected.contains(QStringLiteral("garbage_line 2 ("))) << expected.toStdString();
    EXPECT_TRUE(expected.contains(QStringLiteral("cpu_out_of_range 1 ("))) << expected.toStdString();
    // the clean file: no such notice of its own
    ASSERT_TRUE(openTraceNow(window, QString::fromStdString(schedscope::test::dataPath("traces/report-variants/forkstorm.report.txt"))));
    EXPECT_FALSE(window.banner()->text().contains(QStringLiteral("forkstorm.report.txt: anomalies"))) << window.banner()->text().toStdString();
}

// The banner says what applies to the trace open now: a damaged trace's notices go when a clean
// trace replaces it (they stayed, as if the clean one were damaged), and stay with it when the
// next open fails, beside that error, since the damaged trace is still the one shown. Likewise
// the broken-timestamps notice of a corrupt trace.dat.
TEST_F(TraceWindowTest, TheBannersNoticesAreTheOpenTracesOnly) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const TraceSessionPtr first = openDamagedForkstorm(dir, "=== not an event ===\n");
    ASSERT_TRUE(first && first->data);
    const QString notice = QStringLiteral("forkstorm-damaged.txt: ") + QString::fromStdString(tracing::describeInputAnomalies(*first->data->store));
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->text().contains(notice)) << window.banner()->text().toStdString();

    // a failed open: the damaged trace stays, and so does what the banner said of it
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openTraceFile(writeFile(dir, QStringLiteral("garbage.txt"), "hello\nthis is not a trace\n"));
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.traceWorkspace()->trace(), first);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->isError());
    EXPECT_TRUE(window.banner()->message().contains(QStringLiteral("garbage.txt"))) << window.banner()->message().toStdString();
    EXPECT_FALSE(window.banner()->message().contains(QLatin1Char('\n')));
    EXPECT_TRUE(window.banner()->text().contains(notice)) << window.banner()->text().toStdString();

    // the clean file: neither the damaged one's notice nor the failed open's error
    ASSERT_TRUE(openTraceNow(window, QString::fromStdString(schedscope::test::dataPath("traces/report-variants/forkstorm.report.txt"))));
    EXPECT_FALSE(window.banner()->text().contains(QStringLiteral("forkstorm-damaged.txt"))) << window.banner()->text().toStdString();
    EXPECT_FALSE(window.banner()->isError()) << window.banner()->text().toStdString();
    EXPECT_FALSE(window.banner()->text().contains(QStringLiteral("garbage.txt"))) << window.banner()->text().toStdString();

    // a corrupt trace.dat's broken timestamps, then the intact recording
    QByteArray bytes = QByteArray::fromStdString(schedscope::test::readFile(schedscope::test::dataPath("traces/record-v6.dat")));
    for (int k = 0; k < 64; ++k) bytes[90000 + k * 7] = char(bytes[90000 + k * 7] ^ 0xff);
    ASSERT_TRUE(openTraceNow(window, writeFile(dir, QStringLiteral("v6-flip90000.dat"), bytes)));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("v6-flip90000.dat: "))) << window.banner()->text().toStdString();
    ASSERT_TRUE(openTraceNow(window, QString::fromStdString(schedscope::test::dataPath("traces/record-v6.dat"))));
    EXPECT_FALSE(window.banner()->text().contains(QStringLiteral("v6-flip90000.dat"))) << window.banner()->text().toStdString();
    EXPECT_FALSE(window.banner()->text().contains(QStringLiteral("broken timestamps"))) << window.banner()->text().toStdString();
}

// Durations of a second or more are given in seconds: a 300 s trace's rate bins are 1.5 s
// long and a 2 s wait is marked so, not "1500.00 ms" and "2000.00 ms".
TEST_F(TraceWindowTest, DurationsOfASecondOrMoreAreGivenInSeconds) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = writeFile(dir, QStringLiteral("long.txt"),
                                   "cpus=2\n"
                                   "  bash-100 [000] 100.000000: sched_waking: comm=cat pid=101 prio=120 target_cpu=000\n"
                                   "  bash-100 [000] 100.000001: sched_wakeup: cat:101 [120] CPU:000\n"
                                   "  bash-100 [000] 102.000001: sched_switch: bash:100 [120] S ==> cat:101 [120]\n"
                                   "  cat-101 [000] 400.000000: sched_switch: cat:101 [120] S ==> swapper/0:0 [120]\n");
    const TraceSessionPtr t = openOverTwoCpus(path);
    ASSERT_TRUE(t && t->data);
    ASSERT_EQ(t->data->waitLatencies.size(), 1u);
    EXPECT_NEAR(double(t->data->waitLatencies[0]), 2e9, 1e3);
    TraceWorkspace* ws = window.traceWorkspace();
    QStringList marks;
    for (int i = 0; i < ws->latency()->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(ws->latency()->item(i))) marks << text->text().trimmed();
    EXPECT_TRUE(marks.contains(QStringLiteral("p99 2.000 s"))) << marks.join(QStringLiteral(" | ")).toStdString();
    const QString title = ws->rates()->title();  // whole: a narrow dock shows it elided
    EXPECT_TRUE(title.endsWith(QStringLiteral("(bins of 1.500 s)"))) << title.toStdString();
}

// The texts the topology view paints with `heat` shown on a two-CPU machine.
QStringList paintedHeat(MainWindow& window, const std::vector<double>& heat, const QString& caption) {
    TopologyView* view = window.topologyView();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(test::syntheticSpec("pack:1 core:2 pu:1"));
    if (!shown.wait(60'000)) return {};
    view->setHeat(heat, caption);
    test::TextRecorder recorder(QSize(1600, 1000));
    {
        QPainter p(&recorder);
        view->paintTo(p, QRectF(0, 0, 1600, 1000));
    }
    QStringList texts;
    for (const auto& t : recorder.texts()) texts << t.text;
    return texts;
}

// The topology view's heat legend keeps its caption apart from the scale: "… CPU 0: 0 ▭ 21",
// never "… CPU 0 0 ▭ 21".
TEST_F(TraceWindowTest, TheHeatLegendKeepsItsCaptionApartFromTheScale) {
    const QStringList texts = paintedHeat(window, {0.0, 21.0}, QStringLiteral("migrations to or from CPU 0"));
    EXPECT_TRUE(texts.contains(QStringLiteral("migrations to or from CPU 0: 0"))) << texts.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("21"))) << texts.join(QStringLiteral(" | ")).toStdString();
}

// Counts in the heat legend read as counts: 1135 migrations, never "1.14e+03".
TEST_F(TraceWindowTest, TheHeatLegendPrintsCountsWhole) {
    const QStringList texts = paintedHeat(window, {3.0, 1135.0}, QStringLiteral("migrations to or from CPU 0"));
    EXPECT_TRUE(texts.contains(QStringLiteral("migrations to or from CPU 0: 3"))) << texts.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(texts.contains(QLocale().toString(1135))) << texts.join(QStringLiteral(" | ")).toStdString();
    EXPECT_FALSE(texts.join(QLatin1Char(' ')).contains(QStringLiteral("e+"))) << texts.join(QStringLiteral(" | ")).toStdString();
}

// A trace whose recording filtered away the switches out of the idle task (trace-cmd record
// -f 'prev_pid != 0') opens with a notice: its lanes miss the runs that began on an idle CPU.
TEST_F(TraceWindowTest, ATraceWithoutItsIdleExitsIsOpenedWithANotice) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/idle-filters.dat"));
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->data);
    EXPECT_EQ(t->data->switchGaps.outOfIdle, 0u);
    EXPECT_GT(t->data->switchGaps.intoIdle, 500u);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->text().contains(
        QStringLiteral("idle-filters.dat: no sched_switch leaves the idle task (%1 enter it)").arg(t->data->switchGaps.intoIdle)))
        << window.banner()->text().toStdString();
}

// A trace with the what-if and the lessons open stacks docks whose minimum heights add up past a
// laptop's screen: fitted into 1024x700 they become tabs (the timeline with the what-if, the
// trace plots with the lessons), and the window fits.
TEST_F(TraceWindowTest, DocksBecomeTabsWhenTheWindowCannotHoldThem) {
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    ASSERT_TRUE(window.raiseView(QStringLiteral("lessons")));
    ASSERT_TRUE(window.raiseView(QStringLiteral("whatif")));
    QDockWidget* timeline = window.traceWorkspace()->timelineDock();
    QDockWidget* whatIf = window.findChild<QDockWidget*>(QStringLiteral("whatifDock"));
    ASSERT_TRUE(timeline && whatIf);
    window.fitDocksInto(QSize(1024, 700));
    EXPECT_TRUE(window.tabifiedDockWidgets(timeline).contains(whatIf));
    EXPECT_LE(window.minimumSizeHint().height(), 700);
    EXPECT_LE(window.minimumSizeHint().width(), 1024);
}

TEST_F(TraceWindowTest, TaskTableModelPassesTheTesterAndSortsAndFilters) {
    TaskTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    model.setTrace(window.traceWorkspace()->trace());
    ASSERT_GT(model.rowCount(), 10);
    EXPECT_EQ(model.columnCount(), TaskTableModel::ColumnCount);
    TaskTableView view(&model);
    QAbstractItemModelTester proxyTester(view.proxy(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.proxy()->sort(TaskTableModel::CpuTime, Qt::DescendingOrder);
    for (int r = 1; r < view.proxy()->rowCount(); ++r)
        EXPECT_GE(view.proxy()->index(r - 1, TaskTableModel::CpuTime).data(TaskTableModel::SortRole).toULongLong(),
                  view.proxy()->index(r, TaskTableModel::CpuTime).data(TaskTableModel::SortRole).toULongLong());
    view.filter()->setText(QStringLiteral("stress-ng"));
    ASSERT_GT(view.proxy()->rowCount(), 0);
    EXPECT_LT(view.proxy()->rowCount(), model.rowCount());
    for (int r = 0; r < view.proxy()->rowCount(); ++r)
        EXPECT_TRUE(view.proxy()->index(r, TaskTableModel::Command).data().toString().contains(QStringLiteral("stress-ng")));
    model.setTrace(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST_F(TraceWindowTest, PickingATaskFollowsItInTheTimelineAndHeatsItsCpus) {
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    TraceWorkspace* ws = window.traceWorkspace();
    const auto& d = *ws->trace()->data;
    // The task with the most migrations.
    const auto it = std::max_element(d.tasks.begin(), d.tasks.end(),
                                     [](const TaskSummary& a, const TaskSummary& b) { return a.migrations < b.migrations; });
    ASSERT_GT(it->migrations, 0u);
    ws->taskTable()->table()->setFocus();
    const int row = ws->taskModel()->rowOfPid(it->pid);
    const QModelIndex idx = ws->taskTable()->proxy()->mapFromSource(ws->taskModel()->index(row, 0));
    ws->taskTable()->table()->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    EXPECT_EQ(ws->timeline()->followedTask(), it->pid);
    const auto& heat = window.topologyView()->heat();
    ASSERT_EQ(heat.size(), 2u);
    EXPECT_DOUBLE_EQ(heat[0] + heat[1], 2.0 * double(it->migrations));
    const QImage img = window.renderView(QStringLiteral("timeline"), QSize(1000, 500));
    test::keepShot(img, QStringLiteral("trace-timeline-follow"));

    // The matrix picks a CPU for the timeline and the topology view.
    ws->selectCpu(1);
    EXPECT_EQ(ws->timeline()->selectedCpu(), 1);
    EXPECT_EQ(window.topologyView()->selectedCpu(), 1);
}

// A real 6.1 kernel's trace on its 2-socket, 4-node SMT machine (traces/qemu): the lanes nest
// as that machine's domains do, each NUMA level at its own span (both NUMA levels say "NUMA";
// the lanes once took the lower one's span for both, and showed "NUMA 0-7" over "NUMA 0-7").
TEST_F(TraceWindowTest, LanesNestByEveryDomainLevelOfTheMachine) {
    ASSERT_TRUE(openQemuTraceOnItsMachine("traces/qemu/x86-2s4n4c2t-linux-6.1.dat"));
    TimelineView* tl = window.traceWorkspace()->timeline();
    QStringList names;
    for (int g = 0; g < tl->groupCount(); ++g) names << tl->groupName(g);
    // depth first: the machine, a socket, its nodes, their cores
    ASSERT_GE(names.size(), 4) << names.join(QStringLiteral(", ")).toStdString();
    EXPECT_EQ(names.mid(0, 4), (QStringList{QStringLiteral("NUMA 0-15"), QStringLiteral("NUMA 0-7"), QStringLiteral("MC 0-3"),
                                            QStringLiteral("SMT 0-1")}))
        << names.join(QStringLiteral(", ")).toStdString();
    EXPECT_EQ(names.size(), 1 + 2 + 4 + 8);
    EXPECT_EQ(names.count(QStringLiteral("NUMA 0-7")), 1);

    // the 16x16 matrix writes its counts while a cell holds them, and not when squeezed
    MigrationMatrixPlot* matrix = window.traceWorkspace()->matrix();
    matrix->resize(900, 700);
    matrix->replot();
    EXPECT_EQ(matrix->visibleCellLabels(), 16 * 16);
    matrix->resize(400, 200);
    matrix->replot();
    EXPECT_EQ(matrix->visibleCellLabels(), 0);
}

// The same machine's 15 group headers took 225 px: its 16 lanes were 2 px and ran off the
// bottom of a short timeline. It opens with the lowest levels collapsed as far as its height
// needs (each lane at least kFitLaneH), follows the view's height until the user expands or
// collapses a group, and then keeps what the user chose.
TEST_F(TraceWindowTest, TheLanesFitTheTimelinesHeightUntilTheUserChooses) {
    ASSERT_TRUE(openQemuTraceOnItsMachine("traces/qemu/x86-2s4n4c2t-linux-6.1.dat"));
    TimelineView* tl = window.traceWorkspace()->timeline();
    ASSERT_EQ(tl->groupCount(), 15);
    auto collapsedNames = [tl] {
        QStringList out;
        for (int g = 0; g < tl->groupCount(); ++g)
            if (tl->groupCollapsed(g)) out << tl->groupName(g);
        return out;
    };
    for (const int height : {260, 420, 900}) {
        tl->resize(900, height);
        EXPECT_GE(tl->laneHeight(), TimelineView::kFitLaneH) << height << " px: " << collapsedNames().join(QStringLiteral(", ")).toStdString();
        EXPECT_FALSE(tl->groupCollapsed(0)) << height << " px: the machine's group stays open";
        if (height >= 900) {
            EXPECT_TRUE(collapsedNames().isEmpty()) << "room for every lane: " << collapsedNames().join(QStringLiteral(", ")).toStdString();
        }
    }
    tl->resize(900, 260);
    const QStringList fitted = collapsedNames();
    ASSERT_FALSE(fitted.isEmpty());
    for (const QString& name : fitted) EXPECT_TRUE(name.startsWith(QStringLiteral("SMT "))) << name.toStdString();

    // the user opens a core: the view keeps that, short lanes and all, through a resize
    int core = -1;
    for (int g = 0; g < tl->groupCount() && core < 0; ++g)
        if (tl->groupCollapsed(g)) core = g;
    tl->setGroupCollapsed(core, false);
    tl->resize(900, 240);
    EXPECT_EQ(collapsedNames().size(), fitted.size() - 1);
    EXPECT_FALSE(tl->groupCollapsed(core));
    // a new recording fits again
    ASSERT_TRUE(openTraceNow(window, QString::fromStdString(schedscope::test::dataPath("traces/qemu/x86-2s4n4c2t-linux-6.12.dat"))));
    EXPECT_GE(tl->laneHeight(), TimelineView::kFitLaneH);
}

// The 16-CPU QEMU trace on the 128-CPU EPYC preset (2 sockets of 4 nodes, SMT siblings 64 apart:
// lane groups such as "NODE 8-15,72-79").
// A text trace of a 128-CPU EPYC 7601 (its lines as the tracefs trace file has them, without
// the "#P:" that would name a CPU count): every CPU runs a task for a while, and one task
// migrates across an LLC (MC) and its node's other LLC (NODE), never to an SMT sibling or
// another node.
QString writeEpycTextTrace(const QString& dir) {
    QString path = dir + QStringLiteral("/epyc7601-2s-every-cpu-busy.txt");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) return {};
    QTextStream out(&f);
    out << "# tracer: nop\n#\n";
    double ts = 100.0;
    auto line = [&](const QString& task, int pid, int cpu, const QString& event, const QString& fields) {
        ts += 0.000050;
        out << QStringLiteral("%1-%2 [%3] d..2. %4: %5: %6\n")
                   .arg(task).arg(pid).arg(cpu, 3, 10, QLatin1Char('0')).arg(ts, 0, 'f', 6).arg(event, fields);
    };
    auto switchTo = [&](int cpu, const QString& comm, int pid) {
        line(QStringLiteral("<idle>"), 0, cpu, QStringLiteral("sched_switch"),
             QStringLiteral("prev_comm=swapper/%1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%2 next_pid=%3 next_prio=120")
                 .arg(cpu).arg(comm).arg(pid));
    };
    auto switchOut = [&](int cpu, const QString& comm, int pid) {
        line(comm, pid, cpu, QStringLiteral("sched_switch"),
             QStringLiteral("prev_comm=%1 prev_pid=%2 prev_prio=120 prev_state=S ==> next_comm=swapper/%3 next_pid=0 next_prio=120")
                 .arg(comm).arg(pid).arg(cpu));
    };
    for (int cpu = 0; cpu < 128; ++cpu) switchTo(cpu, QStringLiteral("w%1").arg(cpu), 1000 + cpu);
    const QString hog = QStringLiteral("hog");
    int at = 8;
    for (int round = 0; round < 6; ++round)
        for (int to : {9, 12, 8}) {  // MC (8->9), NODE (9->12), NODE (12->8)
            line(hog, 4000, at, QStringLiteral("sched_migrate_task"),
                 QStringLiteral("comm=hog pid=4000 prio=120 orig_cpu=%1 dest_cpu=%2").arg(at).arg(to));
            at = to;
        }
    for (int cpu = 0; cpu < 128; ++cpu) switchOut(cpu, QStringLiteral("w%1").arg(cpu), 1000 + cpu);
    return path;
}

bool openTraceOnEpyc(MainWindow& w) {
    QSignalSpy shown(&w, &MainWindow::sessionShown);
    TopologySpec epyc;
    epyc.kind = TopologySpec::Kind::Preset;
    epyc.value = "epyc7601-2s";
    w.open(epyc);
    if (!shown.wait(60'000)) return false;
    static QTemporaryDir dir;
    const QString path = writeEpycTextTrace(dir.path());
    return !path.isEmpty() && openTraceNow(w, path);
}

// The texts the timeline paints at 1600x900.
QStringList paintedTimeline(TimelineView* tl) {
    test::TextRecorder recorder(QSize(1600, 900));
    {
        QPainter p(&recorder);
        tl->paintTo(p, QRectF(0, 0, 1600, 900));
    }
    QStringList texts;
    for (const auto& t : recorder.texts()) texts << t.text;
    return texts;
}

// The timeline's legend names the levels with migrations and says what it leaves out, as the
// rates plot's does: a level no migration was at is "none at ..." (it read "MC (0)", with
// nothing saying why), and a trace without migrations says why, in the empty plots' words.
TEST_F(TraceWindowTest, TheTimelineLegendSaysWhyALevelHasNoMigrations) {
    ASSERT_TRUE(openTraceOnEpyc(window));
    TraceWorkspace* ws = window.traceWorkspace();
    const TraceAnalysis& d = *ws->trace()->data;
    const QString none = QString::fromStdString(describeLevelsWithoutMigrations(d));
    ASSERT_TRUE(none.startsWith(QStringLiteral("none at "))) << "the trace should leave a level without migrations";
    const QRegularExpression entry(QStringLiteral("^(\\S+) \\((\\d+)\\)$"));  // "MC (12)"
    QStringList texts = paintedTimeline(ws->timeline());
    int entries = 0;
    for (const QString& t : texts)
        if (const auto m = entry.match(t); m.hasMatch()) {
            ++entries;
            EXPECT_NE(m.captured(2), QStringLiteral("0")) << t.toStdString();
        }
    EXPECT_EQ(entries, int(levelsWithMigrations(d).size())) << texts.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(texts.contains(none)) << texts.join(QStringLiteral(" | ")).toStdString();
    // the rates plot: a line per level with migrations, and the same words in its legend
    EXPECT_EQ(ws->rates()->graphCount(), int(levelsWithMigrations(d).size()));
    for (int i = 0; i < ws->rates()->graphCount(); ++i)
        EXPECT_FALSE(ws->rates()->graph(i)->name().endsWith(QStringLiteral(" (0)"))) << ws->rates()->graph(i)->name().toStdString();
    test::TextRecorder recorder(QSize(1000, 500));
    {
        QPainter p(&recorder);
        ws->rates()->paintTo(p, QRectF(0, 0, 1000, 500));
    }
    QStringList plotted;
    for (const auto& t : recorder.texts()) plotted << t.text;
    EXPECT_TRUE(plotted.contains(none)) << plotted.join(QStringLiteral(" | ")).toStdString();

    // no migrations at all: why, not "MC (0)"
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/migrate-filtered.dat"));
    texts = paintedTimeline(ws->timeline());
    const QString joined = texts.join(QStringLiteral(" | "));
    EXPECT_FALSE(joined.contains(QStringLiteral(" (0)"))) << joined.toStdString();
    EXPECT_TRUE(joined.contains(QStringLiteral("No migrations recorded: "))) << joined.toStdString();
    EXPECT_EQ(ws->rates()->graphCount(), 0);
}

// Lane labels too long for the gutter are cut with an ellipsis, so that a cut cpulist never reads
// as another valid one ("NUMA 0-31,64-9"); the tooltip has the whole name. The title is cut the
// same way.
TEST_F(TraceWindowTest, LongLaneLabelsAreCutWithAnEllipsis) {
    ASSERT_TRUE(openTraceOnEpyc(window));
    TimelineView* tl = window.traceWorkspace()->timeline();
    QStringList names;
    for (int g = 0; g < tl->groupCount(); ++g) names << tl->groupName(g);
    ASSERT_TRUE(names.contains(QStringLiteral("NODE 8-15,72-79"))) << names.join(QStringLiteral(", ")).toStdString();

    test::TextRecorder recorder(QSize(420, 1000));
    {
        QPainter p(&recorder);
        tl->paintTo(p, QRectF(0, 0, 420, 1000));
    }
    int elided = 0, groupLabels = 0;
    QString title;
    for (const auto& t : recorder.texts()) {
        if (t.text.contains(QStringLiteral(" \u2014 "))) title = t.text;
        QString shown = t.text;
        if (!shown.startsWith(QChar(0x25b8)) && !shown.startsWith(QChar(0x25be))) continue;
        ++groupLabels;
        shown = shown.mid(2);
        if (names.contains(shown)) continue;  // whole
        ASSERT_TRUE(shown.endsWith(QChar(0x2026))) << shown.toStdString();  // cut: with an ellipsis
        shown.chop(1);
        EXPECT_TRUE(std::any_of(names.begin(), names.end(), [&](const QString& n) { return n.startsWith(shown); })) << shown.toStdString();
        ++elided;
    }
    EXPECT_GT(groupLabels, 0);
    EXPECT_GT(elided, 0);
    EXPECT_TRUE(title.endsWith(QChar(0x2026))) << title.toStdString();  // 420 px hold no whole title
    // hovering a group's label says its whole name
    tl->resize(420, 1000);
    bool named = false;
    for (int y = 0; y < 1000 && !named; y += 2) named = tl->hoverText(QPointF(20, y)) == QStringLiteral("NODE 8-15,72-79");
    EXPECT_TRUE(named);
}

// The migration matrix labels its 128 CPUs a label apart on both axes, however short or narrow it
// is, and more of them on a bigger plot (the step was the CPU count's alone: a smear at 260 px).
TEST_F(TraceWindowTest, MatrixTicksStayALabelApart) {
    ASSERT_TRUE(openTraceOnEpyc(window));
    MigrationMatrixPlot* matrix = window.traceWorkspace()->matrix();
    auto tickGap = [&](Qt::Orientation o) {
        const double px = o == Qt::Vertical ? matrix->axisRect()->height() : matrix->axisRect()->width();
        return matrix->cpuTickStep(o) * px / 128.0;
    };
    for (const QSize size : {QSize(700, 260), QSize(900, 900), QSize(400, 1200)}) {
        matrix->resize(size);
        matrix->replot();
        const QFontMetricsF fm(matrix->yAxis->tickLabelFont());
        EXPECT_GE(tickGap(Qt::Vertical), fm.height()) << size.width() << "x" << size.height();
        EXPECT_GE(tickGap(Qt::Horizontal), fm.horizontalAdvance(QStringLiteral("127"))) << size.width() << "x" << size.height();
        // and no sparser than needed: half the step would overlap
        if (matrix->cpuTickStep(Qt::Vertical) > 1) {
            EXPECT_LT(tickGap(Qt::Vertical) / 2, fm.height() * 1.15) << size.width() << "x" << size.height();
        }
    }
    matrix->resize(700, 260);
    matrix->replot();
    const int shortStep = matrix->cpuTickStep(Qt::Vertical);
    matrix->resize(900, 900);
    matrix->replot();
    EXPECT_LT(matrix->cpuTickStep(Qt::Vertical), shortStep);  // a taller axis labels more CPUs
}

// The matrix's title fits a small plot: a smaller font, then an ellipsis, never cut at both
// sides (the tester's 500x300 shot read "…igrations source → destination CPU (21 in hackbench.dat").
TEST_F(TraceWindowTest, MatrixTitleFitsASmallPlot) {
    ASSERT_TRUE(openTraceOnEpyc(window));
    MigrationMatrixPlot* matrix = window.traceWorkspace()->matrix();
    const QString whole = matrix->title();
    ASSERT_TRUE(whole.startsWith(QStringLiteral("Migrations source"))) << whole.toStdString();
    for (const QSize size : {QSize(500, 300), QSize(300, 200)}) {
        matrix->resize(size);
        matrix->replot();
        const QString shown = matrix->shownTitle();
        EXPECT_TRUE(shown.startsWith(QStringLiteral("Migrations"))) << shown.toStdString();
        EXPECT_TRUE(shown.endsWith(QChar(0x2026))) << shown.toStdString();
        // drawn inside the plot, whatever font it took
        test::TextRecorder recorder(size);
        {
            QPainter p(&recorder);
            matrix->paintTo(p, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        // (an export lays the plot out again at its target: the title is fitted there too)
        bool inside = false;
        QStringList all;
        for (const auto& t : recorder.texts()) {
            all << t.text;
            if (t.text.startsWith(QStringLiteral("Migrations source")))
                inside = t.text.endsWith(QChar(0x2026)) && t.at.x() >= 0 &&
                         t.at.x() + QFontMetricsF(t.font).horizontalAdvance(t.text) <= size.width();
        }
        EXPECT_TRUE(inside) << size.width() << "x" << size.height() << ": " << all.join(QStringLiteral(" | ")).toStdString();
    }
    matrix->resize(1600, 600);
    matrix->replot();
    EXPECT_EQ(matrix->shownTitle(), whole);  // room enough: all of it
}

// Hovering the timeline names what is under the cursor: a migration arrow (its task, CPUs,
// level and cause, and that it was seen in the switches of a trace without sched_migrate_task)
// or a run slice (its task and CPU). Every point of the lanes is asked; each answer is checked
// against the trace's own migrations and slices.
TEST_F(TraceWindowTest, HoverNamesTheMigrationOrTheSliceUnderTheCursor) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/switches-only/switches.dat"));
    TimelineView* tl = window.traceWorkspace()->timeline();
    tl->resize(900, 400);
    const auto& d = *window.traceWorkspace()->trace()->data;
    const QRegularExpression arrow(QStringLiteral(R"(^(.*) \((\d+)\): CPU (\d+) \x{2192} CPU (\d+), (\S+), (\S+), at )"));
    const QRegularExpression slice(QStringLiteral(R"(^(.*) \((\d+)\) on CPU (\d+): runs )"));
    QStringList groupNames;
    for (int g = 0; g < tl->groupCount(); ++g) groupNames << tl->groupName(g);
    int arrows = 0, slices = 0, groups = 0;
    for (int y = 0; y < tl->height(); y += 4)
        for (int x = 0; x < tl->width(); x += 2) {
            const QString text = tl->hoverText(QPointF(x, y));
            if (text.isEmpty()) continue;
            if (const auto m = arrow.match(text); m.hasMatch()) {
                ++arrows;
                const int pid = m.captured(2).toInt(), src = m.captured(3).toInt(), dst = m.captured(4).toInt();
                const bool known = std::any_of(d.migrations.begin(), d.migrations.end(), [&](const tracing::Migration& g) {
                    return g.pid == pid && g.src == src && g.dst == dst &&
                           QString::fromStdString(std::string(tracing::migrationCauseName(g.cause))) == m.captured(6);
                });
                EXPECT_TRUE(known) << text.toStdString();
                EXPECT_TRUE(text.endsWith(QStringLiteral("(seen in the switches: the trace has no sched_migrate_task)")))
                    << text.toStdString();
            } else if (const auto s = slice.match(text); s.hasMatch()) {
                ++slices;
                const int pid = s.captured(2).toInt(), cpu = s.captured(3).toInt();
                ASSERT_LT(size_t(cpu), d.lanes.size()) << text.toStdString();
                const LaneSlices& lane = d.lanes[size_t(cpu)];
                bool ran = false;  // a slice of that task on that CPU, under that name
                for (size_t i = 0; i < lane.size() && !ran; ++i)
                    ran = lane.pid(i) == pid && QString::fromStdString(std::string(d.store->commAt(pid, lane.start(i)))) == s.captured(1);
                EXPECT_TRUE(ran) << text.toStdString();
            } else if (groupNames.contains(text)) {
                ++groups;  // a lane group's label in the gutter: its whole name
            } else {
                ADD_FAILURE() << "unexpected hover text: " << text.toStdString();
            }
        }
    EXPECT_GT(arrows, 20);
    EXPECT_GT(slices, 1000);
    EXPECT_GT(groups, 0);
    EXPECT_TRUE(tl->hoverText(QPointF(-10, -10)).isEmpty());
}

// A recording that lost events: the moves its switches show that its migrations do not say
// so when hovered, and its recorded migrations say nothing of the kind.
TEST_F(TraceWindowTest, HoverSaysWhichMovesTheLostEventsHid) {
    ASSERT_TRUE(openFixtureOnTwoCpus(window, "traces/lossy/lossy.dat"));
    TimelineView* tl = window.traceWorkspace()->timeline();
    tl->resize(900, 400);
    const auto& d = *window.traceWorkspace()->trace()->data;
    // the loss itself is said on loading, as trace stats says it
    const QString loss = QString::fromStdString(tracing::describeLostEvents(*d.store));
    EXPECT_EQ(loss, QStringLiteral("817 lost events"));  // the ring buffers' stats in the file
    EXPECT_TRUE(window.banner()->text().contains(loss + QStringLiteral(": its ring buffer overran")))
        << window.banner()->text().toStdString();
    const QRegularExpression arrow(QStringLiteral(R"(^(.*) \((\d+)\): CPU (\d+) \x{2192} CPU (\d+), )"));
    const QString lost = QStringLiteral(" (seen in the switches: its sched_migrate_task was lost with other events)");
    int recorded = 0, hidden = 0;
    for (int y = 0; y < tl->height(); y += 4)
        for (int x = 0; x < tl->width(); x += 2) {
            const QString text = tl->hoverText(QPointF(x, y));
            const auto m = arrow.match(text);
            if (!m.hasMatch()) continue;
            const bool seen = text.endsWith(lost);
            EXPECT_FALSE(text.contains(QStringLiteral("no sched_migrate_task"))) << text.toStdString();
            const int pid = m.captured(2).toInt(), src = m.captured(3).toInt(), dst = m.captured(4).toInt();
            EXPECT_TRUE(std::any_of(d.migrations.begin(), d.migrations.end(), [&](const tracing::Migration& g) {
                return g.pid == pid && g.src == src && g.dst == dst && g.seenInSwitches == seen;
            })) << text.toStdString();
            ++(seen ? hidden : recorded);
        }
    EXPECT_GT(hidden, 0);
    EXPECT_GT(recorded, 10 * hidden);
}

TEST_F(TraceWindowTest, MarkersGiveTheIntervalStatistics) {
    ASSERT_TRUE(openTraceNow(window, samplePath()));
    TimelineView* tl = window.traceWorkspace()->timeline();
    const auto& d = *window.traceWorkspace()->trace()->data;
    tl->setMarkers(int64_t(d.firstTs), int64_t(d.lastTs + 1));
    const auto st = tl->markerStats();
    ASSERT_TRUE(st);
    EXPECT_EQ(st->events, d.store->size());
    uint64_t migrations = 0, byCause = 0;
    for (auto m : st->migrationsByLevel) migrations += m;
    for (auto m : st->migrationsByCause) byCause += m;
    EXPECT_EQ(migrations, d.migrations.size());
    EXPECT_EQ(byCause, d.migrations.size());
    const auto wakeups = std::count_if(d.migrations.begin(), d.migrations.end(),
                                       [](const tracing::Migration& m) { return m.cause == tracing::MigrationCause::Wakeup; });
    ASSERT_GT(wakeups, 0);
    EXPECT_TRUE(tl->markerSummary().contains(QStringLiteral("wakeup %1").arg(wakeups))) << tl->markerSummary().toStdString();
    ASSERT_EQ(st->busy.size(), 2u);
    for (double b : st->busy) {
        EXPECT_GT(b, 0.0);
        EXPECT_LE(b, 1.0);
    }
    EXPECT_FALSE(tl->markerSummary().isEmpty());
    // Zoom and pan by keyboard and wheel stay inside the trace.
    tl->resize(900, 400);
    QTest::keyClick(tl, Qt::Key_Plus);
    QTest::keyClick(tl, Qt::Key_Plus);
    EXPECT_LT(tl->axis().span(), tl->axis().boundSpan());
    QTest::keyClick(tl, Qt::Key_Right);
    EXPECT_GE(tl->axis().viewStart, tl->axis().boundStart);
    EXPECT_LE(tl->axis().viewEnd, tl->axis().boundEnd);
    QTest::keyClick(tl, Qt::Key_Home);
    EXPECT_EQ(tl->axis().span(), tl->axis().boundSpan());
    // Collapsing the domain group leaves one aggregate lane.
    ASSERT_GE(tl->groupCount(), 1);
    tl->setGroupCollapsed(0, true);
    const QImage img = window.renderView(QStringLiteral("timeline"), QSize(900, 300));
    test::keepShot(img, QStringLiteral("trace-timeline-collapsed"));
    EXPECT_GE(test::distinctColours(img), test::kManyColours);
}

// Every tick label of the timeline's ruler is whole inside the view, apart from the next one, and
// all of one ruler in one unit: the last was cut at the right edge ("10", "8.00"), and the first
// said "0 ns" beside "2.000 s". On a ns clock (the sample) and on x86-tsc counts.
TEST_F(TraceWindowTest, RulerTickLabelsAreWholeAndInOneUnit) {
    for (const char* fixture : {"", "traces/clock-x86-tsc.dat"}) {
        ASSERT_TRUE(*fixture ? openFixtureOnTwoCpus(window, fixture) : openTraceNow(window, samplePath())) << fixture;
        TimelineView* tl = window.traceWorkspace()->timeline();
        for (int width = 600; width <= 1600; width += 50) {
            test::TextRecorder recorder(QSize(width, 400));
            {
                QPainter p(&recorder);
                tl->paintTo(p, QRectF(0, 0, width, 400));
            }
            // the ruler: right of the lane labels' gutter, between the title (22 px) and the lanes
            std::vector<std::pair<double, double>> spans;  // [left, right) of each label
            QStringList labels, units;
            for (const auto& t : recorder.texts()) {
                if (t.at.y() <= 22 || t.at.y() > 42 || t.at.x() < 100) continue;
                const double right = t.at.x() + QFontMetricsF(t.font).horizontalAdvance(t.text);
                EXPECT_LE(right, width) << fixture << " at " << width << " px: " << t.text.toStdString();
                spans.emplace_back(t.at.x(), right);
                labels << t.text;
                units << t.text.section(QLatin1Char(' '), 1);  // "" for plain counts
            }
            const std::string all = labels.join(QStringLiteral(" | ")).toStdString();
            ASSERT_GE(labels.size(), 3) << fixture << " at " << width << " px: " << all;
            EXPECT_EQ(units.count(units.front()), units.size()) << fixture << " at " << width << " px: " << all;
            std::sort(spans.begin(), spans.end());
            for (size_t i = 1; i < spans.size(); ++i)
                EXPECT_LE(spans[i - 1].second, spans[i].first) << fixture << " at " << width << " px: " << all;
        }
    }
}

// Why live capture in this process cannot run here; "" when it can. (As a normal user it would
// go through pkexec: see live_helper_test.)
std::string inProcessLiveUnavailable() {
    if (geteuid() != 0) return "live capture in process needs root";
    if (const QString why = LiveCapture().unavailableReason(); !why.isEmpty()) return "live capture: " + why.toStdString();
    return "";
}

// Shows the window with this machine's topology open.
bool showThisMachine(MainWindow& window) {
    window.resize(1100, 700);
    window.show();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(TopologySpec{});
    return shown.wait(60'000);
}

TEST(LiveView, CapturesThisMachineOrSkipsWithTheReason) {
    if (const std::string why = inProcessLiveUnavailable(); !why.empty()) {
        std::printf("[  SKIPPED ] %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    MainWindow window;
    ASSERT_TRUE(showThisMachine(window));
    LiveCapture* live = window.traceWorkspace()->live();
    live->setRateHz(10);
    live->setWindowSec(5);
    QSignalSpy snapshots(live, &LiveCapture::snapshot);
    QSignalSpy failed(live, &LiveCapture::failed);
    window.traceWorkspace()->startLiveIfPermitted();
    // Some scheduling to see: a process that sleeps and wakes.
    QProcess load;
    load.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("for i in $(seq 40); do sleep 0.02; done")});
    for (int i = 0; i < 60 && snapshots.size() < 3 && failed.isEmpty(); ++i) QTest::qWait(100);
    load.waitForFinished(10'000);
    if (!failed.isEmpty()) {
        const QString why = failed.front().at(0).toString();
        std::printf("[  SKIPPED ] live capture failed here: %s\n", qPrintable(why));
        GTEST_SKIP() << why.toStdString();
    }
    ASSERT_GE(snapshots.size(), 2) << "no live snapshots within 6 s";
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->live && t->data);
    EXPECT_GT(t->data->store->size(), 0u);
    // The snapshot keeps what the capture recorded, events or none: a NUMA stick (never on a
    // machine of one node) is recorded as none, and the migrations are the recorded ones.
    EXPECT_TRUE(t->data->store->recorded(tracing::EventKind::MigrateTask));
    EXPECT_EQ(tracing::migrationSource(*t->data->store), "sched_migrate_task");
    if (QFile::exists(QStringLiteral("/sys/kernel/tracing/events/sched/sched_stick_numa"))) {
        EXPECT_TRUE(t->data->store->recorded(tracing::EventKind::StickNuma));
    }
    // Bounded rate: at most about 10 snapshots a second.
    EXPECT_LE(snapshots.size(), 70);
    live->setPaused(true);
    QTest::qWait(400);
    const qsizetype frozen = snapshots.size();
    QTest::qWait(500);
    EXPECT_EQ(snapshots.size(), frozen) << "paused capture still sends snapshots";
    live->setPaused(false);
    const QImage img = window.renderView(QStringLiteral("timeline"), QSize(1000, 400));
    test::keepShot(img, QStringLiteral("trace-live-timeline"));
    EXPECT_GE(test::distinctColours(img), 20);
    // Another process switches our sched_switch off: the capture switches it on again and the
    // banner says so, keeping the live view.
    QSignalSpy warnings(live, &LiveCapture::warning);
    const QString instance = QStringLiteral("/sys/kernel/tracing/instances/schedscope-%1").arg(getpid());
    QFile enable(instance + QStringLiteral("/events/sched/sched_switch/enable"));
    ASSERT_TRUE(enable.open(QIODevice::WriteOnly)) << qPrintable(enable.fileName());
    enable.write("0");
    enable.close();
    // (another warning may come first on a loaded machine: events lost to a full buffer)
    auto disabledWarning = [&warnings]() -> QString {
        for (const auto& w : warnings)
            if (w.at(0).toString().contains(QStringLiteral("sched:sched_switch was disabled by another process")))
                return w.at(0).toString();
        return {};
    };
    for (int i = 0; i < 40 && disabledWarning().isEmpty(); ++i) QTest::qWait(100);
    const QString said = disabledWarning();
    ASSERT_FALSE(said.isEmpty()) << warnings.size() << " other warning(s)";
    if (warnings.size() == 1) {
        EXPECT_EQ(window.banner()->text(), said);
    }
    EXPECT_FALSE(window.banner()->isError());
    ASSERT_TRUE(enable.open(QIODevice::ReadOnly));
    EXPECT_EQ(enable.readAll(), QByteArray("1\n"));
    enable.close();  // an open file keeps the instance busy: it could not be removed
    EXPECT_TRUE(window.traceWorkspace()->trace()->live);
    live->stop();
    EXPECT_FALSE(QFileInfo::exists(instance)) << "the capture left its tracefs instance behind";
}

// schedscope --buffer-kb 4: the private instance gets buffers of about a page per CPU, a fork
// storm overflows them, and the banner says how many events were lost and the size that
// keeps more, in the CLI's words.
TEST(LiveView, ASmallBufferLosesEventsAndTheBannerSaysTheSizeThatKeepsThem) {
    if (const std::string why = inProcessLiveUnavailable(); !why.empty()) {
        std::printf("[  SKIPPED ] %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    MainWindow window;
    ASSERT_TRUE(showThisMachine(window));
    LiveCapture* live = window.traceWorkspace()->live();
    live->setRateHz(10);
    LiveSourceConfig config = live->sourceConfig();
    config.bufferKb = 4;
    live->setSourceConfig(config);
    QSignalSpy warnings(live, &LiveCapture::warning);
    QSignalSpy failed(live, &LiveCapture::failed);
    window.traceWorkspace()->startLiveIfPermitted();
    QFile size(QStringLiteral("/sys/kernel/tracing/instances/schedscope-%1/buffer_size_kb").arg(getpid()));
    // The instance appears with the kernel's default size and is resized a moment later: read
    // until the capture has set it (or give up after 5 s and let the checks below say so).
    auto readKb = [&size]() -> int {
        if (!size.open(QIODevice::ReadOnly)) return -1;
        const int value = size.readAll().trimmed().toInt();
        size.close();  // an open file would keep the instance from being removed
        return value;
    };
    int kb = -1;
    for (int i = 0; i < 50 && failed.isEmpty(); ++i) {
        kb = readKb();
        if (kb > 0 && kb <= 8) break;
        QTest::qWait(100);
    }
    ASSERT_TRUE(failed.isEmpty()) << failed.front().at(0).toString().toStdString();
    ASSERT_GT(kb, 0) << qPrintable(size.fileName());
    EXPECT_GE(kb, 4);
    EXPECT_LE(kb, 8) << "a page or two, as asked";
    QProcess load;  // forks, execs and exits: thousands of sched events a second
    load.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("i=0; while [ $i -lt 1500 ]; do /bin/true; i=$((i+1)); done")});
    // the first loss warning: the storm may go on losing (and another capture of a parallel test
    // may switch an event off) after it, and each says so again
    auto lossWarning = [&warnings]() -> QString {
        for (const QList<QVariant>& w : warnings)
            if (w.at(0).toString().contains(QStringLiteral(" events lost"))) return w.at(0).toString();
        return {};
    };
    for (int i = 0; i < 200 && lossWarning().isEmpty() && failed.isEmpty(); ++i) QTest::qWait(100);
    load.waitForFinished(30'000);
    live->stop();
    EXPECT_FALSE(size.exists()) << "the capture left its tracefs instance behind";
    ASSERT_TRUE(failed.isEmpty()) << failed.front().at(0).toString().toStdString();
    const QString text = lossWarning();
    ASSERT_FALSE(text.isEmpty()) << "no loss reported with a 4 KB buffer under a fork storm";
    EXPECT_TRUE(text.contains(QStringLiteral(" events lost: the ring buffers (%1 KB per CPU)").arg(kb))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("--buffer-kb %1 keeps more").arg(kb * 4))) << text.toStdString();
    EXPECT_EQ(window.banner()->text(), warnings.back().at(0).toString()) << "the banner shows the newest warning";
    EXPECT_GT(window.traceWorkspace()->trace()->lostEvents, 0u);
}

TEST(LiveView, WithoutPermissionTheBannerOffersTheSampleTrace) {
    // What a user without root sees: the notice with one button that opens the sample trace.
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    window.banner()->showNotice(QStringLiteral("Live capture unavailable: test"), QStringLiteral("Open the sample trace"),
                                [&] { window.traceWorkspace()->openTrace(TraceWorkspace::sampleTracePath()); });
    QSignalSpy shown(window.traceWorkspace(), &TraceWorkspace::traceShown);
    ASSERT_FALSE(window.banner()->actionButton()->isHidden());
    QTest::mouseClick(window.banner()->actionButton(), Qt::LeftButton);
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.traceWorkspace()->trace()->path, TraceWorkspace::sampleTracePath());
}

// The real binary: `schedscope sample.dat --screenshot out.png --view timeline`.
TEST(BinaryTraceScreenshot, RendersTheTraceViews) {
    QTemporaryDir dir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    for (const char* view : {"timeline", "matrix"}) {
        const QString out = dir.filePath(QLatin1String(view) + QStringLiteral(".png"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY), {samplePath(), QStringLiteral("--screenshot"), out, QStringLiteral("--view"),
                                                       QLatin1String(view), QStringLiteral("--size"), QStringLiteral("1100x600")});
        ASSERT_TRUE(p.waitForFinished(120'000));
        EXPECT_EQ(p.exitCode(), 0) << view << ": " << p.readAllStandardError().toStdString();
        const QImage img(out);
        EXPECT_EQ(img.size(), QSize(1100, 600)) << view;
        EXPECT_GE(test::distinctColours(img), test::kManyColours) << view;
        test::keepShot(img, QStringLiteral("binary-") + QLatin1String(view));
    }
}

}  // namespace
}  // namespace schedscope::gui
