// Which rows of the distance table sched_init_numa() takes its NUMA levels from, by kernel:
// before 5.12 node 0's row alone, since 5.12 every row; before 5.18 memory-only nodes' distances
// too, since 5.18 only those between nodes with CPUs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domains/domain_builder.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

std::vector<std::string> spansOf(const DomainTree& tree, int cpu) {
    std::vector<std::string> out;
    for (const auto& d : tree.domainsOf(cpu)) out.push_back(d.level + " " + d.span.toList());
    return out;
}

// Kunpeng 920's distances (node 0: 10 12 20 22; node 1: 12 10 22 24). (Not validated: before
// 5.13 the kernel itself built groups reaching past their domain here, kernel_log_reader_test.) Before 5.12 the levels are
// node 0's 12, 20 and 22: no level is 24 away, so node 1's CPUs never get a domain reaching
// node 3 (72-95) and balance with it only through the CPUs of other nodes. The lore thread of
// the fix shows this table ("ERROR: Node-0 not representative", with sched_debug).
TEST(NumaDistanceRows, BeforeFiveTwelveOnlyNodeZerosRowMakesLevels) {
    auto topo = loadTopology({TopologySpec::Kind::Preset, "kunpeng920-24"});
    ASSERT_TRUE(topo.ok()) << topo.error();
    ASSERT_EQ(topo->nodeDistance(1, 3), 24);
    const DomainTree before = test::buildDomainsUnder(*topo, Arch::Arm64, "linux-5.10");
    EXPECT_EQ(spansOf(before, 24), (std::vector<std::string>{"MC 24-47", "NUMA 0-47", "NUMA 0-71"}));
    EXPECT_EQ(spansOf(before, 0), (std::vector<std::string>{"MC 0-23", "NUMA 0-47", "NUMA 0-71", "NUMA 0-95"}));
    EXPECT_EQ(spansOf(before, 72), (std::vector<std::string>{"MC 72-95", "NUMA 48-95", "NUMA 0-23,48-95"}));
    const DomainTree after = test::buildDomainsUnder(*topo, Arch::Arm64, "linux-5.12");
    EXPECT_EQ(spansOf(after, 24), (std::vector<std::string>{"MC 24-47", "NUMA 0-47", "NUMA 0-71", "NUMA 0-95"}));
    EXPECT_EQ(spansOf(after, 72), (std::vector<std::string>{"MC 72-95", "NUMA 48-95", "NUMA 0-23,48-95", "NUMA 0-95"}));
}

// A memory-only node 17 and 28 away (the QEMU guest of the oracle case): before 5.18 its
// distances are levels too, which add no CPU to any span and so degenerate; the domains are the
// ones the 6.1 kernel built.
TEST(NumaDistanceRows, MemoryOnlyNodesDistancesMakeOnlyDegenerateLevels) {
    auto topo = loadSysfsTopology(test::extractFixture("oracle/x86-2s2d2c2t-memory-node-maxcpus12/sysfs.tar.xz"), Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    ASSERT_EQ(topo->nodes.size(), 3u);
    ASSERT_TRUE(topo->nodeCpus(2).empty());
    const DomainTree now = test::buildValidDomains(*topo, Arch::X86_64, "linux-6.1");
    for (const char* profile : {"linux-5.10", "linux-5.15"}) {
        const DomainTree then = test::buildValidDomains(*topo, Arch::X86_64, profile);
        for (int cpu : {0, 8}) EXPECT_EQ(spansOf(then, cpu), spansOf(now, cpu)) << profile << " cpu " << cpu;
    }
}

}  // namespace
}  // namespace schedscope
