// GUI live mode through schedscope-capture: (1) forced helper mode as root, the helper spawned
// on a pipe, its records reaching the same views as in-process capture, and a banner when the
// helper exits; (2) the GUI as an unprivileged user (nobody, through setpriv) attached to a
// helper started "with sudo" on a socket, plus the banners for pkexec missing or dismissed.
// (2) runs the LiveHelperAsUser.* tests of this binary in a child as nobody; they skip when
// not started that way. Needs BPF and root: skipped with the reason otherwise.
#include <gtest/gtest.h>

#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QPushButton>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "banner.h"
#include "bpf_source.h"
#include "gui_test_util.h"
#include "live_capture.h"
#include "process_caps.h"
#include "qt_convert.h"
#include "task_table_model.h"
#include "trace_workspace.h"

namespace schedscope::gui {
namespace {

constexpr uid_t kNobody = 65534;

#define SKIP_BECAUSE(why)                                               \
    do {                                                                \
        const std::string reason_ = (why);                              \
        std::printf("[  SKIPPED ] %s\n", reason_.c_str());              \
        GTEST_SKIP() << reason_;                                        \
    } while (0)

// Opens this machine's topology in the window.
bool openLocal(MainWindow& window) {
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(TopologySpec{});
    return shown.wait(60'000);
}

// Some scheduling to see: a shell that sleeps and wakes.
void startLoad(QProcess& load) {
    load.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("for i in $(seq 60); do sleep 0.02; done")});
}

// Starts live capture and waits for `want` snapshots (or a failure); returns the failure text.
QString runLive(MainWindow& window, int want, QSignalSpy& snapshots) {
    LiveCapture* live = window.traceWorkspace()->live();
    QSignalSpy failed(live, &LiveCapture::failed);
    window.traceWorkspace()->startLiveIfPermitted();
    QProcess load;
    startLoad(load);
    for (int i = 0; i < 150 && snapshots.size() < want && failed.isEmpty(); ++i) QTest::qWait(100);
    load.waitForFinished(10'000);
    return failed.isEmpty() ? QString() : failed.front().at(0).toString();
}

// The views got events: a live trace with events, tasks in the table, a painted timeline.
void expectViewsFed(MainWindow& window, const QString& sourceWord) {
    const TraceSessionPtr t = window.traceWorkspace()->trace();
    ASSERT_TRUE(t && t->live && t->data);
    EXPECT_TRUE(t->name.contains(sourceWord)) << t->name.toStdString();
    EXPECT_GT(t->data->store->size(), 0u);
    EXPECT_GT(t->data->store->count(tracing::EventKind::Switch), 0u);
    EXPECT_GT(window.traceWorkspace()->taskModel()->rowCount(), 0);
    const QImage img = window.renderView(QStringLiteral("timeline"), QSize(1000, 400));
    EXPECT_GE(test::distinctColours(img), 20);
}

// Children of this process whose name starts with `comm` (the kernel keeps 15 characters).
std::vector<pid_t> childrenNamed(const std::string& comm) {
    std::vector<pid_t> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(e.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto open = line.find('('), close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos) continue;
        int ppid = 0;
        char state = 0;
        if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) != 2) continue;
        if (ppid == getpid() && line.compare(open + 1, comm.size(), comm) == 0) out.push_back(std::stoi(name));
    }
    return out;
}

}  // namespace

TEST(LiveHelper, ForcedHelperModeFeedsTheViewsAndReportsTheHelperExit) {
    if (auto why = tracing::BpfSource::unavailableReason(); !why.empty()) SKIP_BECAUSE("BPF capture unavailable: " + why);
    qputenv("SCHEDSCOPE_CAPTURE", SCHEDSCOPE_CAPTURE_BINARY);
    MainWindow window;
    window.resize(1100, 700);
    window.show();
    ASSERT_TRUE(openLocal(window));
    LiveCapture* live = window.traceWorkspace()->live();
    live->setRateHz(10);
    live->setWindowSec(5);
    LiveSourceConfig config;
    config.forceHelper = true;
    config.bufferKb = 4096;  // schedscope --buffer-kb 4096: the helper's one ring holds as much
    live->setSourceConfig(config);
    ASSERT_EQ(live->sourceKind(), LiveSourceKind::Helper);
    ASSERT_TRUE(live->unavailableReason().isEmpty()) << live->unavailableReason().toStdString();
    QSignalSpy snapshots(live, &LiveCapture::snapshot);
    const QString failure = runLive(window, 3, snapshots);
    ASSERT_TRUE(failure.isEmpty()) << failure.toStdString();
    ASSERT_GE(snapshots.size(), 2) << "no live snapshots through the helper within 15 s";
    expectViewsFed(window, QStringLiteral("schedscope-capture"));

    // The helper goes away (here: SIGTERM; it sends its End frame): a banner says so.
    const auto helpers = childrenNamed("schedscope-capt");
    ASSERT_EQ(helpers.size(), 1u);
    {
        std::ifstream cmdline("/proc/" + std::to_string(helpers.front()) + "/cmdline");
        std::string argv((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
        const std::string ring = std::string("--ring-mb") + '\0' + std::to_string(helperRingMbFor(4096, std::thread::hardware_concurrency())) + '\0';
        EXPECT_NE(argv.find(ring), std::string::npos) << "the helper was not given the ring size";
    }
    QSignalSpy failed(live, &LiveCapture::failed);
    kill(helpers.front(), SIGTERM);
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("capture helper exited"))) << window.banner()->text().toStdString();
    for (int i = 0; i < 100 && live->running(); ++i) QTest::qWait(10);
    EXPECT_FALSE(live->running());
    live->stop();
    EXPECT_TRUE(childrenNamed("schedscope-capt").empty()) << "the helper was not reaped";
}

TEST(LiveHelper, UnprivilegedGuiShowsLiveDataFromASudoHelper) {
    if (auto why = tracing::BpfSource::unavailableReason(); !why.empty()) SKIP_BECAUSE("BPF capture unavailable: " + why);
    if (geteuid() != 0) SKIP_BECAUSE("needs root to start the helper as sudo would and the GUI as nobody");
    if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty()) SKIP_BECAUSE("setpriv (util-linux) is not installed");
    if (!getpwuid(kNobody)) SKIP_BECAUSE("no user 'nobody' (uid 65534)");
    // Everything the unprivileged GUI touches lives in a directory it owns.
    char tmpl[] = "/tmp/schedscope-gui-user-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    const QString dir = QString::fromLocal8Bit(tmpl);
    for (const char* sub : {"", "/runtime", "/config", "/cache"}) {
        const QByteArray p = (dir + QLatin1String(sub)).toLocal8Bit();
        mkdir(p.constData(), 0700);
        ASSERT_EQ(chown(p.constData(), kNobody, kNobody), 0);
    }
    const QString sock = dir + QStringLiteral("/capture.sock");
    // The denied-pkexec stand-in: what pkexec does when the dialog is dismissed.
    const QString fakePkexec = dir + QStringLiteral("/pkexec-dismissed");
    {
        QFile f(fakePkexec);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nexit 126\n");
    }
    ASSERT_EQ(chmod(fakePkexec.toLocal8Bit().constData(), 0755), 0);

    // `sudo schedscope-capture --socket PATH`, as user nobody would run it.
    QProcess helper;
    QProcessEnvironment helperEnv = QProcessEnvironment::systemEnvironment();
    helperEnv.insert(QStringLiteral("SUDO_UID"), QString::number(kNobody));
    helperEnv.insert(QStringLiteral("SUDO_GID"), QString::number(kNobody));
    helper.setProcessEnvironment(helperEnv);
    helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    helper.start(QStringLiteral(SCHEDSCOPE_CAPTURE_BINARY), {QStringLiteral("--socket"), sock, QStringLiteral("--duration"), QStringLiteral("120")});
    ASSERT_TRUE(helper.waitForStarted(5000));
    for (int i = 0; i < 500 && !QFileInfo(sock).exists(); ++i) QTest::qWait(10);
    ASSERT_TRUE(QFileInfo(sock).exists()) << "the helper did not create its socket";

    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SCHEDSCOPE_TEST_ATTACH"), sock);
    env.insert(QStringLiteral("SCHEDSCOPE_TEST_FAKE_PKEXEC"), fakePkexec);
    env.insert(QStringLiteral("SCHEDSCOPE_CAPTURE"), QStringLiteral(SCHEDSCOPE_CAPTURE_BINARY));
    env.insert(QStringLiteral("HOME"), dir);
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir + QStringLiteral("/runtime"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), dir + QStringLiteral("/cache"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.setWorkingDirectory(dir);
    const QString self = QFile::symLinkTarget(QStringLiteral("/proc/self/exe"));
    child.start(QStringLiteral("setpriv"), {QStringLiteral("--reuid=%1").arg(kNobody), QStringLiteral("--regid=%1").arg(kNobody),
                                            QStringLiteral("--clear-groups"), QStringLiteral("--"), self,
                                            QStringLiteral("--gtest_filter=LiveHelperAsUser.*")});
    ASSERT_TRUE(child.waitForFinished(180'000));
    const QString out = QString::fromLocal8Bit(child.readAll());
    std::printf("---- the GUI tests as nobody ----\n%s---- end ----\n", qPrintable(out));
    EXPECT_EQ(child.exitCode(), 0);
    EXPECT_TRUE(out.contains(QStringLiteral("[  PASSED  ] 2 tests"))) << "both tests must run (not skip) as nobody";
    EXPECT_FALSE(out.contains(QStringLiteral("[  SKIPPED ]")));
    // The helper exits once its client (the GUI) is gone.
    EXPECT_TRUE(helper.waitForFinished(10'000));
    EXPECT_EQ(helper.exitCode(), 0);
    QDir(dir).removeRecursively();
}

// ---- run by the test above as nobody ----

TEST(LiveHelperAsUser, AttachedGuiFeedsTheViews) {
    const QString sock = qEnvironmentVariable("SCHEDSCOPE_TEST_ATTACH");
    if (sock.isEmpty()) SKIP_BECAUSE("runs as nobody from LiveHelper.UnprivilegedGuiShowsLiveDataFromASudoHelper");
    ASSERT_NE(geteuid(), 0u);
    ASSERT_FALSE(tracing::canLoadBpf()) << "this child should have no privileges";
    MainWindow window;
    window.resize(1100, 700);
    window.show();
    ASSERT_TRUE(openLocal(window));
    LiveCapture* live = window.traceWorkspace()->live();
    live->setRateHz(10);
    live->setWindowSec(5);
    LiveSourceConfig config;
    config.attachPath = ss(sock);
    live->setSourceConfig(config);
    ASSERT_EQ(live->sourceKind(), LiveSourceKind::Attach);
    QSignalSpy snapshots(live, &LiveCapture::snapshot);
    const QString failure = runLive(window, 3, snapshots);
    ASSERT_TRUE(failure.isEmpty()) << failure.toStdString();
    ASSERT_GE(snapshots.size(), 2) << "no live snapshots from the attached helper within 15 s";
    expectViewsFed(window, sock);
    live->stop();
}

TEST(LiveHelperAsUser, PkexecMissingOrDismissedIsShownInTheBanner) {
    const QString fake = qEnvironmentVariable("SCHEDSCOPE_TEST_FAKE_PKEXEC");
    if (fake.isEmpty()) SKIP_BECAUSE("runs as nobody from LiveHelper.UnprivilegedGuiShowsLiveDataFromASudoHelper");
    ASSERT_NE(geteuid(), 0u);
    MainWindow window;
    window.resize(900, 600);
    window.show();
    ASSERT_TRUE(openLocal(window));
    LiveCapture* live = window.traceWorkspace()->live();
    ASSERT_EQ(live->sourceKind(), LiveSourceKind::Helper) << "a normal user captures through the helper";
    // No pkexec and no file capabilities on the helper: unavailable, with the ways out.
    qputenv("SCHEDSCOPE_PKEXEC", "/nonexistent/pkexec");
    window.traceWorkspace()->startLiveIfPermitted();
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("pkexec is not installed"))) << window.banner()->text().toStdString();
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("setcap")));
    EXPECT_FALSE(live->running());
    // With pkexec: no dialog unasked, the banner offers to authenticate.
    qputenv("SCHEDSCOPE_PKEXEC", fake.toLocal8Bit());
    EXPECT_TRUE(live->needsAuthentication());
    window.traceWorkspace()->startLiveIfPermitted();
    EXPECT_FALSE(live->running());
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("authentication"))) << window.banner()->text().toStdString();
    ASSERT_FALSE(window.banner()->actionButton()->isHidden());
    // The user asks; pkexec's dialog is dismissed (exit 126).
    QSignalSpy failed(live, &LiveCapture::failed);
    QTest::mouseClick(window.banner()->actionButton(), Qt::LeftButton);
    ASSERT_TRUE(failed.wait(10'000));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("dismissed"))) << window.banner()->text().toStdString();
    qunsetenv("SCHEDSCOPE_PKEXEC");
}

}  // namespace schedscope::gui
