#pragma once
// TimeAxis: the time <-> pixel mapping of a horizontal time view, with zoom and pan math.
// Qt-free on purpose (hotspot's TimeLineData): the timeline widget holds one, tests drive it
// directly. Times are nanoseconds; pixels are doubles measured from the view's left edge.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace schedscope {

// A trace's timestamp (unsigned ns) on an axis: clamped, so that a corrupt one past INT64_MAX
// never wraps negative (that made the whole-trace axis 1 ns long), with 1 ns left after it.
inline int64_t axisTime(uint64_t ts) {
    return static_cast<int64_t>(std::min<uint64_t>(ts, static_cast<uint64_t>(INT64_MAX) - 1));
}

struct TimeAxis {
    // The whole recording: zooming out and panning never leave it.
    int64_t boundStart = 0;
    int64_t boundEnd = 1;
    // The visible window [viewStart, viewEnd) mapped onto [0, widthPx).
    int64_t viewStart = 0;
    int64_t viewEnd = 1;
    double widthPx = 1.0;
    // Zooming in stops when the window is this many nanoseconds wide.
    int64_t minSpanNs = 1000;

    static TimeAxis covering(int64_t start, int64_t end, double widthPx) {
        TimeAxis a;
        a.boundStart = start;
        a.boundEnd = std::max(end, start + 1);
        a.viewStart = a.boundStart;
        a.viewEnd = a.boundEnd;
        a.widthPx = std::max(widthPx, 1.0);
        return a;
    }

    int64_t span() const { return viewEnd - viewStart; }
    int64_t boundSpan() const { return boundEnd - boundStart; }
    double nsPerPixel() const { return static_cast<double>(span()) / widthPx; }

    double toPixel(int64_t t) const {
        return static_cast<double>(t - viewStart) * widthPx / static_cast<double>(span());
    }
    int64_t toTime(double px) const {
        return viewStart + static_cast<int64_t>(std::llround(px * static_cast<double>(span()) / widthPx));
    }
    bool visible(int64_t t) const { return t >= viewStart && t < viewEnd; }
    // The time range one pixel column covers, for level-of-detail binning.
    int64_t pixelStart(int column) const { return toTime(column); }

    void setWidth(double px) { widthPx = std::max(px, 1.0); }

    // Zooms by `factor` (> 1 zooms in) keeping the time under pixel `anchorPx` fixed; the
    // window is clamped to [minSpanNs, bounds] and kept inside the bounds.
    void zoomAt(double anchorPx, double factor) {
        if (!(factor > 0.0) || !std::isfinite(factor)) return;
        const double anchorFrac = std::clamp(anchorPx / widthPx, 0.0, 1.0);
        const int64_t anchorT = toTime(anchorFrac * widthPx);
        const int64_t minSpan = std::min(std::max<int64_t>(minSpanNs, 1), boundSpan());
        double newSpan = static_cast<double>(span()) / factor;
        newSpan = std::clamp(newSpan, static_cast<double>(minSpan), static_cast<double>(boundSpan()));
        const auto spanNs = static_cast<int64_t>(std::llround(newSpan));
        const int64_t start = anchorT - static_cast<int64_t>(std::llround(anchorFrac * newSpan));
        setWindow(start, start + spanNs);
    }

    // Moves the window by `dxPx` pixels (positive: later times come into view), clamped.
    void panBy(double dxPx) {
        const auto dt = static_cast<int64_t>(std::llround(dxPx * nsPerPixel()));
        setWindow(viewStart + dt, viewEnd + dt);
    }

    // Shows [start, end) as closely as the bounds allow, keeping the requested span if possible.
    void setWindow(int64_t start, int64_t end) {
        int64_t s = std::clamp<int64_t>(end - start, 1, boundSpan());
        start = std::clamp(start, boundStart, boundEnd - s);
        viewStart = start;
        viewEnd = start + s;
    }

    void resetZoom() { setWindow(boundStart, boundEnd); }
};

}  // namespace schedscope
