// The CLI's tables print a metric to the precision it has (metric_text.h).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "metric_text.h"
#include "sim/metrics.h"

namespace schedscope::cli {
namespace {

TEST(MetricText, WaitPercentilesKeepThreeSignificantFigures) {
    // the figures replay printed for tests/data/traces/replay/hackbench.dat
    EXPECT_EQ(metricText("wait_p95_us", 11054.5399), "11055");
    EXPECT_EQ(metricText("wait_p50_us", 27.9440), "27.9");
    EXPECT_EQ(metricText("wait_p50_us", 7.5627), "7.56");
    EXPECT_EQ(metricText("wait_p99_us", 0.5), "0.500");
    EXPECT_EQ(metricText("wait_p99_us", 0.0), "0");
    EXPECT_EQ(metricDeltaText("wait_p50_us", 27.9440, 7.5627), "-20.38");
}

TEST(MetricText, PercentilesOfAHistogramDifferInTheirThirdFigureAtMost) {
    // two waits 1% apart fall in one 2% bucket or in neighbours: printed, they agree to within
    // one unit of the third figure, so the text claims no more than the histogram holds
    sim::LatencyHistogram a, b;
    a.add(27944);
    b.add(28223);
    const std::string ta = metricText("wait_p50_us", a.percentileNs(50) / 1e3);
    const std::string tb = metricText("wait_p50_us", b.percentileNs(50) / 1e3);
    ASSERT_EQ(ta.size(), 4u) << ta;
    EXPECT_LE(std::abs(std::stod(ta) - std::stod(tb)), 0.61) << ta << " vs " << tb;
}

TEST(MetricText, CountsAreWholeAndOtherMetricsKeepFourDecimals) {
    EXPECT_EQ(metricText("migrations", 5), "5");
    EXPECT_EQ(metricText("migrations_MC", 55), "55");
    EXPECT_EQ(metricText("newidle_passes", 1234), "1234");
    EXPECT_EQ(metricDeltaText("migrations", 55, 49), "-6");
    EXPECT_EQ(metricText("cpu_time_s", 0.174), "0.1740");
    EXPECT_EQ(metricText("throughput", 26.2345), "26.2345");
    EXPECT_EQ(metricDeltaText("utilisation_of_cpus_used", 0.9911, 0.8455), "-0.1456");
    EXPECT_EQ(metricDeltaText("cpus_used", 2, 12), "+10");
}

}  // namespace
}  // namespace schedscope::cli
