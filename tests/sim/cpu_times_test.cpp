// CpuTimes: a task's CPU time per CPU, sparse.
#include "sim/cpu_times.h"

#include <gtest/gtest.h>

#include <vector>

namespace schedscope::test {
namespace {

using sim::CpuTimes;

TEST(CpuTimes, AddsUpPerCpuInCpuOrder) {
    CpuTimes t;
    t.add(4095, 10);
    t.add(3, 5);
    t.add(4095, 7);
    t.add(100, 0);  // no time: nothing kept
    t.add(7, -1);
    std::vector<int> cpus;
    for (const CpuTimes::Entry& e : t) cpus.push_back(e.cpu);
    EXPECT_EQ(cpus, (std::vector<int>{3, 4095}));
    EXPECT_EQ(t.of(4095), 17);
    EXPECT_EQ(t.of(3), 5);
    EXPECT_EQ(t.of(100), 0);
    EXPECT_EQ(t.total(), 22);
}

TEST(CpuTimes, MostUsedIsTheLowestOfEquals) {
    CpuTimes t;
    EXPECT_EQ(t.mostUsed(), -1);
    t.add(9, 40);
    t.add(2, 40);
    t.add(5, 39);
    EXPECT_EQ(t.mostUsed(), 2);
    t.add(5, 2);
    EXPECT_EQ(t.mostUsed(), 5);
}

}  // namespace
}  // namespace schedscope::test
