#include "sim/fair_rq.h"

#include <algorithm>
#include <cmath>

#include "util/nice_weight.h"

namespace schedscope::sim {

double niceToWeight(int nice) { return schedscope::niceWeight(nice); }

namespace {
double calcDeltaFair(double delta, double weight) { return delta * 1024.0 / weight; }
bool eevdf(const SimState& s) { return s.feat.fairClass == FairClass::Eevdf; }
// A task of a group is queued here at its flattened weight (group_shares.h), so its vruntime
// runs faster than on its group's own runqueue by niceWeight / weight. The fair class's
// constants that are not scaled by the weight (CFS's sleeper credit, check_preempt_tick()'s
// ideal runtime against a vruntime gap) are in the group runqueue's vtime: this converts them.
// 1 for a task of the root group.
double groupVtimeScale(const Task& t) { return t.weight > 0 ? t.niceWeight / t.weight : 1.0; }
Task& taskAt(SimState& s, int id) { return s.tasks[static_cast<size_t>(id)]; }
const Task& taskAt(const SimState& s, int id) { return s.tasks[static_cast<size_t>(id)]; }

// sched_slice(): the task's share of the scheduling period (CFS). A task not queued yet (a
// fork being placed) counts itself in the period's task count and in the queue's weight, as
// "nr_running + !se->on_rq" and the load with se's weight added do; since 5.13 (BASE_SLICE) a
// slice is at least min_granularity.
double schedSlice(const SimState& s, const Cpu& rq, const Task& t, bool queued) {
    const int nr = rq.nrRunning() + (queued ? 0 : 1);
    const double period = nr > 8 ? nr * s.minGranNs : s.latencyNs;
    // (the weights of tasks in groups are fractions: an emptied queue's sum may keep a rounding
    // residue, which must not read as a runqueue of almost no weight; real weights are >= 2)
    const double load = (rq.loadWeight >= 1.0 ? rq.loadWeight : 0.0) + (queued ? 0.0 : t.weight);
    const double slice = load > 0 ? period * t.weight / load : period;
    return s.feat.cfsSliceFloor ? std::max(slice, s.minGranNs) : slice;
}
}  // namespace

double avgVruntime(const SimState& s, const Cpu& rq) {
    if (rq.curr < 0) return rq.avgVruntime.avg(0, 0, rq.minVruntime);
    const Task& c = taskAt(s, rq.curr);
    return rq.avgVruntime.avg(c.vruntime, static_cast<int64_t>(c.weight), rq.minVruntime);
}

namespace {
// avg_vruntime() read where no update_curr() came first: curr counts at the vruntime the
// runqueue last saw (Cpu::seenCurrVruntime)
double avgVruntimeAsSeen(const SimState& s, const Cpu& rq) {
    if (rq.curr < 0) return avgVruntime(s, rq);
    const Task& c = taskAt(s, rq.curr);
    return rq.avgVruntime.avg(rq.seenCurrVruntime, static_cast<int64_t>(c.weight), rq.minVruntime);
}

// update_entity_lag(): lag = avg - vruntime, clamped to max(2 slices, a tick) of vtime
double entityLag(const SimState& s, const Task& t, double avg) {
    const double limit = calcDeltaFair(std::max(2 * s.baseSliceNs, static_cast<double>(s.jiffyNs())), t.weight);
    return std::clamp(avg - t.vruntime, -limit, limit);
}

// place_entity() (6.6) against the average `avg`: keep the lag the task had when it left,
// relative to this queue's weighted average; a new task starts at the average with half a
// slice (PLACE_DEADLINE_INITIAL).
void placeEevdf(const SimState& s, const Cpu& rq, Task& t, Place how, double avg) {
    const double vslice = calcDeltaFair(s.baseSliceNs, t.weight);
    double lag = how == Place::Fork ? 0.0 : t.vlag;
    // PLACE_LAG: joining moves the average towards the task by w / (W + w), which would shrink
    // its lag by that much on every wakeup; the kernel inflates the lag by (W + w) / W first,
    // W the weight already there (queued and curr), so the lag it left with is the lag it has.
    const int64_t load = rq.avgVruntime.load() + (rq.curr >= 0 ? static_cast<int64_t>(taskAt(s, rq.curr).weight) : 0);
    if (lag != 0 && load > 0) lag = lag * static_cast<double>(load + static_cast<int64_t>(t.weight)) / static_cast<double>(load);
    t.vruntime = avg - lag;
    if (t.relDeadline) {  // PLACE_REL_DEADLINE: what was left of its slice goes with it
        t.deadline += t.vruntime;
        t.relDeadline = false;
        return;
    }
    t.deadline = t.vruntime + (how == Place::Fork ? vslice / 2 : vslice);
}
}  // namespace

void queueEntity(SimState& s, Cpu& rq, const Task& t) {
    const size_t id = static_cast<size_t>(t.id);
    if (s.entityNodes.size() <= id) s.entityNodes.resize(id + 1);
    rq.timeline.insert(s.entityNodes, t.id, eevdf(s) ? t.deadline : t.vruntime, t.vruntime, s.enqueueSeq++);
    s.entityNodes[id].slot = static_cast<int>(rq.queued.size());
    rq.queued.push_back(t.id);
    rq.avgVruntime.add(t.vruntime, static_cast<int64_t>(t.weight));
}

void unqueueEntity(SimState& s, Cpu& rq, const Task& t) {
    rq.timeline.erase(s.entityNodes, t.id);
    // the last queued task takes the leaver's slot: O(1), as list_del() is
    const int slot = s.entityNodes[static_cast<size_t>(t.id)].slot;
    const int last = rq.queued.back();
    rq.queued[static_cast<size_t>(slot)] = last;
    s.entityNodes[static_cast<size_t>(last)].slot = slot;
    rq.queued.pop_back();
    rq.avgVruntime.sub(t.vruntime, static_cast<int64_t>(t.weight));
}

uint64_t enqueueOrder(const SimState& s, int id) { return s.entityNodes[static_cast<size_t>(id)].seq; }

void updateMinVruntime(SimState& s, Cpu& rq) {
    double v = rq.minVruntime;
    bool have = false;
    double cand = 0;
    if (rq.curr >= 0) { cand = taskAt(s, rq.curr).vruntime; have = true; }
    const int leftmost = rq.timeline.leastVruntime(s.entityNodes);
    if (leftmost >= 0) {
        const double vr = taskAt(s, leftmost).vruntime;
        if (!have || vr < cand) { cand = vr; have = true; }
    }
    if (have) v = std::max(v, cand);
    rq.minVruntime = v;
}

void placeEntity(SimState& s, Cpu& rq, Task& t, Place how) {
    if (eevdf(s)) {
        placeEevdf(s, rq, t, how, avgVruntime(s, rq));
        return;
    }
    double vr = rq.minVruntime;
    if (how == Place::Fork) {
        t.vruntime = rq.minVruntime + forkVruntimeOffset(s, rq, t, nullptr);
    } else if (how == Place::Wakeup) {
        vr -= s.latencyNs / 2 * groupVtimeScale(t);  // GENTLE_FAIR_SLEEPERS
        t.vruntime = std::max(t.vruntime, vr);
    }
    // Migrated: the engine already renormalised vruntime to this queue's min_vruntime
}

double forkVruntimeOffset(const SimState& s, const Cpu& rq, const Task& child, const Task* parent) {
    const double debit = calcDeltaFair(schedSlice(s, rq, child, false), child.weight);  // START_DEBIT
    return std::max(parent ? parent->vruntime - rq.minVruntime : 0.0, debit);
}

void dequeueEntity(SimState& s, Cpu& rq, Task& t, bool sleep) {
    clearBuddies(rq, t.id);
    if (!eevdf(s)) return;
    t.vlag = entityLag(s, t, avgVruntime(s, rq));
    if (!sleep && s.feat.placeRelDeadline) {
        t.deadline -= t.vruntime;
        t.relDeadline = true;
    }
}

void dequeueRunnable(SimState& s, Cpu& rq, Task& t, bool sleep) {
    dequeueEntity(s, rq, t, sleep);
    if (rq.curr != t.id) unqueueEntity(s, rq, t);
}

void reweightEntity(SimState& s, Cpu& rq, Task& t, double weight) {
    const bool curr = rq.curr == t.id;
    if (!eevdf(s)) {
        if (!curr) unqueueEntity(s, rq, t);
        t.weight = weight;
        if (!curr) queueEntity(s, rq, t);
        return;
    }
    dequeueEntity(s, rq, t);  // update_entity_lag() against the queue with `t` in it
    double relDeadline = t.deadline - t.vruntime;
    if (!curr) unqueueEntity(s, rq, t);
    // vlag is V - v, the lag over the weight: it scales by old / new, as the deadline's distance
    const double ratio = t.weight / weight;
    double lag = t.vlag * ratio;
    relDeadline *= ratio;
    t.vlag = lag;
    t.weight = weight;
    // place_entity(se, 0) against the others: queued, and curr when `t` is not curr
    const Task* other = curr || rq.curr < 0 ? nullptr : &taskAt(s, rq.curr);
    const double avg = other ? rq.avgVruntime.avg(other->vruntime, static_cast<int64_t>(other->weight), rq.minVruntime)
                             : rq.avgVruntime.avg(0, 0, rq.minVruntime);
    const int64_t load = rq.avgVruntime.load() + (other ? static_cast<int64_t>(other->weight) : 0);
    if (load > 0) {
        if (lag != 0) lag = lag * static_cast<double>(load + static_cast<int64_t>(weight)) / static_cast<double>(load);
        t.vruntime = avg - lag;
    }
    t.deadline = t.vruntime + relDeadline;
    if (!curr) queueEntity(s, rq, t);
}

namespace {
// entity_eligible()'s test for any vruntime against this queue as it stands (curr included)
AvgVruntime::EligibleTest eligibleTest(const SimState& s, const Cpu& rq) {
    if (rq.curr < 0) return rq.avgVruntime.eligibleTest(0, 0);
    const Task& c = taskAt(s, rq.curr);
    return rq.avgVruntime.eligibleTest(c.vruntime, static_cast<int64_t>(c.weight));
}
}  // namespace

bool entityEligible(const SimState& s, const Cpu& rq, const Task& t) {
    if (!eevdf(s)) return true;
    return eligibleTest(s, rq)(t.vruntime);
}

void delayDequeue(SimState& s, Cpu& rq, Task& t) {
    queueEntity(s, rq, t);
    t.delayed = true;
    ++rq.nrDelayed;
}

void finishDelayedDequeue(SimState& s, Cpu& rq, Task& t) {
    dequeueEntity(s, rq, t);  // the lag while still queued, as the kernel's tree still holds it
    t.vlag = std::min(t.vlag, 0.0);
    unqueueEntity(s, rq, t);
    t.delayed = false;
    --rq.nrDelayed;
}

void detachDelayed(SimState& s, Cpu& rq, Task& t) {
    dequeueEntity(s, rq, t, false);
    unqueueEntity(s, rq, t);
    --rq.nrDelayed;
}

void requeueDelayedEntity(SimState& s, Cpu& rq, Task& t) {
    // enqueue_task_fair() takes ENQUEUE_DELAYED before any update_curr(): the lag, and the
    // place a task whose lag turned positive gets, count curr where the runqueue last saw it.
    // A waker running since its pick has its own runtime left out, so a wakee it drove past
    // keeps that vruntime and then, curr updated, usually preempts it (a pipe's ping-pong).
    clearBuddies(rq, t.id);
    t.vlag = entityLag(s, t, avgVruntimeAsSeen(s, rq));
    if (t.vlag > 0) {
        unqueueEntity(s, rq, t);
        t.vlag = 0;
        placeEevdf(s, rq, t, Place::Wakeup, avgVruntimeAsSeen(s, rq));
        queueEntity(s, rq, t);
    }
    t.delayed = false;
    --rq.nrDelayed;
}

int pickNextEntity(SimState& s, Cpu& rq) {
    if (rq.timeline.empty()) return -1;
    // pick_eevdf(): the eligible entity (vruntime <= weighted average) with the earliest
    // deadline, else the leftmost vruntime; CFS: the leftmost vruntime
    if (eevdf(s)) {
        const int best = rq.timeline.firstEligible(s.entityNodes, eligibleTest(s, rq));
        if (best >= 0) return best;
    }
    const int left = rq.timeline.leastVruntime(s.entityNodes);
    if (eevdf(s)) return left;
    // CFS: "someone really wants this to run; if it's not unfair, run it": the next buddy, else
    // the last, when its vruntime is within the wakeup granularity (in the leftmost's vtime) of
    // the leftmost's (wakeup_preempt_entity(buddy, left) < 1)
    const Task& l = taskAt(s, left);
    for (const int buddy : {rq.nextBuddy, rq.lastBuddy}) {
        if (buddy < 0) continue;
        const Task& b = taskAt(s, buddy);
        if (b.state != TaskState::Runnable || b.cpu != rq.id) continue;  // (not queued here: no buddy)
        if (b.vruntime - l.vruntime <= calcDeltaFair(s.wakeupGranNs, l.weight)) return buddy;
    }
    return left;
}

void setPreemptionBuddies(SimState& s, Cpu& rq, const Task& wakee) {
    if (eevdf(s) || rq.curr < 0) return;
    rq.nextBuddy = wakee.id;
    // "scale": cfs_rq->nr_running >= sched_nr_latency, the wakee and curr counted
    if (rq.nrRunning() >= 8) rq.lastBuddy = rq.curr;
}

void clearBuddies(Cpu& rq, int id) {
    if (rq.nextBuddy == id) rq.nextBuddy = -1;
    if (rq.lastBuddy == id) rq.lastBuddy = -1;
}

bool updateDeadline(SimState& s, Cpu& rq) {
    if (!eevdf(s) || rq.curr < 0) return false;
    Task& c = taskAt(s, rq.curr);
    if (c.vruntime < c.deadline) return false;
    c.deadline = c.vruntime + calcDeltaFair(s.baseSliceNs, c.weight);
    c.sliceProtected = false;  // RUN_TO_PARITY's stash no longer matches
    return !rq.queued.empty();  // "if (cfs_rq->nr_running > 1) resched_curr()"
}

bool checkPreemptTick(SimState& s, Cpu& rq) {
    if (eevdf(s)) return updateDeadline(s, rq);  // entity_tick() -> update_curr()
    if (rq.curr < 0 || rq.queued.empty()) return false;
    Task& c = taskAt(s, rq.curr);
    const double ideal = schedSlice(s, rq, c, true);
    const double ran = c.sumExec - c.prevSumExec;
    if (ran > ideal) {
        clearBuddies(rq, c.id);  // it had its share: no buddy brings it back before the others
        return true;
    }
    if (ran < s.minGranNs) return false;
    const double left = taskAt(s, rq.timeline.leastVruntime(s.entityNodes)).vruntime;
    return c.vruntime - left > ideal * groupVtimeScale(c);
}

namespace {

// RUN_TO_PARITY where check_preempt_wakeup_fair() judges the wakeup: find_matching_se() walks
// curr and the wakee up to the runqueue they share, and there curr is either itself (a task
// entity, protected while its slice as picked lasts) or the entity of its group below that
// runqueue. A group entity's protection lasts while its own slice does (counted from its pick:
// virtual time and deadline scale alike) and, before 7.0, only until its first reweight:
// reweight_entity() writes the entity's lag over it, and update_cfs_group() reweights it at
// each tick and each enqueue or dequeue below it that moves its shares (nearly every one when
// the group has load on other CPUs too). So a wakee of another group mostly finds curr's
// entity unprotected there. The flattened queue has no group entity to compare; the wakeup is
// judged between the tasks, with or without this protection.
bool currProtectedAgainst(const SimState& s, const Cpu& rq, const Task& c, const Task& wakee) {
    int entity = -1;  // curr's group entity on the shared runqueue, -1: curr's own
    for (int g = c.group; g >= 0 && !isGroupOrAncestorOf(s.groups, g, wakee.group); g = s.groups[static_cast<size_t>(g)].parent)
        entity = g;
    if (entity < 0) return true;
    const GroupOnCpu& here = s.groups[static_cast<size_t>(entity)].onCpu[static_cast<size_t>(rq.id)];
    if (here.pickedAt < 0 || static_cast<double>(s.now - here.pickedAt) >= s.baseSliceNs) return false;
    return s.feat.groupEntityKeepsProtection || here.reweightedStamp < here.pickedStamp;
}

}  // namespace

bool checkPreemptWakeup(SimState& s, Cpu& rq, const Task& wakee) {
    if (rq.curr < 0) return true;
    const Task& c = taskAt(s, rq.curr);
    if (eevdf(s)) {
        // check_preempt_wakeup_fair(): preempt when pick_eevdf() over curr and the queue now
        // picks the wakee: the eligible entity with the earliest deadline, curr only when its
        // deadline is strictly earlier than the queue's best ("entity_before(curr, best)")
        const AvgVruntime::EligibleTest eligible = eligibleTest(s, rq);
        if (!eligible(wakee.vruntime)) return false;
        const bool currEligible = eligible(c.vruntime);
        // RUN_TO_PARITY: an eligible curr that has not used the slice it was picked with runs on,
        // when its entity where the wakeup is judged keeps that protection
        if (s.feat.runToParity && currEligible && c.sliceProtected && currProtectedAgainst(s, rq, c, wakee)) return false;
        // another eligible entity with an earlier deadline is picked first: the first eligible
        // one in deadline order is then not the wakee (which is queued) and is earlier
        const int best = rq.timeline.firstEligible(s.entityNodes, eligible);
        if (best >= 0 && best != wakee.id && taskAt(s, best).deadline < wakee.deadline) return false;
        return !currEligible || !(c.deadline < wakee.deadline);
    }
    // wakeup_preempt_entity(): vdiff beyond the wakeup granularity in the wakee's vtime
    const double vdiff = c.vruntime - wakee.vruntime;
    return vdiff > calcDeltaFair(s.wakeupGranNs, wakee.weight);
}

}  // namespace schedscope::sim
