#include <gtest/gtest.h>

#include "topology/isolcpus_list.h"
#include "util/cpuset.h"

using schedscope::CpuSet;
using schedscope::isolcpusCpuList;

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

// bitmap_parselist()'s strides, as isolcpus= and cpuset.cpus take them: the first `used` CPUs of
// every `group` from the start up to the end of the range
TEST(CpuSet, ParsesTheKernelsStrides) {
    EXPECT_EQ(CpuSet::parseList("0-7:2/4")->toList(), "0-1,4-5");
    EXPECT_EQ(CpuSet::parseList("1-7:2/4")->toList(), "1-2,5-6");
    EXPECT_EQ(CpuSet::parseList("0-6:3/4")->toList(), "0-2,4-6");  // the last group cut at the range's end
    EXPECT_EQ(CpuSet::parseList("0-9:1/3,20")->toList(), "0,3,6,9,20");
    EXPECT_EQ(CpuSet::parseList("0-3:4/4")->toList(), "0-3");
    for (const char* bad : {"0-7:5/4", "0-7:0/4", "0-7:2/0", "0-7:2", "4:1/2", "0-7:x/4"}) {
        auto r = CpuSet::parseList(bad);
        EXPECT_FALSE(r.ok()) << bad;
        if (!r.ok()) {
            EXPECT_NE(r.error().find("bad cpu"), std::string::npos) << r.error();
        }
    }
    // N, the kernel's last CPU, needs the machine
    for (const char* n : {"N", "8-N"}) {
        auto r = CpuSet::parseList(n);
        ASSERT_FALSE(r.ok()) << n;
        EXPECT_NE(r.error().find("N (the last CPU) needs the machine"), std::string::npos) << r.error();
    }
}

// isolcpus= as pasted from /proc/cmdline: its flags before the cpulist
TEST(CpuSet, IsolcpusValuesKeepTheirCpuListAndOnlyDomainIsolates) {
    EXPECT_EQ(*isolcpusCpuList("2-3"), "2-3");
    EXPECT_EQ(*isolcpusCpuList("domain,2-3"), "2-3");
    EXPECT_EQ(*isolcpusCpuList("nohz,domain,managed_irq,1-7:2/4"), "1-7:2/4");
    auto nohz = isolcpusCpuList("nohz,2-3");
    ASSERT_FALSE(nohz.ok());
    EXPECT_NE(nohz.error().find("leaves the CPUs in the sched domains"), std::string::npos) << nohz.error();
    auto unknown = isolcpusCpuList("domian,2-3");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("unknown isolcpus flag 'domian'"), std::string::npos) << unknown.error();
    EXPECT_FALSE(isolcpusCpuList("domain").ok());
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
