// Runs only on a real X server (ctest's gui_xcb starts it under xvfb-run): the window shows,
// loads and renders through the xcb platform plugin, not just offscreen.
#include <gtest/gtest.h>

#include <QGuiApplication>

#include "gui_test_util.h"

namespace schedscope::gui {
namespace {

TEST(Xcb, WindowShowsAndRendersOnAnXServer) {
    if (QGuiApplication::platformName() != QLatin1String("xcb"))
        GTEST_SKIP() << "needs the xcb platform; ctest runs this under xvfb-run as gui_xcb";
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.open(test::syntheticSpec());
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(window.isVisible());
    const QImage img = window.renderView(QStringLiteral("window"), window.size());
    EXPECT_EQ(img.size(), window.size() * window.devicePixelRatio());
    EXPECT_GE(test::distinctColours(img), 40);
}

}  // namespace
}  // namespace schedscope::gui
