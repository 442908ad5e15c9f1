#pragma once
// Migrations of a trace recorded without sched_migrate_task: `trace-cmd record -e sched_switch`
// (the most common recording, and KernelShark's), or switches with wakeups. A task that runs
// on one CPU and next on another moved in between; what it was doing when it left its CPU, and
// what the destination CPU was doing when it took it, say which path of the kernel moved it.
// Rules, first match wins, for task P seen on CPU K and next on CPU C:
//
//  1. fork      P was forked on K (sched_process_fork: the child starts on its parent's CPU) and
//               has not run yet: wake_up_new_task() placed it. With sched_wakeup_new recorded,
//               the placement is forkPlacements()'s instead (its target CPU is C already).
//  2. wakeup    a sched_wakeup of P names target C: select_task_rq() moved it, at that wakeup.
//               Without sched_wakeup, P left K asleep (prev_state not R) and its next switch in
//               is on C: only its wakeup can have moved a sleeping task.
//     affinity  ... unless P left K asleep to K's "migration/N" stopper and that stopper's
//               wakeup (or, without sched_wakeup, its next switch in) takes it to C: P waited
//               for the stopper to move it (sched_setaffinity() of itself; exec when P's
//               sched_process_exec follows, as in rule 3).
//  3. stopper   P left K preempted by K's "migration/N" stopper, which moved it:
//               numa                a task C's stopper preempted about then (kStopperPairNs)
//                                   left C and P arrived there: the two traded CPUs, as
//                                   migrate_swap() does with stop_two_cpus();
//               affinity            if the stopper's wakeups show an affinity change
//                                   (StopperRuns: needs sched_wakeup in the trace);
//               load_balance_active otherwise (with switches alone, every other stopper move).
//  4. load_balance_newidle C took P from the idle task, or from a task that blocked (the
//               balance ran inside that task's __schedule(): sched_balance_newidle()), unless
//               a task queued on C then (left preempted there, or woken there) runs on C next:
//               C was not about to idle, so a periodic balance had pulled P earlier.
//  5. load_balance_periodic anything else: P was queued (preempted, or woken onto K) and C
//               pulled it over a running task.
// sched_waking is not used: its target_cpu is the task's CPU before select_task_rq() chose.
// A move that went K -> X -> C with P never running on X is one migration K -> C here: the
// switches cannot see X. Moves of the idle task (pid 0, one per CPU) are not moves, and a task
// that switched out dead (X) is gone: a later task with its pid starts afresh.
#include <string_view>
#include <vector>

#include "event_store.h"
#include "migration_causes.h"

namespace schedscope::tracing {

// The migrations the switches (and wakeups) of `store` show, in time order. A store with no
// sched_migrate_task gets them all (inferMigrations() calls it then). In one with some, a
// recorded migration is followed (the task is where it took it), so what is returned is only
// what no recorded migration shows: the moves whose events were lost (inferMigrations() adds
// them when the store counts lost events).
std::vector<Migration> migrationsFromSwitches(const EventStore& store);

// Where inferMigrations() takes a store's migrations from: "sched_migrate_task" when the source
// recorded it (EventStore::recorded(): none happening is then no migration), else
// "sched_switch" or "sched_switch, sched_wakeup" (migrationsFromSwitches()), else "" (none).
std::string_view migrationSource(const EventStore& store);

}  // namespace schedscope::tracing
