// AvgVruntime's running sums against a brute-force weighted average.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "sim/avg_vruntime.h"

namespace schedscope::sim {
namespace {

struct Entity {
    double v;
    int64_t w;
};

double bruteAverage(const std::vector<Entity>& q, const Entity* curr) {
    double sum = 0, w = 0;
    for (const auto& e : q) { sum += e.v * static_cast<double>(e.w); w += static_cast<double>(e.w); }
    if (curr) { sum += curr->v * static_cast<double>(curr->w); w += static_cast<double>(curr->w); }
    return sum / w;
}

TEST(AvgVruntime, EmptyGivesTheFallback) {
    AvgVruntime a;
    EXPECT_EQ(a.avg(0, 0, 123.5), 123.5);
    a.add(10, 1024);
    a.sub(10, 1024);
    EXPECT_EQ(a.load(), 0);
    EXPECT_EQ(a.avg(0, 0, 7), 7);
    EXPECT_DOUBLE_EQ(a.avg(50, 1024, 7), 50);  // curr alone
}

TEST(AvgVruntime, MatchesBruteForceAfterRandomEnqueueDequeue) {
    const int64_t weights[] = {15, 335, 1024, 1024, 3121, 88761};
    std::mt19937_64 rng(4);
    AvgVruntime a;
    std::vector<Entity> q;
    double base = 0;  // the queue's vruntimes advance, as a runqueue's do
    for (int step = 0; step < 200000; ++step) {
        base += static_cast<double>(rng() % 1000000) / 7.0;
        const bool add = q.empty() || (q.size() < 300 && rng() % 2 == 0);
        if (add) {
            Entity e{base + static_cast<double>(rng() % 20000000) / 3.0 - 3e6, weights[rng() % 6]};
            q.push_back(e);
            a.add(e.v, e.w);
        } else {
            const size_t i = rng() % q.size();
            a.sub(q[i].v, q[i].w);
            q.erase(q.begin() + static_cast<long>(i));
        }
        if (q.empty()) {
            EXPECT_EQ(a.load(), 0);
            continue;
        }
        const Entity curr{base, 1024};
        const bool withCurr = rng() % 2 == 0;
        const double want = bruteAverage(q, withCurr ? &curr : nullptr);
        const double got = withCurr ? a.avg(curr.v, curr.w, -1) : a.avg(0, 0, -1);
        // keys are vruntime to 1/16 ns (rounded: 1/32 ns off) and the average floors to a key
        // (up to 1/16 ns below): within 3/32 ns (plus double rounding), never above by more than 1/32
        ASSERT_NEAR(got, want, 3.0 / 32 + std::fabs(want) * 1e-12) << "step " << step << ", " << q.size() << " queued";
        ASSERT_LE(got, want + 1.0 / 32 + std::fabs(want) * 1e-12) << "step " << step;
    }
}

TEST(AvgVruntime, LongRunsMoveTheOriginWithoutDrift) {
    AvgVruntime a;
    a.add(0, 1024);
    // a queue that never empties while its vruntimes move by 1e15 ns: the origin follows
    double v = 0;
    for (int i = 0; i < 1000; ++i) {
        const double next = v + 1e12;
        a.add(next, 2048);
        a.sub(v, i == 0 ? 1024 : 2048);
        v = next;
        ASSERT_NEAR(a.avg(0, 0, -1), v, 3.0 / 32 + std::fabs(v) * 1e-15);
    }
}

}  // namespace
}  // namespace schedscope::sim

namespace schedscope::sim {
namespace {

// eligible() compares without dividing, as vruntime_eligible() does; it agrees with the average
// except within the keys' 1/16 ns rounding.
TEST(AvgVruntime, EligibleAgreesWithTheAverage) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> vr(0, 50e6);
    const int64_t weights[] = {1024, 335, 3121, 15, 88761};
    int checked = 0;
    for (int round = 0; round < 200; ++round) {
        AvgVruntime a;
        std::vector<Entity> q;
        for (int i = 0; i < 1 + round % 7; ++i) {
            q.push_back({vr(rng), weights[rng() % 5]});
            a.add(q.back().v, q.back().w);
        }
        const Entity curr{vr(rng), weights[rng() % 5]};
        const double avg = bruteAverage(q, &curr);
        for (int k = 0; k < 20; ++k) {
            const double v = vr(rng);
            if (std::fabs(v - avg) < 1.0) continue;  // within rounding either answer is right
            EXPECT_EQ(a.eligible(v, curr.v, curr.w), v <= avg) << "v " << v << " avg " << avg;
            ++checked;
        }
        EXPECT_TRUE(a.eligible(avg - 10, curr.v, curr.w));
        EXPECT_FALSE(a.eligible(avg + 10, curr.v, curr.w));
    }
    EXPECT_GT(checked, 3000);
    EXPECT_TRUE(AvgVruntime{}.eligible(123, 0, 0)) << "an empty queue: anything is eligible";
}

}  // namespace
}  // namespace schedscope::sim
