// Levels from a hand-built topology: the expectation comes from the topology's own facts (same
// core, same package), not from the domain tree under test.
#include <gtest/gtest.h>

#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "support/sched_events.h"
#include "topology/hwloc_loader.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {
MigrationClassifier classifierFor(const Topology& topo) {
    DomainBuildOptions opt;
    opt.arch = topo.arch;
    auto tree = buildDomains(topo, opt);
    EXPECT_TRUE(tree) << tree.error();
    return MigrationClassifier(*tree);
}
std::string expectedLevel(const Topology& t, int a, int b, const std::string& crossPackage) {
    const auto& ca = t.cpus[static_cast<size_t>(a)];
    if (a == b) return "";
    if (ca.threadSiblings.test(b)) return "SMT";
    if (ca.packageCpus.test(b)) return "MC";
    return crossPackage;
}
}  // namespace

TEST(MigrationClassifier, SmtMcPkgOnTwoPackagesOneNode) {
    auto topo = loadHwlocSynthetic("pack:2 l3:1 core:2 pu:2", Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    auto c = classifierFor(*topo);
    ASSERT_EQ(c.cpuCount(), 8);
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b) EXPECT_EQ(c.levelName(a, b), expectedLevel(*topo, a, b, "PKG")) << a << "->" << b;
}

TEST(MigrationClassifier, SmtMcNumaOnTwoNodes) {
    auto topo = loadHwlocSynthetic("pack:2 numa:1 l3:1 core:2 pu:2", Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    auto c = classifierFor(*topo);
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b) EXPECT_EQ(c.levelName(a, b), expectedLevel(*topo, a, b, "NUMA")) << a << "->" << b;
    EXPECT_EQ(c.level(3, 3), -1);
    EXPECT_EQ(c.level(0, 99), -1);
}

TEST(MigrationClassifier, CountsPerLevelTimeBinAndTask) {
    auto topo = loadHwlocSynthetic("pack:2 numa:1 l3:1 core:2 pu:2", Arch::X86_64);
    ASSERT_TRUE(topo);
    auto c = classifierFor(*topo);
    EventStore s;
    auto mig = [&](uint64_t ts, int pid, int src, int dst) { s.append(schedscope::test::migrateEvent(ts, pid, src, dst)); };
    mig(0, 1, 0, 1);                // SMT, bin 0
    mig(500'000'000, 1, 1, 2);      // MC, bin 0
    mig(1'500'000'000, 2, 0, 4);    // NUMA, bin 1
    mig(2'100'000'000, 2, 4, 5);    // SMT, bin 2
    s.finish();
    auto r = c.classify(s, 1'000'000'000);
    auto idx = [&](const std::string& n) {
        return static_cast<size_t>(std::find(r.levels.begin(), r.levels.end(), n) - r.levels.begin());
    };
    EXPECT_EQ(r.byLevel[idx("SMT")], 2u);
    EXPECT_EQ(r.byLevel[idx("MC")], 1u);
    EXPECT_EQ(r.byLevel[idx("NUMA")], 1u);
    ASSERT_EQ(r.byLevelOverTime.size(), 3u);
    EXPECT_EQ(r.byLevelOverTime[0][idx("SMT")], 1u);
    EXPECT_EQ(r.byLevelOverTime[0][idx("MC")], 1u);
    EXPECT_EQ(r.byLevelOverTime[1][idx("NUMA")], 1u);
    EXPECT_EQ(r.byLevelOverTime[2][idx("SMT")], 1u);
    EXPECT_EQ(r.byTask[1].size(), 2u);
    EXPECT_EQ(r.byTask[2].size(), 2u);
}
