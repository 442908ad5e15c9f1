// The hand-off: a wakee reads the data its waker wrote (TaskSpec::handoffKB), from the waker's
// caches, at a cost that grows with the distance between the two CPUs: nothing within one core,
// then the cluster's, the LLC's, across LLCs, and across nodes scaled by the NUMA distance. The
// transfer takes time but does no work.
#include <gtest/gtest.h>

#include "script_ops.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "workload/workload_json.h"
#include "workload/workload_json_writer.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

// arm64, 2 nodes (distance 20) x 2 LLCs x 2 clusters x 2 cores x SMT2: CPU 1 is CPU 0's SMT
// sibling, 2 shares its cluster, 4 its LLC, 8 its node, 16 is on the other node
const Topology& everyDistance() {
    static const Topology topo = [] {
        Shape shape;
        shape.nodesPerPackage = 2;
        shape.llcsPerNode = 2;
        shape.clustersPerLlc = 2;
        shape.coresPerCluster = 2;
        shape.threads = 2;
        return makeTopology("every distance", shape);
    }();
    return topo;
}

workload::Op loopTo(int to, long long count) {
    workload::Op o = op(OpKind::Loop);
    o.to = to;
    o.count = count;
    return o;
}

// a task pinned to `cpu` that reads `handoffKB` of its waker's data on every wakeup
workload::TaskSpec pinned(const std::string& name, int cpu, double handoffKB, std::vector<workload::Op> script) {
    workload::TaskSpec t;
    t.name = name;
    t.affinity = CpuSet::single(cpu);
    t.handoffKB = handoffKB;
    t.script = std::move(script);
    return t;
}

// ping on CPU 0 and pong on `pongCpu` take 50 turns of 100 us each; every turn but ping's first
// starts on the other's wakeup
workload::Workload pingPong(int pongCpu, double handoffKB) {
    workload::Workload wl;
    wl.tasks = {pinned("ping", 0, handoffKB, {op(OpKind::Run, 1e5), wakeOp(1), op(OpKind::Wait), loopTo(0, 49)}),
                pinned("pong", pongCpu, handoffKB, {op(OpKind::Wait), op(OpKind::Run, 1e5), wakeOp(0), loopTo(0, 49)})};
    return wl;
}

// the state's tasks point at `wl`'s specs: keep it alive while reading more than the metrics
std::unique_ptr<sim::SimState> run(const workload::Workload& wl) {
    static const DomainTree tree = buildTree(everyDistance(), "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 1;
    auto st = sim::simulate(everyDistance(), tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    return st.ok() ? std::move(*st) : nullptr;
}

TEST(Handoff, CostsByHowFarTheWakerRan) {
    const auto base = run(pingPong(2, 0));
    ASSERT_TRUE(base);
    const int64_t plainEnd = base->tasks[0].exitedAt;
    EXPECT_EQ(base->metrics.handoffs, 0);
    const sim::ContentionParams& c = base->contention;
    // 10 KB per wakeup; 99 wakeups start a turn (ping's first turn has no waker)
    const struct {
        int pongCpu;
        double nsPerKB;
        const char* where;
    } cases[] = {{1, 0, "SMT sibling"},
                 {2, c.handoffClusterNsPerKB, "same cluster"},
                 {4, c.handoffLlcNsPerKB, "same LLC"},
                 {8, c.handoffCrossLlcNsPerKB, "same node, other LLC"},
                 {16, c.handoffCrossLlcNsPerKB * 2, "other node, distance 20"}};
    for (const auto& k : cases) {
        const auto st = run(pingPong(k.pongCpu, 10));
        ASSERT_TRUE(st) << k.where;
        const double perWakeup = 10 * k.nsPerKB;
        EXPECT_EQ(st->metrics.handoffs, perWakeup > 0 ? 99 : 0) << k.where;
        EXPECT_NEAR(st->metrics.handoffNs, 99 * perWakeup, 1e-6) << k.where;
        // the turns are longer by the transfers (a ns of rounding per turn at most)...
        EXPECT_NEAR(static_cast<double>(st->tasks[0].exitedAt - plainEnd), 99 * perWakeup, 100) << k.where;
        // ...which do no work: each task did its 50 turns of 100 us
        for (const auto& t : st->tasks) EXPECT_NEAR(t.workDone, 50 * 1e5, 1.0) << k.where << ", task " << t.id;
    }
    EXPECT_GT(c.handoffLlcNsPerKB, c.handoffClusterNsPerKB);
    EXPECT_GT(c.handoffCrossLlcNsPerKB, c.handoffLlcNsPerKB);
}

// A transfer counts as it runs: one too long for the run (1 GiB across nodes: about 1 s here)
// counted in full at the wakeup, and the hand-offs of a 0.2 s run added up to more than its CPU
// time.
TEST(Handoff, ATransferTheRunCutsShortCountsAsFarAsItGot) {
    static const DomainTree tree = buildTree(everyDistance(), "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.2;
    const workload::Workload wl = pingPong(16, 1024.0 * 1024.0);
    auto st = sim::simulate(everyDistance(), tree, wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    double cpuNs = 0;
    for (const auto& t : (*st)->tasks) cpuNs += static_cast<double>(t.cpuTime.total());
    EXPECT_EQ((*st)->metrics.handoffs, 1);
    EXPECT_GT((*st)->metrics.handoffNs, 0.1e9);
    EXPECT_LE((*st)->metrics.handoffNs, cpuNs);
    EXPECT_LE((*st)->metrics.handoffNs, 0.2e9);
}

// A Post to a queue nobody waits on keeps the item: the taker that comes later reads it from
// the CPU it was posted on.
TEST(Handoff, AKeptItemIsReadFromWhereItWasPosted) {
    workload::Op postOp = op(OpKind::Post), takeOp = op(OpKind::Take);
    postOp.id = takeOp.id = 3;
    workload::Workload wl;
    wl.tasks = {pinned("producer", 0, 4, {op(OpKind::Run, 1e5), postOp}),
                pinned("consumer", 16, 4, {op(OpKind::Sleep, 1e6), takeOp, op(OpKind::Run, 1e5)})};
    const auto st = run(wl);
    ASSERT_TRUE(st);
    EXPECT_EQ(st->metrics.handoffs, 1);
    EXPECT_NEAR(st->metrics.handoffNs, 4 * st->contention.handoffCrossLlcNsPerKB * 2, 1e-6);
}

// A wake that comes before its Wait is kept; its data is read by the burst after that Wait, not
// by the next burst of the wakee after the wake came. Here the wakee moves next to its waker
// (CPU 17, CPU 16's SMT sibling) before it waits: the read costs nothing there, where the burst
// it was running next, on CPU 0, would have paid the cross-node price.
TEST(Handoff, AKeptWakeIsReadAfterTheWaitThatTakesIt) {
    auto runWakee = [](bool moves) {
        workload::Op toSibling = op(OpKind::SetAffinity);
        toSibling.cpus = CpuSet::single(moves ? 17 : 0);
        workload::Workload wl;
        // the wake comes 0.1 ms in, during the wakee's first burst
        wl.tasks = {pinned("waker", 16, 8, {op(OpKind::Run, 1e5), wakeOp(1)}),
                    pinned("wakee", 0, 8,
                           {op(OpKind::Run, 1e6), op(OpKind::Run, 1e6), toSibling, op(OpKind::Wait), op(OpKind::Run, 1e5)})};
        auto st = run(wl);
        EXPECT_TRUE(st && st->tasks.size() == 2);
        return st;
    };
    const auto stays = runWakee(false), moves = runWakee(true);
    ASSERT_TRUE(stays && moves);
    EXPECT_EQ(stays->metrics.handoffs, 1);
    EXPECT_NEAR(stays->metrics.handoffNs, 8 * stays->contention.handoffCrossLlcNsPerKB * 2, 1e-6);
    EXPECT_EQ(moves->metrics.handoffs, 0) << "read on CPU 17, beside its waker's CPU 16";
    EXPECT_EQ(moves->metrics.handoffNs, 0);
}

TEST(Handoff, GeneratorsAndWorkloadFilesTakeIt) {
    auto pg = workload::parseWorkloadSpec("pgbench:clients=4,handoff=16", 8);
    ASSERT_TRUE(pg.ok()) << pg.error();
    for (const auto& t : pg->tasks) EXPECT_EQ(t.handoffKB, 16);
    auto plain = workload::parseWorkloadSpec("hackbench:groups=1", 8);
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain->tasks.front().handoffKB, 0) << "none unless asked for";
    for (const char* bad : {"pgbench:handoff=-1", "pgbench:handoff=lots", "stream:handoff=2000000"}) {
        auto r = workload::parseWorkloadSpec(bad, 8);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().find("handoff"), std::string::npos) << r.error();
    }
    // the JSON format keeps it (handoff_kb)
    const std::string json = workload::workloadToJson(*pg, 8).dump();
    auto back = workload::parseWorkloadJson(json, "round trip", 8);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->tasks.back().handoffKB, 16);
    auto tooMuch = workload::parseWorkloadJson(R"({"tasks": [{"name": "a", "handoff_kb": 1e9, "script": [{"run_ms": 1}]}]})", "inline", 8);
    ASSERT_FALSE(tooMuch.ok());
    EXPECT_NE(tooMuch.error().find("handoff_kb"), std::string::npos) << tooMuch.error();
}

// TPC-B's branch row locks (pgbench scale=S): the driver frees the rows first, each backend
// queues on its branch's lock; past the clients' count more rows change nothing.
TEST(Handoff, PgbenchScaleGivesEachBackendItsBranchLock) {
    auto one = workload::parseWorkloadSpec("pgbench:clients=4,scale=1", 8);
    ASSERT_TRUE(one.ok()) << one.error();
    EXPECT_EQ(one->tasks[0].script[0].kind, OpKind::Post);
    int takes = 0;
    for (size_t i = 1; i < one->tasks.size(); ++i)
        for (const auto& o : one->tasks[i].script)
            if (o.kind == OpKind::Take) {
                ++takes;
                EXPECT_EQ(o.id, 1);
            }
    EXPECT_EQ(takes, 4);
    auto two = workload::parseWorkloadSpec("pgbench:clients=4,scale=2", 8);
    ASSERT_TRUE(two.ok());
    EXPECT_EQ(two->tasks[2].script[2].id, 2) << "backend 2 on branch 2";
    auto wide = workload::parseWorkloadSpec("pgbench:clients=4,scale=100", 8);
    ASSERT_TRUE(wide.ok());
    EXPECT_EQ(wide->tasks[0].script.size(), two->tasks[0].script.size() + 2) << "4 rows freed, not 100";
    for (const char* bad : {"pgbench:clients=4,scale=0", "pgbench:clients=4,scale=x", "stream:scale=2"}) {
        auto r = workload::parseWorkloadSpec(bad, 8);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().find("scale"), std::string::npos) << r.error();
    }
    auto none = workload::parseWorkloadSpec("pgbench:clients=4", 8);
    ASSERT_TRUE(none.ok());
    for (const auto& t : none->tasks)
        for (const auto& o : t.script) EXPECT_NE(o.kind, OpKind::Take) << "read-only: no locks";
}

// Seed 001's reason for the cluster-first scan: a wakee placed in its waker's cluster reads the
// waker's data from the cluster's cache. pgbench on one Kunpeng 920 node under 6.12: CLS on
// spends less time in hand-offs than CLS off; under 6.1, whose scan ignores the cluster, the CLS
// level alone spreads the wakees and spends more.
TEST(Handoff, TheClusterFirstScanShortensHandoffs) {
    static const Topology topo = kunpeng920_24();
    auto wl = workload::parseWorkloadSpec("pgbench:clients=8,cpus=0-23,handoff=16", 96);
    ASSERT_TRUE(wl.ok()) << wl.error();
    auto handoffMs = [&](const std::string& profile, bool cls) {
        const DomainTree tree = buildTree(topo, profile, cls, true);
        sim::SimOptions o;
        o.durationS = 2;  // under 6.1 the balancer takes a while to spread the backends over the clusters
        auto st = sim::simulate(topo, tree, *wl, o);
        EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
        return st.ok() ? (*st)->metrics.handoffNs / 1e6 : 0.0;
    };
    const double off = handoffMs("linux-6.12", false);
    EXPECT_GT(off, 10.0);
    EXPECT_LT(handoffMs("linux-6.12", true), off * 0.98);
    EXPECT_GT(handoffMs("linux-6.1", true), handoffMs("linux-6.1", false) * 1.03);
}

}  // namespace
}  // namespace schedscope::test
