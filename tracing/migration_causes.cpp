#include "migration_causes.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include "exec_moves.h"
#include "sched_tracker.h"
#include "stopper_runs.h"
#include "switch_migrations.h"

namespace schedscope::tracing {
namespace {

bool isSoftirqd(std::string_view comm) { return comm.starts_with("ksoftirqd/"); }

}  // namespace

std::vector<Migration> forkPlacements(const EventStore& store, const std::vector<Migration>& inferred) {
    std::unordered_set<int32_t> migrated;
    for (const auto& m : inferred)
        if (m.cause == MigrationCause::Fork) migrated.insert(m.pid);
    std::vector<Migration> out;
    store.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::WakeupNew && e.dstCpu >= 0 && e.dstCpu != e.cpu && !migrated.count(e.pid))
            out.push_back({e.ts, e.pid, e.cpu, e.dstCpu, e.cpu, -1, MigrationCause::Fork});
        return true;
    });
    return out;
}

namespace {

// Every sched_migrate_task of the store, in time order, with its cause (the rules above).
std::vector<Migration> recordedMigrations(const EventStore& store) {
    std::vector<Migration> out;
    CpuTracker tracker(store.cpuCount());
    std::unordered_set<int32_t> numaPending, waking, forked;
    StopperRuns stoppers;
    // Per CPU: migrations decided at that CPU's next sched_switch.
    struct Pending {
        size_t index;
        int32_t current;
        bool stopper;
    };
    std::vector<std::vector<Pending>> pending(static_cast<size_t>(std::max(store.cpuCount(), 1)));
    // Without sched_waking (recorded with -e sched_wakeup alone) rule 2 cannot see a wakeup
    // begin. A migration is then a wakeup's when the task's next event is its sched_wakeup:
    // try_to_wake_up() moves a task that is asleep, and the balancer moves only queued tasks,
    // which are awake. Per task: the index of its migration still waiting for that event.
    const bool wakingRecorded = store.recorded(EventKind::Waking);
    std::unordered_map<int32_t, size_t> untilWakeup;
    const AffinityCalls affinityCalls(store.affinityCallRecords());
    ExecMoves execMoves(affinityCalls);

    store.forEach([&](const SchedEvent& e) {
        const int32_t cur = tracker.observe(e);
        if (!untilWakeup.empty()) {
            if (auto it = untilWakeup.find(e.pid); it != untilWakeup.end()) {
                if (e.kind == EventKind::Wakeup) out[it->second].cause = MigrationCause::Wakeup;
                untilWakeup.erase(it);
            }
            if (e.kind == EventKind::Switch) untilWakeup.erase(e.pid2);  // it ran: it was awake
        }
        switch (e.kind) {
            case EventKind::Switch: {
                auto& list = pending[static_cast<size_t>(e.cpu)];
                for (const Pending& p : list) {
                    Migration& m = out[p.index];
                    if (m.cause == MigrationCause::Wakeup) continue;  // its sched_wakeup came first
                    if (p.stopper) {
                        m.cause = stoppers.wasAffinity(p.current, e.cpu) ? MigrationCause::Affinity
                                                                         : MigrationCause::LoadBalanceActive;
                        execMoves.moved(m, p.index);
                    } else {
                        // newidle: the balance ran inside the blocking task's __schedule(),
                        // so that switch comes next and runs the pulled task.
                        m.cause = (e.pid == p.current && e.state != TaskState::Runnable && e.pid2 == m.pid)
                                      ? MigrationCause::LoadBalanceNewidle
                                      : MigrationCause::LoadBalancePeriodic;
                    }
                }
                list.clear();
                if (isStopper(store.commAt(e.pid, e.ts))) stoppers.finished(e.pid);
                break;
            }
            case EventKind::Waking: {
                waking.insert(e.pid);
                const int32_t waker = wakerOf(e, cur);
                if (isStopper(store.commAt(e.pid, e.ts))) stoppers.woken(e.pid, waker, e.cpu, false);
                stoppers.wakes(waker, e.pid);
                break;
            }
            case EventKind::Wakeup:
                waking.erase(e.pid);
                // traces without sched_waking: the wakeup is the only wake event there is
                if (isStopper(store.commAt(e.pid, e.ts))) stoppers.woken(e.pid, cur, e.cpu, true);
                if (!wakingRecorded) stoppers.wakes(wakerOf(e, cur), e.pid);
                break;
            case EventKind::WakeupNew:
                forked.erase(e.pid);
                break;
            case EventKind::ProcessFork:
                forked.insert(e.pid2);
                execMoves.forget(e.pid);
                break;
            case EventKind::ProcessExec:
                execMoves.execed(e, out);
                break;
            case EventKind::ProcessExit:
                execMoves.forget(e.pid);
                break;
            case EventKind::MoveNuma:
            case EventKind::StickNuma:
                numaPending.insert(e.pid);
                break;
            case EventKind::SwapNuma:
                numaPending.insert(e.pid);
                numaPending.insert(e.pid2);
                break;
            case EventKind::MigrateTask: {
                execMoves.forget(e.pid);  // moved again: what came before was no exec's
                Migration m{e.ts, e.pid, e.srcCpu, e.dstCpu, e.cpu, -1, MigrationCause::Affinity};
                const std::string_view curComm = cur >= 0 ? store.commAt(cur, e.ts) : std::string_view{};
                const bool stopperRuns = cur > 0 && isStopper(curComm);
                if (numaPending.erase(e.pid)) m.cause = MigrationCause::Numa;
                else if (waking.count(e.pid) && stopperRuns) {
                    // the stopper completing the task's wait on it: a task that changed its own
                    // affinity (or execve()'s sched_exec()) blocked in affine_move_task() before
                    // its CPU's stopper ran, so migration_cpu_stop() only set its wake_cpu and
                    // the completion's wakeup moves it
                    m.cause = MigrationCause::Affinity;
                    execMoves.moved(m, out.size());
                } else if (waking.count(e.pid)) m.cause = MigrationCause::Wakeup;
                else if (forked.count(e.pid)) m.cause = MigrationCause::Fork;
                else if (stopperRuns && e.inExec) {
                    m.cause = MigrationCause::Exec;  // the BPF program saw it inside execve(): sched_exec()
                } else if (stopperRuns) {
                    m.cause = MigrationCause::LoadBalanceActive;  // refined at the stopper's switch
                    pending[static_cast<size_t>(e.cpu)].push_back({out.size(), cur, true});
                } else if (e.inSchedSoftirq) {
                    // run_rebalance_domains(): its CPU's periodic balance, or the nohz idle
                    // balance it runs for idle CPUs (another CPU's pull), over a task or idle
                    m.cause = MigrationCause::LoadBalancePeriodic;
                } else if (e.cpu == e.dstCpu) {
                    if (cur == 0) m.cause = MigrationCause::LoadBalanceNewidle;
                    else if (isSoftirqd(curComm) || cur < 0) m.cause = MigrationCause::LoadBalancePeriodic;
                    else {
                        m.cause = MigrationCause::LoadBalancePeriodic;  // refined at the next switch
                        pending[static_cast<size_t>(e.cpu)].push_back({out.size(), cur, false});
                        }
                }
                // (a stopper's move is its own: when the task's sched_wakeup follows, the stopper
                // was completing the task's wait for it, rule 2's exception)
                if (!wakingRecorded && !stopperRuns && m.cause != MigrationCause::Numa && m.cause != MigrationCause::Fork)
                    untilWakeup[e.pid] = out.size();
                out.push_back(m);
                break;
            }
            default:
                break;
        }
        return true;
    });
    return out;
}

bool lostEvents(const EventStore& store) {
    return store.anomaly(Anomaly::LostEvents) + store.anomaly(Anomaly::LostUnknown) + store.anomaly(Anomaly::Unreadable) > 0;
}

}  // namespace

size_t countSeenInSwitches(const std::vector<Migration>& migrations) {
    return static_cast<size_t>(
        std::count_if(migrations.begin(), migrations.end(), [](const Migration& m) { return m.seenInSwitches; }));
}

std::vector<Migration> inferMigrations(const EventStore& store) {
    if (migrationSource(store).starts_with("sched_switch")) return migrationsFromSwitches(store);
    std::vector<Migration> recorded = recordedMigrations(store);
    if (!lostEvents(store)) return recorded;
    // The ring buffer dropped events: some migrations with them. The switches that survived
    // show a task arriving where no recorded migration took it (migrationsFromSwitches()
    // follows the recorded ones and returns only those).
    const std::vector<Migration> hidden = migrationsFromSwitches(store);
    if (hidden.empty()) return recorded;
    std::vector<Migration> out;
    out.reserve(recorded.size() + hidden.size());
    // at one time the hidden move goes first: one that a recorded migration from elsewhere
    // shows took the task to where that migration left from
    std::merge(hidden.begin(), hidden.end(), recorded.begin(), recorded.end(), std::back_inserter(out),
               [](const Migration& a, const Migration& b) { return a.ts < b.ts; });
    return out;
}

}  // namespace schedscope::tracing
