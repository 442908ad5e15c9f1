// Sched groups of non-overlapping levels form one ring per span, shared by its CPUs, as the
// kernel's get_group() shares sched_group objects; each CPU's view starts at its own group.
#include <gtest/gtest.h>

#include <string>

#include "domains/domain_builder.h"
#include "topology/hwloc_loader.h"

namespace schedscope {
namespace {

std::string spans(const GroupRing& groups) {
    std::string out;
    for (const auto& g : groups) out += (out.empty() ? "{" : " {") + g.span.toList() + "}";
    return out;
}

TEST(GroupRing, FlatPackageOf4096CpusKeepsOneRingNotOnePerCpu) {
    // 4096 single-CPU groups per CPU would be 16M groups (gigabytes); the kernel keeps 4096.
    auto t = loadHwlocSynthetic("4096", Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    auto tree = buildDomains(*t, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    const void* ring = tree->domainsOf(0).back().groups.ringId();
    for (int cpu = 0; cpu < 4096; ++cpu) {
        const SchedDomain& top = tree->domainsOf(cpu).back();
        ASSERT_EQ(top.groups.size(), 4096u);
        EXPECT_EQ(top.groups.ringId(), ring) << "cpu" << cpu;
        EXPECT_EQ(top.groups[0].span.first(), cpu);
        EXPECT_EQ(top.groups[4095].span.first(), (cpu + 4095) % 4096) << "the ring wraps";
    }
    EXPECT_TRUE(validateDomainTree(*tree).empty());
}

TEST(GroupRing, EveryCpuSeesTheRingLinkedByTheSpansLastCpu) {
    // Cores {0,5} {1,3} {2,4}: build_sched_groups() relinks the shared groups for every CPU in
    // turn and CPU 5 builds last, from 5 wrapping: {0,5} {1,3} {2,4}. CPU 2 walks that ring
    // from its own group; its own for_each_cpu_wrap order ({2,4} {1,3} {0,5}) does not survive.
    auto t = loadHwlocSynthetic("core:3 pu:2(indexes=0,5,1,3,2,4)", Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    auto tree = buildDomains(*t, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_EQ(spans(tree->domainsOf(5).back().groups), "{0,5} {1,3} {2,4}");
    EXPECT_EQ(spans(tree->domainsOf(2).back().groups), "{2,4} {0,5} {1,3}");
    EXPECT_EQ(spans(tree->domainsOf(3).back().groups), "{1,3} {2,4} {0,5}");
    EXPECT_EQ(spans(tree->domainsOf(3).front().groups), "{3} {1}") << "SMT: the ring from CPU 3";
}

TEST(GroupRing, AListBuiltByHandIsItsOwnRing) {
    GroupRing ring(std::vector<SchedGroup>{{CpuSet::single(1), CpuSet::single(1), 1024},
                                           {CpuSet::single(0), CpuSet::single(0), 1024}});
    EXPECT_EQ(spans(ring), "{1} {0}");
    EXPECT_EQ(ring.front().capacity, 1024u);
    EXPECT_TRUE(GroupRing().empty());
}

}  // namespace
}  // namespace schedscope
