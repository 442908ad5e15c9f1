#pragma once
// Why did a task migrate? Inferred from the events around each sched_migrate_task, streaming
// in time order with the current task of every CPU (CpuTracker). Rules, first match wins:
//
//  1. numa      a sched_move_numa for P, or a sched_swap_numa naming P, is pending (seen and
//               not yet followed by a migration of P): task_numa_migrate()/migrate_swap().
//  2. wakeup    P is inside its wakeup: sched_waking(P) seen, sched_wakeup(P) not yet
//               (try_to_wake_up() -> select_task_rq() -> set_task_cpu()), unless a cpu stopper
//               is waking it: then P blocked waiting for the stopper to move it (a task setting
//               its own affinity, affine_move_task(); execve()'s sched_exec()), which only set its
//               wake_cpu, and the completion's wakeup moves it: affinity, or exec as in rule 3
//               when P's sched_process_exec follows. In a trace without
//               sched_waking: P's next event is its sched_wakeup (only a wakeup moves a task that
//               is asleep), which overrides rules 3-6.
//     fork      P was forked and its sched_wakeup_new is not seen yet (wake_up_new_task()).
//  3. stopper   the current task of the event's CPU is "migration/N" (a cpu stopper moved P).
//               affinity            if the stopper was woken by a task running on the stopper's
//                                   own CPU, or the stopper wakes its waker before it switches
//                                   out (stop_one_cpu() + completion in affine_move_task());
//               load_balance_active otherwise (active_load_balance_cpu_stop(), kicked from the
//                                   balancing CPU's softirq with stop_one_cpu_nowait()).
//               exec                an affinity-like run (the task woke its own CPU's stopper)
//                                   followed within kExecAfterStopperNs by P's own
//                                   sched_process_exec: sched_exec(), the balance execve() does
//                                   with stop_one_cpu() before it loads the binary. (A task that
//                                   sets its own affinity and then execs, as taskset does, looks
//                                   the same and is counted here too.)
//  4. softirq   load_balance_periodic: the record ran in the scheduler's softirq (its flags and
//               its CPU's softirq_entry, SchedEvent::inSchedSoftirq): run_rebalance_domains(),
//               the CPU's own periodic balance or the nohz idle balance it runs for idle CPUs
//               (a pull to another CPU), whatever task it interrupted (the idle task included).
//     pull      the event's CPU is the destination (load balancing pulls to the balancing CPU),
//               in task context or a source that does not say:
//               load_balance_newidle  current task is idle (pid 0): the idle task's own
//                                     __schedule() balancing before it picks (a source without
//                                     the irq flags also counts its softirq pulls here), or the current task's next
//                                     sched_switch blocks it (prev_state not R) and runs P: the
//                                     balance ran in __schedule() -> sched_balance_newidle();
//               load_balance_periodic otherwise (SCHED_SOFTIRQ over a running task or ksoftirqd).
//  6. affinity  anything else: P moved by another CPU in task context, e.g. sched_setaffinity()
//               of a queued task (move_queued_task() on the caller's CPU).
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "event_store.h"

namespace schedscope::tracing {

enum class MigrationCause : uint8_t {
    Wakeup, Fork, LoadBalancePeriodic, LoadBalanceNewidle, LoadBalanceActive, Numa, Affinity, Exec, Count
};
constexpr std::array<std::string_view, static_cast<size_t>(MigrationCause::Count)> kMigrationCauseNames = {
    "wakeup", "fork", "load_balance_periodic", "load_balance_newidle", "load_balance_active", "numa", "affinity", "exec"};
// How soon after its stopper moved it a task's sched_process_exec makes the move sched_exec()'s:
// execve() loads the binary in between, which may wait for the disk or, preempted on a busy CPU,
// for its turn (105 ms behind a CPU hog in tests/data/traces/exec-balance.dat). A fork by the
// task in between ends the wait: it is back in user space, past any execve().
inline constexpr uint64_t kExecAfterStopperNs = 1'000'000'000;
constexpr std::string_view migrationCauseName(MigrationCause c) { return kMigrationCauseNames[static_cast<size_t>(c)]; }

struct Migration {
    uint64_t ts = 0;
    int32_t pid = -1;
    int32_t src = -1;
    int32_t dst = -1;
    int32_t eventCpu = -1;  // CPU that executed the tracepoint
    int32_t level = -1;     // filled by MigrationClassifier: index into its level names
    MigrationCause cause = MigrationCause::Affinity;
    // inferred from the switches (and wakeups): of a trace without sched_migrate_task, or a
    // move whose sched_migrate_task was lost (migrationsFromSwitches() in switch_migrations.h)
    bool seenInSwitches = false;
};

// Every sched_migrate_task of the store, in time order, with its cause. A store with switches
// and no sched_migrate_task (recorded without it) gets the moves its switches show instead
// (migrationsFromSwitches()), each marked seenInSwitches. A store that lost events (ring buffer
// overruns, unreadable records) gets its recorded migrations and, merged in time order, the
// moves its switches show that none of them does (marked seenInSwitches too).
std::vector<Migration> inferMigrations(const EventStore& store);
// How many of `migrations` were seen in the switches (Migration::seenInSwitches).
size_t countSeenInSwitches(const std::vector<Migration>& migrations);

// Fork placements onto another CPU: wake_up_new_task() moves the child with __set_task_cpu(),
// which emits no sched_migrate_task; sched_wakeup_new runs on the parent's CPU and names the
// child's (src = the parent's CPU, cause Fork). Children `inferred` already has a Fork migration
// of are left out. The simulator counts these as fork migrations; replay and trace stats add them.
std::vector<Migration> forkPlacements(const EventStore& store, const std::vector<Migration>& inferred);

}  // namespace schedscope::tracing
