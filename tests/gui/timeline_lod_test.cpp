// The timeline's level-of-detail math is Qt-free: this test links GoogleTest only.
#include <gtest/gtest.h>

#include <numeric>

#include "timeline_lod.h"

namespace schedscope {
namespace {

LaneSlices threeSlices() {
    LaneSlices l;
    l.add(100, 200, 1);  // busy 100..200
    l.add(300, 400, 2);  // busy 300..400
    l.add(400, 450, 3);  // back to back with the previous one
    return l;
}

TEST(LaneSlices, BusyTimeFromPrefixSums) {
    const LaneSlices l = threeSlices();
    ASSERT_EQ(l.size(), 3u);
    EXPECT_EQ(l.busyBefore(0), 0u);
    EXPECT_EQ(l.busyBefore(150), 50u);
    EXPECT_EQ(l.busyBefore(250), 100u);
    EXPECT_EQ(l.busyBefore(420), 220u);
    EXPECT_EQ(l.busyBefore(10'000), 250u);
    EXPECT_EQ(l.busyIn(150, 350), 100u);
    EXPECT_EQ(l.busyIn(350, 150), 0u);
    EXPECT_EQ(l.totalBusy(), 250u);
    EXPECT_EQ(l.sliceAt(150), 0);
    EXPECT_EQ(l.sliceAt(250), -1);
    EXPECT_EQ(l.sliceAt(400), 2);  // half-open: 400 belongs to the next slice
    const auto [a, b] = l.overlapping(150, 320);
    EXPECT_EQ(a, 0u);
    EXPECT_EQ(b, 2u);
}

TEST(LaneSlices, ClipsOverlapsAndDropsEmptySlices) {
    LaneSlices l;
    l.add(100, 200, 1);
    l.add(150, 250, 2);  // clipped to 200..250
    l.add(260, 260, 3);  // empty
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(l.start(1), 200u);
    EXPECT_EQ(l.totalBusy(), 150u);
}

TEST(BinLane, BusyFractionAndTaskPerColumn) {
    const LaneSlices l = threeSlices();
    std::vector<LodColumn> cols;
    binLane(l, 0, 500, 5, cols);  // columns of 100 ns
    ASSERT_EQ(cols.size(), 5u);
    EXPECT_FLOAT_EQ(cols[0].busy, 0.0f);
    EXPECT_EQ(cols[0].pid, -1);
    EXPECT_FLOAT_EQ(cols[1].busy, 1.0f);
    EXPECT_EQ(cols[1].pid, 1);
    EXPECT_FLOAT_EQ(cols[2].busy, 0.0f);
    EXPECT_FLOAT_EQ(cols[3].busy, 1.0f);
    EXPECT_EQ(cols[3].pid, 2);
    EXPECT_FLOAT_EQ(cols[4].busy, 0.5f);
    EXPECT_EQ(cols[4].pid, 3);  // nothing runs at the middle (450): the first slice in the column
}

TEST(BinLane, MoreColumnsThanNanosecondsAndEmptyInputs) {
    const LaneSlices l = threeSlices();
    std::vector<LodColumn> cols;
    binLane(l, 100, 104, 16, cols);
    ASSERT_EQ(cols.size(), 16u);
    float total = 0;
    for (const auto& c : cols) total += c.busy;
    EXPECT_GT(total, 0.0f);
    binLane(LaneSlices{}, 0, 100, 10, cols);
    EXPECT_EQ(cols.size(), 10u);
    binLane(l, 100, 100, 10, cols);
    for (const auto& c : cols) EXPECT_EQ(c.busy, 0.0f);
}

TEST(BinLane, SumOfColumnsIsTheBusyTime) {
    // Many small slices: each column's fraction times its width adds up to the busy time.
    LaneSlices l;
    uint64_t t = 0;
    for (int i = 0; i < 10'000; ++i) {
        l.add(t, t + 7 + uint64_t(i % 13), i % 50);
        t += 30 + uint64_t(i % 17);
    }
    std::vector<LodColumn> cols;
    const int w = 997;
    binLane(l, 0, t, w, cols);
    double busy = 0;
    for (int c = 0; c < w; ++c)
        busy += double(cols[size_t(c)].busy) * double(columnEdge(0, t, w, c + 1) - columnEdge(0, t, w, c));
    EXPECT_NEAR(busy, double(l.totalBusy()), double(l.totalBusy()) * 1e-5);
}

TEST(SampleForPixels, AtMostOnePerBucket) {
    std::vector<uint64_t> ts(100'000);
    std::iota(ts.begin(), ts.end(), 0);
    const auto picks = sampleForPixels(ts.size(), [&](size_t i) { return ts[i]; }, 0, 100'000, 500, 2);
    EXPECT_LE(picks.size(), 251u);
    EXPECT_GE(picks.size(), 240u);
    for (size_t i = 1; i < picks.size(); ++i) EXPECT_GT(picks[i], picks[i - 1]);
    // Sparse events: every one is kept.
    const std::vector<uint64_t> sparse = {10, 5000, 90'000};
    EXPECT_EQ(sampleForPixels(sparse.size(), [&](size_t i) { return sparse[i]; }, 0, 100'000, 500).size(), 3u);
    EXPECT_TRUE(sampleForPixels(sparse.size(), [&](size_t i) { return sparse[i]; }, 95'000, 100'000, 500).empty());
}

TEST(Statistics, PercentileCountAndHistogram) {
    std::vector<uint64_t> v;
    for (uint64_t i = 1; i <= 100; ++i) v.push_back(i);
    EXPECT_EQ(percentile(v, 50), 50u);
    EXPECT_EQ(percentile(v, 95), 95u);
    EXPECT_EQ(percentile(v, 100), 100u);
    EXPECT_EQ(percentile({}, 95), 0u);
    EXPECT_EQ(countInRange(v, 10, 20), 10u);
    EXPECT_EQ(countInRange(v, 20, 10), 0u);
    const LogHistogram h = logHistogram({1000, 1000, 10'000, 100'000}, 3, 1000, 1'000'000);
    ASSERT_EQ(h.counts.size(), 3u);
    EXPECT_EQ(h.counts[0], 2u);
    EXPECT_EQ(h.counts[1], 1u);
    EXPECT_EQ(h.counts[2], 1u);
    EXPECT_NEAR(h.edge(1), 10'000, 1e-6);
    const LogHistogram autoRange = logHistogram({5, 50, 500}, 10);
    uint64_t n = 0;
    for (auto c : autoRange.counts) n += c;
    EXPECT_EQ(n, 3u);
}

}  // namespace
}  // namespace schedscope
