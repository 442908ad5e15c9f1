// deriveWorkload() on hand-written event sequences: each rule of derive_workload.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "derive_workload.h"
#include "runqueue_depth.h"
#include "session_guess.h"
#include "sibling_busy.h"
#include "sim/contention.h"

using namespace schedscope;
using namespace schedscope::replay;
using schedscope::tracing::EventKind;
using schedscope::tracing::SchedEvent;
using schedscope::tracing::TaskState;
using workload::OpKind;

namespace {

constexpr uint64_t us = 1000, ms = 1000000;

// Events at explicit times (ns); comms are set once per pid.
class Seq {
public:
    Seq& sw(uint64_t t, int cpu, int prev, int next, TaskState st = TaskState::Sleeping) {
        SchedEvent e = base(t, cpu, EventKind::Switch, prev);
        e.pid2 = next;
        e.state = st;
        e.prio = 120;
        store.append(e);
        return *this;
    }
    Seq& wake(uint64_t t, int cpu, int pid, int target) {
        SchedEvent e = base(t, cpu, EventKind::Waking, pid);
        e.dstCpu = target;
        e.prio = 120;
        store.append(e);
        e.kind = EventKind::Wakeup;
        store.append(e);
        return *this;
    }
    // sched_waking alone, run by `waker` (its common_pid): the sched_wakeup that completes it
    // follows later, or was lost.
    Seq& waking(uint64_t t, int cpu, int pid, int target, int waker) {
        SchedEvent e = base(t, cpu, EventKind::Waking, pid);
        e.dstCpu = target;
        e.prio = 120;
        e.waker = waker;
        store.append(e);
        return *this;
    }
    Seq& fork(uint64_t t, int cpu, int parent, int child, int target) {
        SchedEvent e = base(t, cpu, EventKind::ProcessFork, parent);
        e.pid2 = child;
        store.append(e);
        SchedEvent w = base(t, cpu, EventKind::WakeupNew, child);
        w.dstCpu = target;
        store.append(w);
        return *this;
    }
    Seq& exit(uint64_t t, int cpu, int pid) {
        store.append(base(t, cpu, EventKind::ProcessExit, pid));
        return *this;
    }
    Seq& migrate(uint64_t t, int cpu, int pid, int src, int dst) {
        SchedEvent e = base(t, cpu, EventKind::MigrateTask, pid);
        e.srcCpu = src;
        e.dstCpu = dst;
        store.append(e);
        return *this;
    }
    Seq& comm(int pid, const char* c) {
        store.noteComm(pid, 0, c);
        return *this;
    }
    DerivedWorkload derive(DeriveOptions o = {}) {
        store.finish();
        auto d = deriveWorkload(store, o, "seq");
        EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error());
        return d.ok() ? std::move(*d) : DerivedWorkload{};
    }
    tracing::EventStore store;

private:
    static SchedEvent base(uint64_t t, int cpu, EventKind k, int pid) {
        SchedEvent e;
        e.ts = t;
        e.cpu = cpu;
        e.kind = k;
        e.pid = pid;
        return e;
    }
};

std::vector<OpKind> kinds(const workload::TaskSpec& t) {
    std::vector<OpKind> k;
    for (const auto& op : t.script) k.push_back(op.kind);
    return k;
}

const workload::TaskSpec& taskOf(const DerivedWorkload& d, int pid) {
    const int i = d.indexOfPid(pid);
    EXPECT_GE(i, 0) << "pid " << pid << " not derived";
    return d.workload.tasks[static_cast<size_t>(std::max(0, i))];
}

constexpr int A = 100, B = 200, C = 300, KW = 50;

// Whether every script runs to its end. Wait is a counting semaphore (early wakes are kept), so
// whether the scripts deadlock does not depend on timing: run each task as far as it can until
// nothing moves.
bool runsToTheEnd(const workload::Workload& w) {
    const size_t n = w.tasks.size();
    std::vector<size_t> pc(n, 0);
    std::vector<int> pending(n, 0);
    std::vector<bool> started(n);
    for (size_t i = 0; i < n; ++i) started[i] = w.tasks[i].startAtBegin;
    for (bool moved = true; moved;) {
        moved = false;
        for (size_t i = 0; i < n; ++i) {
            const auto& script = w.tasks[i].script;
            while (started[i] && pc[i] < script.size()) {
                const auto& op = script[pc[i]];
                if (op.kind == OpKind::Wait) {
                    if (pending[i] == 0) break;
                    --pending[i];
                }
                for (int t : op.targets) {
                    if (op.kind == OpKind::Wake) ++pending[static_cast<size_t>(t)];
                    if (op.kind == OpKind::Fork) started[static_cast<size_t>(t)] = true;
                }
                ++pc[i];
                moved = true;
            }
        }
    }
    for (size_t i = 0; i < n; ++i)
        if (pc[i] < w.tasks[i].script.size()) return false;
    return true;
}

// A and B on CPU 0 pass the CPU back and forth; each wakes the other, then blocks.
Seq pingPong(int rounds) {
    Seq s;
    s.comm(A, "ping").comm(B, "pong");
    uint64_t t = 0;
    s.sw(t, 0, 0, A);
    s.sw(t, 1, 0, 0);  // CPU 1 exists, idle
    for (int i = 0; i < rounds; ++i) {
        t += 100 * us;
        s.wake(t, 0, B, 0);
        t += 10 * us;
        s.sw(t, 0, A, B);
        t += 100 * us;
        s.wake(t, 0, A, 0);
        t += 10 * us;
        s.sw(t, 0, B, A);
    }
    return s;
}

}  // namespace

TEST(DeriveWorkload, PingPongGivesTwoTasksWakingEachOther) {
    Seq s = pingPong(5);
    DerivedWorkload d = s.derive();
    ASSERT_EQ(d.tasks.size(), 2u);
    const int a = d.indexOfPid(A), b = d.indexOfPid(B);
    ASSERT_EQ(d.edges.size(), 2u);
    EXPECT_EQ(d.edges[0].waker == a ? d.edges[0].wakee : d.edges[1].wakee, b);
    for (const auto& e : d.edges) EXPECT_EQ(e.count, 5);
    // A: run, wake B (sync: A blocks right after), wait for B, ...
    const auto& ta = taskOf(d, A);
    ASSERT_GE(ta.script.size(), 3u);
    EXPECT_EQ(ta.script[0].kind, OpKind::Run);
    EXPECT_NEAR(ta.script[0].amountNs, 100e3, 1);
    EXPECT_EQ(ta.script[1].kind, OpKind::Wake);
    EXPECT_EQ(ta.script[1].targets, std::vector<int>{b});
    EXPECT_EQ(ta.script[2].kind, OpKind::Run);  // 10 us to the switch
    EXPECT_EQ(ta.script[3].kind, OpKind::Wait);
    EXPECT_TRUE(ta.script[1].sync);
    // B starts asleep, woken by A: its first op waits
    const auto& tb = taskOf(d, B);
    EXPECT_EQ(tb.script[0].kind, OpKind::Wait);
    EXPECT_TRUE(tb.startAtBegin);
    // Waits and wakes pair up: every Wait of X has one Wake targeting X somewhere
    for (int x : {a, b}) {
        int waits = 0, wakes = 0;
        for (const auto& t : d.workload.tasks)
            for (const auto& op : t.script)
                if (op.kind == OpKind::Wake) wakes += static_cast<int>(std::count(op.targets.begin(), op.targets.end(), x));
        for (const auto& op : d.workload.tasks[static_cast<size_t>(x)].script) waits += op.kind == OpKind::Wait;
        EXPECT_EQ(waits, wakes) << "task " << x;
    }
    EXPECT_EQ(d.tasks[static_cast<size_t>(a)].cpuTimeNs, 5 * 110 * us);
}

TEST(DeriveWorkload, TimerWakeupsAndDroppedWakersBecomeTimedSleeps) {
    Seq s;
    s.comm(A, "app").comm(KW, "kworker/0:1");
    s.sw(0, 0, 0, A).sw(1 * ms, 0, A, 0);           // A runs 1 ms, sleeps
    s.wake(4 * ms, 0, A, 0).sw(4 * ms + 5 * us, 0, 0, A);  // woken from idle (a timer)
    s.sw(5 * ms, 0, A, KW).wake(6 * ms, 0, A, 0).sw(6 * ms + 1 * us, 0, KW, A);  // woken by a kworker
    s.sw(7 * ms, 0, A, 0, TaskState::Dead);
    DerivedWorkload d = s.derive();
    ASSERT_EQ(d.tasks.size(), 1u) << "the kworker is dropped by default";
    EXPECT_EQ(kinds(d.workload.tasks[0]),
              (std::vector<OpKind>{OpKind::Run, OpKind::Sleep, OpKind::Run, OpKind::Sleep, OpKind::Run}));
    EXPECT_NEAR(d.workload.tasks[0].script[1].amountNs, 3e6, 1);
    EXPECT_NEAR(d.workload.tasks[0].script[3].amountNs, 1e6, 1);
    EXPECT_TRUE(d.edges.empty());

    DeriveOptions keep;
    keep.keepKernelThreads = true;
    DerivedWorkload k = Seq(s).derive(keep);
    EXPECT_EQ(k.tasks.size(), 2u);
    EXPECT_EQ(k.edges.size(), 1u) << "kept, the kworker's wakeup is an edge";
}

TEST(DeriveWorkload, OneWakerWakingSeveralAtOnceIsOneToN) {
    Seq s;
    s.comm(A, "boss").comm(B, "w1").comm(C, "w2");
    s.sw(0, 1, 0, B).sw(10 * us, 1, B, C).sw(20 * us, 1, C, 0);  // workers run, then sleep
    s.sw(0, 0, 0, A);
    s.wake(1 * ms, 0, B, 1).wake(1 * ms + 200, 0, C, 1);  // back to back: 1:N
    s.sw(2 * ms, 0, A, 0);
    DerivedWorkload d = s.derive();
    const auto& ta = taskOf(d, A);
    EXPECT_EQ(kinds(ta), (std::vector<OpKind>{OpKind::Run, OpKind::Wake, OpKind::Run}));
    EXPECT_EQ(ta.script[1].targets.size(), 2u);
    EXPECT_EQ(d.multiWakeOps, 1);
    EXPECT_NEAR(ta.script[0].amountNs + ta.script[2].amountNs, 2e6, 1) << "no CPU time lost by merging";
}

TEST(DeriveWorkload, ForksBecomeForkOpsAndExitsEndTheScript) {
    Seq s;
    s.comm(A, "parent").comm(B, "child");
    s.sw(0, 0, 0, A);
    s.fork(1 * ms, 0, A, B, 1);
    s.sw(1 * ms + 10 * us, 1, 0, B);
    s.exit(3 * ms, 1, B).sw(3 * ms, 1, B, 0, TaskState::Dead);
    s.wake(3 * ms + 5 * us, 1, A, 0);  // the child's exit wakes the parent (wait4)
    s.sw(2 * ms, 0, A, 0);
    s.sw(3 * ms + 20 * us, 0, 0, A).sw(4 * ms, 0, A, 0, TaskState::Dead);
    DerivedWorkload d = s.derive();
    const auto& ta = taskOf(d, A);
    const auto& tb = taskOf(d, B);
    EXPECT_FALSE(tb.startAtBegin);
    EXPECT_EQ(d.tasks[static_cast<size_t>(d.indexOfPid(B))].parent, A);
    EXPECT_EQ(kinds(ta), (std::vector<OpKind>{OpKind::Run, OpKind::Fork, OpKind::Run, OpKind::Sleep, OpKind::Run}));
    EXPECT_EQ(kinds(tb), (std::vector<OpKind>{OpKind::Run})) << "the exit ends the script";
    EXPECT_NEAR(d.tasks[static_cast<size_t>(d.indexOfPid(B))].exitNs, 3e6, 1);
}

// A task the window finds running (or asleep) starts on the CPU the trace first shows it on: a
// parent on CPU 1 and a sleeper that first shows up on CPU 0; the child its fork starts gets
// no start CPU (the simulated fork places it).
TEST(DeriveWorkload, TasksPresentAtTheStartKeepTheirCpu) {
    Seq s;
    s.comm(A, "parent").comm(B, "child").comm(C, "sleeper");
    s.sw(0, 1, 0, A);
    s.fork(1 * ms, 1, A, B, 0);
    s.sw(1 * ms + 10 * us, 0, 0, B);
    s.exit(3 * ms, 0, B).sw(3 * ms, 0, B, 0, TaskState::Dead);
    s.wake(4 * ms, 0, C, 0);
    s.sw(4 * ms + 10 * us, 0, 0, C).sw(5 * ms, 0, C, 0);
    s.sw(6 * ms, 1, A, 0, TaskState::Dead);
    DerivedWorkload d = s.derive();
    EXPECT_EQ(taskOf(d, A).startCpu, 1);
    EXPECT_EQ(taskOf(d, C).startCpu, 0);
    EXPECT_FALSE(taskOf(d, B).startAtBegin);
    EXPECT_EQ(taskOf(d, B).startCpu, -1);
}

TEST(DeriveWorkload, WaitingWhileAnotherCpuIdlesMeansPinned) {
    Seq s;
    s.comm(A, "spin").comm(B, "spin");
    s.sw(0, 1, 0, 0);
    s.sw(0, 0, 0, A);
    s.wake(10 * us, 0, B, 0);
    for (int i = 1; i <= 20; ++i)  // A and B share CPU 0 for 80 ms; CPU 1 stays idle
        s.sw(static_cast<uint64_t>(i) * 4 * ms, 0, i % 2 ? A : B, i % 2 ? B : A, TaskState::Runnable);
    DerivedWorkload d = s.derive();
    for (int pid : {A, B}) {
        const auto& t = d.tasks[static_cast<size_t>(d.indexOfPid(pid))];
        EXPECT_TRUE(t.affinityFromTrace);
        EXPECT_EQ(t.initialAffinity.toList(), "0");
    }
    // Preemptions are merged: one burst before and one after waking B hold all the CPU time
    EXPECT_EQ(kinds(taskOf(d, A)), (std::vector<OpKind>{OpKind::Run, OpKind::Wake, OpKind::Run}));
    EXPECT_EQ(kinds(taskOf(d, B)), (std::vector<OpKind>{OpKind::Wait, OpKind::Run}));
}

TEST(DeriveWorkload, BusyNeighbourIsNoEvidenceOfPinning) {
    Seq s;
    s.comm(A, "spin").comm(B, "spin").comm(C, "other");
    s.sw(0, 1, 0, C);  // CPU 1 busy with C all along
    s.sw(0, 0, 0, A);
    s.wake(10 * us, 0, B, 0);
    for (int i = 1; i <= 20; ++i)
        s.sw(static_cast<uint64_t>(i) * 4 * ms, 0, i % 2 ? A : B, i % 2 ? B : A, TaskState::Runnable);
    DerivedWorkload d = s.derive();
    EXPECT_FALSE(d.tasks[static_cast<size_t>(d.indexOfPid(A))].affinityFromTrace);
    EXPECT_TRUE(d.tasks[static_cast<size_t>(d.indexOfPid(A))].initialAffinity.empty());
}

TEST(DeriveWorkload, UserAffinityMemoryAndScaleRules) {
    Seq s = pingPong(3);
    DeriveOptions o;
    o.affinity.push_back({"p.ng", CpuSet::single(1)});
    o.memory.push_back({"pong", 0.5});
    o.scale = 2;
    DerivedWorkload d = s.derive(o);
    EXPECT_EQ(taskOf(d, A).affinity.toList(), "1");
    EXPECT_DOUBLE_EQ(taskOf(d, B).memFraction, 0.5);
    EXPECT_DOUBLE_EQ(taskOf(d, A).memFraction, 0.0);
    EXPECT_GT(taskOf(d, B).bandwidthGBs, 0.0);
    EXPECT_NEAR(taskOf(d, A).script[0].amountNs, 200e3, 1) << "scale doubles the bursts";
    bool said = false;
    for (const auto& a : d.assumptions) said = said || a.find("memory-bound share") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(DeriveWorkload, FiltersByPidAndComm) {
    Seq s = pingPong(3);
    DeriveOptions byComm;
    byComm.commRegex = {"pong"};
    DerivedWorkload d = s.derive(byComm);
    ASSERT_EQ(d.tasks.size(), 1u);
    EXPECT_EQ(d.tasks[0].pid, B);
    EXPECT_EQ(d.droppedTasks, 1);
    // without its waker, B's waits become timed sleeps
    for (const auto& op : d.workload.tasks[0].script) EXPECT_NE(op.kind, OpKind::Wait);
    DeriveOptions byPid;
    byPid.pids = {A};
    EXPECT_EQ(Seq(pingPong(3)).derive(byPid).tasks.size(), 1u);
}

TEST(DeriveWorkload, WindowClipsTheTimeline) {
    Seq s = pingPong(10);  // 10 rounds of 220 us
    DeriveOptions o;
    o.windowStartS = 0.0005;
    o.windowEndS = 0.0015;
    DerivedWorkload d = s.derive(o);
    uint64_t cpu = 0;
    for (const auto& t : d.tasks) cpu += t.cpuTimeNs;
    EXPECT_EQ(cpu, 1000 * us) << "one CPU busy for the whole 1 ms window";
}

TEST(DeriveWorkload, BadInputsAreOneLineErrors) {
    Seq noSwitch;
    noSwitch.wake(1000, 0, A, 0).wake(5000, 0, B, 0);
    noSwitch.store.finish();
    auto r = deriveWorkload(noSwitch.store, {}, "x.dat");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("x.dat: the trace has no sched_switch"), std::string::npos) << r.error();

    Seq s = pingPong(2);
    s.store.finish();
    DeriveOptions late;
    late.windowStartS = 5;
    late.windowEndS = 6;
    r = deriveWorkload(s.store, late, "y.dat");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("y.dat: the window"), std::string::npos) << r.error();
    DeriveOptions badRx;
    badRx.commRegex = {"(unclosed"};
    r = deriveWorkload(s.store, badRx, "y.dat");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("not a valid regular expression"), std::string::npos);
    DeriveOptions none;
    none.commRegex = {"nothing-matches"};
    r = deriveWorkload(s.store, none, "y.dat");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("no task is left"), std::string::npos);
    for (const auto& e : {r.error()}) EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(RunqueueDepth, FollowsSwitchesWakeupsAndMigrations) {
    Seq s;
    s.sw(0, 0, 0, A);
    s.wake(1 * ms, 0, B, 0);                          // depth 2 on CPU 0
    s.migrate(2 * ms, 1, B, 0, 1).sw(2 * ms, 1, 0, B);  // B pulled to CPU 1
    s.sw(3 * ms, 0, A, 0);                            // A sleeps
    s.store.finish();
    RunqueueDepth d(s.store);
    EXPECT_EQ(d.at(0, 500 * us), 1);
    EXPECT_EQ(d.at(0, 1500 * us), 2);
    EXPECT_EQ(d.at(1, 1500 * us), 0);
    EXPECT_EQ(d.at(0, 2500 * us), 1);
    EXPECT_EQ(d.at(1, 2500 * us), 1);
    EXPECT_EQ(d.at(0, 3500 * us), 0);
    EXPECT_EQ(d.idleWhileQueued(0, 1, 0, 4 * ms), 1 * ms);
}

// A lost switch out (the kernel's next switch on that CPU names another prev): the task that
// was running left the CPU, and no longer holds its runqueue's depth up for the rest of the
// trace (on a 6.18 VM a tokio worker's lost switch to idle kept CPU 0 at depth 3, and the
// taskset pin of two workers sharing CPU 1 beside it was never seen).
TEST(RunqueueDepth, ATaskWhoseSwitchOutWasLostLeavesTheRunqueue) {
    constexpr int D = 400;
    Seq s;
    s.sw(0, 0, 0, A);               // A runs on CPU 0 ...
    s.sw(1 * ms, 0, 0, B);          // ... and its switch out to idle is lost: idle -> B
    s.sw(2 * ms, 0, B, 0);          // B sleeps: CPU 0 idle
    s.sw(0, 1, 0, C).wake(500 * us, 1, D, 1);  // CPU 1 runs C with D queued behind it
    s.sw(4 * ms, 1, C, D, TaskState::Runnable);
    s.store.finish();
    RunqueueDepth d(s.store);
    EXPECT_EQ(d.at(0, 500 * us), 1);
    EXPECT_EQ(d.at(0, 1500 * us), 1) << "B alone: A left with its lost switch";
    EXPECT_EQ(d.at(0, 2500 * us), 0);
    EXPECT_EQ(d.idleWhileQueued(1, 0, 0, 4 * ms), 2 * ms);
    // A task seen on another CPU since is not taken off that CPU's runqueue
    Seq m;
    m.sw(0, 0, 0, A);
    m.sw(1 * ms, 1, 0, A);           // A runs on CPU 1: its switch out on CPU 0 was lost
    m.sw(2 * ms, 0, 0, B);           // CPU 0's next switch names idle as prev
    m.store.finish();
    RunqueueDepth md(m.store);
    EXPECT_EQ(md.at(1, 2500 * us), 1);
    EXPECT_EQ(md.at(0, 2500 * us), 1);
}

TEST(DeriveWorkload, AWakeupBeforeAnyRunIsTheFirstOp) {
    constexpr int X = 400;
    Seq s;
    s.comm(A, "a").comm(B, "b").comm(C, "c").comm(X, "x");
    s.sw(0, 1, 0, B).sw(200, 1, B, C).sw(400, 1, C, 0);  // B and C run briefly and sleep
    s.sw(0, 0, 0, X).wake(1 * us, 0, A, 0);                 // A queued behind X
    s.sw(10 * us, 0, X, A, TaskState::Runnable);           // the window starts with A runnable
    s.wake(10 * us, 0, B, 1).wake(10 * us, 0, C, 1);       // A wakes B and C the moment it runs
    s.sw(1 * ms, 0, A, 0);
    DeriveOptions o;
    o.windowStartS = 2e-6;
    DerivedWorkload d = s.derive(o);
    const auto& ta = taskOf(d, A);
    ASSERT_FALSE(ta.script.empty());
    EXPECT_EQ(ta.script[0].kind, OpKind::Wake);
    EXPECT_EQ(ta.script[0].targets.size(), 2u) << "B and C in one 1:N wakeup";
}

TEST(DeriveWorkload, AWakingThatRacesTheSleepEndsThatSleep) {
    // A on CPU 0 and B on CPU 1 wake each other. A's sched_waking of B is recorded before B's
    // switch out (S): B was on its way to sleep, and the kernel woke it from that sleep. B's
    // sched_wakeup and switch in are lost (idle context on CPU 1, as on the VM that recorded
    // replay/pingpong-raced-wakeup.dat); B runs anyway, wakes A, and blocks again.
    Seq s;
    s.comm(A, "ping").comm(B, "pong");
    s.sw(0, 0, 0, A).sw(0, 1, 0, B);
    s.waking(100 * us, 0, B, 1, A);
    s.sw(102 * us, 1, B, 0);
    s.sw(105 * us, 0, A, 0);
    s.waking(110 * us, 1, A, 0, B);
    s.sw(120 * us, 1, B, 0);
    s.wake(125 * us, 0, A, 0).sw(126 * us, 0, 0, A);
    s.waking(130 * us, 0, B, 1, A);
    s.sw(135 * us, 0, A, 0);
    s.wake(140 * us, 1, B, 1).sw(141 * us, 1, 0, B);
    s.waking(150 * us, 1, A, 0, B);
    s.sw(160 * us, 1, B, 0);
    s.wake(165 * us, 0, A, 0).sw(166 * us, 0, 0, A);
    s.sw(200 * us, 0, A, 0, TaskState::Dead);
    DerivedWorkload d = s.derive();
    ASSERT_EQ(d.tasks.size(), 2u);
    const int b = d.indexOfPid(B);
    // A wakes B (the raced waking, at 100 us) before it waits for B's wakeup at 110 us
    const auto& ta = taskOf(d, A);
    const auto firstWait = std::find_if(ta.script.begin(), ta.script.end(), [](const auto& op) { return op.kind == OpKind::Wait; });
    const auto firstWake = std::find_if(ta.script.begin(), ta.script.end(), [](const auto& op) { return op.kind == OpKind::Wake; });
    ASSERT_NE(firstWake, ta.script.end());
    EXPECT_LT(firstWake - ta.script.begin(), firstWait - ta.script.begin());
    EXPECT_EQ(firstWake->targets, std::vector<int>{b});
    for (const auto& e : d.edges) EXPECT_EQ(e.count, 2) << "waker " << e.waker;
    EXPECT_TRUE(runsToTheEnd(d.workload)) << "each waits for a wake the other sends only after its own wait";
}

// Busy siblings on hand-made slices: a 4-thread core whose other threads run in turns and at
// once; the idle task's slices (pid 0) are no sibling at work.
TEST(SiblingBusy, OverlapIsTheUnionOfTheOtherThreadsBusyTime) {
    using tracing::RunSlice;
    schedscope::replay::RunSlicesByCpu slices(5);
    slices[1] = {{0, 100, 7}, {100, 300, 0}, {300, 400, 8}};
    slices[2] = {{50, 150, 9}, {350, 500, 10}};
    slices[3] = {{0, 1000, 0}};
    slices[4] = {{0, 1000, 11}};  // another core
    const CpuSet core = *CpuSet::parseList("0-3");
    const schedscope::replay::SiblingBusy busy(slices, {core, core, core, core, *CpuSet::parseList("4")});
    EXPECT_EQ(busy.overlapNs(0, 0, 1000), 150u + 200u);  // 0-150 and 300-500
    EXPECT_EQ(busy.overlapNs(0, 120, 320), 30u + 20u);
    EXPECT_EQ(busy.overlapNs(0, 500, 900), 0u);
    EXPECT_EQ(busy.overlapNs(1, 0, 1000), 100u + 150u);  // its own slices do not count: 2's
    EXPECT_EQ(busy.overlapNs(4, 0, 1000), 0u);           // no sibling
    EXPECT_EQ(busy.overlapNs(9, 0, 1000), 0u);           // no such CPU
}

// The same slices by how many siblings ran at once: 1 over 0-50, 100-150, 300-350 and 400-500,
// 2 over 50-100 and 350-400.
TEST(SiblingBusy, OverlapByTheNumberOfBusySiblings) {
    using tracing::RunSlice;
    schedscope::replay::RunSlicesByCpu slices(4);
    slices[1] = {{0, 100, 7}, {100, 300, 0}, {300, 400, 8}};
    slices[2] = {{50, 150, 9}, {350, 500, 10}};
    const CpuSet core = *CpuSet::parseList("0-3");
    const schedscope::replay::SiblingBusy busy(slices, {core, core, core, core});
    std::vector<uint64_t> byBusy;
    busy.addOverlapByBusy(0, 0, 1000, byBusy);
    ASSERT_EQ(byBusy.size(), 3u);
    EXPECT_EQ(byBusy[1], 50u + 50u + 50u + 100u);
    EXPECT_EQ(byBusy[2], 50u + 50u);
    busy.addOverlapByBusy(0, 60, 360, byBusy);  // adds to what is there
    EXPECT_EQ(byBusy[1], 250u + 50u + 50u);
    EXPECT_EQ(byBusy[2], 100u + 40u + 10u);
}

// An SMT4 core: a thread that ran 10 ms with all three siblings busy did the work the simulator
// gives each of 4 busy threads (10 ms / smtSlowdownOf(4) = 3.9 ms), not the 10 / 1.6 of one
// busy sibling; one that ran with one, then two siblings busy, 5 / 1.6 + 5 / smtSlowdownOf(3).
TEST(DeriveWorkload, SmtFourCpuTimeIsReplayedByHowManySiblingsRan) {
    const int D = 400;
    Seq s;
    s.comm(A, "a").comm(B, "b").comm(C, "c").comm(D, "d");
    s.sw(0, 0, 0, A).sw(0, 1, 0, B).sw(0, 2, 0, C).sw(0, 3, 0, D);
    s.sw(10 * ms, 0, A, 0, TaskState::Dead).sw(10 * ms, 1, B, 0, TaskState::Dead);
    s.sw(10 * ms, 2, C, 0, TaskState::Dead).sw(10 * ms, 3, D, 0, TaskState::Dead);
    DeriveOptions o;
    const CpuSet core = *CpuSet::parseList("0-3");
    o.smtSiblings = {core, core, core, core};
    o.smtSlowdown = 1.6;
    o.cpuCount = 4;
    DerivedWorkload d = s.derive(o);
    sim::ContentionParams p;
    for (int pid : {A, B, C, D}) {
        const auto& t = taskOf(d, pid);
        ASSERT_FALSE(t.script.empty());
        EXPECT_NEAR(t.script[0].amountNs, 10e6 / sim::smtSlowdownOf(p, 4), 1) << pid;
    }

    Seq two;
    two.comm(A, "a").comm(B, "b").comm(C, "c");
    two.sw(0, 0, 0, A).sw(0, 1, 0, B).sw(0, 3, 0, 0).sw(5 * ms, 2, 0, C);
    two.sw(10 * ms, 0, A, 0, TaskState::Dead).sw(10 * ms, 1, B, 0, TaskState::Dead).sw(10 * ms, 2, C, 0, TaskState::Dead);
    DerivedWorkload d2 = two.derive(o);
    EXPECT_NEAR(taskOf(d2, A).script[0].amountNs, 5e6 / 1.6 + 5e6 / sim::smtSlowdownOf(p, 3), 1);
}

// Sessions guessed from forks, as autogroup builds them: a task the trace does not show forked
// leads a session of its own and its children join it, however deep; init, kthreadd and kernel
// threads, and what they fork, stay in the root group.
TEST(SessionGuess, ForkedTasksJoinTheSessionOfTheTaskTheTraceFirstShows) {
    Seq s;
    s.comm(1, "systemd").comm(2, "kthreadd").comm(30, "kworker/1:1").comm(100, "bash").comm(200, "sshd");
    s.comm(101, "make").comm(102, "cc1").comm(50, "systemd-udevd").comm(60, "kworker/0:2");
    s.sw(1 * ms, 0, 30, 100).sw(2 * ms, 1, 0, 200);
    s.fork(3 * ms, 0, 100, 101, 0).fork(4 * ms, 1, 101, 102, 1);
    s.fork(5 * ms, 0, 1, 50, 0).fork(6 * ms, 1, 2, 60, 1);
    s.store.finish();
    const tracing::TaskGroupSnapshot snap = guessSessionsFromForks(s.store);
    const auto groups = tracing::groupsOfTasks(snap, s.store, {1, 2, 30, 50, 60, 100, 101, 102, 200});
    EXPECT_EQ(groups.at(100), "session-100");
    EXPECT_EQ(groups.at(101), "session-100");
    EXPECT_EQ(groups.at(102), "session-100") << "a grandchild, by its parent's";
    EXPECT_EQ(groups.at(200), "session-200") << "another task the trace shows running from the start";
    for (int32_t root : {1, 2, 30, 50, 60}) EXPECT_EQ(groups.at(root), "/") << root;
    EXPECT_TRUE(snap.autogroupEnabled);
    EXPECT_EQ(snap.sharesOfGroup("session-100"), 1024) << "an autogroup of nice 0";
    EXPECT_EQ(snap.groupOf.count(101), 0u) << "forked tasks are found through their parents";
}
