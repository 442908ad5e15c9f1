// The balancer's group sums kept per span (span_sums.h) against the per-CPU sums they replace:
// first SpanSums alone against PELT signals added up by hand, then whole runs where every group
// the balancer reads is also added up CPU by CPU.
#include "sim/span_sums.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/simulator.h"
#include "sim_topologies.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "workload/bursts_and_sleeps.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

using sim::Pelt;
using sim::SpanSums;

// Three runqueue signals per CPU, driven the way the engine drives them.
struct FakeCpu {
    Pelt load, util, runnable;
    int nr = 0;
    void set(int64_t now, int tasks, double weight) {
        sim::setTogether(now, util, tasks > 0 ? 1024.0 : 0.0, runnable, 1024.0 * tasks, load, weight);
        nr = tasks;
    }
    SpanSums::CpuReading reading() const { return {&load, &util, &runnable, nr}; }
};

struct Sums {
    double load = 0, util = 0, runnable = 0;
    int nr = 0, idle = 0;
};
Sums byHand(const std::vector<FakeCpu>& cpus, const std::vector<int>& span, int64_t now) {
    Sums s;
    for (int c : span) {
        const FakeCpu& f = cpus[static_cast<size_t>(c)];
        s.load += f.load.peek(now);
        s.util += f.util.peek(now);
        s.runnable += f.runnable.peek(now);
        s.nr += f.nr;
        s.idle += f.nr == 0;
    }
    return s;
}

void publishAll(SpanSums& sums, const std::vector<FakeCpu>& cpus, int64_t now) {
    for (int c : sums.changedCpus()) sums.publish(c, cpus[static_cast<size_t>(c)].reading(), now);
    sums.clearChanged();
}

void expectMatches(SpanSums& sums, int id, const std::vector<FakeCpu>& cpus, const std::vector<int>& span, int64_t now) {
    const SpanSums::Sums got = sums.read(id, now);
    const Sums want = byHand(cpus, span, now);
    // within the 1/1024 the decaying part is rounded to
    EXPECT_NEAR(got.load, want.load, 1.0 / 1024) << "at " << now << " ns";
    EXPECT_NEAR(got.util, want.util, 1.0 / 1024) << "at " << now << " ns";
    EXPECT_NEAR(got.runnable, want.runnable, 1.0 / 1024) << "at " << now << " ns";
    EXPECT_EQ(got.nrRunning, want.nr);
    EXPECT_EQ(got.idleCpus, want.idle);
}

TEST(SpanSums, FollowEveryCpuThroughChangesAndTime) {
    SpanSums sums;
    const int all = sums.addSpan(CpuSet::range(0, 3));
    const int pair = sums.addSpan(CpuSet::range(2, 3));
    EXPECT_EQ(sums.addSpan(CpuSet::range(0, 3)), all);  // a span shared by many groups is kept once
    sums.reset(4);
    std::vector<FakeCpu> cpus(4);
    // tasks come and go at uneven times, with gaps past the rebase distance (2^27 ns) and of
    // several seconds, and a task's average jumps onto CPU 3 (an attach) in between
    const struct {
        int64_t t;
        int cpu, tasks;
        double weight;
    } changes[] = {{0, 0, 1, 1024},         {1'000'000, 1, 2, 2048},    {1'500'000, 2, 1, 335},
                   {40'000'000, 0, 0, 0},   {45'000'000, 3, 3, 3072},   {200'000'000, 1, 1, 1024},
                   {201'000'000, 2, 0, 0},  {3'000'000'000, 3, 1, 1024}, {3'000'000'001, 0, 2, 2048},
                   {9'000'000'000, 1, 0, 0}};
    for (const auto& ch : changes) {
        cpus[static_cast<size_t>(ch.cpu)].set(ch.t, ch.tasks, ch.weight);
        if (ch.t == 45'000'000) cpus[3].load.value += 700;  // attach_entity_load_avg()
        sums.markChanged(ch.cpu);
        publishAll(sums, cpus, ch.t);
        for (int64_t later : {ch.t, ch.t + 1, ch.t + 3'000'000, ch.t + 150'000'000}) {
            expectMatches(sums, all, cpus, {0, 1, 2, 3}, later);
            expectMatches(sums, pair, cpus, {2, 3}, later);
        }
    }
}

TEST(SpanSums, OneCpuSpansAreLeftToTheCaller) {
    SpanSums sums;
    const int one = sums.addSpan(CpuSet::single(5));
    const int two = sums.addSpan(CpuSet::range(4, 5));
    sums.reset(8);
    EXPECT_EQ(sums.onlyCpu(one), 5);
    EXPECT_EQ(sums.onlyCpu(two), -1);
}

// Two pairs of runqueues reach the same inputs by different paths: once their signals have
// settled, their sums read exactly equal, as the kernel's integer sums would, so a tie between
// two groups goes to the first one as it does there.
TEST(SpanSums, SettledSpansTieExactly) {
    SpanSums sums;
    const int a = sums.addSpan(CpuSet::range(0, 1));
    const int b = sums.addSpan(CpuSet::range(2, 3));
    sums.reset(4);
    std::vector<FakeCpu> cpus(4);
    int64_t t = 0;
    auto change = [&](int cpu, int tasks, double weight) {
        t += 1'234'567;
        cpus[static_cast<size_t>(cpu)].set(t, tasks, weight);
        sums.markChanged(cpu);
        publishAll(sums, cpus, t);
    };
    for (int i = 0; i < 50; ++i) {  // churn with weights that do not add up exactly in binary
        change(i % 4, 1 + i % 3, 1024.0 / 3.0 * (1 + i % 5));
        change((i + 1) % 4, i % 2, 335.7);
    }
    change(0, 1, 1024);
    change(1, 2, 2048);
    change(2, 2, 2048);
    change(3, 1, 1024);
    const int64_t settled = t + 20'000'000'000;
    const SpanSums::Sums sa = sums.read(a, settled), sb = sums.read(b, settled);
    EXPECT_EQ(sa.load, sb.load);
    EXPECT_EQ(sa.util, sb.util);
    EXPECT_EQ(sa.runnable, sb.runnable);
    EXPECT_EQ(sa.load, 3072.0);
}

// Whole runs: every group the balancer reads from the span sums is added up CPU by CPU too.
void expectSpanSumsMatch(const Topology& topo, const std::string& profile, const workload::Workload& wl, double seconds) {
    const TestRun run = startRun(topo, profile, wl, seconds);
    ASSERT_TRUE(run.sim);
    sim::SimState& s = run.sim->state();
    s.verifySpanSums = true;
    run.sim->runToEnd();
    EXPECT_GT(s.spanSumChecks, 1000) << wl.name << " under " << profile;
    EXPECT_EQ(s.spanSumMismatches, 0) << wl.name << " under " << profile << ": of " << s.spanSumChecks << " groups";
}

workload::Workload fromSpec(const Topology& topo, const std::string& spec) {
    auto wl = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
    EXPECT_TRUE(wl.ok()) << (wl.ok() ? "" : wl.error());
    return wl.ok() ? *wl : workload::Workload{};
}

TEST(SpanSumsInRuns, BenchMixOnEpyc) {
    expectSpanSumsMatch(epyc7601_2s(), "linux-6.19", workload::burstsAndSleeps(200, 2, 0.6, 6.0), 0.6);  // past a few rebases
}

TEST(SpanSumsInRuns, HackbenchOnKunpengUnderEveryNewidleRule) {
    const Topology topo = kunpeng920_24();
    for (const char* profile : {"linux-5.15", "linux-6.12", "linux-6.18", "linux-6.19"})
        expectSpanSumsMatch(topo, profile, fromSpec(topo, "hackbench:groups=1,duration=0.05"), 0.05);
}

// Before 5.13 a Kunpeng 920's NUMA groups reach past their domain (a NUMA diameter above 2):
// update_sg_lb_stats() adds up only the group's CPUs within the domain, env->cpus.
TEST(SpanSumsInRuns, GroupsPastTheirDomainBefore513) {
    const Topology topo = kunpeng920_24();
    expectSpanSumsMatch(topo, "linux-5.6", fromSpec(topo, "hackbench:groups=1,duration=0.05"), 0.05);
}

// Every real machine of the fixtures: overlapping NUMA groups (ia64, POWER8 with GPU
// distances, irregular groups), an offline CPU, hybrid CPUs with ITMT priorities, SMT-4.
class SpanSumsOnMachine : public ::testing::TestWithParam<std::string> {};
TEST_P(SpanSumsOnMachine, EveryGroupReadMatches) {
    auto topo = loadHwlocXmlDetectArch(dataPath("topologies/xml/" + GetParam()));
    ASSERT_TRUE(topo.ok()) << topo.error();
    const DomainTree tree = buildValidDomains(*topo, topo->arch, "linux-6.19");
    const int cpus = topo->onlineCount();
    sim::SimOptions opt;
    opt.durationS = 0.03;
    opt.samplePeriodS = 0.01;
    const workload::Workload wl = workload::burstsAndSleeps(2 * cpus, 2, 0.5, 4.0);
    auto sim = sim::Simulation::create(*topo, tree, wl, opt);
    ASSERT_TRUE(sim.ok()) << sim.error();
    sim::SimState& s = (*sim)->state();
    s.verifySpanSums = true;
    (*sim)->runToEnd();
    if (cpus > 1) {
        EXPECT_GT(s.spanSumChecks, 0);
    }
    EXPECT_EQ(s.spanSumMismatches, 0) << "of " << s.spanSumChecks << " groups";
}
INSTANTIATE_TEST_SUITE_P(Fixtures, SpanSumsOnMachine, ::testing::ValuesIn(fixtureFiles("topologies/xml", ".xml")),
                         [](const ::testing::TestParamInfo<std::string>& info) { return fileTestName(info.param); });

// Pinned tasks: idle CPUs of the node find nothing they may pull, drop the busiest CPU from
// env->cpus (all pinned) and add up by hand from then on.
TEST(SpanSumsInRuns, PinnedStream) {
    const Topology topo = kunpeng920_24();
    expectSpanSumsMatch(topo, "linux-6.6", fromSpec(topo, "stream:threads=8,cpus=0-3,duration=0.3"), 0.3);
}

}  // namespace
}  // namespace schedscope::test
