// Each cause rule of migration_causes.h on a hand-written event sequence.
#include <gtest/gtest.h>

#include "migration_causes.h"

using namespace schedscope::tracing;

namespace {

class Seq {
public:
    Seq& sw(int cpu, int prev, int next, TaskState st = TaskState::Sleeping) {
        SchedEvent e = base(cpu, EventKind::Switch, prev);
        e.pid2 = next;
        e.state = st;
        store.append(e);
        return *this;
    }
    Seq& ev(int cpu, EventKind k, int pid, int dst = -1) {
        SchedEvent e = base(cpu, k, pid);
        e.dstCpu = dst;
        store.append(e);
        return *this;
    }
    Seq& fork(int cpu, int parent, int child) {
        SchedEvent e = base(cpu, EventKind::ProcessFork, parent);
        e.pid2 = child;
        store.append(e);
        return *this;
    }
    // inExec: the BPF program's record says the task was inside execve(); inSoftirq: the
    // record's flags say the scheduler's softirq
    Seq& migrate(int cpu, int pid, int src, int dst, bool inExec = false, bool inSoftirq = false) {
        SchedEvent e = base(cpu, EventKind::MigrateTask, pid);
        e.srcCpu = src;
        e.dstCpu = dst;
        e.inExec = inExec;
        e.inSchedSoftirq = inSoftirq;
        store.append(e);
        return *this;
    }
    Seq& exec(int cpu, int pid, uint64_t after = 1000) {
        ts += after - 1000;
        SchedEvent e = base(cpu, EventKind::ProcessExec, pid);
        e.pid2 = pid;  // old_pid: the thread that called execve()
        store.append(e);
        return *this;
    }
    Seq& comm(int pid, const char* c) {
        store.noteComm(pid, 0, c);
        return *this;
    }
    MigrationCause only() {
        store.finish();
        auto m = inferMigrations(store);
        EXPECT_EQ(m.size(), 1u);
        return m.empty() ? MigrationCause::Count : m[0].cause;
    }
    EventStore store;

private:
    SchedEvent base(int cpu, EventKind k, int pid) {
        SchedEvent e;
        e.ts = ts += 1000;
        e.cpu = cpu;
        e.kind = k;
        e.pid = pid;
        return e;
    }
    uint64_t ts = 0;
};

constexpr int U = 100, P = 200, T = 300, STOP1 = 11;

}  // namespace

TEST(MigrationCauses, WakeupPlacementInsideWakingToWakeup) {
    Seq s;
    s.sw(0, 0, U).ev(0, EventKind::Waking, P, 1).migrate(0, P, 0, 1).ev(0, EventKind::Wakeup, P, 1);
    EXPECT_EQ(s.only(), MigrationCause::Wakeup);
}

// A trace recorded without sched_waking: the wakee's next event being its sched_wakeup marks a
// wakeup placement, wherever the migration was recorded (here over a running task and over the
// idle task, which rules 4 would take for balancing pulls).
TEST(MigrationCauses, WithoutWakingTheWakeeNextEventTellsAWakeup) {
    Seq over;
    over.sw(0, 0, U).migrate(0, P, 1, 0).ev(0, EventKind::Wakeup, P, 0).sw(0, U, P, TaskState::Runnable);
    EXPECT_EQ(over.only(), MigrationCause::Wakeup);
    Seq idle;
    idle.sw(0, U, 0).migrate(0, P, 1, 0).ev(0, EventKind::Wakeup, P, 0);
    EXPECT_EQ(idle.only(), MigrationCause::Wakeup);
    // pulled while queued: it runs next, no wakeup
    Seq pulled;
    pulled.sw(0, 0, U).migrate(0, P, 1, 0).sw(0, U, P, TaskState::Runnable).ev(1, EventKind::Wakeup, P, 0);
    EXPECT_EQ(pulled.only(), MigrationCause::LoadBalancePeriodic);
    // with sched_waking in the trace, only rule 2's window counts
    Seq waking;
    waking.ev(1, EventKind::Waking, T, 1).ev(1, EventKind::Wakeup, T, 1).sw(0, U, 0).migrate(0, P, 1, 0).ev(0, EventKind::Wakeup, P, 0);
    EXPECT_EQ(waking.only(), MigrationCause::LoadBalanceNewidle);
}

TEST(MigrationCauses, ForkPlacementBeforeWakeupNew) {
    Seq s;
    s.sw(0, 0, U).fork(0, U, P).migrate(0, P, 0, 1).ev(0, EventKind::WakeupNew, P, 1);
    EXPECT_EQ(s.only(), MigrationCause::Fork);
}

TEST(MigrationCauses, NumaAfterMoveNuma) {
    Seq s;
    s.comm(STOP1, "migration/1").sw(1, P, STOP1, TaskState::Runnable).ev(1, EventKind::MoveNuma, P).migrate(1, P, 1, 0);
    EXPECT_EQ(s.only(), MigrationCause::Numa);
}

TEST(MigrationCauses, NewidleWhenTheIdleTaskIsCurrent) {
    Seq s;
    s.sw(0, U, 0).migrate(0, P, 1, 0);
    EXPECT_EQ(s.only(), MigrationCause::LoadBalanceNewidle);
}

// The scheduler's softirq on an idle CPU (run_rebalance_domains()): its periodic balance, not a
// newidle one, and the nohz idle balance it runs for another idle CPU (a pull to CPU 1 on CPU 0)
TEST(MigrationCauses, PeriodicInTheSchedSoftirqOverTheIdleTask) {
    Seq idle;
    idle.sw(0, U, 0).migrate(0, P, 1, 0, false, true);
    EXPECT_EQ(idle.only(), MigrationCause::LoadBalancePeriodic);
    Seq nohz;
    nohz.sw(0, U, 0).migrate(0, P, 2, 1, false, true);
    EXPECT_EQ(nohz.only(), MigrationCause::LoadBalancePeriodic);
}

TEST(MigrationCauses, NewidleWhenTheCurrentTaskBlocksNext) {
    Seq s;
    s.sw(0, 0, U).migrate(0, P, 1, 0).sw(0, U, P, TaskState::Sleeping);
    EXPECT_EQ(s.only(), MigrationCause::LoadBalanceNewidle);
}

TEST(MigrationCauses, PeriodicWhenPulledOverARunningTask) {
    Seq s;
    s.sw(0, 0, U).migrate(0, P, 1, 0).sw(0, U, P, TaskState::Runnable);
    EXPECT_EQ(s.only(), MigrationCause::LoadBalancePeriodic);
}

TEST(MigrationCauses, PeriodicFromKsoftirqd) {
    Seq s;
    s.comm(15, "ksoftirqd/0").sw(0, 0, 15).migrate(0, P, 1, 0);
    EXPECT_EQ(s.only(), MigrationCause::LoadBalancePeriodic);
}

TEST(MigrationCauses, ActiveWhenTheStopperIsKickedFromAnotherCpu) {
    Seq s;
    s.comm(STOP1, "migration/1")
        .sw(0, 0, U)
        .sw(1, 0, P, TaskState::Runnable)
        .ev(0, EventKind::Waking, STOP1, 1)  // softirq on CPU 0 kicks CPU 1's stopper
        .sw(1, P, STOP1, TaskState::Runnable)
        .migrate(1, P, 1, 0)
        .sw(1, STOP1, 0, TaskState::Sleeping);
    EXPECT_EQ(s.only(), MigrationCause::LoadBalanceActive);
}

TEST(MigrationCauses, AffinityWhenTheStopperCompletesItsCaller) {
    Seq s;
    s.comm(STOP1, "migration/1")
        .sw(0, 0, T)
        .sw(1, 0, P, TaskState::Runnable)
        .ev(0, EventKind::Waking, STOP1, 1)  // T calls sched_setaffinity(P) from CPU 0
        .sw(0, T, 0, TaskState::DiskSleep)   // and waits for completion
        .sw(1, P, STOP1, TaskState::Runnable)
        .migrate(1, P, 1, 0)
        .ev(1, EventKind::Waking, T, 0)  // complete(): the stopper wakes T
        .sw(1, STOP1, 0, TaskState::Sleeping);
    EXPECT_EQ(s.only(), MigrationCause::Affinity);
}

TEST(MigrationCauses, AffinityWhenTheCallerRunsOnTheStoppersCpu) {
    Seq s;
    s.comm(STOP1, "migration/1")
        .sw(1, 0, T)
        .ev(1, EventKind::Waking, STOP1, 1)  // T on CPU 1 moves a task queued there
        .sw(1, T, STOP1, TaskState::Runnable)
        .migrate(1, P, 1, 0)
        .sw(1, STOP1, T, TaskState::Sleeping);
    EXPECT_EQ(s.only(), MigrationCause::Affinity);
}

// A task that sets its own affinity blocks in affine_move_task() before its CPU's stopper runs:
// migration_cpu_stop() only sets its wake_cpu, and the stopper's complete() wakes it onto the
// new CPU, a move inside the wakeup that is the affinity change's.
TEST(MigrationCauses, AffinityWhenTheStoppersWakeupOfItsCallerMovesIt) {
    Seq s;
    s.comm(STOP1, "migration/1")
        .sw(1, 0, P)
        .ev(1, EventKind::Waking, STOP1, 1)   // P: sched_setaffinity(0, {0})
        .sw(1, P, STOP1, TaskState::DiskSleep)  // waits for the stopper
        .ev(1, EventKind::Waking, P, 0)        // complete(): the stopper wakes P ...
        .migrate(1, P, 1, 0)                   // ... onto CPU 0
        .ev(1, EventKind::Wakeup, P, 0)
        .sw(1, STOP1, 0, TaskState::Sleeping);
    EXPECT_EQ(s.only(), MigrationCause::Affinity);
}

// sched_exec(): the task wakes its own CPU's stopper (stop_one_cpu()), which moves it, and it
// goes on to load the binary on the new CPU: its sched_process_exec says the move was exec's.
// inExec: the BPF program's record says P was inside execve()
Seq ownStopperMove(bool inExec = false) {
    Seq s;
    s.comm(STOP1, "migration/1").sw(1, 0, P).ev(1, EventKind::Waking, STOP1, 1);  // P in execve() on CPU 1
    s.sw(1, P, STOP1, TaskState::Runnable).migrate(1, P, 1, 0, inExec).sw(1, STOP1, 0, TaskState::Sleeping).sw(0, 0, P);
    return s;
}
Seq execBalance(uint64_t execAfterNs) {
    Seq s = ownStopperMove();
    s.exec(0, P, execAfterNs);
    return s;
}

TEST(MigrationCauses, ExecWhenTheStoppersMoveIsFollowedByTheTasksExec) {
    EXPECT_EQ(execBalance(1000).only(), MigrationCause::Exec);
    EXPECT_EQ(execBalance(kExecAfterStopperNs - 10'000).only(), MigrationCause::Exec);
    // an exec long after is no part of that move: a task that changed its own affinity
    EXPECT_EQ(execBalance(kExecAfterStopperNs + 10'000).only(), MigrationCause::Affinity);
    // nor one after the task forked: it had left any execve() (taskset -p, then a child)
    Seq forked = ownStopperMove();
    forked.fork(0, P, U).exec(0, P);
    EXPECT_EQ(forked.only(), MigrationCause::Affinity);
}

TEST(MigrationCauses, ExecWhenTheBpfProgramSawTheTaskInsideExecve) {
    // the BPF stream has no sched_process_exec; its migrate record says task_struct::in_execve
    EXPECT_EQ(ownStopperMove(true).only(), MigrationCause::Exec);
}

TEST(MigrationCauses, AWakeupInsideExecveStaysAWakeup) {
    // in_execve is set through the whole execve(): a task woken there (a page of the binary read
    // from disk) and placed on another CPU is a wakeup's move
    Seq s;
    s.ev(0, EventKind::Waking, P, 1).migrate(0, P, 0, 1, true).ev(0, EventKind::Wakeup, P, 1);
    EXPECT_EQ(s.only(), MigrationCause::Wakeup);
}

TEST(MigrationCauses, AffinityOtherwise) {
    Seq s;
    s.sw(0, 0, T).migrate(0, P, 0, 1);  // taskset from a user task on the source CPU
    EXPECT_EQ(s.only(), MigrationCause::Affinity);
}
