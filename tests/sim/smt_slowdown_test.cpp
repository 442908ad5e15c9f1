// The SMT part of the contention model: busy siblings share their core's throughput, which grows
// with the threads that run on it but far less than their number.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/contention.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "topology/topology_source.h"

namespace schedscope::test {
namespace {

TEST(SmtSlowdown, CoreThroughputGrowsWithItsBusyThreadsAsAPower) {
    const sim::ContentionParams p;  // smtSlowdown 1.6: two threads do 1.25x one
    EXPECT_EQ(sim::smtSlowdownOf(p, 0), 1.0);
    EXPECT_EQ(sim::smtSlowdownOf(p, 1), 1.0);
    EXPECT_EQ(sim::smtSlowdownOf(p, 2), 1.6);  // exactly: SMT2 machines' figures do not move
    auto coreThroughput = [&](int k) { return k / sim::smtSlowdownOf(p, k); };
    EXPECT_NEAR(coreThroughput(2), 1.25, 1e-12);
    EXPECT_NEAR(coreThroughput(4), 1.5625, 1e-9);  // 1.25^2
    EXPECT_NEAR(coreThroughput(8), 1.953125, 1e-9);
}

// the work per second of `threads` CPU-bound threads on one core of `smt` hardware threads
double workPerSecond(int smt, int threads) {
    auto topo = loadTopology({TopologySpec::Kind::Synthetic, "core:1 pu:" + std::to_string(smt)});
    EXPECT_TRUE(topo.ok()) << (topo.ok() ? "" : topo.error());
    if (!topo.ok()) return 0;
    auto run = runSpec(*topo, "linux-6.12", "sysbench-cpu:threads=" + std::to_string(threads), 0.2);
    if (!run) return 0;
    double work = 0;
    for (const auto& t : run->tasks) work += t.workDone;
    return work / static_cast<double>(run->now);
}

// An SMT8 core (POWER8) running 8 CPU-bound threads did 5x the work of one thread: 1.6 slowed
// each of 8, not each of 2. Now about 2x, as such cores give.
TEST(SmtSlowdown, AnSmt8CoreFullOfThreadsDoesAboutTwiceTheWorkOfOne) {
    const double one = workPerSecond(8, 1);
    ASSERT_GT(one, 0);
    const double two = workPerSecond(8, 2) / one, four = workPerSecond(8, 4) / one, eight = workPerSecond(8, 8) / one;
    std::printf("one SMT8 core: 2 threads %.2fx, 4 threads %.2fx, 8 threads %.2fx one thread's work\n", two, four, eight);
    EXPECT_NEAR(two, 1.25, 0.02);
    EXPECT_NEAR(four, 1.56, 0.03);
    EXPECT_NEAR(eight, 1.95, 0.04);
}

}  // namespace
}  // namespace schedscope::test
