// The built-in topologies load, and the CLS / NODE what-if toggles change exactly the levels
// they should.
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

Topology preset(const std::string& name) {
    auto t = loadTopology({TopologySpec::Kind::Preset, name});
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : Topology{};
}

std::vector<std::string> levelsOf(const DomainTree& tree, int cpu) {
    std::vector<std::string> names;
    for (const auto& d : tree.domainsOf(cpu)) names.push_back(d.level);
    return names;
}

DomainTree build(const Topology& t, bool cls, bool node, const char* profile = "linux-6.12") {
    DomainBuildOptions opt;
    opt.arch = t.arch;
    opt.cls = cls;
    opt.node = node;
    opt.profile = findProfile(profile);
    auto tree = buildDomains(t, opt);
    EXPECT_TRUE(tree.ok());
    EXPECT_TRUE(validateDomainTree(*tree).empty());
    return *tree;
}

TEST(Presets, AllListedPresetsLoadAndValidate) {
    auto presets = listPresets();
    ASSERT_GE(presets.size(), 6u);
    for (const auto& p : presets) {
        auto t = loadTopology({TopologySpec::Kind::Preset, p.name});
        ASSERT_TRUE(t.ok()) << p.name << ": " << t.error();
        EXPECT_TRUE(t->check().ok()) << p.name;
        build(*t, true, true);
    }
}

TEST(Presets, Kunpeng920ClusterLevel) {
    Topology t = preset("kunpeng920-24");
    EXPECT_EQ(t.arch, Arch::Arm64);
    EXPECT_EQ(t.onlineCount(), 96);
    DomainTree on = build(t, true, true);
    EXPECT_EQ(levelsOf(on, 0), (std::vector<std::string>{"CLS", "MC", "NUMA", "NUMA", "NUMA"}));
    EXPECT_EQ(on.domainsOf(0)[0].span.toList(), "0-3");
    EXPECT_EQ(on.domainsOf(0)[1].span.toList(), "0-23");
    EXPECT_EQ(on.domainsOf(0)[1].groups.size(), 6u) << "MC groups are the 6 clusters";
    EXPECT_TRUE(on.domainsOf(0)[0].flags & SD_CLUSTER);
    EXPECT_EQ(on.lowestCommonLevel(0, 3), "CLS");
    EXPECT_EQ(on.lowestCommonLevel(0, 4), "MC");
    EXPECT_EQ(on.lowestCommonLevel(0, 24), "NUMA");

    // CLS off: MC sits directly on the cores, its groups are single CPUs.
    DomainTree off = build(t, false, true);
    EXPECT_EQ(levelsOf(off, 0), (std::vector<std::string>{"MC", "NUMA", "NUMA", "NUMA"}));
    EXPECT_EQ(off.domainsOf(0)[0].groups.size(), 24u);
    EXPECT_EQ(off.lowestCommonLevel(0, 3), "MC");
    // NUMA levels do not depend on CLS.
    for (size_t i = 1; i < off.domainsOf(0).size(); ++i)
        EXPECT_EQ(off.domainsOf(0)[i].span, on.domainsOf(0)[i + 1].span);
}

TEST(Presets, Kunpeng920AsymmetricDistancesGiveNodesDifferentNumaLevels) {
    Topology t = preset("kunpeng920-24");
    DomainTree tree = build(t, true, true);
    // Node 0 (10 12 20 22) has three NUMA levels, node 3 (22 24 12 10) too but with other spans.
    EXPECT_EQ(tree.domainsOf(0)[2].span.toList(), "0-47");
    EXPECT_EQ(tree.domainsOf(95)[2].span.toList(), "48-95");
    EXPECT_EQ(tree.domainsOf(95)[3].span.toList(), "0-23,48-95");
}

TEST(Presets, NaplesNodeLevel) {
    Topology t = preset("epyc7601-2s");
    EXPECT_EQ(t.arch, Arch::X86_64);
    EXPECT_EQ(t.onlineCount(), 128);
    EXPECT_EQ(t.nodes.size(), 8u);
    DomainTree on = build(t, true, true);
    EXPECT_EQ(levelsOf(on, 0), (std::vector<std::string>{"SMT", "MC", "NODE", "NUMA", "NUMA"}));
    EXPECT_EQ(on.domainsOf(0)[0].span.toList(), "0,64") << "Linux numbers SMT siblings thread-major";
    EXPECT_EQ(on.domainsOf(0)[2].span.toList(), "0-7,64-71");
    EXPECT_EQ(on.domainsOf(0)[2].groups.size(), 2u) << "NODE groups are the node's two LLCs";
    EXPECT_EQ(on.lowestCommonLevel(0, 4), "NODE");
    // Zen raises node_reclaim_distance to 32, so the 32-distance level keeps wake-affine.
    EXPECT_TRUE(on.domainsOf(0)[4].flags & SD_WAKE_AFFINE);

    // NODE off (before 4.15): the NUMA levels sit directly above MC.
    DomainTree off = build(t, true, false);
    EXPECT_EQ(levelsOf(off, 0), (std::vector<std::string>{"SMT", "MC", "NUMA", "NUMA"}));
    EXPECT_EQ(off.domainsOf(0)[2].span.toList(), "0-31,64-95");
    EXPECT_EQ(off.domainsOf(0)[2].groups.size(), 8u) << "without NODE the socket level's groups are LLCs";
    EXPECT_EQ(off.lowestCommonLevel(0, 4), "NUMA");
}

TEST(Presets, HybridLaptopHasClustersOnlyOnECores) {
    Topology t = preset("laptop-i7-1370p");
    DomainTree on = build(t, true, true);
    EXPECT_EQ(levelsOf(on, 0), (std::vector<std::string>{"SMT", "MC"}));
    EXPECT_EQ(levelsOf(on, 12), (std::vector<std::string>{"CLS", "MC"}));
    EXPECT_EQ(on.domainsOf(12)[0].span.toList(), "12-15");
    DomainTree off = build(t, false, true);
    EXPECT_EQ(levelsOf(off, 12), (std::vector<std::string>{"MC"}));
}

TEST(Presets, ProfilesRenameLevelsAndFlags) {
    Topology t = preset("epyc7763-2s");
    DomainTree newer = build(t, true, true, "linux-6.12");
    DomainTree older = build(t, true, true, "linux-6.1");
    EXPECT_EQ(levelsOf(newer, 0), (std::vector<std::string>{"SMT", "MC", "PKG", "NUMA"}));
    EXPECT_EQ(levelsOf(older, 0), (std::vector<std::string>{"SMT", "MC", "DIE", "NUMA"}));
    EXPECT_EQ(flagName(*findProfile("linux-6.1"), SD_SHARE_LLC), "SD_SHARE_PKG_RESOURCES");
    EXPECT_EQ(flagName(*findProfile("linux-6.12"), SD_SHARE_LLC), "SD_SHARE_LLC");
    // Before 5.16 there is no CLS level even with cls on.
    Topology k = preset("kunpeng920-24");
    EXPECT_EQ(levelsOf(build(k, true, true, "linux-5.15"), 0)[0], "MC");
    EXPECT_EQ(levelsOf(build(preset("epyc7601-2s"), true, true, "linux-4.14"), 0),
              (std::vector<std::string>{"SMT", "MC", "NUMA", "NUMA"}));
}

// A kernel gets the changes up to its version: the named profile when one has exactly those
// (5.14's are 5.15's), else the profile of its last change ("linux-6.10": 6.10 and 6.11); a stable
// release gets what was backported to its branch up to it ("linux-6.12.43": 6.17's bump of the
// newidle cost; "linux-6.12.65": its revert and NI_RANDOM).
TEST(Profiles, AKernelReleaseGetsTheChangesUpToItsVersion) {
    const std::pair<const char*, const char*> cases[] = {
        {"3.10.0-1160.el7.x86_64", "linux-4.14"}, {"4.9.0-19-amd64", "linux-4.14"}, {"4.14.336", "linux-4.14"},    {"4.15.0-213-generic", "linux-4.15"},
        {"5.10.0-28-arm64", "linux-5.10"}, {"5.14.21", "linux-5.15"},    {"5.15.0-105", "linux-5.15"},
        {"5.16.0", "linux-5.16"},
        {"6.1.0-13-amd64", "linux-6.1"},  {"6.5.13", "linux-6.5"},       {"6.6.30-rt", "linux-6.6"},
        {"6.7.1", "linux-6.7"},           {"6.8.0-45-generic", "linux-6.8"}, {"6.11.0-9", "linux-6.10"},
        {"6.12.42", "linux-6.12"},        {"6.12.48+deb13", "linux-6.12.43"},  {"6.13.2", "linux-6.12"},      {"6.16.1", "linux-6.15"},
        {"6.18.4", "linux-6.18"},         {"6.18.5", "linux-6.18.5"},    {"6.18.32", "linux-6.18.5"},
        {"6.18.33", "linux-6.18.33"},     {"6.18.44-fc-v782", "linux-6.18.33"},
        {"6.1.148", "linux-6.1"},         {"6.1.149", "linux-6.1.149"},  {"6.1.159", "linux-6.1.149"},
        {"6.1.160", "linux-6.1.160"},     {"6.6.102", "linux-6.6"},      {"6.6.110", "linux-6.6.103"},
        {"6.6.120-rt", "linux-6.6.120"},  {"6.12.64", "linux-6.12.43"},  {"6.12.65", "linux-6.12.65"},
        {"6.12.70+deb13", "linux-6.12.65"},
        {"6.19.2", "linux-6.19"},         {"6.19.6", "linux-6.19"},      {"6.19.7", "linux-6.19.7"},
        {"7.0", "linux-7.0"},             {"7.0.4", "linux-7.0"},        {"7.1.2", "linux-7.1"},
        {"7.3.1", "linux-7.1"},           {"10.2.1", "linux-7.1"}};
    for (const auto& [release, profile] : cases) {
        const KernelProfile* p = profileForKernelRelease(release);
        ASSERT_NE(p, nullptr) << release;
        EXPECT_EQ(p->name, profile) << release;
        EXPECT_EQ(findProfile(p->name), p) << "one profile per set of changes: " << release;
    }
    for (const char* bad : {"", "6", "6.", "linux", "x6.1", ".1", "6.x", "linux-6.1"})
        EXPECT_EQ(profileForKernelRelease(bad), nullptr) << bad;
}

// What each change did, on the profiles of the kernels around it: Ubuntu 24.04's 6.8 has PKG and
// SD_CLUSTER but not yet SD_SHARE_LLC; 6.9-6.11 have it without delayed dequeue, and 6.10 lost
// the capacity of the boot log's root domain line.
TEST(Profiles, EachVersionHasTheChangesOfItsKernel) {
    const KernelProfile& p68 = *findProfile("linux-6.8");
    EXPECT_EQ(p68.pkgLevelName, "PKG");
    EXPECT_TRUE(p68.clusterFlag);
    EXPECT_TRUE(p68.clusterScanOnWakeup);
    EXPECT_EQ(p68.llcFlagName, "SD_SHARE_PKG_RESOURCES");
    EXPECT_FALSE(p68.delayDequeue);
    const KernelProfile& p69 = *findProfile("linux-6.9");
    EXPECT_EQ(p69.llcFlagName, "SD_SHARE_LLC");
    EXPECT_TRUE(p69.rootDomainCapacityInLog);
    const KernelProfile& p611 = *findProfile("linux-6.11");
    EXPECT_EQ(p611.name, "linux-6.10");
    EXPECT_EQ(p611.llcFlagName, "SD_SHARE_LLC");
    EXPECT_FALSE(p611.rootDomainCapacityInLog);
    EXPECT_FALSE(p611.delayDequeue);
    EXPECT_EQ(findProfile("linux-6.7")->pkgLevelName, "PKG");
    EXPECT_FALSE(findProfile("linux-6.7")->clusterFlag);
    EXPECT_EQ(findProfile("linux-6.6")->pkgLevelName, "DIE");
    EXPECT_FALSE(findProfile("linux-5.17")->sisUtil);
    EXPECT_EQ(findProfile("linux-5.17")->numaImbalance, 1);
    EXPECT_EQ(findProfile("linux-5.18")->numaImbalance, 2);
    EXPECT_TRUE(findProfile("linux-6.0")->sisUtil);
    const KernelProfile& p612 = *findProfile("linux-6.12");
    const KernelProfile& p618 = *findProfile("linux-6.18");
    EXPECT_TRUE(p612.overlapFlag);
    EXPECT_FALSE(p618.overlapFlag);
    EXPECT_FALSE(p612.asymPackingOnPkg);
    EXPECT_TRUE(p618.asymPackingOnPkg);
    EXPECT_DOUBLE_EQ(p612.baseSliceMs, 0.75);
    EXPECT_DOUBLE_EQ(p618.baseSliceMs, 0.70);
    // NI_RANDOM: 6.19, and the stable releases it was backported to, with their branch's changes
    const KernelProfile& p619 = *findProfile("linux-6.19");
    EXPECT_FALSE(p618.newidleRandom);
    EXPECT_TRUE(p619.newidleRandom);
    const KernelProfile& p61265 = *findProfile("linux-6.12.65");
    EXPECT_TRUE(p61265.newidleRandom);
    EXPECT_FALSE(p612.newidleRandom);
    EXPECT_TRUE(p61265.overlapFlag) << "a 6.12 kernel still";
    EXPECT_DOUBLE_EQ(p61265.baseSliceMs, 0.75);
    EXPECT_EQ(findProfile("linux-6.12.70"), &p61265);
    EXPECT_FALSE(findProfile("linux-6.1")->newidleRandom);
    EXPECT_TRUE(findProfile("linux-6.1.160")->newidleRandom);
    EXPECT_EQ(findProfile("linux-6.1.160")->fairClass, FairClass::Cfs);
    EXPECT_EQ(findProfile("linux-6.18.5")->name, "linux-6.18.5");
    // the newidle gate: migration cost until 5.15, the pass cost since, bumped by failures from
    // 6.17 until the revert that came with NI_RANDOM
    EXPECT_FALSE(findProfile("linux-5.15")->newidleCostGate);
    EXPECT_TRUE(findProfile("linux-5.16")->newidleCostGate);
    EXPECT_FALSE(findProfile("linux-6.16")->newidleFailBump);
    EXPECT_TRUE(findProfile("linux-6.17")->newidleFailBump);
    EXPECT_TRUE(p618.newidleFailBump);
    // the bump in the stable branches (August 2025), before their revert with NI_RANDOM
    for (const char* stable : {"linux-6.1.149", "linux-6.6.103", "linux-6.12.43"}) {
        const KernelProfile& p = *findProfile(stable);
        EXPECT_TRUE(p.newidleFailBump) << stable;
        EXPECT_FALSE(p.newidleRandom) << stable;
    }
    EXPECT_FALSE(findProfile("linux-6.12.42")->newidleFailBump);
    EXPECT_FALSE(p61265.newidleFailBump) << "reverted with NI_RANDOM";
    EXPECT_TRUE(findProfile("linux-6.12.43")->overlapFlag) << "only the bump came back to 6.12";
    EXPECT_FALSE(findProfile("linux-6.18.5")->newidleFailBump);
    EXPECT_FALSE(p619.newidleFailBump);
    EXPECT_EQ(findProfile("linux-6.19.3"), &p619) << "a stable release before 6.19.7's backports";
    // x86's SNC distances: 6.19 averages all remote ones, 7.0 (and 6.19.7) per package pair
    EXPECT_EQ(p618.x86SncDistances, X86SncDistances::Slit);
    EXPECT_EQ(p619.x86SncDistances, X86SncDistances::AverageRemote);
    EXPECT_FALSE(p619.pkgByNodesPerPackage);
    const KernelProfile& p70 = *findProfile("linux-7.0");
    EXPECT_EQ(p70.x86SncDistances, X86SncDistances::PackageMeans);
    EXPECT_TRUE(p70.pkgByNodesPerPackage);
    const KernelProfile& p6197 = *findProfile("linux-6.19.7");
    EXPECT_EQ(p6197.x86SncDistances, X86SncDistances::PackageMeans);
    EXPECT_TRUE(p6197.newidleRandom) << "the rest is 6.19's";
    EXPECT_EQ(findProfile("linux-6.19.40"), &p6197);
    EXPECT_FALSE(p70.newidleRate);
    const KernelProfile& p71 = *findProfile("linux-7.1");
    EXPECT_TRUE(p71.newidleRate) << "NI_RATE";
    EXPECT_EQ(p71.x86SncDistances, X86SncDistances::PackageMeans);
    EXPECT_EQ(&defaultProfile(), &p71);
    EXPECT_EQ(findProfile("linux-4.9"), nullptr) << "before the oldest profile";
    EXPECT_EQ(findProfile("linux-7.2"), nullptr) << "after the newest profile: changes we do not know";
    EXPECT_EQ(findProfile("linux-6.20"), nullptr) << "6.19 was the last 6.x";
    EXPECT_EQ(findProfile("linux-5.20"), nullptr) << "5.19 was the last 5.x";
    EXPECT_NE(findProfile("linux-4.20"), nullptr) << "4.x went up to 4.20";
    EXPECT_EQ(findProfile("linux-6.10x"), nullptr);
    // a release's own spelling of its first: 6.6.0 is 6.6
    EXPECT_EQ(findProfile("linux-6.6.0"), findProfile("linux-6.6"));
    EXPECT_EQ(findProfile("linux-7.1.0"), &p71);
    EXPECT_EQ(findProfile("linux-6.6.00"), nullptr);
    EXPECT_EQ(unknownProfileError("linux-9.9"),
              "unknown kernel profile 'linux-9.9' (known: " + profileNameList() + ", or any linux-X.Y[.Z] from 4.14 to 7.1)");
    EXPECT_EQ(profileNameList(),
              "linux-4.14, linux-5.15, linux-6.1, linux-6.6, linux-6.8, linux-6.12, linux-6.18, linux-6.19, linux-7.0, "
              "linux-7.1");
}

TEST(Profiles, TheRunningKernelsProfileIsThatOfItsRelease) {
    struct utsname u {};
    ASSERT_EQ(uname(&u), 0);
    EXPECT_EQ(runningKernelProfile(), profileForKernelRelease(u.release)) << u.release;
    EXPECT_NE(runningKernelProfile(), nullptr) << "a Linux release starts with MAJOR.MINOR: " << u.release;
}

}  // namespace
}  // namespace schedscope
