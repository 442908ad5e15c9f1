// TimeAxis is Qt-free: this test links GoogleTest only.
#include <gtest/gtest.h>

#include "time_axis.h"

namespace schedscope {
namespace {

TEST(TimeAxis, MapsTimeToPixelsAndBack) {
    auto a = TimeAxis::covering(1'000, 11'000, 100);
    EXPECT_DOUBLE_EQ(a.toPixel(1'000), 0.0);
    EXPECT_DOUBLE_EQ(a.toPixel(11'000), 100.0);
    EXPECT_DOUBLE_EQ(a.toPixel(6'000), 50.0);
    EXPECT_EQ(a.toTime(0), 1'000);
    EXPECT_EQ(a.toTime(25), 3'500);
    EXPECT_DOUBLE_EQ(a.nsPerPixel(), 100.0);
    for (int px = 0; px <= 100; px += 7) EXPECT_NEAR(a.toPixel(a.toTime(px)), px, 1e-9);
}

TEST(TimeAxis, ZoomKeepsTheAnchorFixed) {
    auto a = TimeAxis::covering(0, 1'000'000, 1000);
    a.minSpanNs = 10;
    const int64_t under = a.toTime(250);
    a.zoomAt(250, 4.0);
    EXPECT_EQ(a.span(), 250'000);
    EXPECT_NEAR(a.toPixel(under), 250.0, 1e-6);
    a.zoomAt(250, 0.25);
    EXPECT_EQ(a.viewStart, 0);
    EXPECT_EQ(a.viewEnd, 1'000'000);
}

TEST(TimeAxis, ZoomIsClampedToMinimumSpanAndBounds) {
    auto a = TimeAxis::covering(0, 1'000'000, 500);
    a.minSpanNs = 1'000;
    a.zoomAt(100, 1e9);
    EXPECT_EQ(a.span(), 1'000);
    EXPECT_GE(a.viewStart, 0);
    a.zoomAt(100, 1e-9);
    EXPECT_EQ(a.span(), 1'000'000);
    EXPECT_EQ(a.viewStart, 0);
    // Nonsense factors change nothing.
    const auto before = a.viewStart;
    a.zoomAt(10, 0.0);
    a.zoomAt(10, -2.0);
    a.zoomAt(10, std::nan(""));
    EXPECT_EQ(a.viewStart, before);
    EXPECT_EQ(a.span(), 1'000'000);
}

TEST(TimeAxis, ZoomNearTheEdgeStaysInsideTheBounds) {
    auto a = TimeAxis::covering(0, 1'000, 100);
    a.minSpanNs = 1;
    a.zoomAt(100, 10.0);  // anchored at the right edge
    EXPECT_EQ(a.viewEnd, 1'000);
    EXPECT_EQ(a.span(), 100);
}

TEST(TimeAxis, PanMovesByPixelsAndStopsAtTheBounds) {
    auto a = TimeAxis::covering(0, 10'000, 100);
    a.setWindow(2'000, 4'000);  // 20 ns per pixel
    a.panBy(10);
    EXPECT_EQ(a.viewStart, 2'200);
    EXPECT_EQ(a.viewEnd, 4'200);
    a.panBy(-1'000);
    EXPECT_EQ(a.viewStart, 0);
    EXPECT_EQ(a.span(), 2'000);
    a.panBy(1e6);
    EXPECT_EQ(a.viewEnd, 10'000);
    EXPECT_EQ(a.span(), 2'000);
}

TEST(TimeAxis, WidthChangesKeepTheWindow) {
    auto a = TimeAxis::covering(0, 1'000, 100);
    a.setWindow(100, 300);
    a.setWidth(400);
    EXPECT_EQ(a.viewStart, 100);
    EXPECT_DOUBLE_EQ(a.toPixel(300), 400.0);
    a.setWidth(0);  // a hidden widget: no division by zero
    EXPECT_DOUBLE_EQ(a.widthPx, 1.0);
    a.resetZoom();
    EXPECT_EQ(a.viewStart, 0);
    EXPECT_EQ(a.viewEnd, 1'000);
}

TEST(TimeAxis, DegenerateRecordingHasAPositiveSpan) {
    auto a = TimeAxis::covering(500, 500, 10);
    EXPECT_EQ(a.span(), 1);
    EXPECT_TRUE(a.visible(500));
    EXPECT_FALSE(a.visible(501));
}

// A corrupt trace's timestamp past INT64_MAX (0xff00... ns) wrapped negative, and the axis over
// the recording collapsed to 1 ns.
TEST(TimeAxis, TimestampsPastInt64MaxDoNotWrap) {
    const uint64_t broken = 0xff00'0000'0000'0000ull;
    EXPECT_GT(axisTime(broken), 0);
    EXPECT_EQ(axisTime(1'000), 1'000);
    auto a = TimeAxis::covering(axisTime(1'000'000'000), axisTime(broken), 1000);
    EXPECT_GT(a.boundSpan(), int64_t{1} << 62);
    EXPECT_GT(a.toPixel(axisTime(broken)), 999.0);
    auto b = TimeAxis::covering(axisTime(broken), axisTime(broken), 1000);  // every event broken
    EXPECT_EQ(b.boundSpan(), 1);
}

}  // namespace
}  // namespace schedscope
