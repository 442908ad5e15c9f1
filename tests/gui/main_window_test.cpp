// The main window: loading off the GUI thread, failed loads keeping what is open, the domain
// toolbar rebuilding, and the views following one selection.
#include <gtest/gtest.h>

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QPlainTextEdit>
#include <QLabel>
#include <QTimer>
#include <QHelpEvent>
#include <QLineEdit>
#include <QMimeData>
#include <QToolTip>
#include <QUrl>
#include <hwloc.h>
#include <time.h>
#include <QFile>
#include <QTemporaryDir>
#include <QTreeView>

#include <QTest>

#include "banner.h"
#include "domain_controls.h"
#include "domain_tree_model.h"
#include "domain_tree_view.h"
#include "gui_test_util.h"
#include "launch_options.h"
#include "painted_text.h"
#include "support/fixtures.h"
#include "qt_convert.h"
#include "recent_files.h"
#include "topology_view.h"
#include "trace_loader.h"
#include "trace_workspace.h"
#include "whatif_panel.h"

namespace schedscope::gui {
namespace {

class MainWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        window.resize(1200, 800);
        window.show();
    }
    void openSynthetic() {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        window.open(test::syntheticSpec());
        ASSERT_TRUE(shown.wait(60'000)) << "the synthetic topology did not load";
        ASSERT_TRUE(window.session());
    }
    // opens a 2-socket QEMU guest's saved boot log, whose machine the loader builds under the
    // kernel that printed it (6.9), a profile it chose, not the user
    void openKernelLogReadAs69() {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        window.openPath(qs(schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt")));
        ASSERT_TRUE(shown.wait(60'000));
        ASSERT_EQ(window.session()->choices.profile, "linux-6.9");
    }
    void openTraceAndWait(const QString& trace) {
        QSignalSpy traceShown(window.traceWorkspace(), &TraceWorkspace::traceShown);
        window.openTraceFile(trace);
        ASSERT_TRUE(traceShown.wait(60'000)) << trace.toStdString() << " was not shown";
    }
    // opens tests/data/<relative> as `kind` and waits for it
    TopologySpec openData(TopologySpec::Kind kind, const std::string& relative) {
        QSignalSpy shown(&window, &MainWindow::sessionShown);
        TopologySpec spec;
        spec.kind = kind;
        spec.value = schedscope::test::dataPath(relative);
        window.open(spec);
        EXPECT_TRUE(shown.wait(60'000)) << relative << " did not load";
        return spec;
    }
    MainWindow window;
};

TEST_F(MainWindowTest, LoadsOnAWorkerAndShowsTheSession) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(test::syntheticSpec());
    // open() only queues the work: nothing has changed yet on return.
    EXPECT_FALSE(window.session());
    EXPECT_TRUE(window.loader()->busy());
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.session());
    EXPECT_EQ(window.session()->topology->onlineCount(), 64);
    EXPECT_EQ(window.domainModel()->rowCount(), 64);
    EXPECT_EQ(window.topologyView()->session(), window.session());
    EXPECT_TRUE(window.banner()->isHidden());
}

// A snapshot the loader repaired (hwloc's Altix XE320 dump: eight nodes list CPUs 0-7 with an
// all-10 distance table) opens from its tarball, as a file dropped on the window or given on the
// command line is, and the banner says what was set aside, apart from the warnings of building
// the domains.
TEST_F(MainWindowTest, InputProblemsSetAsideAreNamedInTheBanner) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.openPath(qs(schedscope::test::dataPath("topologies/sysfs/8em64t-2s2ca2c-buggynuma.tar.bz2")));
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.session());
    EXPECT_EQ(window.session()->topology->onlineCount(), 8);
    EXPECT_FALSE(window.banner()->isHidden());
    const QString text = window.banner()->text();
    EXPECT_TRUE(text.startsWith(QStringLiteral("2 input problem(s) set aside as the kernel would; first: node1, node2")))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("building the domains"))) << text.toStdString();
    // the nodes left without CPUs are counted as such
    EXPECT_TRUE(window.session()->title().endsWith(QStringLiteral("8 NUMA nodes (7 without CPUs)")))
        << window.session()->title().toStdString();
}

// A Granite Rapids with SNC-3 (the constructed fixture with the real SLIT) under the newest
// profile: the banner says how the kernel built its NUMA levels, not that something is broken.
TEST_F(MainWindowTest, TheKernelsSncFixUpIsANoteNotAProblem) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.openPath(qs(schedscope::test::dataPath("topologies/constructed/gnr-snc3-2s.xml")));
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.session());
    EXPECT_FALSE(window.banner()->isHidden());
    const QString text = window.banner()->text();
    EXPECT_TRUE(text.startsWith(QStringLiteral("the kernel: Fixing up SNC SLIT table"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("problem"))) << text.toStdString();
}

// A saved dmesg (a 6.1 guest's sched_verbose log, a .txt like a trace's text) opened as a file
// is: the machine its domains show, built under the kernel that printed it, and the banner
// says what the log could not tell rather than calling it a problem.
TEST_F(MainWindowTest, AKernelLogOpensAsTheMachineItShows) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.openPath(qs(schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt")));
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.session());
    EXPECT_EQ(window.session()->spec.kind, TopologySpec::Kind::KernelLog);
    EXPECT_EQ(window.session()->topology->onlineCount(), 16);
    EXPECT_EQ(window.session()->topology->nodes.size(), 4u);
    ASSERT_TRUE(window.session()->tree->profile);
    EXPECT_EQ(window.session()->tree->profile->name, "linux-6.9");  // the newest whose format a 6.1 log has
    EXPECT_EQ(window.session()->tree->levelNames(), (std::vector<std::string>{"SMT", "MC", "NUMA"}));
    const QString text = window.banner()->text();
    EXPECT_TRUE(text.startsWith(QStringLiteral("1 note(s) on the input; first: NUMA distances are ranks"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("problem"))) << text.toStdString();
}

// The profile a loader chose for its input (this machine's running kernel's, a kernel log's) is
// no pick of the user's: a trace opened over it builds its own machine under the kernel it was
// recorded on (a 6.1 guest's hackbench over a log read as 6.9). A profile the user picks in the
// box wins, even the one the loader had chosen.
TEST_F(MainWindowTest, ATraceOverAnInputsProfileBuildsUnderItsOwnKernel) {
    ASSERT_NO_FATAL_FAILURE(openKernelLogReadAs69());
    EXPECT_TRUE(window.domainControls()->choices().profileFromInput);
    const QString trace = qs(schedscope::test::dataPath("traces/qemu/x86-4c-linux-6.1-hackbench.dat"));
    ASSERT_NO_FATAL_FAILURE(openTraceAndWait(trace));
    ASSERT_EQ(window.session()->topology->onlineCount(), 4);
    ASSERT_TRUE(window.session()->tree->profile);
    EXPECT_EQ(window.session()->tree->profile->name, "linux-6.1");
    EXPECT_EQ(window.domainControls()->choices().profile, "linux-6.1");

    // the user picks 6.9, the box's entry the log's machine had been built under
    auto* box = window.domainControls()->findChild<QComboBox*>(QStringLiteral("profile"));
    ASSERT_NE(box, nullptr);
    QSignalSpy rebuilt(&window, &MainWindow::sessionShown);
    box->setCurrentIndex(box->findData(QStringLiteral("linux-6.9")));
    ASSERT_TRUE(rebuilt.wait(60'000));
    const DomainChoices picked = window.session()->choices;
    EXPECT_EQ(picked.profile, "linux-6.9");
    EXPECT_FALSE(picked.profileFromInput);
    const TraceLoadOutcome underPick = loadTraceSession(trace, window.session(), picked);
    ASSERT_TRUE(underPick.trace) << underPick.error.toStdString();
    ASSERT_TRUE(underPick.trace->topology->tree->profile);
    EXPECT_EQ(underPick.trace->topology->tree->profile->name, "linux-6.9");

    // the next machine opened gets its own kernel's (a preset: the newest) where the loader
    // chose, and the user's pick where the user picked
    for (const bool userPicked : {true, false}) {
        if (!userPicked) {
            QSignalSpy newest(&window, &MainWindow::sessionShown);
            box->setCurrentIndex(box->findData(qs(defaultProfile().name)));  // the user picks none
            ASSERT_TRUE(newest.wait(60'000));
            QSignalSpy log(&window, &MainWindow::sessionShown);
            window.openPath(qs(schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt")));
            ASSERT_TRUE(log.wait(60'000));
            ASSERT_TRUE(window.session()->choices.profileFromInput);
        }
        QSignalSpy preset(&window, &MainWindow::sessionShown);
        window.open(TopologySpec{TopologySpec::Kind::Preset, "kunpeng920-24"});
        ASSERT_TRUE(preset.wait(60'000));
        ASSERT_TRUE(window.session()->tree->profile);
        EXPECT_EQ(window.session()->tree->profile->name, userPicked ? "linux-6.9" : defaultProfile().name) << userPicked;
    }

    // the same for a trace without a sidecar, shown on a flat stand-in
    QTemporaryDir dir;
    const QString bare = dir.filePath(QStringLiteral("bare.dat"));
    ASSERT_TRUE(QFile::copy(trace, bare));
    DomainChoices fromInput = picked;
    fromInput.profileFromInput = true;
    for (const auto& [choices, expected] : {std::pair{fromInput, "linux-6.1"}, std::pair{picked, "linux-6.9"}}) {
        const TraceLoadOutcome flat = loadTraceSession(bare, nullptr, choices);
        ASSERT_TRUE(flat.trace) << flat.error.toStdString();
        EXPECT_TRUE(flat.trace->flatStandIn);
        ASSERT_TRUE(flat.trace->topology->tree->profile);
        EXPECT_EQ(flat.trace->topology->tree->profile->name, expected);
    }
}

// A trace that names no kernel (no uname in the file) builds its sidecar's machine under the
// newest profile, as trace stats and replay do, not under the profile the window's loader chose
// for the machine open before it (a kernel log's 6.9, or this machine's running kernel's).
TEST_F(MainWindowTest, ATraceThatNamesNoKernelBuildsItsMachineUnderTheNewest) {
    ASSERT_NO_FATAL_FAILURE(openKernelLogReadAs69());
    ASSERT_TRUE(window.domainControls()->choices().profileFromInput);
    const QString trace = qs(schedscope::test::dataPath("traces/record-v6.dat"));
    ASSERT_NO_FATAL_FAILURE(openTraceAndWait(trace));
    ASSERT_TRUE(window.traceWorkspace()->trace());
    ASSERT_TRUE(window.traceWorkspace()->trace()->data->store->kernelRelease().empty()) << "the fixture names its kernel";
    ASSERT_EQ(window.session()->topology->onlineCount(), 2);  // the sidecar's machine
    ASSERT_TRUE(window.session()->tree->profile);
    EXPECT_EQ(window.session()->tree->profile->name, defaultProfile().name);
    EXPECT_EQ(window.domainControls()->choices().profile, "");

    // a profile the user picked stays, as for a trace that names its kernel
    DomainChoices picked;
    picked.profile = "linux-6.1";
    const TraceLoadOutcome underPick = loadTraceSession(trace, nullptr, picked);
    ASSERT_TRUE(underPick.trace) << underPick.error.toStdString();
    ASSERT_TRUE(underPick.trace->topology->tree->profile);
    EXPECT_EQ(underPick.trace->topology->tree->profile->name, "linux-6.1");
}

// CPU time this thread has used, in ms: unlike wall time it does not count the time a busy
// shared machine keeps the thread off the CPU, only the work the GUI thread itself did.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

TEST_F(MainWindowTest, GuiThreadStaysResponsiveWhileLoadingALargeMachine) {
    // 512 CPUs: loading and building take about a second in a debug build, all of it on the
    // worker; the GUI thread only swaps the session in and paints. Between two ticks of a 5 ms
    // timer the GUI thread must never have worked for 100 ms or more.
    double last = threadCpuMs(), worstBusy = 0;
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double now = threadCpuMs();
        worstBusy = std::max(worstBusy, now - last);
        last = now;
    });
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    ticker.start();
    window.open(test::syntheticSpec("pack:2 numa:4 l3:4 core:8 pu:2"));
    ASSERT_TRUE(shown.wait(120'000));
    QTest::qWait(200);  // includes the first paint of the new session
    ticker.stop();
    EXPECT_EQ(window.session()->topology->onlineCount(), 512);
    RecordProperty("worst_gui_busy_ms", int(worstBusy));
    EXPECT_LT(worstBusy, 100.0) << "the GUI thread worked " << worstBusy << " ms without returning to the event loop";
}

TEST_F(MainWindowTest, BrokenXmlKeepsWhatIsOpenAndShowsTheError) {
    openSynthetic();
    const SessionPtr before = window.session();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.xml"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n  <object type=\"Machine\" os_index=\"0\"\n");
    f.close();

    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openPath(path);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.session(), before);
    EXPECT_EQ(window.domainModel()->rowCount(), 64);
    EXPECT_EQ(window.topologyView()->session(), before);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->isError());
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("broken.xml"))) << window.banner()->text().toStdString();
    EXPECT_FALSE(window.banner()->text().contains(QLatin1Char('\n')));

    // The next good load clears the error.
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(test::syntheticSpec("pack:1 l3:1 core:2 pu:2"));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.session()->topology->onlineCount(), 4);
    EXPECT_TRUE(window.banner()->isHidden());
}

// A failed open keeps the open machine and what the banner said of it: the error shows beside
// the notices of the snapshot that is still open (it replaced them), and the next machine's
// load leaves neither.
TEST_F(MainWindowTest, AFailedOpenKeepsTheOpenMachinesNotices) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.openPath(qs(schedscope::test::dataPath("topologies/sysfs/8em64t-2s2ca2c-buggynuma.tar.bz2")));
    ASSERT_TRUE(shown.wait(60'000));
    const SessionPtr before = window.session();
    const QString notice = window.banner()->notices(Banner::Topic::Topology);
    ASSERT_TRUE(notice.startsWith(QStringLiteral("2 input problem(s) set aside"))) << notice.toStdString();

    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openPath(QStringLiteral("/tmp/no-such-dir/broken.xml"));
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.session(), before);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->isError());
    EXPECT_TRUE(window.banner()->message().contains(QStringLiteral("broken.xml"))) << window.banner()->message().toStdString();
    EXPECT_TRUE(window.banner()->text().contains(notice)) << window.banner()->text().toStdString();

    window.open(test::syntheticSpec("pack:1 l3:1 core:2 pu:2"));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.banner()->isHidden()) << window.banner()->text().toStdString();
    EXPECT_TRUE(window.banner()->text().isEmpty()) << window.banner()->text().toStdString();
}

TEST_F(MainWindowTest, UnknownPresetKeepsWhatIsOpen) {
    openSynthetic();
    const SessionPtr before = window.session();
    TopologySpec spec;
    spec.kind = TopologySpec::Kind::Preset;
    spec.value = "no-such-machine";
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.open(spec);
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.session(), before);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("no-such-machine")));
}

TEST_F(MainWindowTest, MissingTraceFileKeepsTheTopologyAndShowsTheError) {
    openSynthetic();
    const SessionPtr before = window.session();
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openPath(QStringLiteral("/tmp/no-such-recording.dat"));
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_EQ(window.session(), before);
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("no-such-recording.dat"))) << window.banner()->text().toStdString();
}

TEST_F(MainWindowTest, OnlyTheNewestRequestIsDelivered) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(test::syntheticSpec());
    window.open(test::syntheticSpec("pack:1 l3:1 core:2 pu:2"));
    ASSERT_TRUE(test::waitIdle(window));
    EXPECT_EQ(shown.count(), 1);
    EXPECT_EQ(window.session()->topology->onlineCount(), 4);
}

TEST_F(MainWindowTest, ToolbarTogglesRebuildTheDomains) {
    openSynthetic();
    auto hasLevel = [&](const std::string& name) {
        for (const auto& d : window.session()->tree->domainsOf(0))
            if (d.level == name) return true;
        return false;
    };
    EXPECT_TRUE(hasLevel("NODE"));
    QCheckBox* node = nullptr;
    for (auto* box : window.domainControls()->findChildren<QCheckBox*>())
        if (box->text() == QStringLiteral("NODE")) node = box;
    ASSERT_NE(node, nullptr);
    const auto topologyBefore = window.session()->topology;
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    node->setChecked(false);
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_FALSE(hasLevel("NODE"));
    EXPECT_FALSE(window.session()->choices.node);
    EXPECT_EQ(window.session()->topology, topologyBefore);  // rebuilt, not reloaded
    EXPECT_EQ(window.domainModel()->rowCount(window.domainModel()->cpuIndex(0)), 3);

    // The profile picker: linux-6.1 names the package level DIE and the LLC flag differently.
    QComboBox* profile = nullptr;
    for (auto* combo : window.domainControls()->findChildren<QComboBox*>())
        if (combo->findData(QStringLiteral("linux-6.1")) >= 0) profile = combo;
    ASSERT_NE(profile, nullptr);
    profile->setCurrentIndex(profile->findData(QStringLiteral("linux-6.1")));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.session()->tree->profile->name, "linux-6.1");
    const QModelIndex mc = window.domainModel()->index(1, DomainTreeModel::FlagsColumn, window.domainModel()->cpuIndex(0));
    EXPECT_TRUE(mc.data().toString().contains(QStringLiteral("SHARE_PKG_RESOURCES"))) << mc.data().toString().toStdString();

    // a kernel between the named profiles (a trace from 6.11, a machine running it) gets its own
    // entry, named after its last change: the box shows what the domains are built under
    DomainChoices between = window.session()->choices;
    between.profile = "linux-6.11";
    window.domainControls()->setChoices(between);
    EXPECT_EQ(profile->currentText(), QStringLiteral("linux-6.10"));
    EXPECT_EQ(window.domainControls()->choices().profile, "linux-6.10");
    EXPECT_TRUE(profile->itemData(profile->currentIndex(), Qt::ToolTipRole).toString().contains(QStringLiteral("6.12")));
    // a stable kernel whose name is longer than every named profile's: the box grows to show it
    const int widthBefore = profile->sizeHint().width();
    between.profile = "linux-6.18.44";
    window.domainControls()->setChoices(between);
    EXPECT_EQ(profile->currentText(), QStringLiteral("linux-6.18.33"));
    EXPECT_GT(profile->sizeHint().width(), widthBefore) << "the box cuts off " << profile->currentText().toStdString();
    between.profile = "linux-6.1";
    window.domainControls()->setChoices(between);
    EXPECT_EQ(window.domainControls()->choices().profile, "linux-6.1");
}

// This machine opens under its own kernel's profile (6.18.44 here: linux-6.18.33, not the
// newest), and the profile box says so: a rebuild from the box keeps it.
TEST_F(MainWindowTest, ThisMachineShowsItsKernelsProfile) {
    const KernelProfile* running = runningKernelProfile();
    if (!running) GTEST_SKIP() << "the running kernel's release does not name a version";
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    TopologySpec local;
    local.kind = TopologySpec::Kind::Local;
    window.open(local);
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.session() && window.session()->tree);
    const KernelProfile& built = window.session()->tree->profile ? *window.session()->tree->profile : defaultProfile();
    EXPECT_EQ(built.name, running->name);
    const std::string shownProfile = window.domainControls()->choices().profile;
    EXPECT_EQ(shownProfile.empty() ? defaultProfile().name : shownProfile, running->name);
}

// A level the loaded arch or kernel never builds greys its box out, with the reason, and the
// box comes back as it was under a kernel that builds it.
TEST_F(MainWindowTest, TheClsBoxIsGreyWhereNoKernelBuildsTheLevel) {
    QCheckBox* cls = nullptr;
    for (auto* box : window.domainControls()->findChildren<QCheckBox*>())
        if (box->text() == QStringLiteral("CLS")) cls = box;
    ASSERT_NE(cls, nullptr);
    openSynthetic();
    EXPECT_TRUE(cls->isEnabled());
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    DomainChoices old = window.session()->choices;
    old.profile = "linux-5.15";
    window.domainControls()->setChoices(old);
    emit window.domainControls()->choicesChanged(window.domainControls()->choices());
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_FALSE(cls->isEnabled());
    EXPECT_TRUE(cls->isChecked()) << "the choice is kept for the next kernel";
    EXPECT_TRUE(cls->toolTip().contains(QStringLiteral("linux-5.15"))) << cls->toolTip().toStdString();

    TopologySpec power9 = test::syntheticSpec("numa:2 l2:10 core:2 pu:4");
    power9.arch = Arch::Ppc64;
    window.open(power9);
    ASSERT_TRUE(test::waitIdle(window));
    ASSERT_EQ(window.session()->tree->arch, Arch::Ppc64);
    EXPECT_FALSE(cls->isEnabled());
    EXPECT_TRUE(cls->toolTip().contains(QStringLiteral("ppc64"))) << cls->toolTip().toStdString();
}

TEST_F(MainWindowTest, SelectionFollowsBetweenViews) {
    openSynthetic();
    const auto& doms = window.session()->tree->domainsOf(37);
    ASSERT_GE(doms.size(), 2u);
    const int mcLevel = doms[1].topologyLevel;
    window.topologyView()->setSelection(37, mcLevel);
    const QModelIndex current = window.domainTreeView()->currentIndex();
    EXPECT_EQ(current.data(DomainTreeModel::CpuRole).toInt(), 37);
    EXPECT_EQ(current.data(DomainTreeModel::TopologyLevelRole).toInt(), mcLevel);
    ASSERT_NE(window.topologyView()->selectedDomain(), nullptr);
    EXPECT_EQ(window.topologyView()->selectedDomain()->span.toList(), "32-39");

    // Picking a row in the tree moves the topology view.
    const QModelIndex numa = window.domainModel()->domainIndex(5, doms.back().topologyLevel);
    window.domainTreeView()->setCurrentIndex(numa);
    EXPECT_EQ(window.topologyView()->selectedCpu(), 5);
    EXPECT_EQ(window.topologyView()->selectedLevel(), doms.back().topologyLevel);
}

// An hwloc XML export written with hwloc itself, as `lstopo --of xml` would.
QString writeHwlocXml(const QString& path, const char* synthetic) {
    hwloc_topology_t topo;
    hwloc_topology_init(&topo);
    hwloc_topology_set_synthetic(topo, synthetic);
    hwloc_topology_load(topo);
    const int rc = hwloc_topology_export_xml(topo, path.toLocal8Bit().constData(), 0);
    hwloc_topology_destroy(topo);
    return rc == 0 ? path : QString();
}

void drop(QWidget& target, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&target, &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent dropEvent(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&target, &dropEvent);
}

TEST_F(MainWindowTest, DroppedHwlocXmlOpensAndIsRemembered) {
    RecentFiles::clear();
    QTemporaryDir dir;
    const QString xml = writeHwlocXml(dir.filePath(QStringLiteral("dropped.xml")), "pack:1 l3:2 core:2 pu:2");
    ASSERT_FALSE(xml.isEmpty());
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    drop(window, xml);
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.session()->topology->onlineCount(), 8);
    EXPECT_EQ(window.session()->spec.kind, TopologySpec::Kind::HwlocXml);
    ASSERT_FALSE(RecentFiles::list().isEmpty());
    EXPECT_EQ(RecentFiles::list().front(), QFileInfo(xml).absoluteFilePath());

    // A dropped file that is not a trace fails on the trace path and keeps the topology.
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    drop(window, dir.filePath(QStringLiteral("sched.dat")));
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("sched.dat"))) << window.banner()->text().toStdString();
    EXPECT_EQ(window.session()->topology->onlineCount(), 8);

    // A dropped trace opens (with its sidecar topology) and is remembered too.
    QSignalSpy traceShown(window.traceWorkspace(), &TraceWorkspace::traceShown);
    drop(window, TraceWorkspace::sampleTracePath());
    ASSERT_TRUE(traceShown.wait(60'000));
    EXPECT_EQ(window.session()->topology->onlineCount(), 2);
    EXPECT_EQ(RecentFiles::list().front(), QFileInfo(TraceWorkspace::sampleTracePath()).absoluteFilePath());
    // and the what-if panel offers its tasks as a workload
    EXPECT_TRUE(window.whatIfPanel()->traceWorkloadText().contains(QFileInfo(TraceWorkspace::sampleTracePath()).fileName()))
        << window.whatIfPanel()->traceWorkloadText().toStdString();
}

// Scans the topology view for a CPU's box, as a user's mouse would, and returns its tooltip.
QString cpuTooltip(TopologyView* view, int cpu) {
    QHelpEvent probe(QEvent::ToolTip, QPoint(0, 0), view->mapToGlobal(QPoint(0, 0)));
    QCoreApplication::sendEvent(view, &probe);  // lays the widget out
    const QString prefix = QStringLiteral("CPU %1:").arg(cpu);
    for (int y = 0; y < view->height(); y += 4) {
        for (int x = 0; x < view->width(); x += 4) {
            QHelpEvent e(QEvent::ToolTip, QPoint(x, y), view->mapToGlobal(QPoint(x, y)));
            QCoreApplication::sendEvent(view, &e);
            if (QToolTip::text().startsWith(prefix)) return QToolTip::text();
        }
    }
    return {};
}

TEST_F(MainWindowTest, CpuTooltipGivesMasksFlagsAndBalanceParameters) {
    openSynthetic();
    TopologyView* view = window.topologyView();
    ASSERT_TRUE(view->isVisible());
    const QString text = cpuTooltip(view, 9);
    ASSERT_FALSE(text.isEmpty()) << "no tooltip for CPU 9";
    EXPECT_TRUE(text.contains(QStringLiteral("SMT siblings 8-9"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("MC: span 8-15"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("imbalance_pct 117"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("SD_SHARE_LLC"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("NUMA (distance 20)"))) << text.toStdString();
}

// A hybrid laptop (Arrow Lake): each CPU says its kind, and the domains carry ITMT's asym packing.
TEST_F(MainWindowTest, AHybridCpusKindsAndAsymPackingAreShown) {
    openData(TopologySpec::Kind::HwlocXml, "topologies/xml/Intel-ArrowLake-CoreUltra5-225U.xml");
    ASSERT_TRUE(window.session());
    EXPECT_TRUE(cpuTooltip(window.topologyView(), 0).contains(QStringLiteral("kind IntelCore")));
    const QString eCore = cpuTooltip(window.topologyView(), 4);
    EXPECT_TRUE(eCore.contains(QStringLiteral("kind IntelAtom"))) << eCore.toStdString();
    EXPECT_TRUE(eCore.contains(QStringLiteral("SD_ASYM_PACKING"))) << eCore.toStdString();
    // the flags column leads with what differs: the E-core cluster's own flags first
    const QModelIndex cls = window.domainModel()->index(0, DomainTreeModel::FlagsColumn, window.domainModel()->cpuIndex(4));
    EXPECT_TRUE(cls.data().toString().startsWith(QStringLiteral("CLUSTER SHARE_LLC ASYM_PACKING")))
        << cls.data().toString().toStdString();
}

// A snapshot with cpuset root partitions (a real 6.1 guest's, tests/data/oracle): the status line
// lists the root domains, and a CPU's tooltip names its own.
TEST_F(MainWindowTest, CpusetPartitionsAreNamedInTheStatusAndTooltips) {
    openData(TopologySpec::Kind::SysfsRoot, "oracle/x86-2s4n4c2t-root-8-15-and-root-0-1/sysfs.tar.xz");
    ASSERT_TRUE(window.session());
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("root domains (cpuset partitions): 2-7 | 0-1 | 8-15")))
        << window.statusText().toStdString();
    const QString text = cpuTooltip(window.topologyView(), 4);
    EXPECT_TRUE(text.contains(QStringLiteral("root domain 2-7"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("NUMA (distance 12): span 2-7"))) << text.toStdString();
}

// Isolated CPUs (--isolate, isolcpus=domain): the domain tree lists them, saying why they have
// no domains, and the selection line says it too instead of a degenerate level.
TEST_F(MainWindowTest, IsolatedCpusAreListedAndSaidSo) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    TopologySpec spec;
    spec.kind = TopologySpec::Kind::Preset;
    spec.value = "laptop-i7-1370p";
    spec.isolate = *CpuSet::parseList("0-3");
    window.open(spec);
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.session() && window.session()->tree);
    DomainTreeModel* model = window.domainModel();
    const QModelIndex cpu2 = model->cpuIndex(2);
    ASSERT_TRUE(cpu2.isValid());
    EXPECT_EQ(model->rowCount(cpu2), 0);
    EXPECT_TRUE(model->index(cpu2.row(), DomainTreeModel::FlagsColumn).data().toString().startsWith(
        QStringLiteral("isolated: no sched domains")));
    EXPECT_EQ(model->rowCount(), 20);  // every CPU, the isolated ones too
    window.topologyView()->setSelection(2, window.topologyView()->selectedLevel());
    EXPECT_TRUE(window.topologyView()->selectionText().startsWith(QStringLiteral("CPU 2: isolated, no sched domains")))
        << window.topologyView()->selectionText().toStdString();
    window.topologyView()->setSelection(5, window.session()->tree->domainsOf(5).front().topologyLevel);
    EXPECT_TRUE(window.topologyView()->selectionText().startsWith(QStringLiteral("CPU 5 \u00b7 "))) << window.topologyView()->selectionText().toStdString();
}

// The toolbar's what-if cpusets: typed partitions rebuild the domains apart; a set-up the machine
// cannot have (overlapping partitions) is one line in the banner and the open domains stay; a
// topology opened next starts from its own cpusets.
TEST_F(MainWindowTest, TypedCpusetsRebuildTheDomainsAndBadOnesKeepWhatIsOpen) {
    const TopologySpec spec = openData(TopologySpec::Kind::SysfsRoot, "oracle/x86-2s4n4c2t/sysfs.tar.xz");
    ASSERT_TRUE(window.session());
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    EXPECT_FALSE(window.statusText().contains(QStringLiteral("root domains"))) << window.statusText().toStdString();
    auto* partitions = window.domainControls()->findChild<QLineEdit*>(QStringLiteral("partitions"));
    auto* isolate = window.domainControls()->findChild<QLineEdit*>(QStringLiteral("isolate"));
    ASSERT_TRUE(partitions && isolate);
    auto type = [](QLineEdit* edit, const QString& text) {
        edit->setText(text);
        edit->setModified(true);
        emit edit->editingFinished();
    };
    type(partitions, QStringLiteral("8-15; 0-1"));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("root domains (cpuset partitions): 2-7 | 8-15 | 0-1")))
        << window.statusText().toStdString();
    EXPECT_EQ(window.session()->tree->domainsOf(0).size(), 1u);  // SMT 0-1: all its partition holds
    type(isolate, QStringLiteral("2-3"));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(window.session()->tree->isolated.toList(), "2-3");
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("4-7 | 8-15 | 0-1"))) << window.statusText().toStdString();

    QSignalSpy failed(&window, &MainWindow::loadFailed);
    type(partitions, QStringLiteral("0-7; 4-11"));
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("partition 4-11 overlaps another partition")))
        << window.banner()->text().toStdString();
    EXPECT_EQ(window.session()->tree->rootDomains.size(), 3u);  // what was open stays

    window.open(spec);
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.session()->tree->rootDomains.empty());
    EXPECT_TRUE(window.session()->tree->isolated.empty());
    EXPECT_TRUE(partitions->text().isEmpty());
}

// --isolate and --partition fill the toolbar's fields: the user sees the cpusets in effect, and
// clearing a field undoes it (they used to go into the input, with the fields left empty).
TEST_F(MainWindowTest, LaunchCpusetsShowInTheToolbarAndCanBeUndone) {
    const LaunchOptions o = parseLaunchOptions({QStringLiteral("schedscope"), QStringLiteral("--preset"),
                                                QStringLiteral("xeon6140-2s"), QStringLiteral("--isolate"), QStringLiteral("2-3"),
                                                QStringLiteral("--partition"), QStringLiteral("0-17"), QStringLiteral("--partition"),
                                                QStringLiteral("18-35")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.start(o);
    ASSERT_TRUE(shown.wait(60'000));
    auto* partitions = window.domainControls()->findChild<QLineEdit*>(QStringLiteral("partitions"));
    auto* isolate = window.domainControls()->findChild<QLineEdit*>(QStringLiteral("isolate"));
    ASSERT_TRUE(partitions && isolate);
    EXPECT_EQ(isolate->text(), QStringLiteral("2-3"));
    EXPECT_EQ(partitions->text(), QStringLiteral("0-17; 18-35"));
    EXPECT_EQ(window.session()->tree->isolated.toList(), "2-3");
    EXPECT_EQ(window.session()->tree->rootDomains.size(), 3u);  // the rest of the machine, and the two

    isolate->clear();
    isolate->setModified(true);
    emit isolate->editingFinished();
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.session()->tree->isolated.empty());
    partitions->clear();
    partitions->setModified(true);
    emit partitions->editingFinished();
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.session()->tree->rootDomains.empty());
}

// The toolbar's distance table: a typed table rebuilds the NUMA levels (two sockets of two
// nodes made one distance everywhere: one NUMA level), a table of the wrong size is one line in
// the banner with the open domains kept, clearing the field undoes it; --numa-distances at
// launch fills the field.
TEST_F(MainWindowTest, TypedDistancesRebuildTheNumaLevels) {
    openData(TopologySpec::Kind::SysfsRoot, "oracle/x86-2s4n4c2t/sysfs.tar.xz");
    ASSERT_TRUE(window.session());
    auto numaLevels = [this] {
        const auto& domains = window.session()->tree->domainsOf(0);
        return std::count_if(domains.begin(), domains.end(), [](const SchedDomain& d) { return d.level == "NUMA"; });
    };
    ASSERT_EQ(numaLevels(), 2) << "distances 12 and 20 as the snapshot has them";
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    auto* distances = window.domainControls()->findChild<QLineEdit*>(QStringLiteral("distances"));
    ASSERT_TRUE(distances);
    auto type = [distances](const QString& text) {
        distances->setText(text);
        distances->setModified(true);
        emit distances->editingFinished();
    };
    type(QStringLiteral("10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10"));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(numaLevels(), 1);
    EXPECT_EQ(window.session()->topology->nodeDistance(0, 1), 20);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("NUMA distances from --numa-distances")))
        << window.banner()->text().toStdString();

    QSignalSpy failed(&window, &MainWindow::loadFailed);
    type(QStringLiteral("10,20;20,10"));
    ASSERT_TRUE(failed.wait(60'000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("2 rows for 4 NUMA node(s) (0,1,2,3)")))
        << window.banner()->text().toStdString();
    EXPECT_EQ(numaLevels(), 1) << "what was open stays";

    type(QString());
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(numaLevels(), 2);

    const LaunchOptions o = parseLaunchOptions({QStringLiteral("schedscope"), QStringLiteral("--preset"), QStringLiteral("kunpeng920-32"),
                                                QStringLiteral("--numa-distances"),
                                                QStringLiteral("10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10")});
    ASSERT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    window.start(o);
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_EQ(distances->text(), QStringLiteral("10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10"));
    EXPECT_EQ(numaLevels(), 1) << "Kunpeng 920's three NUMA levels made one";
}

TEST_F(MainWindowTest, KernelDiffExplainsWhyItIsUnavailableForOtherMachines) {
    openSynthetic();
    window.diffAgainstKernel();
    EXPECT_FALSE(window.banner()->isHidden());
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("not this machine"))) << window.banner()->text().toStdString();
    EXPECT_TRUE(window.session());
}

TEST_F(MainWindowTest, KernelDiffOnThisMachineShowsTheDifferencesOrWhyNot) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(TopologySpec{});  // this machine
    ASSERT_TRUE(shown.wait(60'000));
    window.diffAgainstKernel();
    // Reading debugfs runs on a worker: either a dialog with the differences appears, or the
    // banner says in one line why the kernel's domains cannot be read (not root, no debugfs...).
    QDialog* dialog = nullptr;
    for (int i = 0; i < 600 && !dialog && window.banner()->isHidden(); ++i) {
        QTest::qWait(50);
        dialog = window.findChild<QDialog*>();
    }
    if (dialog) {
        EXPECT_TRUE(dialog->isVisible());
    } else {
        ASSERT_FALSE(window.banner()->isHidden());
        EXPECT_TRUE(window.banner()->text().startsWith(QStringLiteral("Diff against the running kernel is unavailable: ")))
            << window.banner()->text().toStdString();
        EXPECT_FALSE(window.banner()->text().contains(QLatin1Char('\n')));
    }
}

// the dialog a diff opens, once its worker is done (nullptr when the banner said why not)
QPlainTextEdit* waitForDiff(MainWindow& window) {
    for (int i = 0; i < 600 && window.banner()->isHidden(); ++i) {
        if (auto* dialog = window.findChild<QDialog*>())
            if (auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("differences"))) return text;
        QTest::qWait(50);
    }
    return nullptr;
}

// Another machine's domains from its saved dmesg: the real 6.1 kernel's log of a cpuset
// partition is what the window builds for that machine's snapshot, and the same machine's boot
// log (before the partition) is not; an unreadable log leaves what is open and says why.
TEST_F(MainWindowTest, KernelLogDiffComparesTheOpenTopologyWithTheLog) {
    openData(TopologySpec::Kind::SysfsRoot, "oracle/x86-2s4n4c2t-root-4-7-12-15/sysfs.tar.xz");
    ASSERT_TRUE(window.session());
    window.diffAgainstKernelLog(qs(schedscope::test::dataPath("oracle/x86-2s4n4c2t-root-4-7-12-15/kernel-log.txt")));
    QPlainTextEdit* same = waitForDiff(window);
    ASSERT_NE(same, nullptr) << window.banner()->text().toStdString();
    EXPECT_TRUE(same->toPlainText().startsWith(QStringLiteral("Identical: the builder matches the kernel log kernel-log.txt")))
        << same->toPlainText().toStdString();
    same->window()->close();
    QTest::qWait(10);

    window.diffAgainstKernelLog(qs(schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt")));
    QPlainTextEdit* other = waitForDiff(window);
    ASSERT_NE(other, nullptr) << window.banner()->text().toStdString();
    EXPECT_TRUE(other->toPlainText().contains(QStringLiteral("cpu4: levels differ"))) << other->toPlainText().toStdString();
    other->window()->close();
    QTest::qWait(10);

    const SessionPtr before = window.session();
    window.diffAgainstKernelLog(QStringLiteral("/nonexistent/dmesg.txt"));
    EXPECT_EQ(waitForDiff(window), nullptr);
    EXPECT_EQ(window.banner()->text().toStdString(),
              "Diff against the kernel log dmesg.txt is unavailable: /nonexistent/dmesg.txt: cannot open kernel log "
              "(No such file or directory)");
    EXPECT_EQ(window.session(), before);
}

// A 6.12 boot log whose CPU 0 lost some capacity to interrupts while the domains were built:
// no difference, and the dialog says why the capacities in the log are lower.
TEST_F(MainWindowTest, KernelLogDiffNotesInterruptTimeInTheLogsCapacities) {
    openData(TopologySpec::Kind::SysfsRoot, "oracle/linux-6.12-x86-snc2-2s4c2t/sysfs.tar.xz");
    ASSERT_TRUE(window.session());
    window.diffAgainstKernelLog(qs(schedscope::test::dataPath("oracle/linux-6.12-x86-snc2-2s4c2t/kernel-log.txt")));
    QPlainTextEdit* same = waitForDiff(window);
    ASSERT_NE(same, nullptr) << window.banner()->text().toStdString();
    EXPECT_TRUE(same->toPlainText().startsWith(QStringLiteral("Identical: "))) << same->toPlainText().toStdString();
    auto* notes = same->window()->findChild<QLabel*>(QStringLiteral("diffNotes"));
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->text().contains(QStringLiteral("CPU 0 at 1010 of 1024"))) << notes->text().toStdString();
    same->window()->close();
    QTest::qWait(10);
}

// The groups of an overlapping NUMA domain share CPUs (on this 4-package AMD CPU 63's NUMA
// domain at distance 22 has G0 24-63 and G1 0-23,32-39,48-55): a shared CPU shows both
// groups' outlines, not only the last one drawn.
TEST_F(MainWindowTest, OverlappingGroupsAreEachOutlined) {
    openData(TopologySpec::Kind::HwlocXml, "topologies/xml/64amd64-4p2n4ca2co.xml");
    ASSERT_TRUE(window.session());
    const SchedDomain* numa = nullptr;
    for (const auto& d : window.session()->tree->domainsOf(63))
        if (d.groups.size() == 2 && d.groups[0].span.intersects(d.groups[1].span)) numa = &d;
    ASSERT_NE(numa, nullptr) << "no domain of CPU 63 with overlapping groups";
    ASSERT_TRUE(numa->groups[0].span.test(32) && numa->groups[1].span.test(32));
    TopologyView* view = window.topologyView();
    view->setSelection(63, numa->topologyLevel);
    const QSize size(1280, 800);
    test::TextRecorder recorder(size);
    {
        QPainter p(&recorder);
        view->paintTo(p, QRectF(QPointF(0, 0), size));
    }
    const auto label = std::find_if(recorder.texts().begin(), recorder.texts().end(),
                                    [](const test::PaintedText& t) { return t.text == QStringLiteral("CPU 32"); });
    ASSERT_NE(label, recorder.texts().end());
    QImage image(size, QImage::Format_RGB32);
    {
        QPainter p(&image);
        view->paintTo(p, QRectF(QPointF(0, 0), size));
    }
    test::keepShot(image, QStringLiteral("overlapping-groups"));
    // Along the row through the label, from the package's edge to the label (CPU 32 is the first
    // in its row, so nothing else is outlined there): G0's blue and G1's red.
    auto near = [](QRgb px, QRgb want) {
        return std::abs(qRed(px) - qRed(want)) < 40 && std::abs(qGreen(px) - qGreen(want)) < 40 &&
               std::abs(qBlue(px) - qBlue(want)) < 40;
    };
    const int y = int(label->at.y()) - QFontMetrics(label->font).ascent() / 2;
    bool blue = false, red = false;
    for (int x = std::max(0, int(label->at.x()) - 80); x < int(label->at.x()); ++x) {
        blue = blue || near(image.pixel(x, y), qRgb(0x1f, 0x5f, 0xb4));
        red = red || near(image.pixel(x, y), qRgb(0xc6, 0x28, 0x28));
    }
    EXPECT_TRUE(blue) << "CPU 32 is in G0 but not outlined as G0";
    EXPECT_TRUE(red) << "CPU 32 is in G1 but not outlined as G1";
}

// A narrow window squeezes the toolbar to its widgets' minimum sizes: the profile box keeps its
// widest entry whole ("linux-6.18.33" showed as "linux-6.18.3", another version) or goes behind
// the extension button, even for an entry added after the box was first shown.
TEST(DomainControlsTest, TheProfileBoxShowsItsWidestEntryWhole) {
    DomainControls bar;
    bar.show();
    QTest::qWait(0);
    DomainChoices c;
    c.profile = "linux-6.18.33";
    bar.setChoices(c);
    auto* box = bar.findChild<QComboBox*>(QStringLiteral("profile"));
    ASSERT_NE(box, nullptr);
    ASSERT_EQ(box->currentText(), QStringLiteral("linux-6.18.33"));
    EXPECT_GE(std::max(box->minimumWidth(), box->minimumSizeHint().width()), box->sizeHint().width());
    bar.resize(bar.sizeHint().width() * 2 / 3, bar.sizeHint().height());
    QTest::qWait(0);
    if (box->isVisible()) {
        EXPECT_GE(box->width(), box->sizeHint().width());
    }
}

TEST_F(MainWindowTest, HeatColoursTheCpus) {
    openSynthetic();
    window.topologyView()->setSelection(0, window.session()->tree->domainsOf(0).front().topologyLevel);
    window.setHeat(MainWindow::Heat::MigrationLevel);
    const auto& heat = window.topologyView()->heat();
    ASSERT_EQ(heat.size(), 64u);
    EXPECT_EQ(heat[0], 0.0);   // itself
    EXPECT_EQ(heat[1], 1.0);   // SMT sibling: the first level
    EXPECT_EQ(heat[2], 2.0);   // same LLC: MC
    EXPECT_EQ(heat[63], 4.0);  // other package: the NUMA level
    test::keepShot(window.renderView(QStringLiteral("topology"), QSize(900, 600)), QStringLiteral("heat-migration-level"));
    window.setHeat(MainWindow::Heat::None);
    EXPECT_TRUE(window.topologyView()->heat().empty());
}

}  // namespace
}  // namespace schedscope::gui
