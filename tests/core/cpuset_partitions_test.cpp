// cgroup v2 cpuset partitions: a "root" partition gets sched domains of its own (a root domain,
// built apart: no domain spans two), an "isolated" one gets none. The fixtures are the guest's
// sysfs and cpuset files from tests/data/oracle (a 6.1 kernel under QEMU, partitions made through
// cgroup v2), whose domains oracle_test.cpp checks; here, what the loader reads and what the
// 7.1 balance intervals make of a partition.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_format.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

Topology loadCase(const std::string& name) {
    auto topo = loadSysfsTopology(test::extractFixture("oracle/" + name + "/sysfs.tar.xz"), Arch::X86_64);
    EXPECT_TRUE(topo.ok()) << topo.error();
    return topo.ok() ? *topo : Topology{};
}

std::vector<std::string> lists(const std::vector<CpuSet>& sets) {
    std::vector<std::string> out;
    out.reserve(sets.size());
    for (const CpuSet& s : sets) out.push_back(s.toList());
    return out;
}

// A writable copy of a case's extracted snapshot, for a test that edits its cpuset files.
fs::path caseCopy(const std::string& name, const std::string& tag) {
    const fs::path from = test::extractFixture("oracle/" + name + "/sysfs.tar.xz");
    fs::path copy = fs::temp_directory_path() / ("schedscope-partitions-" + tag + "-" + std::to_string(getpid()));
    fs::remove_all(copy);
    fs::copy(from, copy, fs::copy_options::recursive);
    return copy;
}

}  // namespace

TEST(CpusetPartitions, RootPartitionsAreReadAndTheTopCpusetKeepsTheRest) {
    const Topology topo = loadCase("x86-2s4n4c2t-root-8-15-and-root-0-1");
    EXPECT_EQ(lists(topo.rootPartitions), (std::vector<std::string>{"0-1", "8-15"}));
    EXPECT_TRUE(topo.isolated.empty());
    // the kernel's doms: the top cpuset's effective CPUs (the guest's cpuset.cpus.effective
    // said 2-7), then each partition's
    EXPECT_EQ(lists(topo.rootDomainSpans()), (std::vector<std::string>{"2-7", "0-1", "8-15"}));
    auto tree = buildDomains(topo, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_EQ(lists(tree->rootDomains), (std::vector<std::string>{"2-7", "0-1", "8-15"}));
    for (const CpuSet& rd : tree->rootDomains)
        rd.forEach([&](int cpu) {
            for (const auto& d : tree->domainsOf(cpu)) EXPECT_TRUE(d.span.isSubsetOf(rd)) << "cpu" << cpu << " " << d.level;
        });
}

// A recording's topology sidecar is this JSON: the partitions go with it, so a replay builds the
// domains the recording machine had.
TEST(CpusetPartitions, TheTopologyJsonKeepsThem) {
    const Topology topo = loadCase("x86-2s4n4c2t-root-8-15-and-root-0-1");
    const auto json = topologyToJson(topo);
    EXPECT_EQ(json["root_partitions"], (std::vector<std::string>{"0-1", "8-15"}));
    auto back = topologyFromJson(json, "sidecar");
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(lists(back->rootDomainSpans()), (std::vector<std::string>{"2-7", "0-1", "8-15"}));
    auto bad = json;
    bad["root_partitions"] = {"0-1", "1-3"};
    auto refused = topologyFromJson(bad, "sidecar");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("overlaps another partition"), std::string::npos) << refused.error();
}

TEST(CpusetPartitions, AnIsolatedPartitionsCpusGetNoDomains) {
    const Topology topo = loadCase("x86-2s4n4c2t-isolated-4-7-12-15");
    EXPECT_TRUE(topo.rootPartitions.empty());
    EXPECT_EQ(topo.isolated.toList(), "4-7,12-15");
    EXPECT_EQ(lists(topo.rootDomainSpans()), (std::vector<std::string>{"0-3,8-11"}));
}

// A snapshot whose CPUs are all isolated, with a partition too: one root domain of no CPU (the
// domains of none), where the builder was handed no span at all and crashed.
TEST(CpusetPartitions, EveryCpuIsolatedUnderAPartitionLeavesOneEmptyRootDomain) {
    Topology topo = loadCase("x86-2s4n4c2t-isolcpus-root-8-15");
    topo.isolated = topo.onlineCpus();
    EXPECT_EQ(lists(topo.rootDomainSpans()), (std::vector<std::string>{""}));
    auto tree = buildDomains(topo, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    for (const auto& c : tree->cpus) EXPECT_TRUE(c.domains.empty()) << "cpu" << c.cpu;
}

TEST(CpusetPartitions, IsolcpusCpusStayOutOfAPartitionToo) {
    const Topology topo = loadCase("x86-2s4n4c2t-isolcpus-root-8-15");
    EXPECT_EQ(topo.isolated.toList(), "2-3,10-11");
    EXPECT_EQ(lists(topo.rootDomainSpans()), (std::vector<std::string>{"0-1,4-7", "8-9,12-15"}));
}

// cgroup v1 (the top cpuset's sched_load_balance off): balancing cpusets that overlap, a (0-5)
// and b (4-11), make one root domain; c (12-15) does not balance, so its CPUs get none.
TEST(CpusetPartitions, V1BalancingCpusetsThatOverlapMakeOneRootDomain) {
    const Topology topo = loadCase("x86-2s4n4c2t-v1-overlapping-a-b-and-c-unbalanced");
    EXPECT_EQ(lists(topo.rootPartitions), (std::vector<std::string>{"0-11"}));
    EXPECT_EQ(topo.isolated.toList(), "12-15");
    EXPECT_EQ(lists(topo.rootDomainSpans()), (std::vector<std::string>{"0-11"}));
}

// A cpuset that does not balance is walked into: a/inner (2-3) balances below a (0-5), which
// does not; b does not either, and c (12-15) does.
TEST(CpusetPartitions, V1WalksIntoACpusetThatDoesNotBalance) {
    const Topology topo = loadCase("x86-2s4n4c2t-v1-inner-2-3-and-c-12-15");
    EXPECT_EQ(lists(topo.rootPartitions), (std::vector<std::string>{"2-3", "12-15"}));
    EXPECT_EQ(topo.isolated.toList(), "0-1,4-11");
}

TEST(CpusetPartitions, AnInvalidPartitionActsAsAMember) {
    const fs::path root = caseCopy("x86-2s4n4c2t-root-4-7-12-15", "invalid");
    std::ofstream(root / "sys/fs/cgroup/p1/cpuset.cpus.partition", std::ios::trunc)
        << "root invalid (Cpu list in cpuset.cpus not exclusive)\n";
    auto topo = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    EXPECT_TRUE(topo->rootPartitions.empty());
    EXPECT_EQ(lists(topo->rootDomainSpans()), (std::vector<std::string>{"0-15"}));
    fs::remove_all(root);
}

TEST(CpusetPartitions, AnUnreadableCpuListIsAnErrorNamingTheFile) {
    const fs::path root = caseCopy("x86-2s4n4c2t-root-4-7-12-15", "garbled");
    std::ofstream(root / "sys/fs/cgroup/p1/cpuset.cpus.effective", std::ios::trunc) << "4-7,x\n";
    auto topo = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_FALSE(topo.ok());
    EXPECT_NE(topo.error().find("p1/cpuset.cpus.effective"), std::string::npos) << topo.error();
    fs::remove_all(root);
}

TEST(CpusetPartitions, OverlappingPartitionsAreRefused) {
    Topology topo = loadCase("x86-2s4n4c2t");
    topo.rootPartitions = {*CpuSet::parseList("0-7"), *CpuSet::parseList("4-11")};
    auto tree = buildDomains(topo, {});
    ASSERT_FALSE(tree.ok());
    EXPECT_NE(tree.error().find("cpuset partition 4-11 overlaps another partition"), std::string::npos) << tree.error();
}

// 6.1 (the oracle) counts a level's whole mask for the balance intervals: CPU 4's NUMA domain,
// cut to 2-7 by the partitions, has min_interval 8. Since 7.1 only the partition's CPUs count.
// Partition 4-7,12-15 cuts CPU 4's first NUMA level (distance 12: node 1, 4-7) down to its MC
// child's span with one group. Since 5.10 (the prebuilt SD_DEGENERATE_GROUPS_MASK) it goes, as
// the real 6.12 kernel's oracle shows; before, sd_parent_degenerate() dropped only the flags it
// listed, SD_NUMA and SD_SERIALIZE not among them, so the level stayed under 4.14-5.9.
TEST(CpusetPartitions, BeforeFiveTenANumaLevelCutToItsChildsSpanStays) {
    const Topology topo = loadCase("x86-2s4n4c2t-root-4-7-12-15");
    auto spansUnder = [&](const char* profile) {
        DomainBuildOptions o;
        o.profile = findProfile(profile);
        EXPECT_TRUE(o.profile) << profile;
        auto tree = buildDomains(topo, o);
        EXPECT_TRUE(tree.ok()) << tree.error();
        std::vector<std::string> out;
        if (!tree.ok()) return out;
        EXPECT_TRUE(validateDomainTree(*tree).empty()) << profile << ": " << validateDomainTree(*tree).front();
        for (const auto& sd : tree->domainsOf(4)) out.push_back(sd.level + " " + sd.span.toList() + " " + std::to_string(sd.groups.size()));
        return out;
    };
    EXPECT_EQ(spansUnder("linux-5.10"), (std::vector<std::string>{"SMT 4-5 2", "MC 4-7 2", "NUMA 4-7,12-15 2"}));
    const std::vector<std::string> legacy{"SMT 4-5 2", "MC 4-7 2", "NUMA 4-7 1", "NUMA 4-7,12-15 2"};
    EXPECT_EQ(spansUnder("linux-5.9"), legacy);
    EXPECT_EQ(spansUnder("linux-4.14"), legacy);
}

TEST(CpusetPartitions, SinceSevenOneIntervalsCountThePartitionsCpus) {
    const Topology topo = loadCase("x86-2s4n4c2t-root-8-15-and-root-0-1");
    for (auto [profile, min] : {std::pair{"linux-7.0", 8u}, {"linux-7.1", 6u}}) {
        SCOPED_TRACE(profile);
        const DomainTree tree = test::buildValidDomains(topo, Arch::X86_64, profile);
        const SchedDomain& numa = tree.domainsOf(4).back();
        EXPECT_EQ(numa.level, "NUMA");
        EXPECT_EQ(numa.span.toList(), "2-7");
        EXPECT_EQ(numa.minInterval, min);
        EXPECT_EQ(numa.maxInterval, 2 * min);
    }
}

}  // namespace schedscope
