#include <gtest/gtest.h>

#include "util/cpuset.h"

using schedscope::CpuSet;

TEST(CpuSet, ParsesAndPrintsKernelCpulists) {
    auto s = CpuSet::parseList("0-3,8,10-11\n");
    ASSERT_TRUE(s.ok()) << s.error();
    EXPECT_EQ(s->count(), 7);
    EXPECT_EQ(s->toList(), "0-3,8,10-11");
    EXPECT_TRUE(s->test(8));
    EXPECT_FALSE(s->test(9));
    EXPECT_EQ(CpuSet::parseList("")->count(), 0);
}

TEST(CpuSet, RejectsMalformedLists) {
    EXPECT_FALSE(CpuSet::parseList("3-1").ok());
    EXPECT_FALSE(CpuSet::parseList("a").ok());
    EXPECT_FALSE(CpuSet::parseList("1,,2").ok());
    EXPECT_FALSE(CpuSet::parseList("0-100000").ok());
}

TEST(CpuSet, ParsesHexMasksMostSignificantWordFirst) {
    auto s = CpuSet::parseMask("00000001,000000ff");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->toList(), "0-7,32");
}

TEST(CpuSet, WrapsFromAStartingCpuLikeForEachCpuWrap) {
    auto s = *CpuSet::parseList("0-7");
    std::vector<int> expect = {5, 6, 7, 0, 1, 2, 3, 4};
    EXPECT_EQ(s.toVectorWrappedFrom(5), expect);
}

TEST(CpuSet, SetAlgebra) {
    auto a = *CpuSet::parseList("0-63,100");
    auto b = *CpuSet::parseList("60-70");
    EXPECT_EQ((a & b).toList(), "60-63");
    EXPECT_EQ((a | b).toList(), "0-70,100");
    EXPECT_EQ(a.minus(b).toList(), "0-59,100");
    EXPECT_TRUE((a & b).isSubsetOf(a));
    EXPECT_FALSE(b.isSubsetOf(a));
    EXPECT_EQ(a.next(63), 100);
    EXPECT_EQ(a.last(), 100);
}
