#include "switch_migrations.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "exec_moves.h"
#include "sched_tracker.h"
#include "stopper_runs.h"

namespace schedscope::tracing {
namespace {

// Two tasks that two CPUs' stoppers preempted within this long of each other, and that traded
// those CPUs, were swapped by one stop_two_cpus() (migrate_swap(), NUMA balancing). It wakes
// both stoppers at once, but the second may wait for its CPU (a tick, 4 ms at HZ=250, in a
// guest whose vCPU was descheduled).
constexpr uint64_t kStopperPairNs = 4'000'000;

// What the trace last showed of a task.
struct Seen {
    int32_t cpu = -1;              // where it ran last, or where a fork or wakeup put it
    bool forkedHere = false;       // forked on `cpu` and not run yet
    bool leftRunnable = false;     // its last switch out was a preemption (prev_state R)
    bool leftToStopper = false;    // ... by `cpu`'s migration/N stopper
    bool stopperAffinity = false;  // ... which ran an affinity change (StopperRuns)
    // it left blocked with `cpu`'s stopper next: waiting for the stopper to move it (a task
    // changing its own affinity, affine_move_task(); sched_exec()), whose wakeup then moves it
    bool blockedForStopper = false;
    uint64_t leftAt = 0;           // ... at this time
    bool swapped = false;          // ... and another task it preempted moved onto `cpu`
    bool wokenSinceLeft = false;   // a sched_wakeup placed it on `cpu` since it left
    bool queued = false;           // runnable on `cpu`'s queue: left preempted or woken there
};

class SwitchMoves {
public:
    explicit SwitchMoves(const EventStore& store)
        : store_(store), tracker_(store.cpuCount()), affinityCalls_(store.affinityCallRecords()), execMoves_(affinityCalls_) {}

    void observe(const SchedEvent& e) {
        const int32_t cur = tracker_.observe(e);
        switch (e.kind) {
            case EventKind::Switch:
                switchedOut(e);
                if (e.pid2 > 0) switchedIn(e);
                break;
            case EventKind::Wakeup:
                woken(e, cur);
                break;
            case EventKind::WakeupNew:  // forkPlacements() counts a placement onto another CPU
                if (e.pid > 0 && e.dstCpu >= 0) place(e.pid, Seen{.cpu = e.dstCpu, .wokenSinceLeft = true});
                break;
            case EventKind::ProcessFork:  // sched_fork(): the child starts on its parent's CPU
                if (e.pid2 > 0) place(e.pid2, Seen{.cpu = e.cpu, .forkedHere = true});
                execMoves_.forget(e.pid);  // the parent is in user space: past any execve()
                break;
            case EventKind::ProcessExec:
                execMoves_.execed(e, out_);
                break;
            case EventKind::MigrateTask:
                recordedMove(e);
                break;
            default:
                break;
        }
    }

    std::vector<Migration> take() { return std::move(out_); }

private:
    void push(const Migration& m) {
        execMoves_.moved(m, out_.size());  // an affinity-like move is sched_exec()'s if the task's exec follows
        out_.push_back(m);
    }

    void switchedOut(const SchedEvent& e) {
        if (e.pid <= 0) return;
        if (isStopper(store_.commAt(e.pid, e.ts))) {
            auto victim = stopperVictim_.find(e.cpu);
            if (victim != stopperVictim_.end()) {
                tasks_[victim->second].stopperAffinity = stoppers_.wasAffinity(e.pid, e.cpu);
                stopperVictim_.erase(victim);
            }
            stoppers_.finished(e.pid);
        }
        if (e.state == TaskState::Dead) {  // its last switch: a later task of that pid is another task
            execMoves_.forget(e.pid);
            unqueue(e.pid);
            tasks_.erase(e.pid);
            witnessed_.erase(e.pid);  // it never runs again: the pulls it waited on stay newidle
            return;
        }
        Seen prev;
        prev.cpu = e.cpu;
        prev.leftRunnable = e.state == TaskState::Runnable;
        const bool stopperNext = e.pid2 > 0 && isStopper(store_.commAt(e.pid2, e.ts));
        prev.leftToStopper = prev.leftRunnable && stopperNext;
        prev.blockedForStopper = !prev.leftRunnable && stopperNext;
        prev.queued = prev.leftRunnable;
        prev.leftAt = e.ts;
        if (prev.leftToStopper) stopperVictim_[e.cpu] = lastStopperVictim_[e.cpu] = e.pid;
        place(e.pid, prev);
    }

    void switchedIn(const SchedEvent& e) {
        const int32_t pid = e.pid2;
        resolveNewidleWitness(pid, e.cpu);
        Seen& next = tasks_[pid];
        if (next.cpu >= 0 && next.cpu != e.cpu) {
            Migration m{e.ts, pid, next.cpu, e.cpu, e.cpu, -1, causeOfMove(next, e)};
            m.seenInSwitches = true;
            if (m.cause == MigrationCause::Numa) tasks_[lastStopperVictim_[e.cpu]].swapped = true;
            if (m.cause == MigrationCause::LoadBalanceNewidle && e.pid > 0) awaitNewidleWitnesses(e.cpu, pid);
            push(m);
        }
        unqueue(pid);
        next = Seen{.cpu = e.cpu};
    }

    // `arrival`: the switch that ran the task where it moved to; none for a move that a
    // recorded migration from elsewhere shows (recordedMove()).
    MigrationCause causeOfMove(const Seen& task, const std::optional<SchedEvent>& arrival) const {
        if (task.forkedHere) return MigrationCause::Fork;
        if (!task.leftRunnable && !task.wokenSinceLeft)
            return task.blockedForStopper ? MigrationCause::Affinity : MigrationCause::Wakeup;
        if (task.leftToStopper) {
            if (task.swapped || (arrival && tradedWith(task, arrival->cpu))) return MigrationCause::Numa;
            return task.stopperAffinity ? MigrationCause::Affinity : MigrationCause::LoadBalanceActive;
        }
        if (arrival && (arrival->pid == 0 || arrival->state != TaskState::Runnable)) return MigrationCause::LoadBalanceNewidle;
        return MigrationCause::LoadBalancePeriodic;
    }

    // Did the task the stopper of `cpu` preempted last leave it about when `task` left its CPU
    // to its stopper, and not come back?
    bool tradedWith(const Seen& task, int32_t cpu) const {
        auto victim = lastStopperVictim_.find(cpu);
        if (victim == lastStopperVictim_.end()) return false;
        auto other = tasks_.find(victim->second);
        if (other == tasks_.end() || !other->second.leftToStopper || other->second.cpu != cpu) return false;
        const uint64_t apart = other->second.leftAt > task.leftAt ? other->second.leftAt - task.leftAt
                                                                  : task.leftAt - other->second.leftAt;
        return apart <= kStopperPairNs;
    }

    // A recorded sched_migrate_task (a trace that lost some): the task is on its destination
    // now, and no switch needs explaining there. One from a CPU other than where the trace
    // last showed the task says a move to that CPU was lost.
    void recordedMove(const SchedEvent& e) {
        if (e.pid <= 0 || e.dstCpu < 0) return;
        Seen& t = tasks_[e.pid];
        if (t.cpu >= 0 && e.srcCpu >= 0 && t.cpu != e.srcCpu) {
            Migration m{e.ts, e.pid, t.cpu, e.srcCpu, e.cpu, -1, causeOfMove(t, std::nullopt)};
            m.seenInSwitches = true;
            push(m);
        }
        const bool queued = t.queued;
        unqueue(e.pid);
        t.cpu = e.dstCpu;
        t.forkedHere = false;
        if (queued) {
            t.queued = true;
            queuedOn_[e.dstCpu].insert(e.pid);
        }
    }

    void woken(const SchedEvent& e, int32_t cur) {
        if (e.pid <= 0) return;
        const int32_t waker = wakerOf(e, cur);
        if (isStopper(store_.commAt(e.pid, e.ts))) stoppers_.woken(e.pid, waker, e.cpu, false);
        stoppers_.wakes(waker, e.pid);
        if (e.dstCpu < 0) return;
        Seen& t = tasks_[e.pid];
        if (t.forkedHere) return;
        if (t.cpu >= 0 && t.cpu != e.dstCpu) {
            // it blocked (uninterruptibly) for the stopper: this wakeup is the stopper completing
            // it, and the move is that affinity change's (the sched_wakeup itself may run on the
            // target CPU, from its wakeup list, where the stopper is not to be seen)
            Migration m{e.ts, e.pid, t.cpu, e.dstCpu, e.cpu, -1, t.blockedForStopper ? MigrationCause::Affinity : MigrationCause::Wakeup};
            m.seenInSwitches = true;
            push(m);
        }
        unqueue(e.pid);
        t.cpu = e.dstCpu;
        t.wokenSinceLeft = true;
        t.queued = true;
        queuedOn_[e.dstCpu].insert(e.pid);
    }

    // A newidle balance runs only when its CPU has nothing else to run. A task queued on that
    // CPU when the pull showed (left preempted there, or woken there) that runs there next was
    // queued all along: the CPU was busy, and a periodic balance pulled the task earlier.
    void awaitNewidleWitnesses(int32_t cpu, int32_t pulled) {
        auto queued = queuedOn_.find(cpu);
        if (queued == queuedOn_.end()) return;
        for (int32_t witness : queued->second)
            if (witness != pulled) witnessed_[witness].push_back({out_.size(), cpu});
    }

    void resolveNewidleWitness(int32_t pid, int32_t cpu) {
        auto it = witnessed_.find(pid);
        if (it == witnessed_.end()) return;
        for (const auto& [index, busyCpu] : it->second)
            if (busyCpu == cpu) out_[index].cause = MigrationCause::LoadBalancePeriodic;
        witnessed_.erase(it);
    }

    void place(int32_t pid, const Seen& seen) {
        unqueue(pid);
        tasks_[pid] = seen;
        if (seen.queued) queuedOn_[seen.cpu].insert(pid);
    }

    void unqueue(int32_t pid) {
        auto it = tasks_.find(pid);
        if (it == tasks_.end() || !it->second.queued) return;
        queuedOn_[it->second.cpu].erase(pid);
        it->second.queued = false;
    }

    const EventStore& store_;
    CpuTracker tracker_;
    StopperRuns stoppers_;
    std::unordered_map<int32_t, Seen> tasks_;
    std::unordered_map<int32_t, std::unordered_set<int32_t>> queuedOn_;  // by CPU
    std::unordered_map<int32_t, int32_t> stopperVictim_;                 // by CPU: whom its stopper preempted
    std::unordered_map<int32_t, int32_t> lastStopperVictim_;             // by CPU
    struct Pending {
        size_t index;  // into out_
        int32_t cpu;
    };
    std::unordered_map<int32_t, std::vector<Pending>> witnessed_;  // by witness pid
    AffinityCalls affinityCalls_;  // (before execMoves_, which reads it)
    ExecMoves execMoves_;
    std::vector<Migration> out_;
};

}  // namespace

std::string_view migrationSource(const EventStore& store) {
    if (store.recorded(EventKind::MigrateTask)) return "sched_migrate_task";
    if (store.count(EventKind::Switch) == 0) return "";
    return store.count(EventKind::Wakeup) > 0 ? "sched_switch, sched_wakeup" : "sched_switch";
}

std::vector<Migration> migrationsFromSwitches(const EventStore& store) {
    SwitchMoves moves(store);
    store.forEach([&](const SchedEvent& e) {
        moves.observe(e);
        return true;
    });
    return moves.take();
}

}  // namespace schedscope::tracing
