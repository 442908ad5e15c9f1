// The real binary seen over VNC, as users run it remotely: on a private Xvfb exported by x11vnc
// (the usual route), and on Qt's own vnc platform plugin. A minimal RFB client (rfb_client.h)
// grabs the screen until the main window is on it. Skipped, with the reason, when Xvfb or
// x11vnc is missing (packaging/install-deps.sh installs them). Free displays and ports are
// picked by the servers themselves (Xvfb -displayfd, x11vnc's port probing), or by the
// kernel for Qt's plugin, so parallel runs do not clash.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLibraryInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QThread>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>

#include "gui_test_util.h"
#include "rfb_client.h"

namespace schedscope::gui {
namespace {

constexpr int kDeadlineMs = 20'000;  // per server, for everything to come up and render

// A child process stopped (TERM, then KILL) when the test ends, however it ends.
struct Child {
    QProcess p;
    ~Child() {
        if (p.state() == QProcess::NotRunning) return;
        p.terminate();
        if (!p.waitForFinished(3000)) {
            p.kill();
            p.waitForFinished(3000);
        }
    }
};

// Reads the child's stdout until `re` matches; its first capture, or empty on timeout or exit.
QString waitForOutput(QProcess& p, const QRegularExpression& re, const QElapsedTimer& clock, QByteArray& seen) {
    while (clock.elapsed() < kDeadlineMs) {
        const auto m = re.match(QString::fromLocal8Bit(seen));
        if (m.hasMatch()) return m.captured(1);
        if (p.state() == QProcess::NotRunning) return {};
        p.waitForReadyRead(200);
        seen += p.readAllStandardOutput();
    }
    return {};
}

QImage toImage(const schedscope::test::RfbFrame& f) {
    QImage img(f.width, f.height, QImage::Format_RGB32);
    for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x) img.setPixel(x, y, 0xff000000u | f.pixels[size_t(y) * size_t(f.width) + size_t(x)]);
    return img;
}

// The app's window is on screen: a large part of the (black) screen covered, in many colours
// (the topology view, docks, text).
bool showsTheApp(const QImage& img) {
    if (img.isNull()) return false;
    int covered = 0, samples = 0;
    for (int y = 0; y < img.height(); y += 4)
        for (int x = 0; x < img.width(); x += 4, ++samples)
            if ((img.pixel(x, y) & 0xffffff) != 0) ++covered;
    return covered > samples / 4 && test::distinctColours(img) >= 40;
}

// Connects (retrying while the server starts) and grabs until the app shows or time is up.
// The last frame grabbed goes to `img`; an error or empty.
std::string grabTheApp(int port, const QElapsedTimer& clock, QImage& img, std::string& desktop, Child* app = nullptr) {
    std::string error = "no frame";
    while (clock.elapsed() < kDeadlineMs) {
        if (app && app->p.state() == QProcess::NotRunning) return "the app exited: " + app->p.readAllStandardError().toStdString();
        schedscope::test::RfbClient rfb;
        error = rfb.connect(port, 3000);
        if (!error.empty()) {
            QThread::msleep(200);
            continue;
        }
        desktop = rfb.desktopName();
        while (clock.elapsed() < kDeadlineMs) {
            schedscope::test::RfbFrame frame;
            error = rfb.grab(frame, 5000);
            if (!error.empty()) break;
            img = toImage(frame);
            if (showsTheApp(img)) return {};
            error = "the screen does not show the app yet";
            QThread::msleep(250);
        }
    }
    return error;
}

QProcessEnvironment appEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // the tests' own offscreen choice
    return env;
}

// What Qt's vnc server calls its desktop (qvncclient.cpp).
constexpr const char* kQtDesktopName = "Qt";

const QStringList kAppArgs = {QStringLiteral("--preset"), QStringLiteral("kunpeng920-24")};

TEST(Vnc, AppRendersOnXvfbExportedByX11vnc) {
    const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
    const QString x11vnc = QStandardPaths::findExecutable(QStringLiteral("x11vnc"));
    if (xvfb.isEmpty()) GTEST_SKIP() << "Xvfb is not installed (apt-get install xvfb)";
    if (x11vnc.isEmpty()) GTEST_SKIP() << "x11vnc is not installed (apt-get install x11vnc)";
    QElapsedTimer clock;
    clock.start();

    // Xvfb picks a free display and writes its number to our stdout; black background.
    Child server;
    server.p.start(xvfb, {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"), QStringLiteral("0"),
                          QStringLiteral("1280x800x24"), QStringLiteral("-nolisten"), QStringLiteral("tcp"), QStringLiteral("-br")});
    QByteArray serverOut;
    const QString displayNo = waitForOutput(server.p, QRegularExpression(QStringLiteral("^(\\d+)\\n")), clock, serverOut);
    ASSERT_FALSE(displayNo.isEmpty()) << "Xvfb did not start: " << server.p.readAllStandardError().toStdString();
    const QString display = QLatin1Char(':') + displayNo;

    // The app and x11vnc start together (x11vnc takes seconds to come up).
    Child app;
    QProcessEnvironment env = appEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    app.p.setProcessEnvironment(env);
    app.p.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY), kAppArgs);

    // x11vnc probes for a free port from 5900 and prints PORT=N; loopback only, no password.
    Child vnc;
    vnc.p.start(x11vnc, {QStringLiteral("-display"), display, QStringLiteral("-localhost"), QStringLiteral("-noipv6"),
                         QStringLiteral("-nopw"), QStringLiteral("-forever"), QStringLiteral("-shared"),
                         QStringLiteral("-noxdamage"), QStringLiteral("-quiet")});
    QByteArray vncOut;
    const QString port = waitForOutput(vnc.p, QRegularExpression(QStringLiteral("PORT=(\\d+)")), clock, vncOut);
    ASSERT_FALSE(port.isEmpty()) << "x11vnc did not start: " << vnc.p.readAllStandardError().toStdString();
    const qint64 vncUpMs = clock.elapsed();

    QImage img;
    std::string desktop;
    const std::string error = grabTheApp(port.toInt(), clock, img, desktop, &app);
    test::keepShot(img, QStringLiteral("vnc-x11vnc"));
    EXPECT_TRUE(error.empty()) << error << " (display " << display.toStdString() << ", port " << port.toStdString() << ")";
    EXPECT_TRUE(showsTheApp(img));
    std::printf("x11vnc on display %s, port %s (up after %lld ms): %dx%d frame of \"%s\" after %lld ms\n",
                qPrintable(display), qPrintable(port), static_cast<long long>(vncUpMs), img.width(), img.height(),
                desktop.c_str(), static_cast<long long>(clock.elapsed()));
}

// A port free right now (the kernel's pick); Qt's plugin needs the number up front.
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = -1;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    if (fd >= 0) ::close(fd);
    return port;
}

TEST(Vnc, AppRendersOnQtsVncPlugin) {
    const QString plugin = QLibraryInfo::path(QLibraryInfo::PluginsPath) + QStringLiteral("/platforms/libqvnc.so");
    if (!QFile::exists(plugin))
        GTEST_SKIP() << "Qt's vnc platform plugin is not installed (" << plugin.toStdString() << "; apt-get install qt6-qpa-plugins)";
    QElapsedTimer clock;
    clock.start();
    // Another process could take the port between freePort() and the app's listen (then the
    // desktop name is not Qt's): a fresh port is tried.
    std::string error;
    for (int attempt = 0; attempt < 3 && clock.elapsed() < kDeadlineMs; ++attempt) {
        const int port = freePort();
        ASSERT_GT(port, 0);
        Child app;
        QProcessEnvironment env = appEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("vnc:port=%1:size=1280x800").arg(port));
        app.p.setProcessEnvironment(env);
        app.p.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY), kAppArgs);
        QImage img;
        std::string desktop;
        error = grabTheApp(port, clock, img, desktop, &app);
        if (error.empty() && desktop.find(kQtDesktopName) == std::string::npos)
            error = "port " + std::to_string(port) + " is another VNC server's (\"" + desktop + "\")";
        test::keepShot(img, QStringLiteral("vnc-qt-plugin"));
        if (error.empty()) {
            std::printf("Qt vnc plugin on port %d: %dx%d frame of \"%s\" after %lld ms\n", port, img.width(), img.height(),
                        desktop.c_str(), static_cast<long long>(clock.elapsed()));
            return;
        }
    }
    FAIL() << error;
}

}  // namespace
}  // namespace schedscope::gui
