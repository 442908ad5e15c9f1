// Real sysfs dumps with the quirks of their kernels and of the tools that saved them, all from
// hwloc's test suite (tests/hwloc/linux/): NUL-terminated attribute files (a 128-core Kunpeng
// 920), a kernel exporting thread_siblings only (a PS3), nodes that all list the same CPUs with an
// all-10 distance table (an SGI Altix XE320 with buggy NUMA firmware), a distance of 0 with cache
// maps left empty (an ia64 machine), a Bulldozer compute unit's shared L2 listed as private in
// its list file, list files that disagree with their hex masks, and an SNC2 Xeon whose L3 spans
// two nodes. Each loads as the kernel would have run it and says what it set aside.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/snapshot_archive.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_format.h"

namespace schedscope {
namespace {

Topology loadQuirky(const std::string& tarball) {
    const auto found = findSnapshotRoot(test::extractFixture("topologies/sysfs/" + tarball));
    EXPECT_TRUE(found.ok()) << tarball << ": " << (found.ok() ? "" : found.error());
    if (!found.ok()) return {};
    const std::string& root = *found;
    auto topo = loadSysfsTopology(root, detectSnapshotArch(root).value_or(Arch::X86_64));
    EXPECT_TRUE(topo.ok()) << tarball << ": " << (topo.ok() ? "" : topo.error());
    return topo.ok() ? std::move(topo).value() : Topology{};
}

bool anyWarningHas(const Topology& t, const std::string& text) {
    for (const auto& w : t.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

TEST(SysfsQuirks, AKunpeng920DumpWithNulTerminatedFilesBuildsTheSeedsHierarchy) {
    // 2 packages x 2 nodes x 8 clusters of 4 cores; every cpulist file ends "\n\0"
    const Topology topo = loadQuirky("128arm-2pa2n8cluster4co.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 128);
    EXPECT_EQ(topo.arch, Arch::Arm64);
    EXPECT_TRUE(topo.warnings.empty());
    EXPECT_EQ(topo.cpus[0].clusterCpus.toList(), "0-3");
    EXPECT_EQ(topo.nodes.size(), 4u);
    auto tree = buildDomains(topo, {.arch = Arch::Arm64});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(validateDomainTree(*tree).empty());
    const auto& d = tree->domainsOf(0);
    // distances from node 0: 16, 32, 33 (25 is node 1's to node 2): the 25 level spans what the
    // 16 one does for cpu0 and degenerates
    std::vector<std::string> spans;
    spans.reserve(d.size());
    for (const auto& sd : d) spans.push_back(sd.level + " " + sd.span.toList());
    EXPECT_EQ(spans, (std::vector<std::string>{"CLS 0-3", "MC 0-31", "NUMA 0-63", "NUMA 0-95", "NUMA 0-127"}));
    ASSERT_EQ(d.size(), 5u);
    // The overlapping NUMA groups: at 0-95 node 2's group is its own node, not the 32-127 its
    // sibling's child spans (find_descended_sibling(), the fix found on this very machine); at
    // the top, node 3's group is its 32-distance span, 32-127, overlapping cpu0's 0-95.
    ASSERT_EQ(d[3].groups.size(), 2u);
    EXPECT_EQ(d[3].groups[0].span.toList(), "0-63");
    EXPECT_EQ(d[3].groups[1].span.toList(), "64-95");
    ASSERT_EQ(d[4].groups.size(), 2u);
    EXPECT_EQ(d[4].groups[0].span.toList(), "0-95");
    EXPECT_EQ(d[4].groups[1].span.toList(), "32-127");
}

TEST(SysfsQuirks, AKernelWithOnlyThreadSiblingsGetsAPackageHoldingThem) {
    // a PS3 (Cell, 2.6-era kernel): cpuN/topology holds thread_siblings and nothing else
    const Topology topo = loadQuirky("2ps3-2t.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 2);
    EXPECT_EQ(topo.cpus[0].packageCpus.toList(), "0-1");
    auto tree = buildDomains(topo, {.arch = topo.arch});
    ASSERT_TRUE(tree.ok()) << tree.error();
    ASSERT_EQ(tree->domainsOf(0).size(), 1u);
    EXPECT_EQ(tree->domainsOf(0)[0].level, "SMT");
}

TEST(SysfsQuirks, NodesListingTheSameCpusKeepEachOnTheLowestAndTheirAll10TableIsIgnored) {
    // eight nodes, each listing CPUs 0-7, every distance 10 (hwloc drops the NUMA information)
    const Topology topo = loadQuirky("8em64t-2s2ca2c-buggynuma.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 8);
    EXPECT_EQ(topo.nodeCpus(0).toList(), "0-7");
    for (int n = 1; n < 8; ++n) EXPECT_TRUE(topo.nodeCpus(n).empty()) << "node" << n;
    EXPECT_TRUE(anyWarningHas(topo, "node1, node2, node3, node4, node5, node6, node7 list CPUs 0-7")) << topo.warnings.front();
    EXPECT_TRUE(anyWarningHas(topo, "NUMA distance 10 from node 0 to node 1 is not a valid SLIT entry"));
    EXPECT_EQ(topo.nodeDistance(0, 1), 20);
    auto tree = buildDomains(topo, {.arch = Arch::X86_64, .profile = findProfile("linux-6.19")});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(validateDomainTree(*tree).empty());
    // two sockets sharing one node: no NUMA level, the package spans both
    EXPECT_EQ(tree->domainsOf(0).back().span.toList(), "0-7");
    EXPECT_EQ(tree->lowestCommonLevel(0, 1), "PKG");
    // 7.0 counts the nodes holding CPUs per package (one node over two packages here) and keeps PKG
    auto since70 = buildDomains(topo, {.arch = Arch::X86_64, .profile = findProfile("linux-7.0")});
    ASSERT_TRUE(since70.ok()) << since70.error();
    EXPECT_EQ(since70->domainsOf(0).back().span.toList(), "0-7");
    EXPECT_EQ(since70->lowestCommonLevel(0, 1), "PKG");
}

TEST(SysfsQuirks, ADistanceOfZeroAndEmptyCacheMapsAreSetAside) {
    const Topology topo = loadQuirky("8ia64-2s2c2t.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 8);
    ASSERT_EQ(topo.distance.size(), 1u);
    EXPECT_EQ(topo.distance[0][0], 10);
    EXPECT_TRUE(anyWarningHas(topo, "NUMA distance 0 from node 0 to node 0"));
    // the L3's shared_cpu_map is all zeros: the last level known is the L2 of the core's threads
    EXPECT_EQ(topo.llcCpus(0).toList(), "0-1");
    auto tree = buildDomains(topo, {.arch = topo.arch});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(tree->warnings.empty()) << tree->warnings.front();
    EXPECT_TRUE(validateDomainTree(*tree).empty());
}

TEST(SysfsQuirks, SubNumaClusteringCutsTheLlcDomainAtTheNodeAndDropsPkg) {
    // dual Xeon Gold 6230 in SNC2 mode: each package's L3 (cacheinfo) spans both of its nodes,
    // but match_llc() links no CPUs of different nodes, so MC is the node; the package holds
    // two nodes (x86_has_numa_in_package), so no PKG level: the SLIT's 11 builds it instead
    const Topology topo = loadQuirky("memorysidecaches.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 80);
    ASSERT_EQ(topo.llcCpus(0).count(), 40);
    auto tree = buildDomains(topo, {.arch = Arch::X86_64});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(tree->warnings.empty()) << tree->warnings.front();
    EXPECT_TRUE(validateDomainTree(*tree).empty());
    std::vector<std::string> levels;
    std::vector<int> sizes;
    levels.reserve(tree->domainsOf(0).size());
    sizes.reserve(tree->domainsOf(0).size());
    for (const auto& sd : tree->domainsOf(0)) {
        levels.push_back(sd.level);
        sizes.push_back(sd.span.count());
    }
    EXPECT_EQ(levels, (std::vector<std::string>{"SMT", "MC", "NUMA", "NUMA"}));
    EXPECT_EQ(sizes, (std::vector<int>{2, 20, 40, 80}));
    EXPECT_EQ(tree->domainsOf(0)[1].span, topo.nodeCpus(0));
    EXPECT_EQ(tree->domainsOf(0)[2].span, topo.cpus[0].packageCpus);
}

TEST(SysfsQuirks, AnL2ListedAsPrivateStillHoldsTheThreadsThatShareIt) {
    // Opteron 6276 (Bulldozer) on a 3.x kernel: a compute unit's two cores are thread siblings,
    // and share their L1i and L2 in shared_cpu_map, but shared_cpu_list lists each as one
    // core's own. The masks are read, as hwloc reads them (its .console: one L2 per two cores),
    // and the disagreement is said. Without cluster_cpus the x86 cluster is the L2's sharers.
    const Topology topo = loadQuirky("64amd64-4s2n4ca2co.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 64);
    EXPECT_EQ(topo.cpus[0].threadSiblings.toList(), "0-1");
    EXPECT_EQ(topo.cpus[0].clusterCpus.toList(), "0-1");
    ASSERT_GE(topo.cpus[0].caches.size(), 3u);
    EXPECT_EQ(topo.cpus[0].caches[2].level, 2);
    EXPECT_EQ(topo.cpus[0].caches[2].shared.toList(), "0-1");
    EXPECT_TRUE(anyWarningHas(topo, "128 hex masks disagree with their list files")) << topo.warnings.size();
    auto tree = buildDomains(topo, {.arch = Arch::X86_64});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(tree->warnings.empty()) << tree->warnings.front();  // was "SMT not a subset of CLS" for all 64
    EXPECT_EQ(tree->domainsOf(0)[0].level, "SMT");
    EXPECT_EQ(tree->domainsOf(0)[1].level, "MC");
    EXPECT_EQ(tree->domainsOf(0)[1].span.toList(), "0-7");
}

TEST(SysfsQuirks, ListFilesThatDisagreeWithTheirMasksGiveWayToTheMasks) {
    // hwloc's made-up 64-CPU machine: its shared_cpu_list files give every package's L3 as CPUs
    // 0-7 and its L2s as a core's own, where the masks (and hwloc's .console) give each package
    // its L3 and each L2 to two cores. Read from the lists, CPU 8's LLC left CPU 8 out, and the
    // cluster level overlapped itself: the kernel would have built no domains at all.
    const Topology topo = loadQuirky("64fake-4n2s2ca2c2t.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 64);
    EXPECT_TRUE(anyWarningHas(topo, "244 hex masks disagree with their list files, which a kernel never prints (first: ")) << topo.warnings.size();
    EXPECT_TRUE(anyWarningHas(topo, "cpu0/cache/index2/shared_cpu_map says 0,2,4,6, shared_cpu_list 0,4)"));
    EXPECT_EQ(topo.llcCpus(8).toList(), "8-15");
    EXPECT_EQ(topo.cpus[0].clusterCpus.toList(), "0,2,4,6");
    auto tree = buildDomains(topo, {.arch = Arch::X86_64});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(tree->warnings.empty()) << tree->warnings.front();
    std::vector<std::string> spans;
    for (const auto& sd : tree->domainsOf(8)) spans.push_back(sd.level + " " + sd.span.toList());
    EXPECT_EQ(spans, (std::vector<std::string>{"SMT 8,12", "CLS 8,10,12,14", "MC 8-15", "PKG 0-15", "NUMA 0-63"}));
}

std::vector<std::string> x86LlcSpans(const DomainTree& tree, int cpu) {
    std::vector<std::string> spans;
    for (const auto& sd : tree.domainsOf(cpu)) spans.push_back(sd.level + " " + sd.span.toList());
    return spans;
}

// x86 always has an LLC id: the last cache CPUID describes, else the package (Intel's
// "cpuid2 doesn't specify shared caches", AMD's "use socket ID also for last level cache").
// A K8 Opteron (private L2s, no L3) builds MC over its 2-core package, not one LLC per core.
TEST(X86Llc, APreZenAmdWithoutAnL3SharesItsPackage) {
    const Topology topo = loadQuirky("16amd64-8n2c.tar.bz2");
    ASSERT_EQ(topo.onlineCount(), 16);
    EXPECT_EQ(topo.cpuVendor, "AuthenticAMD");
    EXPECT_EQ(topo.llcCpus(0).toList(), "0");  // the private L2 is still what the cache view shows
    auto tree = buildDomains(topo, {.arch = Arch::X86_64});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(tree->warnings.empty());
    const auto spans = x86LlcSpans(*tree, 0);
    ASSERT_FALSE(spans.empty());
    EXPECT_EQ(spans.front(), "MC 0-1");
    EXPECT_TRUE(tree->domainsOf(0).front().flags & SD_SHARE_LLC);
}

// A topology that lists no cache (a VM without cache leaves; an hwloc synthetic string without
// l3) takes the package for its LLC, with no "arch topology borken" per CPU: CLS (the SMT
// siblings, as match_l2c() falls back to match_smt()) is inside it.
TEST(X86Llc, NoCacheListedTakesThePackage) {
    auto topo = loadHwlocSynthetic("pack:2 core:2 pu:2", Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    auto tree = buildDomains(*topo, {.arch = Arch::X86_64});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(tree->warnings.empty()) << tree->warnings.front();
    EXPECT_EQ(x86LlcSpans(*tree, 0), (std::vector<std::string>{"SMT 0-1", "MC 0-3", "PKG 0-7"}));
    // the same on this development VM's own sidecar (2 CPUs, no cache directory in its sysfs)
    const std::string sidecar = test::dataPath("traces/replay/napper-2hogs.dat.topology.json");
    auto vm = topologyFromJson(nlohmann::json::parse(test::readFile(sidecar)), sidecar);
    ASSERT_TRUE(vm.ok()) << vm.error();
    auto vmTree = buildDomains(*vm, {.arch = Arch::X86_64});
    ASSERT_TRUE(vmTree.ok()) << vmTree.error();
    EXPECT_EQ(x86LlcSpans(*vmTree, 1), (std::vector<std::string>{"MC 0-1"}));
}

TEST(SlitRules, TheKernelsTestDecidesWhetherATableIsUsed) {
    Topology t;
    t.nodes = {{0, CpuSet::single(0)}, {1, CpuSet::single(1)}};
    t.distance = {{10, 21}, {21, 10}};
    ignoreInvalidSlit(t);
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_EQ(t.distance[0][1], 21);
    // a local distance other than 10 is no SLIT, even when the remote one is larger
    t.distance = {{20, 40}, {40, 20}};
    ignoreInvalidSlit(t);
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_NE(t.warnings[0].find("local must be 10"), std::string::npos) << t.warnings[0];
    EXPECT_EQ(t.distance, (std::vector<std::vector<int>>{{10, 20}, {20, 10}}));
    // beyond a byte
    t.warnings.clear();
    t.distance = {{10, 300}, {300, 10}};
    ignoreInvalidSlit(t);
    EXPECT_EQ(t.warnings.size(), 1u);
    EXPECT_EQ(t.distance[0][1], 20);
    // a table that does not match the nodes is left for check() to refuse
    t.warnings.clear();
    t.distance = {{10, 0, 0}, {0, 10, 0}, {0, 0, 10}};
    ignoreInvalidSlit(t);
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_FALSE(t.check().ok());
}

TEST(CpuListErrors, ControlBytesInACpulistAreShownEscaped) {
    auto r = CpuSet::parseList(std::string("0\x01", 2));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("'0\\x01'"), std::string::npos) << r.error();
}

}  // namespace
}  // namespace schedscope
