// The main window opens on its screen: at its preferred size, or the last session's geometry,
// shrunk to the screen's free area.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace schedscope::gui
