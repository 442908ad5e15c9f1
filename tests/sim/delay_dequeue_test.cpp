// DELAY_DEQUEUE (linux 6.12+): a task that blocks while not eligible stays queued on its CPU;
// woken before the pick reaches it, it runs there (no wakeup placement, so no migration), and
// picked first, it leaves with its lag (a positive one dropped: DELAY_ZERO).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "sim/fair_rq.h"
#include "sim/load_balance.h"
#include "sim/simulator.h"
#include "workload/workload_spec.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;
using workload::Op;
using workload::OpKind;

// Two tasks on CPU 0 of an otherwise idle 2-core machine: `napper`, pinned there until it lets go
// of its mask after 1 ms of running, then napping 50 us, and `hog`, pinned, which first sleeps
// 10 us. The napper runs first (the hog wakes behind its earlier, initial half-slice deadline)
// and blocks ahead of the hog's vruntime (not eligible), so with DELAY_DEQUEUE it is still queued
// on CPU 0, behind the hog, when it wakes.
workload::Workload napperBehindAHog() {
    workload::Workload wl;
    workload::TaskSpec hog, napper;
    hog.name = "hog";
    hog.affinity = CpuSet::single(0);
    hog.script = {op(OpKind::Sleep, 10e3), op(OpKind::Run, 50e6)};  // wakes while the napper runs
    napper.name = "napper";
    napper.affinity = CpuSet::single(0);
    Op unpin = op(OpKind::SetAffinity);
    unpin.cpus = CpuSet::range(0, 1);
    napper.script = {op(OpKind::Run, 1e6), unpin, op(OpKind::Sleep, 50e3), op(OpKind::Run, 1e6)};
    wl.tasks = {napper, hog};
    return wl;
}

std::unique_ptr<SimState> runNapper(bool delayDequeue) {
    Shape shape;
    shape.coresPerCluster = 2;
    const Topology topo = makeTopology("2 cores", shape);
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    const auto wl = napperBehindAHog();
    SimOptions o;
    o.durationS = 0.1;
    SimFeatures f = featuresFor(*findProfile("linux-6.12"));
    EXPECT_TRUE(f.delayDequeue) << "6.12 delays the dequeue of a sleeper that is not eligible";
    f.delayDequeue = delayDequeue;
    o.features = f;
    auto st = simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    return st.ok() ? std::move(*st) : nullptr;
}

// Step mode names the in-place wakeup: no domain decided it.
TEST(DelayDequeue, StepModeExplainsTheWakeupInPlace) {
    Shape shape;
    shape.coresPerCluster = 2;
    const Topology topo = makeTopology("2 cores", shape);
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    const auto wl = napperBehindAHog();
    for (const bool delay : {true, false}) {
        SimOptions o;
        o.durationS = 0.1;
        SimFeatures f = featuresFor(*findProfile("linux-6.12"));
        f.delayDequeue = delay;
        o.features = f;
        auto sim = Simulation::create(topo, tree, wl, o);
        ASSERT_TRUE(sim.ok()) << sim.error();
        std::optional<Decision> wakeup;
        while (auto d = (*sim)->nextDecision())
            if (d->kind == DecisionKind::WakeupPlacement && d->task == 0) wakeup = *d;
        ASSERT_TRUE(wakeup) << "delay=" << delay;
        if (delay) {
            EXPECT_EQ(wakeup->chosenCpu, 0);
            EXPECT_EQ(wakeup->level, "none");
            EXPECT_EQ(wakeup->rule.rfind("ttwu_runnable: still queued (DELAY_DEQUEUE)", 0), 0u) << wakeup->rule;
        } else {
            EXPECT_EQ(wakeup->chosenCpu, 1) << wakeup->rule;
            EXPECT_EQ(wakeup->rule.find("ttwu_runnable"), std::string::npos);
        }
    }
}

TEST(DelayDequeue, AWakeupFindingTheTaskStillQueuedRunsItWhereItIs) {
    auto delayed = runNapper(true), plain = runNapper(false);
    ASSERT_TRUE(delayed && plain);
    const auto wakeups = [](const SimState& s) { return s.metrics.migrationsByCause[static_cast<size_t>(MigrationCause::Wakeup)]; };
    // without the delay the wakeup finds CPU 1 idle and takes it
    EXPECT_EQ(wakeups(*plain), 1);
    EXPECT_GT(plain->tasks[0].cpuTime.of(1), 0);
    // with it the napper is woken in place, behind the hog, and only the balancer moves it
    EXPECT_EQ(wakeups(*delayed), 0);
    EXPECT_GT(delayed->metrics.waitLatency.percentileNs(100), plain->metrics.waitLatency.percentileNs(100));
    for (const auto* s : {delayed.get(), plain.get()}) {
        EXPECT_EQ(s->tasks[0].state, TaskState::Exited) << "the napper finished its script";
        EXPECT_FALSE(s->tasks[0].delayed);
    }
}

// Fair-class pieces on one runqueue (equal weights): running 0 at vruntime 10 ms, 1 queued at 0.
struct Queue {
    Topology topo = kunpeng920_24();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    std::unique_ptr<SimState> s;
    Queue() {
        wl.tasks.resize(3);
        auto st = makeSimState(topo, tree, wl, SimOptions{});
        EXPECT_TRUE(st.ok());
        s = std::move(*st);
        Cpu& r = s->cpus[0];
        s->tasks[0].vruntime = 10e6;
        s->tasks[0].state = TaskState::Running;
        r.curr = 0;
        r.seenCurrVruntime = 10e6;  // curr's last update_curr() was just now
        queueEntity(*s, r, s->tasks[1]);
    }
    Cpu& rq() { return s->cpus[0]; }
};

TEST(DelayDequeue, EligibilityIsTheLagSign) {
    Queue q;
    EXPECT_DOUBLE_EQ(avgVruntime(*q.s, q.rq()), 5e6);
    EXPECT_FALSE(entityEligible(*q.s, q.rq(), q.s->tasks[0])) << "ahead of the average";
    EXPECT_TRUE(entityEligible(*q.s, q.rq(), q.s->tasks[1]));
}

TEST(DelayDequeue, LeavingKeepsANegativeLagAndDropsAPositiveOne) {
    Queue q;
    Task& behind = q.s->tasks[2];  // delayed at 2 ms: by now lag 5 - 2 > 0
    behind.vruntime = 2e6;
    delayDequeue(*q.s, q.rq(), behind);
    EXPECT_EQ(q.rq().nrRunning(), 2) << "a delayed task is not runnable";
    finishDelayedDequeue(*q.s, q.rq(), behind);
    EXPECT_EQ(behind.vlag, 0.0);
    EXPECT_FALSE(behind.delayed);
    EXPECT_EQ(q.rq().queued.size(), 1u);

    Task& ahead = q.s->tasks[2];
    ahead.vruntime = 9e6;  // avg (10 + 0 + 9) / 3 = 6.33 ms: lag -2.67 ms, within the clamp
    delayDequeue(*q.s, q.rq(), ahead);
    finishDelayedDequeue(*q.s, q.rq(), ahead);
    EXPECT_NEAR(ahead.vlag, (19e6 / 3) - 9e6, 1);
    EXPECT_EQ(q.rq().nrDelayed, 0);
}

TEST(DelayDequeue, AWokenTaskKeepsItsPlaceUnlessItsLagIsPositive) {
    Queue q;
    Task& t = q.s->tasks[2];
    t.vruntime = 9e6;  // negative lag: it stays as it was
    t.deadline = 11e6;
    delayDequeue(*q.s, q.rq(), t);
    requeueDelayedEntity(*q.s, q.rq(), t);
    EXPECT_FALSE(t.delayed);
    EXPECT_EQ(q.rq().nrRunning(), 3);
    EXPECT_EQ(t.vruntime, 9e6);
    EXPECT_EQ(t.deadline, 11e6);
    EXPECT_EQ(q.rq().queued.size(), 2u);

    unqueueEntity(*q.s, q.rq(), t);
    t.vruntime = 1e6;  // positive lag: dropped, placed at the average without it (5 ms)
    delayDequeue(*q.s, q.rq(), t);
    requeueDelayedEntity(*q.s, q.rq(), t);
    EXPECT_EQ(t.vlag, 0.0);
    EXPECT_NEAR(t.vruntime, 5e6, 1);
    EXPECT_GT(t.deadline, t.vruntime);
    EXPECT_EQ(q.rq().queued.size(), 2u);
}

// requeue_delayed_entity() runs before any update_curr(): the lag that decides whether the
// wakee keeps its place reads curr where the runqueue last saw it, not where it is now.
TEST(DelayDequeue, ARequeueReadsCurrWhereTheRunqueueLastSawIt) {
    Queue q;
    q.s->tasks[0].vruntime = 14e6;  // curr ran 4 ms (in vtime) since its last update_curr()
    Task& t = q.s->tasks[2];
    t.vruntime = 6e6;
    t.deadline = 8e6;
    delayDequeue(*q.s, q.rq(), t);
    // as seen: avg (10 + 0 + 6) / 3 = 5.33 ms, lag -0.67 ms: it keeps its place. Counting curr's
    // 4 ms, avg (14 + 0 + 6) / 3 = 6.67 ms would make the lag positive and place it at 7 ms.
    requeueDelayedEntity(*q.s, q.rq(), t);
    EXPECT_EQ(t.vruntime, 6e6);
    EXPECT_EQ(t.deadline, 8e6);
    EXPECT_FALSE(t.delayed);

    // a positive lag as seen: placed at the average without it, curr as seen (10 + 0) / 2
    unqueueEntity(*q.s, q.rq(), t);
    t.vruntime = 4e6;  // avg as seen (10 + 0 + 4) / 3 = 4.67 ms: lag +0.67 ms
    delayDequeue(*q.s, q.rq(), t);
    requeueDelayedEntity(*q.s, q.rq(), t);
    EXPECT_EQ(t.vlag, 0.0);
    EXPECT_NEAR(t.vruntime, 5e6, 1);
}

// A pipe's ping-pong on one CPU, as `perf bench sched pipe` runs when both ends share a CPU: the
// writer wakes the reader and goes on (its own read finds the reply the reader writes before
// it blocks again), so the writer never sleeps. The reader, woken still queued (it blocked
// ahead of the writer's vruntime: DELAY_DEQUEUE), keeps its place, as the requeue reads the
// writer's vruntime from before its latest run; the preemption check then counts that run,
// the writer is past the reader and no longer eligible, and the reader preempts it (6.18 on
// this VM: 85% of such wakeups preempted, recorded). Read with the writer's vruntime up to now,
// the reader's lag would turn positive, it would be placed at the average with a fresh
// deadline, later than the writer's, and never preempt.
// Two tasks named `a` and `b` pinned to CPU 0 (scripts up to the caller), and the machine
// they run on: two cores of one cluster.
workload::Workload twoOnCpu0(const std::string& a, const std::string& b) {
    workload::Workload wl;
    wl.tasks.resize(2);
    wl.tasks[0].name = a;
    wl.tasks[1].name = b;
    wl.tasks[0].affinity = wl.tasks[1].affinity = CpuSet::single(0);
    return wl;
}
Topology twoCores() {
    Shape shape;
    shape.coresPerCluster = 2;
    return makeTopology("2 cores", shape);
}

TEST(DelayDequeue, AReaderWokenStillQueuedPreemptsTheWriterThatDroveItsLagNegative) {
    const Topology topo = twoCores();
    const DomainTree tree = buildTree(topo, "linux-6.18", true, true);
    workload::Workload wl = twoOnCpu0("writer", "reader");
    workload::Op loop = op(OpKind::Loop);
    loop.to = 0;
    // (the writer's return to user space after write(): where a preemption takes effect)
    wl.tasks[0].script = {op(OpKind::Run, 3e3), wakeOp(1), op(OpKind::Run, 0.2e3), op(OpKind::Wait), loop};
    wl.tasks[1].script = {op(OpKind::Wait), op(OpKind::Run, 0.5e3), wakeOp(0), op(OpKind::Run, 0.5e3), loop};
    SimOptions o;
    o.durationS = 0.05;
    o.features = featuresFor(*findProfile("linux-6.18"));
    auto st = simulate(topo, tree, wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const Metrics& m = (*st)->metrics;
    ASSERT_GT(m.busyWakeups, 1000);
    EXPECT_GT(static_cast<double>(m.wakeupPreemptions) / static_cast<double>(m.busyWakeups), 0.8)
        << m.wakeupPreemptions << " of " << m.busyWakeups;
}

// A resched that picks the task it interrupted again is no switch: pick_next_task_fair() skips
// set_next_entity() when prev == p (with FAIR_GROUP_SCHED, as distribution kernels build). A
// nice-0 hog beside a nice-19 one on one CPU: each time the hog's slice runs out its deadline
// renews and the CPU reschedules, but the nice-19 hog, its vruntime far ahead, is not eligible,
// and the hog goes on. A trace shows no switch there, so no wait; counted as a wait of 0 they
// were most of the run's waits, and its median wait read 0. Under CFS (6.1) the slice start is
// kept too: the tick asks again at once, as the kernel's check_preempt_tick() does.
TEST(Resched, APickOfTheTaskItInterruptedIsNoSwitchAndNoWait) {
    const Topology topo = twoCores();
    for (const char* profile : {"linux-6.18", "linux-6.1"}) {
        const DomainTree tree = buildTree(topo, profile, true, true);
        workload::Workload wl = twoOnCpu0("hog", "nice19");
        wl.tasks[1].nice = 19;
        wl.tasks[0].script = wl.tasks[1].script = {op(OpKind::Run, 1e9)};
        SimOptions o;
        o.durationS = 0.5;
        o.features = featuresFor(*findProfile(profile));
        auto st = simulate(topo, tree, wl, o);
        ASSERT_TRUE(st.ok()) << st.error();
        const Metrics& m = (*st)->metrics;
        const double hogShare = static_cast<double>((*st)->tasks[0].sumExec) / 0.5e9;
        std::printf("%s: %lld waits, median %.0f us, the hog's share %.3f\n", profile, m.waitLatency.count(),
                    m.waitLatency.percentileNs(50) / 1e3, hogShare);
        EXPECT_GT(hogShare, 0.95) << profile;
        // every wait is a switch between the two: the nice-19 hog runs about once per slice of
        // its own, and the hog waits a tick each time (6 in 0.5 s; 126 and 44 with the re-picks)
        EXPECT_GT(m.waitLatency.percentileNs(50), 100e3) << profile;
        EXPECT_LT(m.waitLatency.count(), 20) << profile;
    }
}

// A wakeup preempts when the resched puts curr back for the wakee, as a trace shows it (the
// wakee's run follows curr's switch out, R). A waker that blocks right after its wakeup (a
// pipe write and then a read of the reply) leaves the CPU to its wakee by sleeping: no
// preemption, though the wakeup asked for one. Counted at the wakeup, every one of these was.
TEST(Resched, AWakerThatBlocksAtOnceWasNotPreempted) {
    const Topology topo = twoCores();
    // 6.1's CFS: a wakee placed half a latency behind preempts whoever runs
    const DomainTree tree = buildTree(topo, "linux-6.1", true, true);
    for (const bool runsOn : {false, true}) {
        workload::Workload wl = twoOnCpu0("a", "b");
        workload::TaskSpec& a = wl.tasks[0];
        workload::TaskSpec& b = wl.tasks[1];
        workload::Op loop = op(OpKind::Loop);
        loop.to = 0;
        // each wakes the other and waits for the reply; with `runsOn` it first runs on 50 us
        a.script = {op(OpKind::Run, 20e3), wakeOp(1)};
        if (runsOn) a.script.push_back(op(OpKind::Run, 50e3));
        a.script.push_back(op(OpKind::Wait));
        a.script.push_back(loop);
        b.script = {op(OpKind::Wait), op(OpKind::Run, 20e3), wakeOp(0)};
        if (runsOn) b.script.push_back(op(OpKind::Run, 50e3));
        b.script.push_back(loop);  // (back to its wait)
        SimOptions o;
        o.durationS = 0.05;
        o.features = featuresFor(*findProfile("linux-6.1"));
        auto st = simulate(topo, tree, wl, o);
        ASSERT_TRUE(st.ok()) << st.error();
        const Metrics& m = (*st)->metrics;
        std::printf("%s: %lld busy wakeups, %lld preempting\n", runsOn ? "running on" : "blocking at once", m.busyWakeups,
                    m.wakeupPreemptions);
        ASSERT_GT(m.busyWakeups, 300);
        if (runsOn) EXPECT_GT(m.wakeupPreemptions, m.busyWakeups / 2);  // the wakee takes the CPU from it
        else EXPECT_EQ(m.wakeupPreemptions, 0);
    }
}

class RecordingOps : public SchedOps {
public:
    std::vector<int> moved;
    void migrateTask(int task, int, MigrationCause) override { moved.push_back(task); }
    void requestActiveBalance(int, int) override {}
};

// Two CPUs of one cluster (linux-6.12): CPU 0 runs task 0 with tasks 1 and 3 queued behind it,
// 1 asleep and delayed or runnable, 3 runnable and run more recently (detach_tasks() looks at 1
// first); CPU 1 runs task 2 (busy) or nothing (idle) and balances. The source has three tasks
// on its runqueue either way (rq->nr_running counts a delayed one), and at least two runnable:
// a CPU whose only runnable task is curr is no busiest queue for a load balance.
struct TwoCpus {
    Topology topo;
    DomainTree tree;
    workload::Workload wl;
    std::unique_ptr<SimState> s;
    TwoCpus(bool delayed, bool dstBusy) {
        Shape shape;
        shape.coresPerCluster = 2;
        topo = makeTopology("2 cores", shape);
        tree = buildTree(topo, "linux-6.12", true, true);
        wl.tasks.resize(4);
        SimOptions o;
        o.features = featuresFor(*findProfile("linux-6.12"));
        auto st = makeSimState(topo, tree, wl, o);
        EXPECT_TRUE(st.ok());
        s = std::move(*st);
        s->now = 1000000000;
        const int64_t now = s->now;
        Cpu& src = s->cpus[0];
        s->tasks[0].state = TaskState::Running;
        s->tasks[0].vruntime = src.seenCurrVruntime = 10e6;
        src.curr = 0;
        Task& t = s->tasks[1];
        t.cpu = 0;
        t.lastRan = 0;  // long ago: not cache hot
        t.state = delayed ? TaskState::Sleeping : TaskState::Runnable;
        if (delayed) delayDequeue(*s, src, t);  // as the engine leaves it when it blocks
        else queueEntity(*s, src, t);
        Task& other = s->tasks[3];
        other.cpu = 0;
        other.lastRan = now - 1000000;  // 1 ms ago: not cache hot either
        other.state = TaskState::Runnable;
        queueEntity(*s, src, other);
        t.load = other.load = {1024, 1024, now};
        src.loadWeight = 3072;
        src.load = {3072, 3072, now};
        src.util = {1024, 1024, now};
        src.runnable = {delayed ? 2048.0 : 3072.0, delayed ? 2048.0 : 3072.0, now};
        if (dstBusy) {
            Cpu& dst = s->cpus[1];
            s->tasks[2].state = TaskState::Running;
            s->tasks[2].cpu = 1;
            dst.curr = 2;
            dst.loadWeight = 1024;
            dst.load = dst.util = dst.runnable = {1024, 1024, now};
        }
        s->cpuChanged(0);
        s->cpuChanged(1);
    }
};

// can_migrate_task() (6.12+): a delayed-dequeue task moves only when the balance moves load.
// An idle CPU pulls one task for a spare CPU (migrate_task): task 1 when it can run, else task
// 3, never the sleeper. A busy one balancing against a source of three times its load
// (migrate_load: one task's load to move) takes task 1, asleep or not.
TEST(DelayDequeue, TheBalancerMovesADelayedTaskOnlyWithLoadToMove) {
    for (const bool dstBusy : {false, true}) {
        for (const bool delayed : {true, false}) {
            TwoCpus m(delayed, dstBusy);
            RecordingOps ops;
            loadBalance(*m.s, ops, 1, 0, dstBusy ? BalanceIdle::NotIdle : BalanceIdle::Idle, MigrationCause::LbPeriodic);
            const bool first = !delayed || dstBusy;
            EXPECT_EQ(ops.moved, std::vector<int>{first ? 1 : 3}) << "delayed=" << delayed << " dstBusy=" << dstBusy;
        }
    }
}

// The balancer's group figures count the delayed task as the kernel's rq->nr_running does: the
// source holds three tasks, though only two of them can run.
TEST(DelayDequeue, AGroupCountsItsDelayedTasks) {
    TwoCpus m(true, false);
    EXPECT_EQ(m.s->cpus[0].nrRunning(), 2);
    EXPECT_EQ(m.s->cpus[0].nrQueued(), 3);
    LbEnv env;
    env.dstCpu = 1;
    env.sd = 0;
    env.idle = BalanceIdle::Idle;
    env.cpus = m.tree.domainsOf(1)[0].span;
    const SdLbStats sds = updateSdLbStats(*m.s, env);
    ASSERT_GE(sds.busiest, 0);
    EXPECT_EQ(sds.busiestStat.sumNrRunning, 3);
    EXPECT_EQ(sds.busiestStat.sumHNrRunning, 2) << "sum_h_nr_running: only the tasks that can run";
    EXPECT_EQ(sds.busiestStat.type, GroupType::Overloaded);
    EXPECT_EQ(sds.localStat.idleCpus, 1);
}

// In a whole run: 200 pgbench clients on a 6.12 Kunpeng 920 (96 CPUs), where many clients block
// while not eligible, the balancer moves a few of them asleep, and each such move is a migration
// of its own.
TEST(DelayDequeue, ARunMovesSomeDelayedTasksAndCountsThem) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto wl = workload::parseWorkloadSpec("pgbench:clients=200", static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(wl.ok()) << wl.error();
    SimOptions o;
    o.durationS = 0.3;
    o.features = featuresFor(*findProfile("linux-6.12"));
    auto st = simulate(topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const Metrics& met = (*st)->metrics;
    long long migrations = 0;
    for (const long long n : met.migrationsByCause) migrations += n;
    std::printf("%lld delayed-task migrations of %lld\n", met.delayedMigrations, migrations);
    EXPECT_GT(met.delayedMigrations, 0);
    EXPECT_LT(met.delayedMigrations, migrations / 10) << "a rare move: only a migrate_load balance takes one";
    for (const Task& t : (*st)->tasks) {
        if (!t.delayed) continue;
        const Cpu& r = (*st)->cpus[static_cast<size_t>(t.cpu)];
        EXPECT_NE(std::find(r.queued.begin(), r.queued.end(), t.id), r.queued.end()) << "a delayed task is queued where it is";
    }
    o.features->delayDequeue = false;
    auto plain = simulate(topo, tree, *wl, o);
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_EQ((*plain)->metrics.delayedMigrations, 0);
}

}  // namespace
}  // namespace schedscope::test
