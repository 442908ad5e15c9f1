// SIGINT, SIGTERM and SIGHUP end the app through its event loop, so its destructors run: the
// live capture's tracefs instance is removed, where the default action left it tracing.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include "live_capture.h"
#include "stop_signal_watcher.h"
#include "tracefs_instance.h"

namespace schedscope::gui {
namespace {

using SignalHandler = void (*)(int);

SignalHandler currentHandler(int signal) {
    struct sigaction now {};
    sigaction(signal, nullptr, &now);
    return now.sa_handler;
}

TEST(StopSignalWatcher, ASignalArrivesOnTheGuiThreadOnceAndTheOldHandlerComesBack) {
    const auto before = currentHandler(SIGHUP);
    {
        StopSignalWatcher watcher;
        ASSERT_TRUE(watcher.installed());  // else the raise() below would end the test run
        StopSignalWatcher second;           // one per process: the first keeps its handlers
        EXPECT_FALSE(second.installed());
        QSignalSpy spy(&watcher, &StopSignalWatcher::stopRequested);
        ASSERT_EQ(::raise(SIGHUP), 0);
        ASSERT_TRUE(spy.wait(2000)) << "no stopRequested within 2 s of SIGHUP";
        EXPECT_EQ(spy.at(0).at(0).toInt(), SIGHUP);
        // one-shot: a second SIGHUP would get its default action (a shutdown that hangs can
        // still be ended), SIGTERM and SIGINT still ask politely
        EXPECT_EQ(currentHandler(SIGHUP), SIG_DFL);
        EXPECT_NE(currentHandler(SIGTERM), SIG_DFL);
        EXPECT_NE(currentHandler(SIGINT), SIG_DFL);
    }
    EXPECT_EQ(currentHandler(SIGHUP), before);
    EXPECT_EQ(currentHandler(SIGTERM), before);
}

// Why the real app cannot capture in process here, or "".
std::string tracefsInstanceUnavailable() {
    if (geteuid() != 0) return "the app captures in process only as root";
    if (::access("/sys/kernel/tracing/instances", W_OK) != 0) return "/sys/kernel/tracing/instances is not writable";
    if (const QString why = LiveCapture().unavailableReason(); !why.isEmpty()) return "live capture: " + why.toStdString();
    return "";
}

QByteArray readTracefsFile(const QString& path) {
    QFile f(path);
    // closed again at once: an open file keeps the instance from being removed
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

// What the QA sweep left behind: a test that fails must not leave the machine tracing.
void removeLeftInstance(const QString& instance) {
    if (!QFileInfo::exists(instance)) return;
    for (const char* file : {"/tracing_on", "/events/enable"}) {
        QFile f(instance + QLatin1String(file));
        if (f.open(QIODevice::WriteOnly)) f.write("0");
    }
    ::rmdir(qPrintable(instance));
}

// `schedscope` with no arguments on this machine (live capture in process), then `signal`.
void signalEndsTheLiveAppCleanly(int signal) {
    if (const std::string why = tracefsInstanceUnavailable(); !why.empty()) {
        std::printf("[  SKIPPED ] %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    // A capture an earlier test killed leaves its instance, named by its pid; pids wrap (32768
    // here), and an app that got that pid would find "its" instance tracing already and refuse
    // it, and this test would read the leftover's files. Cleared first, as the app's own start does.
    schedscope::tracing::removeStaleInstances();
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();  // this run's settings and cache
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.remove(QStringLiteral("SCHEDSCOPE_CAPTURE_HELPER"));  // in process: our own instance
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY), QStringList{});
    ASSERT_TRUE(app.waitForStarted(10'000)) << app.errorString().toStdString();
    const QString instance = QStringLiteral("/sys/kernel/tracing/instances/schedscope-%1").arg(app.processId());
    auto output = [&] { return app.readAll().toStdString(); };
    // tracing once the topology has loaded and the capture has started: about a second. A new
    // instance reads tracing_on 1 from its creation on, before the capture has enabled its
    // events, so the wait is for both (under load the two are tens of milliseconds apart).
    const auto capturing = [&] {
        return readTracefsFile(instance + QStringLiteral("/tracing_on")) == "1" &&
               readTracefsFile(instance + QStringLiteral("/events/sched/sched_switch/enable")) == "1";
    };
    for (int i = 0; i < 200 && app.state() == QProcess::Running && !capturing(); ++i) QTest::qWait(50);
    if (!capturing()) {
        app.kill();
        app.waitForFinished(10'000);
        removeLeftInstance(instance);
        FAIL() << "the app did not start tracing in " << qPrintable(instance) << " within 10 s: " << output();
    }
    ASSERT_EQ(::kill(pid_t(app.processId()), signal), 0);
    const bool ended = app.waitForFinished(10'000);
    if (!ended) app.kill();
    EXPECT_TRUE(ended) << strsignal(signal) << ": the app still ran 10 s later";
    EXPECT_EQ(app.exitStatus(), QProcess::NormalExit) << strsignal(signal) << " killed the app: " << output();
    EXPECT_EQ(app.exitCode(), 0) << output();
    EXPECT_FALSE(QFileInfo::exists(instance)) << strsignal(signal) << " left " << qPrintable(instance) << " behind";
    removeLeftInstance(instance);
}

TEST(StopSignals, SigtermEndsTheLiveAppAndRemovesItsTracefsInstance) { signalEndsTheLiveAppCleanly(SIGTERM); }

TEST(StopSignals, SighupEndsTheLiveAppAndRemovesItsTracefsInstance) { signalEndsTheLiveAppCleanly(SIGHUP); }

}  // namespace
}  // namespace schedscope::gui
