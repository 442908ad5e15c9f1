// SD_ASYM_CPUCAPACITY per kernel profile, as each kernel's build_sched_domains() set it:
// - 4.14-4.19: never (only an arch's topology table could, and no mainline one did);
// - 4.20-5.9: the one level asym_cpu_capacity_level() finds (the lowest at which every CPU sees
//   a CPU of the highest capacity it can see), with SD_BALANCE_WAKE on it and below until 5.7;
// - 5.10-5.13: that level and every level above it;
// - 5.14+: each domain whose span holds two capacities, _FULL when it holds all of them.
// On a real machine's sysfs (an NVIDIA DGX GB10: five capacities over two clusters) and on
// two-node machines built from hwloc synthetic strings with capacities set per CPU.
#include <gtest/gtest.h>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace {

const SchedDomain* domainAt(const DomainTree& tree, int cpu, const std::string& level) {
    for (const auto& d : tree.domainsOf(cpu))
        if (d.level == level) return &d;
    return nullptr;
}

// the flags of `level` on `cpu` among the asymmetry and wakeup flags, -1 when it has no such domain
long asymFlags(const DomainTree& tree, int cpu, const std::string& level) {
    const SchedDomain* d = domainAt(tree, cpu, level);
    return d ? static_cast<long>(d->flags & (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL | SD_BALANCE_WAKE)) : -1;
}

constexpr long kAsym = SD_ASYM_CPUCAPACITY, kFull = SD_ASYM_CPUCAPACITY_FULL, kWake = SD_BALANCE_WAKE;

Topology gb10() {
    const std::string dir = test::extractFixture("topologies/sysfs/nvidia-dgx-gb10.tar.bz2");
    auto t = loadSysfsTopology(dir + "/nvidia-dgx-gb10", Arch::Arm64);
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : Topology{};
}

// two packages, one node each, eight cores sharing an L3 per package; capacities by CPU
Topology twoNodes(unsigned (*capacityOf)(int cpu)) {
    auto t = loadHwlocSynthetic("pack:2 numa:1 l3:1 core:8 pu:1", Arch::Arm64);
    EXPECT_TRUE(t.ok()) << t.error();
    if (!t.ok()) return {};
    for (auto& c : t->cpus) c.capacity = capacityOf(c.id);
    return *t;
}

}  // namespace

TEST(AsymCapacity, Gb10UnderEachKernel) {
    const Topology t = gb10();
    ASSERT_EQ(t.cpus.size(), 20u);
    ASSERT_EQ(t.cpus[0].capacity, 718u);
    ASSERT_EQ(t.cpus[19].capacity, 1024u);
    // CPUs 0-4 (718) see 997 in their cluster (MC) but 1024 (CPU 19) only across both (DIE):
    // asym_cpu_capacity_level() is DIE
    struct Case {
        const char* profile;
        long mc, die;
        bool mcPrefersSiblings;
    };
    const Case cases[] = {
        {"linux-4.14", 0, 0, true},
        {"linux-4.20", kWake, kAsym | kWake, false},
        {"linux-5.6", kWake, kAsym | kWake, false},
        {"linux-5.7", 0, kAsym, false},
        {"linux-5.10", 0, kAsym, false},
        {"linux-5.13", 0, kAsym, false},
        {"linux-5.14", kAsym, kAsym | kFull, false},
        {"linux-6.12", kAsym, kAsym | kFull, false},
    };
    for (const Case& c : cases) {
        const DomainTree tree = test::buildValidDomains(t, Arch::Arm64, c.profile);
        for (int cpu : {0, 7, 12, 19}) {
            EXPECT_EQ(asymFlags(tree, cpu, "MC"), c.mc) << c.profile << " cpu" << cpu;
            EXPECT_EQ(asymFlags(tree, cpu, "DIE") >= 0 ? asymFlags(tree, cpu, "DIE") : asymFlags(tree, cpu, "PKG"), c.die)
                << c.profile << " cpu" << cpu;
            const SchedDomain* mc = domainAt(tree, cpu, "MC");
            ASSERT_NE(mc, nullptr);
            EXPECT_EQ((mc->flags & SD_PREFER_SIBLING) != 0, c.mcPrefersSiblings) << c.profile << " cpu" << cpu;
        }
    }
}

TEST(AsymCapacity, FromFiveTenTheLevelAboveIsFlaggedToo) {
    // each node: four big cores (1024) and four little ones (512) under one L3: every CPU sees
    // the largest capacity at MC, so MC is the level; the NUMA level above spans both nodes
    const Topology t = twoNodes([](int cpu) { return cpu % 8 < 4 ? 1024u : 512u; });
    struct Case {
        const char* profile;
        long mc, numa;
    };
    const Case cases[] = {
        {"linux-5.7", kAsym, 0},  // one level only
        {"linux-5.10", kAsym, kAsym},
        {"linux-5.14", kAsym | kFull, kAsym | kFull},
    };
    for (const Case& c : cases) {
        const DomainTree tree = test::buildValidDomains(t, Arch::Arm64, c.profile);
        for (int cpu : {0, 5, 8, 15}) {
            EXPECT_EQ(asymFlags(tree, cpu, "MC"), c.mc) << c.profile << " cpu" << cpu;
            EXPECT_EQ(asymFlags(tree, cpu, "NUMA"), c.numa) << c.profile << " cpu" << cpu;
        }
    }
}

TEST(AsymCapacity, BeforeFiveFourteenANodeOfOneCapacityHidesTheOtherAtBoot) {
    // node 0 all big, node 1 all little: the capacities differ only across nodes. Before 5.14
    // the level search reads the NUMA masks before sd_init() has set their level, so at boot
    // every NUMA level shows the CPU's own node and no CPU ever sees a larger capacity: no flag
    // anywhere. 5.14 classifies each span: the NUMA level holds both capacities.
    const Topology t = twoNodes([](int cpu) { return cpu < 8 ? 1024u : 512u; });
    for (const char* profile : {"linux-4.20", "linux-5.10", "linux-5.13"}) {
        const DomainTree tree = test::buildValidDomains(t, Arch::Arm64, profile);
        for (const auto& c : tree.cpus)
            for (const auto& d : c.domains) EXPECT_EQ(d.flags & SD_ASYM_CPUCAPACITY, 0u) << profile << " cpu" << c.cpu << " " << d.level;
    }
    const DomainTree tree = test::buildValidDomains(t, Arch::Arm64, "linux-5.14");
    for (int cpu : {0, 9}) {
        EXPECT_EQ(asymFlags(tree, cpu, "MC"), 0) << "one capacity per node";
        EXPECT_EQ(asymFlags(tree, cpu, "NUMA"), kAsym | kFull);
    }
}

}  // namespace schedscope
