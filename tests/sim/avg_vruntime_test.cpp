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
        // keys are vruntime to 1/16 ns: the average is within 1/32 ns (plus double rounding)
        ASSERT_NEAR(got, want, 1.0 / 32 + std::fabs(want) * 1e-12) << "step " << step << ", " << q.size() << " queued";
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
        ASSERT_NEAR(a.avg(0, 0, -1), v, 1.0 / 32 + std::fabs(v) * 1e-15);
    }
}

}  // namespace
}  // namespace schedscope::sim
