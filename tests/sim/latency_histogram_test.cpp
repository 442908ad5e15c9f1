// The log-free latency bucket lookup against the formula it replaces.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sim/metrics.h"

namespace schedscope::sim {
namespace {

TEST(LatencyHistogram, TableBucketsEqualTheLogFormula) {
    for (int64_t ns = -5; ns < 2000000; ++ns)
        ASSERT_EQ(LatencyHistogram::bucketOf(ns), LatencyHistogram::bucketOfByLog(ns)) << ns;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 2000000; ++i) {
        const int64_t ns = static_cast<int64_t>(rng() >> (1 + rng() % 63));
        ASSERT_EQ(LatencyHistogram::bucketOf(ns), LatencyHistogram::bucketOfByLog(ns)) << ns;
    }
    // around every bucket edge up to a minute
    for (size_t b = 1; b < 1400; ++b) {
        const int64_t edge = static_cast<int64_t>(std::exp(static_cast<double>(b) * 0.0198026272961797));
        for (int64_t ns = std::max<int64_t>(0, edge - 3); ns <= edge + 3; ++ns)
            ASSERT_EQ(LatencyHistogram::bucketOf(ns), LatencyHistogram::bucketOfByLog(ns)) << ns;
    }
}

TEST(LatencyHistogram, PercentilesAreBucketLowerEdges) {
    LatencyHistogram h;
    EXPECT_EQ(h.percentileNs(50), 0);
    for (int i = 0; i < 50; ++i) h.add(1000);
    for (int i = 0; i < 50; ++i) h.add(5000);
    const double p = h.percentileNs(75);  // in 5000's bucket, above the smallest value
    EXPECT_LT(p, 5000);
    EXPECT_GT(p, 5000 / 1.021);
}

// A bucket's lower edge is below every value in it: waits that are all one 4 ms tick were
// reported as 3,947.6 us, and a change of one bucket between two runs looked like a change.
TEST(LatencyHistogram, PercentilesStayWithinTheValuesAdded) {
    LatencyHistogram h;
    for (int i = 0; i < 100; ++i) h.add(4000000);
    EXPECT_EQ(h.percentileNs(50), 4000000);
    EXPECT_EQ(h.percentileNs(99), 4000000);
    LatencyHistogram two;
    two.add(1000);
    two.add(3000);
    EXPECT_EQ(two.percentileNs(1), 1000);   // the smallest, not its bucket's edge
    EXPECT_LE(two.percentileNs(100), 3000);
    EXPECT_GT(two.percentileNs(100), 3000 / 1.021);
}

}  // namespace
}  // namespace schedscope::sim
