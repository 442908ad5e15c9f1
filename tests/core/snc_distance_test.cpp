// x86's arch_sched_node_distance(): the NUMA levels of Granite Rapids and Clearwater Forest with
// sub-NUMA clustering, before 6.19 (the SLIT as it is), in 6.19 (every remote distance as their
// mean) and since 7.0 / 6.19.7 (SNC-3 only: each pair of packages averaged), and 7.0's PKG rule
// (nodes per package). The SLIT tables are the real machines' the kernel commits quote; the
// expected spans are the ones those commits list, per node.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "domains/domain_builder.h"
#include "domains/sched_node_distance.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

// "sched/topology: Fix sched domain build error for GNR, CWF in SNC-3 mode": a 2-socket
// Granite Rapids with SNC-3, packages of nodes 0-2 and 3-5
const std::vector<std::vector<int>> kGnrSnc3Slit = {
    {10, 15, 17, 21, 28, 26}, {15, 10, 15, 23, 26, 23}, {17, 15, 10, 26, 23, 21},
    {21, 28, 26, 10, 15, 17}, {23, 26, 23, 15, 10, 15}, {26, 23, 21, 17, 15, 10},
};

// Nodes of 8 CPUs (4 cores x 2 threads) under a package-wide L3, `nodesPerPackage` to a package,
// as an Intel CPU of `model` (family 6) with the SLIT `slit`.
Topology sncMachine(int packages, int nodesPerPackage, int model, const std::vector<std::vector<int>>& slit) {
    auto t = loadHwlocSynthetic("pack:" + std::to_string(packages) + " l3:1 group:" + std::to_string(nodesPerPackage) +
                                    " numa:1 l2:4 core:1 pu:2",
                                Arch::X86_64);
    EXPECT_TRUE(t.ok()) << t.error();
    t->cpuVendor = "GenuineIntel";
    t->cpuFamily = 6;
    t->cpuModelNumber = model;
    t->distance = slit;
    EXPECT_TRUE(t->check().ok());
    return *t;
}

constexpr int kGraniteRapidsX = 0xAD, kClearwaterForestX = 0xDD, kSapphireRapidsX = 0x8F;

// `consistent`: the groups cover their spans; the kernel's own build of an asymmetric SLIT
// does not ("Current scheduler code failed to build domains properly")
DomainTree buildFor(const Topology& t, const std::string& profile, bool consistent = true) {
    DomainBuildOptions o;
    o.profile = findProfile(profile);
    EXPECT_NE(o.profile, nullptr) << profile;
    auto tree = buildDomains(t, o);
    EXPECT_TRUE(tree.ok()) << tree.error();
    EXPECT_EQ(validateDomainTree(*tree).empty(), consistent) << profile;
    return *tree;
}

// the nodes each NUMA-built domain of `cpu` spans, bottom-up ("0,1 0-2 0-5" for node sets)
std::string numaSpans(const Topology& t, const DomainTree& tree, int cpu) {
    std::string out;
    for (const SchedDomain& d : tree.domainsOf(cpu)) {
        if (d.numaLevel < 0) continue;
        std::set<int> nodes;
        d.span.forEach([&](int c) { nodes.insert(t.cpus[static_cast<size_t>(c)].node); });
        CpuSet asSet;
        for (int n : nodes) asSet.set(n);
        out += (out.empty() ? "" : " ") + asSet.toList();
    }
    return out;
}

bool anyWarningStartsWith(const DomainTree& tree, const std::string& prefix) {
    for (const auto& w : tree.warnings)
        if (w.rfind(prefix, 0) == 0) return true;
    return false;
}

bool anyNoteStartsWith(const DomainTree& tree, const std::string& prefix) {
    for (const auto& n : tree.notes)
        if (n.rfind(prefix, 0) == 0) return true;
    return false;
}

TEST(SncDistances, GraniteRapidsSnc3BeforeTheFixGetsLopsidedLevelsPerNode) {
    const Topology t = sncMachine(2, 3, kGraniteRapidsX, kGnrSnc3Slit);
    const DomainTree tree = buildFor(t, "linux-6.18", false);
    // (NODE spans what MC does, and is gone.) node 0: [0,1] [2], then [0,1,2] [3], [0-3] [5],
    // [0-3,5] [4] in the commit's words
    EXPECT_EQ(numaSpans(t, tree, 0), "0-1 0-2 0-3 0-3,5 0-5");
    // node 4 (CPU 32) sees other levels: [4] [3,5], [3-5] [0,2], [0,2-5] [1]
    EXPECT_EQ(numaSpans(t, tree, 32), "3-5 0,2-5 0-5");
    EXPECT_TRUE(anyWarningStartsWith(tree, "Node-distance not symmetric"));
    // the build error: CPU 0's top level has one group, [0-3,5], short of its span
    const SchedDomain& top = tree.domainsOf(0).back();
    EXPECT_EQ(top.span.toList(), "0-47");
    ASSERT_EQ(top.groups.size(), 1u);
    EXPECT_EQ(top.groups.front().span.toList(), "0-31,40-47");
}

TEST(SncDistances, GraniteRapidsSnc3Since619GroupsTheRemotePackageAsOne) {
    const Topology t = sncMachine(2, 3, kGraniteRapidsX, kGnrSnc3Slit);
    for (const char* profile : {"linux-6.19", "linux-6.19.7", "linux-7.0"}) {
        SCOPED_TRACE(profile);
        const DomainTree tree = buildFor(t, profile);
        // the commit's result: node 0 [0,1] [2] then [0,1,2] [3,4,5]; node 4 [4] [3,5] then
        // [3,4,5] [0,1,2]: both see the other package as one group
        EXPECT_EQ(numaSpans(t, tree, 0), "0-1 0-2 0-5");
        EXPECT_EQ(numaSpans(t, tree, 32), "3-5 0-5");
        // the remote distances' mean (434 / 18), both ways
        EXPECT_EQ(tree.domainsOf(0).back().numaDistance, 24);
        EXPECT_EQ(tree.domainsOf(32).back().numaDistance, 24);
        EXPECT_FALSE(anyWarningStartsWith(tree, "Node-distance not symmetric"));
    }
}

TEST(SncDistances, TheFixUpIsForGraniteRapidsAndClearwaterForestOnly) {
    const Topology cwf = sncMachine(2, 3, kClearwaterForestX, kGnrSnc3Slit);
    EXPECT_EQ(numaSpans(cwf, buildFor(cwf, "linux-7.0"), 32), "3-5 0-5");
    Topology other = sncMachine(2, 3, kSapphireRapidsX, kGnrSnc3Slit);
    EXPECT_EQ(numaSpans(other, buildFor(other, "linux-7.0", false), 32), "3-5 0,2-5 0-5");
    other.cpuVendor = "AuthenticAMD";
    other.cpuModelNumber = kGraniteRapidsX;
    EXPECT_EQ(numaSpans(other, buildFor(other, "linux-7.0", false), 32), "3-5 0,2-5 0-5");
}

// 7.0 averages each pair of packages on its own, 6.19 every remote distance into one: on a
// 4-socket SNC-3 machine whose packages sit at two distances (21 next door, 31 across) 6.19
// loses the level between them (and warns), 7.0 keeps it.
TEST(SncDistances, SevenZeroAveragesPerPackagePairWhere619AveragedThemAll) {
    std::vector<std::vector<int>> slit(12, std::vector<int>(12));
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
            const int a = i / 3, b = j / 3;
            const bool near = (a ^ b) == 1;  // packages 0-1 and 2-3 are neighbours
            slit[static_cast<size_t>(i)][static_cast<size_t>(j)] = i == j ? 10 : a == b ? 12 : near ? 21 + (i + j) % 2 : 31;
        }
    const Topology t = sncMachine(4, 3, kGraniteRapidsX, slit);
    const DomainTree since619 = buildFor(t, "linux-6.19");
    // every remote distance (21, 22 and 31) becomes their mean: one level over all 12 nodes
    EXPECT_EQ(numaSpans(t, since619, 0), "0-2 0-11");
    EXPECT_TRUE(anyWarningStartsWith(since619, "sched: Expect only up to 2 packages for GNR or CWF, but saw 4"));
    const DomainTree since70 = buildFor(t, "linux-7.0");
    // the neighbour package's 21s and 22s average to 21 (its 9 pairs both ways: 388 / 18)
    EXPECT_EQ(numaSpans(t, since70, 0), "0-2 0-5 0-11");
    EXPECT_EQ(since70.domainsOf(0)[since70.domainsOf(0).size() - 2].numaDistance, 21);
    EXPECT_TRUE(anyNoteStartsWith(since70, "Fixing up SNC SLIT table"));
    EXPECT_TRUE(since70.warnings.empty());
}

// HPE's 8-socket (2-chassis) Granite Rapids with SNC-2, the table "x86/topo: Fix SNC topology
// mess" quotes: 7.0 leaves SNC-2 alone, and 6.19's averaging only touched the 40s, which are
// all alike, though it warned about the 8 packages.
TEST(SncDistances, EightSocketSnc2KeepsItsLevelsAndOnly619Warns) {
    const int within[8][8] = {{10, 12, 16, 16, 16, 16, 18, 18}, {12, 10, 16, 16, 16, 16, 18, 18},
                              {16, 16, 10, 12, 18, 18, 16, 16}, {16, 16, 12, 10, 18, 18, 16, 16},
                              {16, 16, 18, 18, 10, 12, 16, 16}, {16, 16, 18, 18, 12, 10, 16, 16},
                              {18, 18, 16, 16, 16, 16, 10, 12}, {18, 18, 16, 16, 16, 16, 12, 10}};
    std::vector<std::vector<int>> slit(16, std::vector<int>(16, 40));
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j)
            if (i / 8 == j / 8) slit[static_cast<size_t>(i)][static_cast<size_t>(j)] = within[i % 8][j % 8];
    const Topology t = sncMachine(8, 2, kGraniteRapidsX, slit);
    const DomainTree before = buildFor(t, "linux-6.18");
    for (const char* profile : {"linux-6.19", "linux-7.0"}) {
        SCOPED_TRACE(profile);
        const DomainTree tree = buildFor(t, profile);
        for (int cpu : {0, 40, 127}) EXPECT_EQ(numaSpans(t, tree, cpu), numaSpans(t, before, cpu));
        EXPECT_EQ(anyWarningStartsWith(tree, "sched: Expect only up to 2 packages"), std::string(profile) == "linux-6.19");
        // 6.19 still says it built with the mean (40: all the remote distances are 40)
        EXPECT_EQ(anyNoteStartsWith(tree, "x86 (Granite Rapids / Clearwater Forest with nodes in a package): the NUMA "
                                          "levels are built with every distance of 20 or more as their mean, 40"),
                  std::string(profile) == "linux-6.19");
        EXPECT_FALSE(anyNoteStartsWith(tree, "Fixing up SNC SLIT table"));
    }
}

// 7.0's slit_validate(): package p's nodes must be p*u .. p*u+u-1. Numbered across the
// packages instead, the firmware bug is reported and the table used as it is.
TEST(SncDistances, ATableOfAnotherFormIsReportedAndLeftAlone) {
    Topology t = sncMachine(2, 3, kGraniteRapidsX, kGnrSnc3Slit);
    // swap nodes 2 and 3 (their CPUs and their rows and columns): node 2 is now in package 1
    std::swap(t.nodes[2].cpus, t.nodes[3].cpus);
    for (auto& c : t.cpus)
        if (c.node == 2 || c.node == 3) c.node = 5 - c.node;
    std::swap(t.distance[2], t.distance[3]);
    for (auto& row : t.distance) std::swap(row[2], row[3]);
    const DomainTree tree = buildFor(t, "linux-7.0", false);
    EXPECT_TRUE(anyWarningStartsWith(tree, "[Firmware Bug]: SLIT table doesn't have the expected form for SNC"));
    const DomainTree asIs = buildFor(t, "linux-6.18", false);
    EXPECT_EQ(numaSpans(t, tree, 0), numaSpans(t, asIs, 0));
    EXPECT_EQ(numaSpans(t, tree, 32), numaSpans(t, asIs, 32));
}

// 7.0 leaves PKG out when the SRAT gives the packages' CPUs more nodes than packages
// (num_phys_nodes(): nodes of its processor affinity entries). Memory-only nodes (CXL, HBM) do
// not count: Debian's 7.2 kernel on 2 sockets with a memory-only third node printed "Max.
// logical nodes: 2" and built PKG (oracle case linux-7.2-x86-2s2d2c2t-memory-node-maxcpus12).
// Nodes that split a package's CPUs do count (SNC), whatever the SLIT says.
TEST(SncDistances, SevenZeroDropsPkgByTheNodesOfCpusPerPackage) {
    auto t = loadHwlocSynthetic("pack:2 numa:1 l3:2 l2:4 core:1 pu:2", Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    t->nodes.push_back({2, {}});
    t->nodes.push_back({3, {}});
    t->distance = {{10, 21, 14, 24}, {21, 10, 24, 14}, {14, 24, 10, 26}, {24, 14, 26, 10}};
    ASSERT_TRUE(t->check().ok());
    EXPECT_FALSE(t->hasNodesInPackage());
    EXPECT_EQ(nodesPerPackage(*t), 1);
    auto levels = [](const Topology& topo, const std::string& profile) {
        std::string out;
        const DomainTree tree = buildFor(topo, profile);
        for (const auto& d : tree.domainsOf(0)) out += (out.empty() ? "" : " ") + d.level + ":" + d.span.toList();
        return out;
    };
    EXPECT_EQ(levels(*t, "linux-6.19"), "SMT:0-1 MC:0-7 PKG:0-15 NUMA:0-31");
    EXPECT_EQ(levels(*t, "linux-7.0"), "SMT:0-1 MC:0-7 PKG:0-15 NUMA:0-31");

    // each package's two L3s as nodes of their own (SNC-2): four nodes of CPUs on two packages
    auto snc = loadHwlocSynthetic("pack:2 numa:2 l3:1 l2:4 core:1 pu:2", Arch::X86_64);
    ASSERT_TRUE(snc.ok()) << snc.error();
    EXPECT_EQ(nodesPerPackage(*snc), 2);
    EXPECT_EQ(levels(*snc, "linux-7.0").find("PKG"), std::string::npos) << levels(*snc, "linux-7.0");
}

// The identity the arch code keys on, read from /proc/cpuinfo in a snapshot and from hwloc's
// infos in an XML export, agrees for one machine (4 x Opteron 6272); AMD's Zen families raise
// node_reclaim_distance to 32 from either.
TEST(SncDistances, CpuIdentityFromSysfsAndXmlAgree) {
    const std::string dir = test::extractFixture("topologies/sysfs/64amd64-4p2n4ca2co.tar.bz2");
    const fs::path root = fs::path(dir) / "64amd64-4p2n4ca2co/fsroot";
    auto sysfs = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_TRUE(sysfs.ok()) << sysfs.error();
    auto xml = loadHwlocXml(test::dataPath("topologies/xml/64amd64-4p2n4ca2co.xml"), Arch::X86_64);
    ASSERT_TRUE(xml.ok()) << xml.error();
    for (const Topology* t : {&*sysfs, &*xml}) {
        EXPECT_EQ(t->cpuVendor, "AuthenticAMD");
        EXPECT_EQ(t->cpuFamily, 21);
        EXPECT_EQ(t->cpuModelNumber, 1);
        EXPECT_EQ(t->nodeReclaimDistance, 30);  // Bulldozer is not Zen
    }
    // the same snapshot as a Zen (family 23): a root of links with its own cpuinfo
    const fs::path zen = fs::temp_directory_path() / ("schedscope-zen-" + std::to_string(getpid()));
    fs::remove_all(zen);
    fs::create_directories(zen / "proc");
    fs::create_directory_symlink(root / "sys", zen / "sys");
    {
        std::ifstream in(root / "proc/cpuinfo");
        std::ofstream out(zen / "proc/cpuinfo");
        for (std::string line; std::getline(in, line);)
            out << (line.rfind("cpu family", 0) == 0 ? "cpu family\t: 23" : line) << "\n";
    }
    auto asZen = loadSysfsTopology(zen.string(), Arch::X86_64);
    fs::remove_all(zen);
    ASSERT_TRUE(asZen.ok()) << asZen.error();
    EXPECT_EQ(asZen->cpuFamily, 23);
    EXPECT_EQ(asZen->nodeReclaimDistance, 32);
}

}  // namespace
}  // namespace schedscope
