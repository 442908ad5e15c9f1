// x86 ITMT (SD_ASYM_PACKING) and Intel hybrid CPUs in the domain builder, per kernel profile:
// arch/x86/kernel/smpboot.c's x86_{smt,cluster,core,die}_flags() and its hybrid cluster rule.
// Real machines: an Arrow Lake laptop (P-cores with SMT, E-core clusters, LP E-cores), Lakefield
// (1 P-core + 4 E-cores, no SMT), a Skylake server, and a Raptor Lake laptop's sysfs.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_format.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

Topology xml(const std::string& name) {
    auto t = loadHwlocXml(test::dataPath("topologies/xml/" + name + ".xml"), Arch::X86_64);
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : Topology{};
}

DomainTree buildHybrid(const Topology& t, const char* profile) { return test::buildValidDomains(t, t.arch, profile); }

const SchedDomain* levelOf(const DomainTree& tree, int cpu, const std::string& level) {
    for (const auto& d : tree.domainsOf(cpu))
        if (d.level == level) return &d;
    return nullptr;
}

bool packs(const SchedDomain* d) { return d && (d->flags & SD_ASYM_PACKING); }

int domainsWithAsymPacking(const DomainTree& tree) {
    int n = 0;
    for (const auto& c : tree.cpus)
        for (const auto& d : c.domains) n += (d.flags & SD_ASYM_PACKING) != 0;
    return n;
}

}  // namespace

// Arrow Lake 225U: CPUs 0-3 two P-cores with SMT, 4-11 two E-core clusters, 12-13 LP E-cores.
TEST(HybridDomains, ArrowLakeUnderLinux61HasNoClusterLevelAndPacksOnSmtAndMc) {
    const Topology t = xml("Intel-ArrowLake-CoreUltra5-225U");
    ASSERT_TRUE(t.intelHybrid());
    const DomainTree tree = buildHybrid(t, "linux-6.1");
    for (const auto& c : tree.cpus)
        for (const auto& d : c.domains) EXPECT_NE(d.level, "CLS") << "cpu" << c.cpu;
    EXPECT_TRUE(packs(levelOf(tree, 0, "SMT")));
    EXPECT_TRUE(packs(levelOf(tree, 0, "MC")));
    EXPECT_FALSE(packs(levelOf(tree, 0, "DIE")));
    // without the cluster level the MC groups of an E-core are its single cores
    const SchedDomain* mc = levelOf(tree, 4, "MC");
    ASSERT_NE(mc, nullptr);
    EXPECT_EQ(mc->span.toList(), "0-11");
    EXPECT_EQ(mc->groups.size(), 10u);
    // and the tree says why the CLS level asked for is not there
    auto said = [](const DomainTree& d) {
        return std::any_of(d.notes.begin(), d.notes.end(), [](const std::string& n) { return n.starts_with("no CLS level: 5.16-6.5"); });
    };
    EXPECT_TRUE(said(tree));
    EXPECT_FALSE(said(buildHybrid(t, "linux-6.6")));
}

TEST(HybridDomains, ArrowLakeSince66HasClustersAndPacksUpToThePackageButNotOnSmt) {
    const Topology t = xml("Intel-ArrowLake-CoreUltra5-225U");
    for (const char* profile : {"linux-6.6", "linux-6.12"}) {
        SCOPED_TRACE(profile);
        const DomainTree tree = buildHybrid(t, profile);
        const std::string pkg = findProfile(profile)->pkgLevelName;
        const SchedDomain* cls = levelOf(tree, 4, "CLS");
        ASSERT_NE(cls, nullptr);
        EXPECT_EQ(cls->span.toList(), "4-7");
        EXPECT_TRUE(packs(cls));
        EXPECT_FALSE(packs(levelOf(tree, 0, "SMT")));
        EXPECT_NE(levelOf(tree, 0, "SMT"), nullptr);
        EXPECT_TRUE(packs(levelOf(tree, 0, "MC")));
        EXPECT_TRUE(packs(levelOf(tree, 0, pkg)));
        EXPECT_TRUE(packs(levelOf(tree, 12, pkg)));
        EXPECT_EQ(levelOf(tree, 4, "MC")->groups.size(), 4u);
    }
}

// Lakefield has no SMT: since 6.12 intel_pstate turns ITMT off and gives the CPUs capacities
// instead, which an XML export does not carry: no asym packing, and a warning says why.
TEST(HybridDomains, LakefieldWithoutSmtIsLeftToCapacitiesSince612) {
    const Topology t = xml("5intel64-hybrid-lakefield");
    ASSERT_TRUE(t.intelHybrid());
    ASSERT_FALSE(t.hasSmt());
    const DomainTree before = buildHybrid(t, "linux-6.6");
    EXPECT_TRUE(packs(levelOf(before, 0, "MC")));
    EXPECT_TRUE(before.warnings.empty());
    const DomainTree since = buildHybrid(t, "linux-6.12");
    EXPECT_EQ(domainsWithAsymPacking(since), 0);
    ASSERT_EQ(since.warnings.size(), 1u);
    EXPECT_NE(since.warnings[0].find("SD_ASYM_CPUCAPACITY"), std::string::npos) << since.warnings[0];
}

TEST(HybridDomains, AHomogeneousIntelServerHasNoAsymPackingUnderAnyProfile) {
    const Topology t = xml("Intel-Skylake-2xXeon6140");
    EXPECT_FALSE(t.intelHybrid());
    for (const auto& p : kernelProfiles()) EXPECT_EQ(domainsWithAsymPacking(buildHybrid(t, p.name.c_str())), 0) << p.name;
}

// A machine's own sysfs: the cpu_core / cpu_atom PMUs name the kinds (as hwloc reads them), and
// /proc/sys/kernel/sched_itmt_enabled says whether ITMT is on, hybrid or not.
TEST(HybridDomains, AMachinesSysfsGivesTheHybridKindsAndTheItmtSwitch) {
    const std::string dir = test::extractFixture("topologies/sysfs/20em64t-hybrid-1p6c2t+2ca4co1t.tar.bz2");
    const fs::path root = fs::path(dir) / "20em64t-hybrid-1p6c2t+2ca4co1t";
    ASSERT_TRUE(fs::is_directory(root / "sys"));
    auto plain = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_FALSE(plain->intelHybrid());
    EXPECT_FALSE(plain->itmtEnabled.has_value());
    EXPECT_EQ(domainsWithAsymPacking(buildHybrid(*plain, "linux-6.12")), 0);

    const fs::path copy = fs::temp_directory_path() / ("schedscope-hybrid-" + std::to_string(getpid()));
    fs::remove_all(copy);
    fs::copy(root, copy, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::create_directories(copy / "sys/devices/cpu_core");
    fs::create_directories(copy / "sys/devices/cpu_atom");
    std::ofstream(copy / "sys/devices/cpu_core/cpus") << "0-11\n";
    std::ofstream(copy / "sys/devices/cpu_atom/cpus") << "12-19\n";
    auto hybrid = loadSysfsTopology(copy.string(), Arch::X86_64);
    ASSERT_TRUE(hybrid.ok()) << hybrid.error();
    EXPECT_TRUE(hybrid->intelHybrid());
    EXPECT_EQ(hybrid->kindNames[static_cast<size_t>(hybrid->cpus[0].kind)], "IntelCore");
    EXPECT_EQ(hybrid->kindNames[static_cast<size_t>(hybrid->cpus[12].kind)], "IntelAtom");
    EXPECT_EQ(levelOf(buildHybrid(*hybrid, "linux-6.1"), 12, "CLS"), nullptr);
    EXPECT_TRUE(packs(levelOf(buildHybrid(*hybrid, "linux-6.12"), 12, "CLS")));

    // the machine says ITMT is off (sysctl): no asym packing even on a hybrid CPU
    fs::create_directories(copy / "proc/sys/kernel");
    std::ofstream(copy / "proc/sys/kernel/sched_itmt_enabled") << "0\n";
    auto off = loadSysfsTopology(copy.string(), Arch::X86_64);
    ASSERT_TRUE(off.ok()) << off.error();
    EXPECT_EQ(off->itmtEnabled, std::optional<bool>(false));
    EXPECT_EQ(domainsWithAsymPacking(buildHybrid(*off, "linux-6.12")), 0);
    // ... and on: Turbo Boost Max 3.0 on a homogeneous CPU packs on MC too
    fs::remove_all(copy / "sys/devices/cpu_core");
    fs::remove_all(copy / "sys/devices/cpu_atom");
    std::ofstream(copy / "proc/sys/kernel/sched_itmt_enabled", std::ios::trunc) << "1\n";
    auto tbm3 = loadSysfsTopology(copy.string(), Arch::X86_64);
    ASSERT_TRUE(tbm3.ok()) << tbm3.error();
    EXPECT_FALSE(tbm3->intelHybrid());
    const DomainTree packed = buildHybrid(*tbm3, "linux-6.12");
    EXPECT_TRUE(packs(levelOf(packed, 0, "MC")));
    EXPECT_FALSE(packs(levelOf(packed, 0, "PKG")));
    EXPECT_TRUE(packs(levelOf(buildHybrid(*tbm3, "linux-6.1"), 0, "SMT")));
    // since 6.14 the switch is a debugfs bool: x86/sched_itmt_enabled
    fs::remove(copy / "proc/sys/kernel/sched_itmt_enabled");
    fs::create_directories(copy / "sys/kernel/debug/x86");
    std::ofstream(copy / "sys/kernel/debug/x86/sched_itmt_enabled") << "Y\n";
    auto debugfs = loadSysfsTopology(copy.string(), Arch::X86_64);
    ASSERT_TRUE(debugfs.ok()) << debugfs.error();
    EXPECT_EQ(debugfs->itmtEnabled, std::optional<bool>(true));
    EXPECT_TRUE(packs(levelOf(buildHybrid(*debugfs, "linux-6.18"), 0, "MC")));
    std::ofstream(copy / "sys/kernel/debug/x86/sched_itmt_enabled", std::ios::trunc) << "N\n";
    auto debugfsOff = loadSysfsTopology(copy.string(), Arch::X86_64);
    ASSERT_TRUE(debugfsOff.ok()) << debugfsOff.error();
    EXPECT_EQ(debugfsOff->itmtEnabled, std::optional<bool>(false));
    EXPECT_EQ(domainsWithAsymPacking(buildHybrid(*debugfsOff, "linux-6.18")), 0);
    fs::remove_all(copy);
}

// Since 6.14 PKG takes the ITMT flags on any CPU ("x86/topology: Use x86_sched_itmt_flags for
// PKG domain unconditionally"): a package of two LLCs with preferred cores (AMD's, or Turbo
// Boost Max 3.0) packs across its LLCs; 6.12 only did so on hybrid CPUs.
TEST(HybridDomains, PreferredCoresPackAcrossTheLlcsOfAPackageSince614) {
    auto t = loadHwlocSynthetic("pack:1 l3:2 core:4 pu:2", Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    t->itmtEnabled = true;
    const DomainTree since = buildHybrid(*t, "linux-6.18");
    ASSERT_NE(levelOf(since, 0, "PKG"), nullptr);
    EXPECT_TRUE(packs(levelOf(since, 0, "PKG")));
    EXPECT_TRUE(packs(levelOf(since, 0, "MC")));
    const DomainTree before = buildHybrid(*t, "linux-6.12");
    ASSERT_NE(levelOf(before, 0, "PKG"), nullptr);
    EXPECT_FALSE(packs(levelOf(before, 0, "PKG")));
    EXPECT_TRUE(packs(levelOf(before, 0, "MC")));
    t->itmtEnabled = false;
    EXPECT_EQ(domainsWithAsymPacking(buildHybrid(*t, "linux-6.18")), 0) << "ITMT off: no packing anywhere";
}

}  // namespace schedscope

namespace schedscope {

// A recording's topology sidecar (the topology JSON) keeps what changes the domains beyond the
// masks: CPU kinds in order, the ITMT switch, isolated CPUs, Zen's reclaim distance and the
// CPU's family and model.
TEST(TopologyJson, KeepsKindsItmtIsolationAndTheReclaimDistance) {
    Topology arrow = xml("Intel-ArrowLake-CoreUltra5-225U");
    arrow.isolated = CpuSet::range(10, 11);
    arrow.itmtEnabled = true;
    Topology zen = xml("AMD-17h-Zen-2xEpyc-7451");
    ASSERT_EQ(zen.nodeReclaimDistance, 32);
    for (const Topology* t : {&arrow, &zen}) {
        auto back = topologyFromJson(nlohmann::json::parse(topologyToJson(*t).dump()), "sidecar");
        ASSERT_TRUE(back.ok()) << back.error();
        EXPECT_EQ(back->kindNames, t->kindNames);
        for (size_t c = 0; c < t->cpus.size(); ++c) EXPECT_EQ(back->cpus[c].kind, t->cpus[c].kind) << "cpu" << c;
        EXPECT_EQ(back->itmtEnabled, t->itmtEnabled);
        EXPECT_EQ(back->isolated, t->isolated);
        EXPECT_EQ(back->nodeReclaimDistance, t->nodeReclaimDistance);
        EXPECT_EQ(back->cpuVendor, t->cpuVendor);  // x86 quirks key on the CPUID identity
        EXPECT_EQ(back->cpuFamily, t->cpuFamily);
        EXPECT_EQ(back->cpuModelNumber, t->cpuModelNumber);
        for (const auto& p : kernelProfiles()) {
            const DomainTree a = buildHybrid(*t, p.name.c_str()), b = buildHybrid(*back, p.name.c_str());
            for (size_t c = 0; c < a.cpus.size(); ++c) {
                ASSERT_EQ(a.cpus[c].domains.size(), b.cpus[c].domains.size()) << p.name << " cpu" << c;
                for (size_t i = 0; i < a.cpus[c].domains.size(); ++i) {
                    EXPECT_EQ(a.cpus[c].domains[i].span, b.cpus[c].domains[i].span);
                    EXPECT_EQ(a.cpus[c].domains[i].flags, b.cpus[c].domains[i].flags) << p.name << " cpu" << c;
                }
            }
        }
    }
}

}  // namespace schedscope
