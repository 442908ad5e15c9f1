// The timeline's pyramid summaries are Qt-free: checked here against brute force over the
// slices and against the exact binLane().
#include <gtest/gtest.h>

#include <random>

#include "lane_pyramid.h"

namespace schedscope {
namespace {

// A lane like a busy CPU's: slices of 200 ns..4 us with idle gaps, tasks from a few hundred.
LaneSlices randomLane(uint64_t seed, size_t slices, uint64_t start = 1000) {
    std::mt19937_64 rng(seed);
    LaneSlices l;
    uint64_t t = start;
    for (size_t i = 0; i < slices; ++i) {
        const uint64_t len = 200 + rng() % 3800;
        l.add(t, t + len, int32_t(1 + rng() % 300));
        t += len + (rng() % 3 == 0 ? rng() % 6000 : 0);
    }
    return l;
}

uint64_t bruteBusy(const LaneSlices& l, uint64_t a, uint64_t b) {
    uint64_t busy = 0;
    for (size_t i = 0; i < l.size(); ++i) {
        const uint64_t s = std::max(l.start(i), a), e = std::min(l.end(i), b);
        if (e > s) busy += e - s;
    }
    return busy;
}

TEST(PyramidGrid, CoversTheTraceWithHalvingLevels) {
    const PyramidGrid g = PyramidGrid::covering(1000, 101'000, 1000);
    EXPECT_EQ(g.origin, 1000u);
    EXPECT_EQ(g.baseNs, 101u);  // 100'001 ns (the last one included) in at most 1000 bins
    EXPECT_EQ(g.bins, 991u);
    EXPECT_GE(g.origin + g.bins * g.baseNs, 101'000u);
    EXPECT_EQ(g.binsAt(0), 991u);
    EXPECT_EQ(g.binsAt(1), 496u);
    EXPECT_EQ(g.binsAt(g.levels - 1), 1u);
    EXPECT_EQ(g.binsAt(g.levels - 2), 2u);
    EXPECT_EQ(g.binOf(0, 0), 0u);
    EXPECT_EQ(g.binOf(0, 1000 + 101 * 5 + 3), 5u);
    EXPECT_EQ(g.binOf(3, 1000 + 101 * 8 * 2), 2u);
    EXPECT_EQ(g.binOf(0, 1'000'000'000), g.bins - 1);  // clamped
    const PyramidGrid tiny = PyramidGrid::covering(5, 5, 0);
    EXPECT_EQ(tiny.bins, 1u);
    EXPECT_EQ(tiny.levels, 1);
}

TEST(LanePyramid, BinBusyTimeEqualsBruteForceOnEveryLevel) {
    const LaneSlices l = randomLane(1, 3000);
    const PyramidGrid g = PyramidGrid::covering(0, l.end(l.size() - 1), 700);
    const LanePyramid p(l, g);
    const uint64_t gridEnd = g.origin + g.bins * g.baseNs;
    for (int level = 0; level < g.levels; ++level)
        for (size_t i = 0; i < g.binsAt(level); ++i) {
            const uint64_t a = g.origin + i * g.binNs(level), b = std::min(a + g.binNs(level), gridEnd);
            ASSERT_EQ(p.busyOfBin(level, i), bruteBusy(l, a, b)) << "level " << level << " bin " << i;
        }
    EXPECT_EQ(p.busyOfBin(g.levels - 1, 0), l.totalBusy());
}

TEST(LanePyramid, BinTaskFollowsBinLanesRuleForAColumn) {
    // The task of a bin is what binLane shows for one column spanning exactly that bin.
    const LaneSlices l = randomLane(2, 2000);
    const PyramidGrid g = PyramidGrid::covering(0, l.end(l.size() - 1), 900);
    const LanePyramid p(l, g);
    std::vector<LodColumn> col;
    for (int level = 0; level < g.levels; ++level)
        for (size_t i = 0; i < g.binsAt(level); ++i) {
            const uint64_t a = g.origin + i * g.binNs(level);
            binLane(l, a, a + g.binNs(level), 1, col);
            ASSERT_EQ(p.pidOfBin(level, i), col[0].pid) << "level " << level << " bin " << i;
        }
}

TEST(LanePyramid, BusyBeforeIsExactOnBinEdgesAndCloseBetween) {
    const LaneSlices l = randomLane(3, 1000);
    const PyramidGrid g = PyramidGrid::covering(0, l.end(l.size() - 1), 400);
    const LanePyramid p(l, g);
    for (size_t i = 0; i <= g.bins; ++i) EXPECT_EQ(p.busyBefore(g.origin + i * g.baseNs), double(l.busyBefore(g.origin + i * g.baseNs)));
    for (uint64_t t = 0; t < g.origin + g.bins * g.baseNs; t += 997)
        EXPECT_NEAR(p.busyBefore(t), double(l.busyBefore(t)), double(g.baseNs)) << t;
}

TEST(BinLanePyramid, WithinTheErrorBoundOfTheExactBinning) {
    const LaneSlices l = randomLane(4, 60'000);
    const uint64_t first = l.start(0), last = l.end(l.size() - 1);
    const PyramidGrid g = PyramidGrid::covering(first, last, l.size());
    const LanePyramid p(l, g);
    const int w = 1500;
    std::vector<LodColumn> exact, fast;
    for (const double zoom : {1.0, 1.5, 2.2}) {
        const auto span = uint64_t(double(last - first) / zoom);
        const uint64_t t0 = first + (last - first - span) / 3, t1 = t0 + span;
        ASSERT_TRUE(pyramidFits(g, t0, t1, w)) << zoom;
        const PyramidColumns pc = pyramidColumns(g, t0, t1, w);
        binLane(l, t0, t1, w, exact);
        binLanePyramid(p, pc, fast);
        ASSERT_EQ(fast.size(), size_t(w));
        double busyExact = 0, busyFast = 0;
        for (int c = 0; c < w; ++c) {
            const uint64_t a = columnEdge(t0, t1, w, c), b = columnEdge(t0, t1, w, c + 1);
            const LodColumn& e = exact[size_t(c)];
            const LodColumn& f = fast[size_t(c)];
            // Each edge is off by less than one level-0 bin's busy time.
            EXPECT_NEAR(f.busy, e.busy, 2.0 * double(g.baseNs) / double(b - a) + 1e-6) << "zoom " << zoom << " column " << c;
            busyExact += double(e.busy) * double(b - a);
            busyFast += double(f.busy) * double(b - a);
            // The task shown ran in the column or within a bin of `level` of it.
            if (f.busy > 0) {
                ASSERT_GT(f.pid, 0);
                const uint64_t slack = g.binNs(pc.level);
                const auto [i, j] = l.overlapping(a > slack ? a - slack : 0, b + slack);
                bool ran = false;
                for (size_t k = i; k < j && !ran; ++k) ran = l.pid(k) == f.pid;
                EXPECT_TRUE(ran) << "zoom " << zoom << " column " << c << " pid " << f.pid;
            }
        }
        // In total the window's busy time is the same but for its two end bins.
        EXPECT_NEAR(busyFast, busyExact, 2.0 * double(g.baseNs));
    }
}

TEST(BinLaneLod, PyramidZoomedOutExactZoomedIn) {
    const LaneSlices l = randomLane(5, 40'000);
    const uint64_t first = l.start(0), last = l.end(l.size() - 1);
    const PyramidGrid g = PyramidGrid::covering(first, last, l.size());
    const LanePyramid p(l, g);
    const int w = 1000;
    std::vector<LodColumn> lod, ref;
    // The whole lane: 40 slices per column, 40 bins per column: the pyramid.
    PyramidColumns pc = pyramidColumns(g, first, last, w);
    ASSERT_TRUE(pyramidFits(g, first, last, w));
    binLaneLod(l, &p, &pc, first, last, w, lod);
    binLanePyramid(p, pc, ref);
    for (int c = 0; c < w; ++c) {
        ASSERT_EQ(lod[size_t(c)].busy, ref[size_t(c)].busy);
        ASSERT_EQ(lod[size_t(c)].pid, ref[size_t(c)].pid);
    }
    // A tenth of it: 4 bins per column, too coarse: exact.
    const uint64_t t1 = first + (last - first) / 10;
    EXPECT_FALSE(pyramidFits(g, first, t1, w));
    binLaneLod(l, &p, nullptr, first, t1, w, lod);
    binLane(l, first, t1, w, ref);
    for (int c = 0; c < w; ++c) {
        ASSERT_EQ(lod[size_t(c)].busy, ref[size_t(c)].busy);
        ASSERT_EQ(lod[size_t(c)].pid, ref[size_t(c)].pid);
    }
    // A sparse lane (fewer slices than columns) stays exact even where the grid would fit.
    LaneSlices sparse;
    sparse.add(first + 10, first + 5000, 7);
    sparse.add(last - 5000, last - 10, 8);
    const LanePyramid sp(sparse, g);
    binLaneLod(sparse, &sp, &pc, first, last, w, lod);
    binLane(sparse, first, last, w, ref);
    for (int c = 0; c < w; ++c) ASSERT_EQ(lod[size_t(c)].busy, ref[size_t(c)].busy);
    // No pyramid: exact.
    binLaneLod(l, nullptr, nullptr, first, last, w, lod);
    binLane(l, first, last, w, ref);
    for (int c = 0; c < w; ++c) ASSERT_EQ(lod[size_t(c)].pid, ref[size_t(c)].pid);
}

TEST(MarkBusyColumns, SameAsBinLanesBusyColumns) {
    std::vector<uint8_t> hit;
    std::vector<LodColumn> cols;
    auto check = [&](const LaneSlices& l, uint64_t t0, uint64_t t1, int w) {
        markBusyColumns(l, t0, t1, w, hit);
        binLane(l, t0, t1, w, cols);
        ASSERT_EQ(hit.size(), size_t(w));
        for (int c = 0; c < w; ++c) ASSERT_EQ(hit[size_t(c)] != 0, cols[size_t(c)].busy > 0) << "column " << c << " of " << w;
    };
    LaneSlices sparse;  // one task's slices: rare, some shorter than a column
    for (uint64_t t = 5000; t < 2'000'000; t += 77'777) sparse.add(t, t + 10 + t % 900, 42);
    check(sparse, 0, 2'000'000, 1000);
    check(sparse, 300'000, 400'000, 777);
    check(sparse, 5000, 5100, 300);  // more columns than nanoseconds
    const LaneSlices dense = randomLane(6, 20'000);
    check(dense, dense.start(0), dense.end(dense.size() - 1), 500);  // the binLane fallback
    check(LaneSlices{}, 0, 100, 10);
}

}  // namespace
}  // namespace schedscope
