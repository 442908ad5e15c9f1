// cpuset root partitions in the simulator: each is a root domain of its own. No domain spans two,
// so nothing balances a task across them, and rd->overloaded is per root domain: an overloaded
// partition sends no other partition's newly idle CPUs balancing. The topology is the guest's
// sysfs of tests/data/oracle/x86-2s4n4c2t (16 CPUs, 4 nodes), whose partitioned domains the
// oracle test checks against a real kernel.
#include <gtest/gtest.h>

#include "domains/domain_builder.h"
#include "script_ops.h"
#include "sim/simulator.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "workload/workload_json.h"
#include "workload/workload_spec.h"

namespace schedscope {
namespace {

Topology guest(const std::vector<std::string>& partitions) {
    auto topo = loadSysfsTopology(test::extractFixture("oracle/x86-2s4n4c2t/sysfs.tar.xz"), Arch::X86_64);
    EXPECT_TRUE(topo.ok()) << topo.error();
    if (!topo.ok()) return {};
    for (const auto& p : partitions) topo->rootPartitions.push_back(*CpuSet::parseList(p));
    return *topo;
}

std::unique_ptr<sim::SimState> run(const Topology& topo, const workload::Workload& wl, const char* profile) {
    const DomainTree tree = test::buildValidDomains(topo, Arch::X86_64, profile);
    sim::SimOptions o;
    o.durationS = 0.3;
    auto st = sim::simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok()) << st.error();
    return st.ok() ? std::move(*st) : nullptr;
}

int64_t cpuTimeOn(const sim::SimState& s, const CpuSet& cpus) {
    int64_t ns = 0;
    for (const auto& t : s.tasks) cpus.forEach([&](int c) { ns += t.cpuTime.of(c); });
    return ns;
}

}  // namespace

// Six busy threads allowed on CPUs 0-7, started from CPU 0: without partitions they spread over
// 0-7; with 0-1 a partition of its own they stay on its two CPUs, the other six idle, because
// fork/exec placement, wakeups and load balancing all walk CPU 0's domains, which end at 0-1.
TEST(RootDomains, NothingBalancesATaskOutOfItsRootDomain) {
    auto wl = workload::parseWorkloadSpec("sysbench-cpu:threads=6,cpus=0-7", 16);
    ASSERT_TRUE(wl.ok()) << wl.error();
    const CpuSet rest = *CpuSet::parseList("2-7");
    auto whole = run(guest({}), *wl, "linux-6.6");
    auto parted = run(guest({"0-1", "8-15"}), *wl, "linux-6.6");
    ASSERT_TRUE(whole && parted);
    EXPECT_GT(cpuTimeOn(*whole, rest), 0);
    EXPECT_EQ(cpuTimeOn(*parted, rest), 0);
    EXPECT_GT(cpuTimeOn(*parted, *CpuSet::parseList("0-1")), 0);
}

// Three busy tasks on partition 0-1 keep its root domain overloaded; one task per CPU on 2-7
// runs 1 ms bursts with 1 ms sleeps, so those CPUs go newly idle a thousand times a second and
// never hold two tasks. In one root domain the overload sends each of them balancing (and finding
// nothing); with 0-1 a partition, 2-7's root domain is never overloaded and no pass runs.
TEST(RootDomains, AnOverloadedPartitionSendsNoOtherPartitionBalancing) {
    workload::Workload wl;
    wl.name = "overloaded 0-1, bursts on 2-7";
    for (int i = 0; i < 3; ++i) {
        workload::TaskSpec busy;
        busy.name = "busy" + std::to_string(i);
        busy.affinity = *CpuSet::parseList("0-1");
        busy.script = {test::op(workload::OpKind::Run, 1e12)};
        wl.tasks.push_back(busy);
    }
    for (int cpu = 2; cpu <= 7; ++cpu) {
        workload::TaskSpec bursty;
        bursty.name = "bursty" + std::to_string(cpu);
        bursty.affinity = CpuSet::single(cpu);
        workload::Op loop = test::op(workload::OpKind::Loop);
        loop.to = 0;
        bursty.script = {test::op(workload::OpKind::Run, 1e6), test::op(workload::OpKind::Sleep, 1e6), loop};
        wl.tasks.push_back(bursty);
    }
    auto whole = run(guest({}), wl, "linux-6.6");
    auto parted = run(guest({"0-1"}), wl, "linux-6.6");
    ASSERT_TRUE(whole && parted);
    EXPECT_GT(whole->metrics.newidleBalances, 100);
    EXPECT_EQ(parted->metrics.newidleBalances, 0);
}

}  // namespace schedscope

namespace schedscope {

// isolcpus=domain: CPUs 0-3 have no domains, and tasks that name no CPUs inherit init's
// housekeeping affinity (sched_init_smp()), so eight busy threads started from CPU 0 run on
// eight CPUs of 4-15 and never on 0-3. Pinned to 0-3, they stay there, and as nothing balances
// an isolated CPU (no domains to balance in), forks placed on the parent's CPU stay on it.
TEST(RootDomains, UnpinnedTasksKeepOffIsolatedCpus) {
    Topology topo = guest({});
    topo.isolated = *CpuSet::parseList("0-3");
    const CpuSet isolated = topo.isolated;
    auto unpinned = workload::parseWorkloadSpec("sysbench-cpu:threads=8", 16);
    ASSERT_TRUE(unpinned.ok()) << unpinned.error();
    auto st = run(topo, *unpinned, "linux-6.6");
    ASSERT_NE(st, nullptr);
    EXPECT_EQ(cpuTimeOn(*st, isolated), 0) << "an unpinned task ran on an isolated CPU";
    CpuSet used;
    for (const auto& t : st->tasks)
        if (t.cpuTime.mostUsed() >= 0) used.set(t.cpuTime.mostUsed());
    EXPECT_EQ(used.count(), 8) << used.toList();

    auto pinned = workload::parseWorkloadSpec("sysbench-cpu:threads=8,cpus=0-3", 16);
    ASSERT_TRUE(pinned.ok()) << pinned.error();
    auto st2 = run(topo, *pinned, "linux-6.6");
    ASSERT_NE(st2, nullptr);
    int64_t total = 0;
    for (const auto& t : st2->tasks) total += t.cpuTime.total();
    EXPECT_EQ(cpuTimeOn(*st2, isolated), total) << "a task pinned to isolated CPUs left them";

    // allowed on isolated and housekeeping CPUs alike: the shell (on a housekeeping CPU) starts
    // them there, and its domains place them on 4-7; started from isolated CPU 2, all four
    // stayed on it
    auto mixed = workload::parseWorkloadSpec("sysbench-cpu:threads=4,cpus=2-7", 16);
    ASSERT_TRUE(mixed.ok()) << mixed.error();
    auto st3 = run(topo, *mixed, "linux-6.6");
    ASSERT_NE(st3, nullptr);
    EXPECT_EQ(cpuTimeOn(*st3, isolated), 0);
    CpuSet mixedUsed;
    for (const auto& t : st3->tasks)
        if (t.cpuTime.mostUsed() >= 0) mixedUsed.set(t.cpuTime.mostUsed());
    EXPECT_EQ(mixedUsed.toList(), "4-7");

    // a task a recording found on CPU 1 (start_cpu) that names no CPUs: its housekeeping
    // affinity leaves CPU 1 out under this isolation, so it is placed from a housekeeping CPU
    auto found = workload::parseWorkloadJson(R"({"tasks":[{"name":"t","start_cpu":1,"script":[{"run_ms":20}]}]})",
                                             "found.json", 16);
    ASSERT_TRUE(found.ok()) << found.error();
    auto st4 = run(topo, *found, "linux-6.6");
    ASSERT_NE(st4, nullptr);
    EXPECT_EQ(cpuTimeOn(*st4, isolated), 0);
    EXPECT_GT(st4->tasks[0].cpuTime.total(), 0);
}

}  // namespace schedscope
