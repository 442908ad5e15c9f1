#pragma once
// The fair class's ordering of a runqueue, as a simulator needs it: CFS (vruntime, linux <= 6.5)
// or EEVDF (eligibility and virtual deadline, 6.6+). The engine calls these around enqueue,
// dequeue, pick and tick; each mirrors the kernel function it is named after.
#include "sim/sim_state.h"

namespace schedscope::sim {

// sched_prio_to_weight[] in kernel/sched/core.c
double niceToWeight(int nice);

enum class Place { Wakeup, Fork, Migrated };

// mirrors place_entity() (CFS: min_vruntime with GENTLE_FAIR_SLEEPERS / START_DEBIT;
// EEVDF: avg_vruntime minus the saved lag, deadline one slice later, or as far as it was when a
// migration took it off its runqueue: PLACE_REL_DEADLINE). CFS's Fork is a task forked on `rq`
// itself with no parent (forkVruntimeOffset()).
void placeEntity(SimState& s, Cpu& rq, Task& t, Place how);
// task_fork_fair() (CFS): a new task is placed on the runqueue of the CPU that forks it (`rq`,
// whose curr `parent` is, or null): one vslice past min_vruntime (START_DEBIT, sched_slice()
// counting the child, not queued yet) or at the parent's vruntime if that is further. It keeps
// that distance from min_vruntime on the CPU it starts on, which this returns.
double forkVruntimeOffset(const SimState& s, const Cpu& rq, const Task& child, const Task* parent);
// The task leaves `rq` (sleep or migration): EEVDF saves its lag (update_entity_lag()), and
// when it is not going to sleep (a migration) with PLACE_REL_DEADLINE its deadline as a distance
// from its vruntime; CFS forgets it as a buddy (clear_buddies()).
void dequeueEntity(SimState& s, Cpu& rq, Task& t, bool sleep = true);
// dequeue_entity() of a task leaving `rq` runnable (a migration; a throttle when `sleep`): its
// lag (and deadline distance) taken while it still counts in the average, as curr or queued, as
// update_entity_lag() runs before __dequeue_entity(); then a queued one leaves the queue. The
// caller takes curr off the CPU afterwards.
void dequeueRunnable(SimState& s, Cpu& rq, Task& t, bool sleep);
// mirrors entity_eligible() (EEVDF): the task's vruntime is not past the queue's weighted
// average, i.e. its lag is not negative. CFS: always.
bool entityEligible(const SimState& s, const Cpu& rq, const Task& t);
// DELAY_DEQUEUE (6.12) with DELAY_ZERO. delayDequeue(): the task (no longer curr) blocked while
// not eligible and stays queued, marked Task::delayed. The engine calls finishDelayedDequeue()
// when the pick lands on it (dequeue_entity() with DEQUEUE_DELAYED: it leaves with its lag, a
// positive one dropped to 0) and requeueDelayedEntity() when it is woken before that (it stays
// queued; a positive lag is dropped and it is placed anew at the average). The balancer may move
// a delayed task (migrate_load): detachDelayed() takes it off `rq` as a migration's dequeue does
// (its lag and deadline distance kept, still marked delayed), and the engine places it on the
// destination and queues it there with delayDequeue(), still delayed (enqueue_task_fair()
// without ENQUEUE_WAKEUP leaves sched_delayed set and the task out of h_nr_runnable).
void delayDequeue(SimState& s, Cpu& rq, Task& t);
void finishDelayedDequeue(SimState& s, Cpu& rq, Task& t);
void requeueDelayedEntity(SimState& s, Cpu& rq, Task& t);
void detachDelayed(SimState& s, Cpu& rq, Task& t);
// mirrors pick_next_entity(): CFS leftmost vruntime (or a buddy); EEVDF pick_eevdf(). Considers rq.timeline
// only (the engine puts the previous task back first, as put_prev_entity() does). -1 if empty.
int pickNextEntity(SimState& s, Cpu& rq);
// mirrors update_deadline() (EEVDF; CFS: nothing), which update_curr() calls on every update:
// once curr's vruntime reaches its deadline it gets a new one a slice later, and it is to yield
// (true) when another entity is queued. Without it a task running alone keeps the deadline of
// a slice long past, and no wakeup can preempt it until the next tick.
bool updateDeadline(SimState& s, Cpu& rq);
// mirrors check_preempt_tick() (CFS) / update_deadline() at the tick (EEVDF): should curr yield now?
bool checkPreemptTick(SimState& s, Cpu& rq);
// mirrors check_preempt_wakeup() (CFS wakeup granularity) / check_preempt_wakeup_fair() (EEVDF).
bool checkPreemptWakeup(SimState& s, Cpu& rq, const Task& wakee);
// CFS (linux <= 6.5), where check_preempt_wakeup() decided to preempt curr for `wakee`: the
// wakee becomes the runqueue's next buddy and, with sched_nr_latency (8) or more tasks running,
// curr its last buddy (LAST_BUDDY); pick_next_entity() then runs next, else last, instead of the
// leftmost task when that is within the wakeup granularity of the leftmost. EEVDF: nothing
// (NEXT_BUDDY is off in every release).
void setPreemptionBuddies(SimState& s, Cpu& rq, const Task& wakee);
// clear_buddies(): task `id` is no longer a buddy of `rq` (it was picked, left, or used its slice)
void clearBuddies(Cpu& rq, int id);
// mirrors __enqueue_entity() / __dequeue_entity(): the task joins or leaves rq.queued and
// rq.timeline (curr is not queued, as in the kernel's tree), and the running sums of
// avg_vruntime follow. A queued task's vruntime, deadline and weight must not change.
void queueEntity(SimState& s, Cpu& rq, const Task& t);
void unqueueEntity(SimState& s, Cpu& rq, const Task& t);
// mirrors reweight_entity(): `t`, queued on `rq` or its curr (whose vruntime is up to date),
// takes `weight`. EEVDF keeps its lag and the distance to its deadline as real time: both scale
// by old / new weight in vtime, and it is placed anew against the others' average (place_entity()
// with PLACE_LAG). CFS keeps its vruntime. The caller keeps rq.loadWeight and the load averages.
void reweightEntity(SimState& s, Cpu& rq, Task& t, double weight);
// when a queued task joined its queue, against the others queued there (earlier: smaller)
uint64_t enqueueOrder(const SimState& s, int id);
// list_add()/list_move() of the task to the head of rq->cfs_tasks, an MRU list: at its enqueue
// (account_entity_enqueue()), when picked (set_next_task_fair()) and when detach_tasks() passes
// it over; the balancer tries the least recent first.
inline void toCfsTasksHead(SimState& s, Task& t) { t.cfsTasksStamp = ++s.cfsTasksClock; }
// update_min_vruntime()
void updateMinVruntime(SimState& s, Cpu& rq);
// mirrors update_curr() in kernel/sched/fair.c: charge `deltaNs` of execution to the task.
// Inline: account() calls it for every running task a context switch re-times.
inline void updateCurr(SimState& s, Cpu& rq, Task& t, double deltaNs) {
    if (deltaNs <= 0) return;
    t.sumExec += deltaNs;
    t.vruntime += deltaNs * 1024.0 / t.weight;  // calc_delta_fair()
    if (s.feat.fairClass != FairClass::Eevdf) updateMinVruntime(s, rq);
}
// mirrors avg_vruntime(): the weighted average vruntime of the queued tasks and curr, from the
// runqueue's running sums (avg_vruntime.h); min_vruntime when the runqueue is empty
double avgVruntime(const SimState& s, const Cpu& rq);

}  // namespace schedscope::sim
