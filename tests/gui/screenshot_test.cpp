// Every view renders a non-blank picture of the requested size, in-process and through the
// real binary's --screenshot; the binary reports a missing display in one line.
#include <gtest/gtest.h>

#include <QFile>
#include <QPainter>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>

#include "banner.h"
#include "gui_test_util.h"
#include "support/fixtures.h"
#include "topology_view.h"

namespace schedscope::gui {
namespace {

class ViewScreenshot : public ::testing::TestWithParam<const char*> {};

TEST_P(ViewScreenshot, IsNotBlankAndHasTheRequestedSize) {
    const QString view = QString::fromLatin1(GetParam());
    const QSize size(900, 620);
    MainWindow window;
    window.resize(size);
    window.show();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(test::syntheticSpec());
    ASSERT_TRUE(shown.wait(60'000));
    const QImage image = window.renderView(view, size);
    test::keepShot(image, view);
    EXPECT_EQ(image.size(), size);
    EXPECT_GE(test::distinctColours(image), test::kManyColours);

    QTemporaryDir dir;
    for (const char* suffix : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(view + QLatin1Char('.') + QLatin1String(suffix));
        const QString error = window.exportView(view, path, size);
        ASSERT_TRUE(error.isEmpty()) << error.toStdString();
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
        const QByteArray head = f.read(4096);
        const QByteArray magic = QLatin1String(suffix) == QLatin1String("png")   ? QByteArray("\x89PNG")
                                 : QLatin1String(suffix) == QLatin1String("svg") ? QByteArray("<svg")
                                                                                 : QByteArray("%PDF");
        EXPECT_TRUE(head.contains(magic)) << suffix;
        EXPECT_GT(f.size(), 1000);
    }
    EXPECT_FALSE(window.exportView(view, dir.filePath(QStringLiteral("x.bmpx")), size).isEmpty());
}

INSTANTIATE_TEST_SUITE_P(Views, ViewScreenshot, ::testing::Values("window", "topology", "domains"));

TEST(TopologyViewPicture, HeatChangesTheColours) {
    auto session = test::loadNow(test::syntheticSpec());
    ASSERT_TRUE(session);
    TopologyView view;
    view.setSession(session);
    const QSize size(700, 480);
    auto render = [&] {
        QImage img(size, QImage::Format_RGB32);
        QPainter p(&img);
        view.paintTo(p, QRectF(QPointF(0, 0), QSizeF(size)));
        return img;
    };
    const QImage plain = render();
    std::vector<double> heat(64);
    for (size_t i = 0; i < heat.size(); ++i) heat[i] = double(i);
    view.setHeat(heat, QStringLiteral("cpu id"));
    const QImage hot = render();
    test::keepShot(hot, QStringLiteral("topology-heat"));
    EXPECT_TRUE(plain != hot);
    EXPECT_GT(test::distinctColours(hot), test::distinctColours(plain));
}

// The real binary, as users and scripts run it.
struct ProcessRun {
    int exitCode = -1;
    QString stdErr;
};

ProcessRun runSchedscope(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCHEDSCOPE_GUI_BINARY), args);
    if (!p.waitForFinished(120'000)) {
        p.kill();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromLocal8Bit(p.readAllStandardError())};
}

QProcessEnvironment headlessEnv() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    return env;
}

TEST(BinaryScreenshot, RendersEachViewWithoutADisplay) {
    QTemporaryDir dir;
    for (const char* view : {"window", "topology", "domains"}) {
        const QString out = dir.filePath(QLatin1String(view) + QStringLiteral(".png"));
        const ProcessRun r = runSchedscope({QStringLiteral("--screenshot"), out, QStringLiteral("--view"), QLatin1String(view),
                                     QStringLiteral("--size"), QStringLiteral("800x520"), QStringLiteral("--synthetic"),
                                     QString::fromStdString(test::kSynthetic), QStringLiteral("--arch"), QStringLiteral("x86_64")},
                                    headlessEnv());
        ASSERT_EQ(r.exitCode, 0) << view << ": " << r.stdErr.toStdString();
        EXPECT_FALSE(r.stdErr.contains(QStringLiteral("note:"))) << view << ": " << r.stdErr.toStdString();
        const QImage img(out);
        EXPECT_EQ(img.size(), QSize(800, 520)) << view;
        EXPECT_GE(test::distinctColours(img), test::kManyColours) << view;
    }
}

// A size below the window's minimum cannot be honoured: the PNG is the smallest the window
// allows, and a line says its size and why (it once changed silently to 480x528).
TEST(BinaryScreenshot, ASizeBelowTheWindowsMinimumIsNoted) {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("tiny.png"));
    const ProcessRun r = runSchedscope({QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("320x200"),
                                        QStringLiteral("--synthetic"), QString::fromStdString(test::kSynthetic),
                                        QStringLiteral("--arch"), QStringLiteral("x86_64")},
                                       headlessEnv());
    ASSERT_EQ(r.exitCode, 0) << r.stdErr.toStdString();
    const QImage img(out);
    ASSERT_FALSE(img.isNull());
    ASSERT_NE(img.size(), QSize(320, 200));
    EXPECT_TRUE(r.stdErr.contains(QStringLiteral("note: %1 is %2x%3, not the 320x200 asked for")
                                      .arg(out).arg(img.width()).arg(img.height())))
        << r.stdErr.toStdString();
}

TEST(BinaryScreenshot, FailedLoadExitsNonZeroWithTheErrorAndStillWritesTheImage) {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("err.png"));
    const ProcessRun r = runSchedscope({QStringLiteral("--screenshot"), out, QStringLiteral("--xml"),
                                 dir.filePath(QStringLiteral("missing.xml"))},
                                headlessEnv());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.stdErr.contains(QStringLiteral("missing.xml"))) << r.stdErr.toStdString();
    EXPECT_TRUE(QFile::exists(out));
}

TEST(BinaryScreenshot, MissingTraceFileExitsNonZeroNamingIt) {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("trace.png"));
    const ProcessRun r = runSchedscope({QStringLiteral("--screenshot"), out, QStringLiteral("--synthetic"),
                                 QStringLiteral("pack:1 core:2 pu:1"), dir.filePath(QStringLiteral("trace.dat"))},
                                headlessEnv());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.stdErr.contains(QStringLiteral("trace.dat"))) << r.stdErr.toStdString();
}

// A single view's picture of a trace that does not load shows the error the banner shows, not
// only the empty view's "No trace open" (the error was on stderr alone): the banner's strip, in
// its error colours, across the top of the picture.
TEST(BinaryScreenshot, AViewOfAnUnreadableTraceShowsTheError) {
    Banner reference;  // the colour an error strip has
    reference.showError(QStringLiteral("x"));
    const QRgb errorFill = reference.palette().color(QPalette::Window).rgb();
    QTemporaryDir dir;
    QFile whole(QString::fromStdString(schedscope::test::dataPath("traces/record-v6.dat")));
    ASSERT_TRUE(whole.open(QIODevice::ReadOnly));
    const QString cut = dir.filePath(QStringLiteral("cut.dat"));
    QFile out(cut);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(whole.read(20000));
    out.close();
    for (const char* view : {"timeline", "matrix"}) {
        const QString png = dir.filePath(QLatin1String(view) + QStringLiteral(".png"));
        const ProcessRun r = runSchedscope({QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QLatin1String(view),
                                            QStringLiteral("--size"), QStringLiteral("900x500"), QStringLiteral("--synthetic"),
                                            QStringLiteral("pack:1 core:2 pu:1"), cut},
                                           headlessEnv());
        EXPECT_EQ(r.exitCode, 1) << view;
        EXPECT_TRUE(r.stdErr.contains(QStringLiteral("cut.dat"))) << r.stdErr.toStdString();
        const QImage img(png);
        ASSERT_EQ(img.size(), QSize(900, 500)) << view;
        // the error strip: a band of the banner's error fill across the top, with text in it
                int filledRows = 0;
        QSet<QRgb> inBand;
        for (int y = 0; y < 60; ++y) {
            int filled = 0;
            for (int x = 0; x < img.width(); ++x) {
                const QRgb px = img.pixel(x, y) | 0xff000000u;
                filled += px == errorFill;
                inBand.insert(px);
            }
            filledRows += filled > img.width() / 2;
        }
        EXPECT_GE(filledRows, 10) << view;
        EXPECT_GE(inBand.size(), 8) << view << ": the strip has its text";
    }
}

TEST(BinaryWithoutDisplay, SaysSoInOneLineAndExitsNonZero) {
    const ProcessRun r = runSchedscope({QStringLiteral("--synthetic"), QStringLiteral("pack:1 core:2 pu:1")}, headlessEnv());
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.exitCode, -1) << "crashed or aborted instead of exiting";
    EXPECT_TRUE(r.stdErr.contains(QStringLiteral("no display"))) << r.stdErr.toStdString();
    EXPECT_EQ(r.stdErr.trimmed().count(QLatin1Char('\n')), 0) << r.stdErr.toStdString();
}

TEST(BinaryCommandLine, RejectsBadOptionsInOneLine) {
    const ProcessRun r = runSchedscope({QStringLiteral("--preset"), QStringLiteral("a"), QStringLiteral("--xml"), QStringLiteral("b")},
                                headlessEnv());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.stdErr.contains(QStringLiteral("only one of")));
}

}  // namespace
}  // namespace schedscope::gui
