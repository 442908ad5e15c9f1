// powerpc's own topology table (arch/powerpc/kernel/smp.c, build_sched_topology()): SMT with
// POWER7's asymmetric SMT packing, the CACHE level of POWER9 core pairs sharing an L2 (the LLC
// the wakeup path scans, not the L3), no MC from sysfs, PKG = the node, and no CLS level.
// Real machines: a 256-CPU POWER7 (hwloc XML and the sysfs dump it was made from) and a
// 2-socket POWER8; POWER9's shapes from hwloc synthetic topologies.
#include <gtest/gtest.h>

#include <filesystem>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

DomainTree buildPowerpc(const Topology& t, Arch arch, const char* profile = "linux-6.18") {
    return test::buildValidDomains(t, arch, profile);
}

std::vector<std::string> levelNamesOf(const DomainTree& tree, int cpu) {
    std::vector<std::string> out;
    for (const auto& d : tree.domainsOf(cpu)) out.push_back(d.level);
    return out;
}

CpuSet cpuList(const char* list) { return *CpuSet::parseList(list); }

Topology power7Xml() {
    auto t = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/256ppc-8n8s4t.xml"));
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : Topology{};
}

// POWER9 shapes: SMT4 cores in pairs sharing an L2 (scale-out), two nodes of 20 cores.
Topology power9Pairs() {
    auto t = loadHwlocSynthetic("numa:2 l2:10 core:2 pu:4", Arch::Ppc64);
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : Topology{};
}

}  // namespace

TEST(PowerpcDomains, Power7PacksOnItsSmtLevelAndItsLlcIsTheCore) {
    const Topology t = power7Xml();
    EXPECT_EQ(t.arch, Arch::Ppc64) << "hwloc's Architecture=ppc";
    EXPECT_EQ(t.cpuModel.rfind("POWER7", 0), 0u) << t.cpuModel;
    const DomainTree tree = buildPowerpc(t, t.arch);
    EXPECT_FALSE(tree.clsEnabled) << "powerpc has no SCHED_CLUSTER";
    // each core is its own package with its own L2 and L3: no CACHE level, and no MC
    EXPECT_EQ(levelNamesOf(tree, 5), (std::vector<std::string>{"SMT", "PKG", "NUMA", "NUMA"}));
    const SchedDomain& smt = tree.domainsOf(5)[0];
    EXPECT_EQ(smt.span, cpuList("4-7"));
    EXPECT_TRUE(smt.flags & SD_ASYM_PACKING) << "CPU_FTR_ASYM_SMT";
    EXPECT_TRUE(smt.flags & SD_SHARE_LLC);
    const SchedDomain& pkg = tree.domainsOf(5)[1];
    EXPECT_EQ(pkg.span, cpuList("0-31")) << "the node";
    EXPECT_FALSE(pkg.flags & (SD_SHARE_LLC | SD_ASYM_PACKING));
    // the generic arm64 rules on the same machine: the same spans, but nothing packs
    const DomainTree generic = buildPowerpc(t, Arch::Arm64);
    for (const auto& c : generic.cpus)
        for (const auto& d : c.domains) EXPECT_FALSE(d.flags & SD_ASYM_PACKING) << d.level;
}

TEST(PowerpcDomains, TheSysfsDumpOfThePower7GivesTheDomainsOfItsXml) {
    const std::string dir = test::extractFixture("topologies/sysfs/256ppc-8n8s4t.tar.bz2");
    const std::string root = (fs::path(dir) / "256ppc-8n8s4t").string();
    const auto arch = detectSnapshotArch(root);
    ASSERT_TRUE(arch.has_value());
    EXPECT_EQ(*arch, Arch::Ppc64) << "cpuinfo's cpu: POWER7";
    auto fromSysfs = loadSysfsTopology(root, *arch);
    ASSERT_TRUE(fromSysfs.ok()) << fromSysfs.error();
    EXPECT_EQ(fromSysfs->cpuModel.rfind("POWER7", 0), 0u) << fromSysfs->cpuModel;
    const Topology fromXml = power7Xml();
    ASSERT_EQ(fromSysfs->onlineCpus(), fromXml.onlineCpus());
    const DomainTree a = buildPowerpc(*fromSysfs, *arch), b = buildPowerpc(fromXml, fromXml.arch);
    fromXml.onlineCpus().forEach([&](int cpu) {
        ASSERT_EQ(a.domainsOf(cpu).size(), b.domainsOf(cpu).size()) << "cpu" << cpu;
        for (size_t i = 0; i < a.domainsOf(cpu).size(); ++i) {
            EXPECT_EQ(a.domainsOf(cpu)[i].span, b.domainsOf(cpu)[i].span) << "cpu" << cpu << " level " << i;
            EXPECT_EQ(a.domainsOf(cpu)[i].flags, b.domainsOf(cpu)[i].flags) << "cpu" << cpu << " level " << i;
        }
    });
}

TEST(PowerpcDomains, Power8HasSymmetricSmt) {
    auto t = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/power8gpudistances.xml"));
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->arch, Arch::Ppc64) << "hwloc's Architecture=ppc64le";
    const DomainTree tree = buildPowerpc(*t, t->arch);
    const SchedDomain& smt = tree.domainsOf(0).front();
    EXPECT_EQ(smt.level, "SMT");
    EXPECT_FALSE(smt.flags & SD_ASYM_PACKING) << "POWER8 has no CPU_FTR_ASYM_SMT";
}

TEST(PowerpcDomains, Power9CorePairsSharingAnL2GetACacheLevelThatIsTheLlc) {
    const Topology t = power9Pairs();
    const DomainTree tree = buildPowerpc(t, Arch::Ppc64);
    EXPECT_EQ(levelNamesOf(tree, 0), (std::vector<std::string>{"SMT", "CACHE", "PKG", "NUMA"}));
    const auto& doms = tree.domainsOf(9);
    EXPECT_EQ(doms[0].span, cpuList("8-11"));
    EXPECT_EQ(doms[1].span, cpuList("8-15")) << "the L2 of the core pair";
    EXPECT_TRUE(doms[1].flags & SD_SHARE_LLC);
    EXPECT_FALSE(doms[1].flags & SD_SHARE_CPUCAPACITY);
    EXPECT_EQ(doms[2].span, cpuList("0-79")) << "the node";
    EXPECT_FALSE(doms[2].flags & SD_SHARE_LLC) << "sd_llc stops at CACHE";
    // before 6.7 the node level was called DIE
    EXPECT_EQ(levelNamesOf(buildPowerpc(t, Arch::Ppc64, "linux-6.6"), 0), (std::vector<std::string>{"SMT", "CACHE", "DIE", "NUMA"}));
}

// A "big core" POWER9 (SMT8 cores of two SMT4 thread groups, each with its own L1 and the L2
// shared): the kernel schedules small cores, so SMT is the L1's four threads and CACHE the core.
TEST(PowerpcDomains, BigCorePower9SchedulesSmallCores) {
    auto loaded = loadHwlocSynthetic("numa:1 core:4 pu:8", Arch::Ppc64);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    Topology t = *loaded;
    for (auto& c : t.cpus) {
        const int first = c.id - c.id % 4;
        CacheInfo l1{1, "Data", CpuSet::single(first)};
        for (int i = 1; i < 4; ++i) l1.shared.set(first + i);
        c.caches = {l1, CacheInfo{2, "Unified", c.threadSiblings}};
    }
    const DomainTree tree = buildPowerpc(t, Arch::Ppc64);
    EXPECT_EQ(levelNamesOf(tree, 13), (std::vector<std::string>{"SMT", "CACHE", "PKG"}));
    EXPECT_EQ(tree.domainsOf(13)[0].span, cpuList("12-15"));
    EXPECT_EQ(tree.domainsOf(13)[1].span, cpuList("8-15"));
}

}  // namespace schedscope
