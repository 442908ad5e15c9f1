// ASYM_PACKING in the balancer (ITMT on an Intel hybrid laptop, Arrow Lake 225U: CPUs 0-3 two
// P-cores with SMT, 4-11 two E-core clusters, 12-13 LP E-cores on their own L2): busy tasks end
// on the P-cores, one per core, moved there by active balancing from the lower priority CPUs.
#include <gtest/gtest.h>

#include "domains/domain_builder.h"
#include "sim/asym_packing.h"
#include "sim/simulator.h"
#include "support/fixtures.h"
#include "sim_topologies.h"
#include "topology/hwloc_loader.h"
#include "workload/workload_json.h"
#include "workload/workload_spec.h"

namespace schedscope::sim {
namespace {

struct Shares {
    double pCores = 0, lpCores = 0;  // shares of all CPU time on CPUs 0-3 and 12-13
    long long activeMoves = 0;
    std::vector<int> mainCpu;  // per task: where it ran most
};

Topology arrowLake() {
    auto t = loadHwlocXml(test::dataPath("topologies/xml/Intel-ArrowLake-CoreUltra5-225U.xml"), Arch::X86_64);
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : Topology{};
}

Shares run(const Topology& topo, const char* profile, const std::string& spec) {
    const auto st = test::runSpec(topo, profile, spec, 1.0);
    Shares out;
    if (!st) return out;
    double total = 0;
    for (const auto& t : st->tasks) {
        for (const CpuTimes::Entry& e : t.cpuTime) {
            const double v = static_cast<double>(e.ns);
            total += v;
            if (e.cpu < 4) out.pCores += v;
            if (e.cpu >= 12) out.lpCores += v;
        }
        out.mainCpu.push_back(std::max(0, t.cpuTime.mostUsed()));
    }
    out.pCores /= total;
    out.lpCores /= total;
    out.activeMoves = st->metrics.migrationsByCause[static_cast<size_t>(MigrationCause::LbActive)];
    return out;
}

}  // namespace

TEST(AsymPacking, PrioritiesFollowTheKindsAndOnlyWhenTheDomainsPack) {
    const Topology t = arrowLake();
    auto packed = buildDomains(t, {});
    ASSERT_TRUE(packed.ok());
    const auto prio = asymPriorities(t, *packed);
    ASSERT_EQ(prio.size(), 14u);
    EXPECT_GT(prio[0], prio[4]);   // P-core over E-core
    EXPECT_GT(prio[4], prio[12]);  // E-core over LP E-core
    EXPECT_EQ(prio[0], prio[1]);   // SMT siblings share one
    Topology off = t;
    off.itmtEnabled = false;
    auto plain = buildDomains(off, {});
    ASSERT_TRUE(plain.ok());
    EXPECT_TRUE(asymPriorities(off, *plain).empty());
}

// Before 6.5 sched_set_itmt_core_prio() scaled a core's i-th SMT sibling by siblings / i^2: a
// P-core's second thread ranked below the E-cores (and, on Arrow Lake, the LP E-cores), and on
// a machine of one kind with ITMT on (Turbo Boost Max 3.0) every first thread above every
// second one. Since 6.5 siblings share their core's priority, and one kind has nothing to prefer.
TEST(AsymPacking, BeforeSixFiveASecondThreadRankedBelowEveryFirstThread) {
    const Topology t = arrowLake();
    const DomainTree old = test::buildValidDomains(t, Arch::X86_64, "linux-6.1");
    const DomainTree now = test::buildValidDomains(t, Arch::X86_64, "linux-6.6");
    const auto before = asymPriorities(t, old), after = asymPriorities(t, now);
    ASSERT_EQ(before.size(), 14u);
    ASSERT_EQ(after.size(), 14u);
    EXPECT_GT(before[0], before[4]) << "P-core thread 0 over an E-core";
    EXPECT_GT(before[4], before[12]) << "E-core over an LP E-core";
    EXPECT_GT(before[12], before[1]) << "an LP E-core over a P-core's second thread";
    EXPECT_EQ(after[0], after[1]);
    EXPECT_GT(after[1], after[4]);

    auto server = loadHwlocSynthetic("pack:1 core:4 pu:2", Arch::X86_64);
    ASSERT_TRUE(server.ok()) << server.error();
    server->itmtEnabled = true;
    const auto scaled = asymPriorities(*server, test::buildValidDomains(*server, Arch::X86_64, "linux-6.1"));
    ASSERT_EQ(scaled.size(), 8u);
    for (int core = 0; core < 4; ++core)
        for (int other = 0; other < 4; ++other) EXPECT_GT(scaled[2 * core], scaled[2 * other + 1]);
    EXPECT_TRUE(asymPriorities(*server, test::buildValidDomains(*server, Arch::X86_64, "linux-6.6")).empty());
}

TEST(AsymPacking, TwoBusyTasksEndOnSeparatePCores) {
    const Shares s = run(arrowLake(), "linux-6.12", "sysbench-cpu:threads=2");
    EXPECT_GT(s.pCores, 0.9);
    EXPECT_GE(s.activeMoves, 1);
    ASSERT_EQ(s.mainCpu.size(), 2u);
    EXPECT_NE(s.mainCpu[0] / 2, s.mainCpu[1] / 2) << "both on one P-core's SMT siblings";
    // with ITMT off the balancer has no reason to prefer the P-cores
    Topology off = arrowLake();
    off.itmtEnabled = false;
    EXPECT_LT(run(off, "linux-6.12", "sysbench-cpu:threads=2").pCores, 0.9);
}

// With SMT on, packing between cores needs the preferred core wholly idle: four busy tasks take
// the two P-cores (one thread each) and two E-cores, not the P-cores' second threads.
TEST(AsymPacking, FourBusyTasksTakeTwoPCoresAndTwoECoresNotTheSecondThreads) {
    const Shares s = run(arrowLake(), "linux-6.12", "sysbench-cpu:threads=4");
    int pThreads = 0, eCores = 0;
    for (int c : s.mainCpu) {
        pThreads += c < 4;
        eCores += c >= 4 && c < 12;
    }
    EXPECT_EQ(pThreads, 2);
    EXPECT_EQ(eCores, 2);
}

// Kernels before 6.5 gave the die domain no SD_ASYM_PACKING, so a task placed on Meteor/Arrow
// Lake's LP E-cores (their own die and L2) stayed there: "x86/sched: Add the SD_ASYM_PACKING flag
// to the die domain of hybrid processors" (6.5) fixed that.
TEST(AsymPacking, BeforeTheDieDomainPackedATaskStayedOnTheLowPowerCores) {
    const Topology t = arrowLake();
    const Shares old = run(t, "linux-6.1", "sysbench-cpu:threads=2");
    const Shares now = run(t, "linux-6.6", "sysbench-cpu:threads=2");
    EXPECT_GT(old.lpCores, 0.3);
    EXPECT_LT(now.lpCores, 0.05);
    EXPECT_GT(now.pCores, 0.9);
}

// POWER7's asymmetric SMT (CPU_FTR_ASYM_SMT): a core runs faster with only its lower threads
// busy, and powerpc gives the SMT level SD_ASYM_PACKING with priority -cpu. Three short tasks and
// a long one on one core's four threads: when the short ones exit, the long one is actively
// moved down to thread 0. Under the generic (arm64) rules it stays where it was.
TEST(AsymPacking, APower7CoreMovesItsLastTaskDownToThreadZero) {
    auto topo = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/256ppc-8n8s4t.xml"));
    ASSERT_TRUE(topo.ok()) << topo.error();
    const std::string json = R"({"name": "one long task among short ones on core 0", "tasks": [
        {"name": "short-0", "cpus": "0-3", "script": [{"run_ms": 50}, {"exit": true}]},
        {"name": "short-1", "cpus": "0-3", "script": [{"run_ms": 50}, {"exit": true}]},
        {"name": "short-2", "cpus": "0-3", "script": [{"run_ms": 50}, {"exit": true}]},
        {"name": "long", "cpus": "0-3", "script": [{"run_ms": 500}, {"exit": true}]}]})";
    auto wl = workload::parseWorkloadJson(json, "test", static_cast<int>(topo->cpus.size()));
    ASSERT_TRUE(wl.ok()) << wl.error();
    auto lastCpuOfLongTask = [&](Arch arch, long long& activeMoves) {
        DomainBuildOptions b;
        b.arch = arch;
        auto tree = buildDomains(*topo, b);
        EXPECT_TRUE(tree.ok()) << tree.error();
        const auto prio = asymPriorities(*topo, *tree);
        if (arch == Arch::Ppc64) {
            EXPECT_EQ(prio.size(), topo->cpus.size());
            EXPECT_TRUE(prio.size() > 3 && prio[0] > prio[1] && prio[1] > prio[3]) << "lower CPU numbers first";
        } else {
            EXPECT_TRUE(prio.empty());
        }
        SimOptions o;
        o.durationS = 1.0;
        auto st = simulate(*topo, *tree, *wl, o);
        EXPECT_TRUE(st.ok()) << st.error();
        if (!st.ok()) return -1;
        activeMoves = (*st)->metrics.migrationsByCause[static_cast<size_t>(MigrationCause::LbActive)];
        const auto& t = (*st)->tasks.back();
        EXPECT_EQ(t.spec->name, "long");
        return t.cpu;
    };
    long long ppcMoves = 0, genericMoves = 0;
    const int ppcCpu = lastCpuOfLongTask(Arch::Ppc64, ppcMoves);
    const int genericCpu = lastCpuOfLongTask(Arch::Arm64, genericMoves);
    EXPECT_EQ(ppcCpu, 0);
    EXPECT_GE(ppcMoves, 1);
    EXPECT_NE(genericCpu, 0) << "nothing moves it without the packing";
    EXPECT_EQ(genericMoves, 0);
}

}  // namespace schedscope::sim
