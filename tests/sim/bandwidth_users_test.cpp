// The bandwidth part of the contention model: the stretch of a resource's memory time follows the
// knee of resourceStretch() until what its users draw would pass its capacity, and from there
// holds what they draw at the capacity.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/contention.h"

namespace schedscope::test {
namespace {

sim::BandwidthUsers users(int tasks, double memFraction, double gbs) {
    sim::BandwidthUsers u;
    for (int i = 0; i < tasks; ++i) u.add(memFraction, gbs, +1);
    return u;
}

TEST(BandwidthUsers, BelowCapacityTheStretchIsTheKnee) {
    // 4 stream threads (90% memory, 11 GB/s alone) on a 56 GB/s node: they draw 44 / 1.31
    const auto u = users(4, 0.9, 11);
    EXPECT_DOUBLE_EQ(u.demand(), 44);
    EXPECT_DOUBLE_EQ(u.stretch(56), sim::resourceStretch(44, 56));
    EXPECT_LT(u.drawn(u.stretch(56)), 56);
}

TEST(BandwidthUsers, TasksOnlyOnMemoryKeepTheKneeAtAnyDemand) {
    // all their time on memory: what they draw is demand / knee, below the capacity however
    // large the demand
    for (int tasks : {1, 8, 64}) {
        const auto u = users(tasks, 1.0, 11);
        EXPECT_DOUBLE_EQ(u.stretch(56), sim::resourceStretch(11.0 * tasks, 56)) << tasks;
    }
}

TEST(BandwidthUsers, SaturatedUsersDrawTheCapacity) {
    // 24 stream threads: the knee (4.82) would let them draw 59.5 GB/s from 56
    const auto u = users(24, 0.9, 11);
    const double knee = sim::resourceStretch(264, 56);
    EXPECT_GT(u.drawn(knee), 56);
    const double s = u.stretch(56);
    EXPECT_GT(s, knee);
    EXPECT_NEAR(u.drawn(s), 56, 1e-9);
    // (0.1 + 0.9 s) = 264 / 56 by hand
    EXPECT_NEAR(s, (264.0 / 56 - 0.1) / 0.9, 1e-12);
}

TEST(BandwidthUsers, MixedUsersDrawTheCapacityToo) {
    // stream threads with pixz-like encoders (50%, 3.6 GB/s) and a pbzip2 reader (20%, 2 GB/s)
    sim::BandwidthUsers u = users(12, 0.9, 11);
    for (int i = 0; i < 10; ++i) u.add(0.5, 3.6, +1);
    u.add(0.2, 2.0, +1);
    const double s = u.stretch(56);
    EXPECT_GT(s, sim::resourceStretch(u.demand(), 56));
    EXPECT_LE(u.drawn(s), 56 * (1 + 1e-9));
    EXPECT_NEAR(u.drawn(s), 56, 1e-6);
}

TEST(BandwidthUsers, UsersThatLeaveLeaveNothingBehind) {
    sim::BandwidthUsers u = users(3, 0.9, 11);
    u.add(0.5, 3.6, +1);
    u.add(0.5, 3.6, -1);
    for (int i = 0; i < 3; ++i) u.add(0.9, 11, -1);
    EXPECT_EQ(u.demand(), 0.0);
    EXPECT_EQ(u.stretch(56), 1.0);
    EXPECT_EQ(users(5, 0.9, 11).stretch(0), 1.0);  // no capacity: not a bottleneck
}

}  // namespace
}  // namespace schedscope::test
