// The main window opens on its screen: at its preferred size, or the last session's geometry,
// shrunk to the screen's free area, with the docks then made to fit as for a small window.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QGuiApplication>
#include <QProcess>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "main_window.h"
#include "trace_workspace.h"
#include "window_fit.h"

namespace schedscope::gui {
namespace {

const QSize kLaptop(1024, 700);
const QMargins kTitleBar(0, 24, 0, 0);

TEST(InitialWindowSize, ShrinksEachSideThatDoesNotFitAndLeavesTheOther) {
    EXPECT_EQ(initialWindowSize({1400, 860}, kLaptop), kLaptop);
    EXPECT_EQ(initialWindowSize({900, 860}, kLaptop), QSize(900, 700));
    EXPECT_EQ(initialWindowSize({1400, 600}, kLaptop), QSize(1024, 600));
    EXPECT_EQ(initialWindowSize({800, 600}, kLaptop), QSize(800, 600));
}

TEST(InitialWindowSize, LeavesRoomForTheFrame) {
    EXPECT_EQ(initialWindowSize({1400, 860}, kLaptop, kTitleBar), QSize(1024, 676));
    EXPECT_EQ(initialWindowSize({1400, 860}, kLaptop, QMargins(2, 20, 2, 2)), QSize(1020, 678));
    EXPECT_EQ(initialWindowSize({800, 600}, kLaptop, kTitleBar), QSize(800, 600));
}

TEST(InitialWindowSize, NoScreenKnownLeavesThePreferredSize) {
    EXPECT_EQ(initialWindowSize({1400, 860}, QSize()), QSize(1400, 860));
    EXPECT_EQ(initialWindowSize({1400, 860}, QSize(0, 0)), QSize(1400, 860));
}

TEST(FitWindowOnScreen, AGeometryFromABiggerScreenShrinksAndMovesOnto) {
    // saved on a 1920x1200 monitor, opened on a laptop whose top panel takes 28 px
    const QRect laptop(0, 28, 1024, 672);
    EXPECT_EQ(fitWindowOnScreen(QRect(300, 150, 1600, 1000), laptop), laptop);
    EXPECT_EQ(fitWindowOnScreen(QRect(300, 150, 1600, 1000), laptop, kTitleBar), QRect(0, 52, 1024, 648));
}

TEST(FitWindowOnScreen, MovesTheLeastThatBringsAllOfItOn) {
    const QRect screen(0, 0, 1024, 700);
    EXPECT_EQ(fitWindowOnScreen(QRect(100, 50, 800, 600), screen), QRect(100, 50, 800, 600));  // fits: unchanged
    EXPECT_EQ(fitWindowOnScreen(QRect(500, 50, 800, 600), screen), QRect(224, 50, 800, 600));  // off the right edge
    EXPECT_EQ(fitWindowOnScreen(QRect(100, 300, 800, 600), screen), QRect(100, 100, 800, 600));  // off the bottom
    EXPECT_EQ(fitWindowOnScreen(QRect(-50, -10, 800, 600), screen), QRect(0, 0, 800, 600));
    EXPECT_EQ(fitWindowOnScreen(QRect(0, 0, 800, 600), screen, kTitleBar), QRect(0, 24, 800, 600));  // title bar on screen
}

TEST(FitWindowOnScreen, AMonitorThatIsGoneBringsTheWindowToThisOne) {
    // the second monitor, right of this one, was unplugged
    const QRect screen(0, 0, 1024, 700);
    EXPECT_EQ(fitWindowOnScreen(QRect(2200, 100, 900, 500), screen), QRect(124, 100, 900, 500));
    // a screen that does not start at 0,0 (the right one of two)
    EXPECT_EQ(fitWindowOnScreen(QRect(0, 0, 1400, 860), QRect(1920, 0, 1024, 700)), QRect(1920, 0, 1024, 700));
}

TEST(FitWindowOnScreen, NoScreenKnownLeavesTheGeometry) {
    EXPECT_EQ(fitWindowOnScreen(QRect(300, 150, 1600, 1000), QRect()), QRect(300, 150, 1600, 1000));
}

// --- the window on a 1024x700 screen ---------------------------------------------------------
// The test process has one screen, of the platform's size: WindowFit.* starts this binary again
// with the offscreen platform's screen set to 1024x700, to run WindowFitChild.* (not listed to
// ctest).

const char* const kWindowFitChildVariable = "SCHEDSCOPE_WINDOW_FIT_CHILD";

TEST(WindowFit, OnA1024x700ScreenTheWindowAndItsDocksFit) {
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile json(config);
    ASSERT_TRUE(json.open(QIODevice::WriteOnly));
    json.write(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1024, "height": 700,
                   "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    json.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kWindowFitChildVariable), QStringLiteral("1"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + config);
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--gtest_filter=WindowFitChild.*")});
    ASSERT_TRUE(child.waitForFinished(120'000)) << child.errorString().toStdString();
    const QString out = QString::fromLocal8Bit(child.readAll());
    EXPECT_EQ(child.exitCode(), 0) << out.toStdString();
    EXPECT_TRUE(out.contains(QStringLiteral("[  PASSED  ] 2 tests."))) << "the child did not run: " << out.toStdString();
}

class WindowFitChild : public ::testing::Test {
protected:
    void SetUp() override {
        if (qEnvironmentVariableIsEmpty(kWindowFitChildVariable)) GTEST_SKIP() << "run by WindowFit.*";
        ASSERT_EQ(QGuiApplication::primaryScreen()->size(), kLaptop) << "the offscreen platform ignored its configfile";
        available = QGuiApplication::primaryScreen()->availableGeometry();
        QSettings().remove(QStringLiteral("window"));  // no earlier session
    }
    // The window fits, frame included, and so does the least the docks need.
    static void expectFits(const MainWindow& w, const QRect& available) {
        EXPECT_TRUE(available.contains(w.frameGeometry())) << "frame " << w.frameGeometry().x() << "," << w.frameGeometry().y()
                                                           << " " << w.frameGeometry().width() << "x" << w.frameGeometry().height();
        EXPECT_LE(w.minimumSizeHint().width(), available.width());
        EXPECT_LE(w.minimumSizeHint().height(), available.height());
    }
    QRect available;
};

TEST_F(WindowFitChild, TheFirstStartOpensWithinTheScreen) {
    MainWindow window;
    EXPECT_EQ(window.size(), QSize(1400, 860));  // what it prefers, on a big screen
    window.fitOnScreen();
    window.show();
    expectFits(window, available);
    // shrunk to the screen less its frame, not to some small default
    EXPECT_GE(window.width(), available.width() * 9 / 10);
    EXPECT_GE(window.height(), available.height() * 9 / 10);
}

TEST_F(WindowFitChild, ALayoutSavedOnABiggerScreenIsShrunkAndItsDocksBecomeTabs) {
    {
        // the last session, on a 1600x1000 window: a trace, the lessons and the what-if open,
        // each dock in its own place (rendered off screen, so they are fitted to the window)
        MainWindow big;
        big.setAttribute(Qt::WA_DontShowOnScreen);
        big.setGeometry(200, 150, 1600, 1000);
        big.show();
        QSignalSpy shown(big.traceWorkspace(), &TraceWorkspace::traceShown);
        big.openTraceFile(TraceWorkspace::sampleTracePath());
        ASSERT_TRUE(shown.wait(60'000)) << "the sample trace did not load";
        ASSERT_TRUE(big.raiseView(QStringLiteral("lessons")));
        ASSERT_TRUE(big.raiseView(QStringLiteral("whatif")));
        ASSERT_TRUE(big.tabifiedDockWidgets(big.traceWorkspace()->timelineDock()).isEmpty());
        // a layout that needs more than the laptop has: else this test would show nothing
        ASSERT_GT(big.minimumSizeHint().height(), available.height());
        big.close();  // saves the geometry and the dock layout
    }
    MainWindow window;
    window.fitOnScreen();
    window.show();
    expectFits(window, available);
    QDockWidget* whatIf = window.findChild<QDockWidget*>(QStringLiteral("whatifDock"));
    ASSERT_TRUE(whatIf && whatIf->isVisible());
    EXPECT_TRUE(window.tabifiedDockWidgets(window.traceWorkspace()->timelineDock()).contains(whatIf));
}

}  // namespace
}  // namespace schedscope::gui
