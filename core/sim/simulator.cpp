#include "sim/simulator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>

#include "sim/contention_tracker.h"
#include "sim/cpu_capacity.h"
#include "sim/event_queue.h"
#include "sim/fair_rq.h"
#include "sim/group_runqueues.h"
#include "sim/load_balance.h"
#include "sim/numa_balancing.h"
#include "sim/select_task_rq.h"
#include "sim/util_est.h"

namespace schedscope::sim {
namespace {

using workload::OpKind;

// A script's ops that take no time (wakes, posts, loops) run in one event until it loops back
// this many times; a script that gets no further (no burst, block or exit) loops for ever at
// one instant. Only endless loops count: a script without them ends, however many ops it has,
// and so does a counted loop (pbzip2's reader posts 2N buffers in one, 200000 for 100000
// threads), whose back-jumps have a bound of their own only against a count of 10^18.
constexpr int kLoopsPerEvent = 100000;
constexpr long long kCountedLoopsPerEvent = 1LL << 26;

// A neighbour's task whose speed changed by less than this share keeps its speed and burst end.
// On a large node every switch of a task with memory traffic moves the node's stretch, and
// re-timing its hundred other users for changes of a few parts in a million took two thirds of
// a run (hackbench on a 128-CPU EPYC 7763 node: 7,056 -> 4,463 instructions per event). The
// contention model's own figures are good to a few percent; a task's speed stays within this
// share of what the model gives for the placement (staleSpeeds() checks it), and a switch of
// its own always gives it the exact speed.
constexpr double kRetimeTolerance = 1e-4;
bool sameSpeed(double fresh, double kept) { return std::abs(fresh - kept) <= kRetimeTolerance * kept; }

struct Barrier {
    int arrived = 0;
    std::vector<int> waiters;
};

// A work queue of Post and Take ops: items posted and not yet taken, and the takers blocked
// on it, longest waiting first.
struct WorkQueue {
    long long items = 0;
    std::deque<int> takers;
    int lastPostCpu = -1;  // where the newest kept item was posted: a taker reads it from there
};

class Engine final : public SchedOps {
public:
    explicit Engine(SimState& s) : s_(s), events_(s.cpus.size()), contention_(s) {
        const size_t n = s.cpus.size();
        mark_.assign(n, 0);
        affected_.reserve(n);
        switched_.assign(n, 0);
        inSchedule_.assign(n, 0);
        reschedOf_.assign(n, -1);
        lastStop_.assign(n, LastStop{});
        preemptingWakee_.assign(n, {});
        inScript_.assign(n, 0);
        exitingIdle_.assign(n, 0);
        remoteResched_.assign(n, {});
        needResched_.assign(n, 0);
        nrCache_.assign(n, 0);
        queuedCache_.assign(n, 0);
        levelCache_.assign(n <= 2048 ? n * n : 0, -1);
        if (s.topo->nodes.size() > 1) memoryFollowsNs_ = std::llround(std::max(0.0, s.opt.numaMemoryFollowsS) * 1e9);
        if (s.tasks.size() * n <= kDenseCpuTimeEntries) cpuTimeNs_.assign(s.tasks.size() * n, 0);
        scriptStart_.reserve(s.tasks.size() + 1);
        size_t ops = 0;
        for (const auto& t : s.tasks) ops += t.spec->script.size();
        hotOps_.reserve(ops);
        for (const auto& t : s.tasks) {
            scriptStart_.push_back(hotOps_.size());
            for (const auto& op : t.spec->script) hotOps_.push_back({op.kind, op.to, op.amountNs, op.jitter, op.count});
        }
        scriptStart_.push_back(hotOps_.size());
        for (size_t l = 0; l < spread_.size(); ++l) spread_[l].busy.assign(l == 3 ? s.topo->nodes.size() + 1 : n, 0);
        running_.assign(n, -1);
        workloadIdle_ = 0;
        s.workloadCpus.forEach([&](int) { ++workloadIdle_; });
        for (const TaskGroupState& g : s.groups) bandwidthOn_ = bandwidthOn_ || g.bandwidth.limited();
        if (bandwidthOn_) {
            limitedChain_.resize(s.tasks.size());
            for (const Task& t : s.tasks)
                for (int g = t.group; g >= 0; g = s.groups[static_cast<size_t>(g)].parent)
                    if (s.groups[static_cast<size_t>(g)].bandwidth.limited()) limitedChain_[static_cast<size_t>(t.id)].push_back(g);
            exhausted_.resize(n);
            frozen_.resize(n);
        }
    }

    // false when opt.progress stopped it
    bool run(int64_t endNs) {
        start(endNs);
        const auto& progress = s_.opt.progress;
        const double end = static_cast<double>(std::max<int64_t>(1, endNs));
        for (uint64_t n = 1; step(); ++n)
            if ((n & 0xFFFF) == 0 && progress && !progress(std::min(1.0, static_cast<double>(s_.now) / end))) return false;
        finish();
        return true;
    }

    void start(int64_t endNs) {
        push(0, Ev::Sample, 0);
        push(endNs, Ev::End, 0);
        // the shell execs the tasks that start at the beginning, one after another, from the
        // first CPU of their affinity that has domains to place them over (the shell runs on a
        // housekeeping CPU; an isolated one would keep every task it starts)
        for (auto& t : s_.tasks) {
            if (!t.spec->startAtBegin) continue;
            if (const int c = t.spec->startCpu; c >= 0 && t.allowed.test(c)) {
                startOn(t.id, c);
                continue;
            }
            const CpuSet housekeeping = t.allowed.minus(s_.tree->isolated);
            startTask(t.id, housekeeping.empty() ? t.allowed.first() : housekeeping.first(), WF_EXEC, MigrationCause::Exec);
        }
        endEvent();
    }

    // Handles the next live event; false once the run is over (end time, or every task exited).
    bool step() {
        Event e{};
        if (!events_.pop(e)) return false;
        s_.now = e.t;
        if (e.type == Ev::End) return false;
        // A script that loops through ops taking no time (zero-length runs or sleeps) would
        // spin at one instant for ever: that many events without the clock moving ends the run.
        if (e.t != lastStepTime_) {
            lastStepTime_ = e.t;
            stepsAtThisTime_ = 0;
        } else if (++stepsAtThisTime_ > s_.opt.stuckEvents) {
            stuck_ = true;
            return false;
        }
        ++s_.metrics.events;
        handle(e);
        endEvent();
        return !stuck_ && exited_ != static_cast<int>(s_.tasks.size());
    }

    void finish() {
        for (size_t c = 0; c < s_.cpus.size(); ++c) {
            account(static_cast<int>(c), false);
            Cpu& r = s_.cpus[c];
            if (r.busySince >= 0) { r.busyTotal += s_.now - r.busySince; r.busySince = s_.now; }
        }
        for (Task& t : s_.tasks) endStint(t);
        for (size_t l = 0; l < spread_.size(); ++l) closeSpread(l);
        settleCpuTimes();
        Metrics& m = s_.metrics;
        for (const Task& t : s_.tasks) {
            if ((t.state != TaskState::Runnable && t.state != TaskState::Throttled) || t.enqueuedAt < 0) continue;
            m.waitLatency.add(s_.now - t.enqueuedAt);
            ++m.openWaits;
        }
        for (TaskGroupState& g : s_.groups)
            for (const int cpu : g.bandwidth.throttledCpus) g.bandwidth.throttledNs += s_.now - g.onCpu[static_cast<size_t>(cpu)].throttledAt;
        noteStall(m);
        if (m.imbalanced) m.idleWhileOverloadedNs += s_.now - m.lastImbalanceCheck;
        m.lastImbalanceCheck = s_.now;
        for (size_t i = 0; i < levelMigrations_.size(); ++i)
            if (levelMigrations_[i]) m.migrationsByLevel[levelNames_[i]] += levelMigrations_[i];
    }

    // Metrics::stalledAtNs and stalledTasks, at the end of the run
    void noteStall(Metrics& m) const {
        int64_t at = 0;
        std::vector<int> blocked;
        for (const Task& t : s_.tasks) {
            switch (t.state) {
            case TaskState::Blocked:
                blocked.push_back(t.id);
                at = std::max(at, t.lastRan);
                break;
            case TaskState::Exited: at = std::max(at, t.exitedAt); break;
            case TaskState::NotStarted: break;  // only a live task's Fork could start it
            default: return;                    // running, runnable or asleep: not stalled
            }
        }
        if (blocked.empty()) return;
        m.stalledAtNs = at;
        m.stalledTasks = std::move(blocked);
    }

    // the run ended because simulated time stopped (see step())
    bool stuck() const { return stuck_; }
    // the task whose script looped at one instant, -1 when it was the events (stuckEvents)
    int stuckTask() const { return stuckTask_; }

    int staleSpeeds() {
        contention_.refreshStretches();
        int n = 0;
        for (size_t c = 0; c < s_.cpus.size(); ++c) {
            const int id = s_.cpus[c].curr;
            if (id >= 0 && !sameSpeed(taskSlowness(static_cast<int>(c)), task(id).slowness)) ++n;
        }
        return n;
    }

    // SchedOps
    void migrateTask(int id, int dst, MigrationCause cause) override {
        Task& t = task(id);
        const int src = t.cpu;
        if (src == dst) return;
        if (t.delayed) {
            migrateDelayed(t, dst, cause);
            return;
        }
        Cpu& srq = rq(src);
        const bool wasRunning = t.state == TaskState::Running;
        if (wasRunning) {
            account(src);
            t.lastRan = s_.now;
        }
        dequeueRunnable(s_, srq, t, false);  // deactivate_task(): not a sleep
        utilEstDequeue(s_, t);
        if (wasRunning) setCurr(src, -1);
        srq.loadWeight -= t.weight;
        updateCpuPelt(src);
        moveTask(t, src, dst, cause);  // (its vruntime taken relative to src's min_vruntime first)
        minVruntimeAfterDequeue(src);
        if (t.group >= 0) leaveGroup(t, src);
        syncCpu(src);
        activate(t, dst, Place::Migrated, !wasRunning);
        if (wasRunning && !inSchedule_[static_cast<size_t>(src)]) schedule(src);
    }

    // detach_task() + attach_task() of a delayed-dequeue task (a migrate_load balance may take
    // one, 6.12+): it stays asleep and delayed, its load moves with it, and where it lands a
    // pick finishes its dequeue or a wakeup requeues it there (ttwu_runnable(): no
    // select_task_rq_fair()). A delayed wakee preempts nothing (check_preempt_wakeup_fair()
    // returns for sched_delayed), but an idle destination reschedules.
    void migrateDelayed(Task& t, int dst, MigrationCause cause) {
        const int src = t.cpu;
        Cpu& srq = rq(src);
        detachDelayed(s_, srq, t);
        srq.loadWeight -= t.weight;
        updateCpuPelt(src);
        moveTask(t, src, dst, cause);
        ++s_.metrics.delayedMigrations;
        minVruntimeAfterDequeue(src);
        if (t.group >= 0) leaveGroup(t, src);
        syncCpu(src);
        Cpu& drq = rq(dst);
        const bool sliceUsed = updateCurrNow(dst);
        if (t.group >= 0) joinGroup(t, dst);
        joinQueue(t, dst, Place::Migrated, true);
        const size_t d = static_cast<size_t>(dst);
        if (inSchedule_[d] || (drq.curr >= 0 && !sliceUsed)) return;
        if (drq.curr < 0) schedule(dst);
        else if (inScript_[d]) needResched_[d] = 1;
        else preempt(dst);
    }

    void requestActiveBalance(int srcCpu, int dstCpu) override {
        (void)dstCpu;
        ++s_.metrics.activeBalances;
        push(s_.now + 5000, Ev::ActiveBalance, srcCpu);  // the stopper runs a few us later
    }

private:
    SimState& s_;
    EventQueue events_;
    std::vector<char> mark_, inSchedule_, needResched_;
    std::vector<int> reschedOf_;  // per CPU, during preempt()'s schedule(): the task it interrupted
    // per CPU: the group of the task that last stopped running there, and when (-1: none yet)
    struct LastStop {
        int group = -1;
        int64_t at = -1;
    };
    std::vector<LastStop> lastStop_;
    // per CPU: the wakee whose wakeup asked to preempt the running task, until the next pick
    struct PreemptingWakee {
        int task = -1;
        bool remote = false;  // woken by a task running on another CPU
    };
    std::vector<PreemptingWakee> preemptingWakee_;
    std::vector<char> exitingIdle_;  // per CPU: an Ev::IdleExit is pending (wakeFromIdle())
    // per CPU: a remote resched on its way (SimOptions::remoteReschedNs): the task it is for (-1:
    // none) and when its Ev::ReschedIpi is due
    struct RemoteResched {
        int task = -1;
        int64_t due = 0;
    };
    std::vector<RemoteResched> remoteResched_;
    // CPUs whose running task may need a new speed when this event is over (retimeAffected()):
    // the CPUs next to every switch of the event, listed once (mark_). switched_: the CPU's own
    // task changed or started a burst, so its burst end is set anew whatever its speed.
    std::vector<int> affected_;
    std::vector<char> switched_;
    ContentionTracker contention_;  // what the running tasks demand of the shared resources
    std::vector<int> nrCache_, queuedCache_;  // per CPU: nrRunning() and nrQueued() as syncCpu() last saw them
    std::vector<int16_t> levelCache_;
    std::vector<std::string> levelNames_;
    std::vector<long long> levelMigrations_;  // by index into levelNames_, added to the metrics at the end
    // The op fields runScript() reads for every burst and sleep, for all tasks in one array
    // (task i's ops from scriptStart_[i]): perf showed the load of a 104-byte Op from the
    // task's own script vector missing the cache on a third of runScript()'s samples.
    struct HotOp {
        OpKind kind = OpKind::Run;
        int to = 0;                          // Loop
        double amountNs = 0, jitter = 0;     // Run, Sleep
        long long count = -1;                // Loop
    };
    std::vector<HotOp> hotOps_;
    std::vector<size_t> scriptStart_;
    // Each task's CPU time per CPU while the run lasts (task-major), when tasks x CPUs is at
    // most kDenseCpuTimeEntries; else empty and the time goes straight into Task::cpuTime. A
    // task that changed CPU added its time there on every change, a binary search and often an
    // insert into a list whose first touch missed the cache: 3.4% of the standard bench run's
    // time in perf. Here it is one add where the task's row is.
    static constexpr size_t kDenseCpuTimeEntries = size_t{1} << 20;  // 8 MB
    std::vector<int64_t> cpuTimeNs_;
    // Metrics::busyUnitNs as the run goes: per level (core, cluster, LLC, node), each unit's
    // CPUs running a task, the units with any, and since when that number holds
    struct SpreadLevel {
        std::vector<int> busy;
        int units = 0;
        int64_t since = 0;
    };
    std::array<SpreadLevel, 4> spread_;
    // a core's (CpuInfo::core) CPUs running a task: the spread's core level counts them
    int coreBusy(int core) const { return spread_[0].busy[static_cast<size_t>(core)]; }
    // rq(cpu).curr, packed: the re-timing reads it for every CPU next to a switch (a whole node
    // when its memory demand changes), and a Cpu is several cache lines
    std::vector<int> running_;
    int64_t memoryFollowsNs_ = 0;  // SimOptions::numaMemoryFollowsS; 0 on a machine of one node
    std::map<int, Barrier> barriers_;
    std::map<int, WorkQueue> queues_;
    int exited_ = 0;
    int workloadIdle_ = 0, overloaded_ = 0;
    // per CPU: its running task's script is executing (runScript()). A script's Fork or Wake
    // can run another CPU's script at the same instant, whose own Wake can land back here: a
    // preemption then waits for this script to be done with the CPU (needResched_), or the
    // script's next Wait would block the wakee instead of its own task.
    std::vector<char> inScript_;
    // CFS bandwidth control (cfs_bandwidth.h), when a group has a quota: per task, the groups
    // with a quota on its way up (its own first); per CPU, the groups whose allowance ran out
    // there with nothing left in the pool (resched_curr(): throttled at its next schedule()),
    // and the tasks its throttled groups hold; freezing_ while a throttle takes them off
    bool bandwidthOn_ = false;
    std::vector<std::vector<int>> limitedChain_;
    std::vector<std::vector<int>> exhausted_;
    std::vector<std::vector<int>> frozen_;
    bool freezing_ = false;
    int64_t lastStepTime_ = -1;
    uint64_t stepsAtThisTime_ = 0;
    bool stuck_ = false;
    int stuckTask_ = -1;

    Task& task(int id) { return s_.tasks[static_cast<size_t>(id)]; }
    Cpu& rq(int cpu) { return s_.cpus[static_cast<size_t>(cpu)]; }
    const CpuInfo& info(int cpu) const { return s_.info[static_cast<size_t>(cpu)]; }

    void push(int64_t t, Ev type, int a) { events_.push(t, type, a); }

    double uniform() { return static_cast<double>(s_.rng() >> 11) * 0x1.0p-53; }
    double jittered(double amount, double jitter) {
        if (jitter <= 0) return amount;
        return std::max(1.0, amount * (1.0 + jitter * (2.0 * uniform() - 1.0)));
    }

    // ---- metrics helpers
    int levelIndex(int a, int b) {
        const size_t n = s_.cpus.size();
        int16_t* slot = levelCache_.empty() ? nullptr : &levelCache_[static_cast<size_t>(a) * n + static_cast<size_t>(b)];
        if (slot && *slot >= 0) return *slot;
        std::string name = s_.tree->lowestCommonLevel(a, b);
        if (name.empty()) name = "none";
        auto it = std::find(levelNames_.begin(), levelNames_.end(), name);
        int idx = static_cast<int>(it - levelNames_.begin());
        if (it == levelNames_.end()) levelNames_.push_back(name);
        if (slot) *slot = static_cast<int16_t>(idx);
        return idx;
    }
    void countMigration(int a, int b, MigrationCause cause) {
        const size_t idx = static_cast<size_t>(levelIndex(a, b));
        if (idx >= levelMigrations_.size()) levelMigrations_.resize(idx + 1, 0);
        levelMigrations_[idx]++;
        s_.metrics.migrationsByCause[static_cast<size_t>(cause)]++;
    }

    // time with an idle CPU (that the workload may use) while another CPU has >= 2 runnable
    // and the root domain's overload (rq->nr_running >= 2, delayed-dequeue tasks included)
    void syncCpu(int cpu) {
        s_.cpuChanged(cpu);
        const Cpu& r = rq(cpu);
        if (const int queued = r.nrQueued(); queued != queuedCache_[static_cast<size_t>(cpu)]) {
            int& oldQueued = queuedCache_[static_cast<size_t>(cpu)];
            const size_t rd = static_cast<size_t>(s_.rootDomainOf[static_cast<size_t>(cpu)]);
            s_.rdOverloadedCpus[rd] += (queued >= 2) - (oldQueued >= 2);
            if (queued >= 2 && oldQueued < 2) s_.rdOverloadFlag[rd] = 1;  // add_nr_running()
            oldQueued = queued;
        }
        const int nr = r.nrRunning();
        int& old = nrCache_[static_cast<size_t>(cpu)];
        if (nr == old) return;
        Metrics& m = s_.metrics;
        if (m.imbalanced) m.idleWhileOverloadedNs += s_.now - m.lastImbalanceCheck;
        m.lastImbalanceCheck = s_.now;
        const bool wl = s_.workloadCpus.test(cpu);
        if (wl && old == 0) --workloadIdle_;
        if (wl && nr == 0) ++workloadIdle_;
        overloaded_ += (nr >= 2) - (old >= 2);
        old = nr;
        m.imbalanced = workloadIdle_ > 0 && overloaded_ > 0;
    }

    // ---- PELT
    void updateTaskPelt(Task& t) {
        const bool running = t.state == TaskState::Running;
        const bool runnable = running || t.state == TaskState::Runnable;
        // a delayed-dequeue task is still on_rq: its load stays, it is not runnable (6.13+)
        // util is capacity invariant: running on a CPU of capacity C adds at most C (a task that
        // never sleeps on a little CPU reads as that CPU's size, and so as a misfit there)
        setTogether(s_.now, t.util, running ? s_.capacityOf(t.cpu) : 0.0, t.runnable, runnable ? 1024.0 : 0.0, t.load,
                    runnable || t.delayed ? t.weight : 0.0);
        if (t.group >= 0) t.groupLoad.set(s_.now, runnable || t.delayed ? t.niceWeight : 0.0);
    }
    void updateCpuPelt(int cpu) {
        Cpu& r = rq(cpu);
        setTogether(s_.now, r.util, r.curr >= 0 ? s_.capacityOf(cpu) : 0.0, r.runnable, 1024.0 * r.nrRunning(), r.load,
                    r.loadWeight);
        s_.cpuChanged(cpu);
    }
    // detach_entity_load_avg() / attach_entity_load_avg()
    void moveTask(Task& t, int src, int dst, MigrationCause cause) {
        Cpu& a = rq(src);
        Cpu& b = rq(dst);
        for (Pelt* p : {&a.util, &a.runnable, &a.load, &b.util, &b.runnable, &b.load}) p->update(s_.now);
        for (Pelt* p : {&t.util, &t.runnable, &t.load}) p->update(s_.now);
        a.util.value = std::max(0.0, a.util.value - t.util.value);
        a.runnable.value = std::max(0.0, a.runnable.value - t.runnable.value);
        a.load.value = std::max(0.0, a.load.value - t.load.value);
        b.util.value = std::min(1024.0, b.util.value + t.util.value);
        b.runnable.value += t.runnable.value;
        b.load.value += t.load.value;
        s_.cpuChanged(src);
        s_.cpuChanged(dst);
        if (info(src).node != info(dst).node) t.onNodeSince = s_.now;
        if (s_.feat.fairClass == FairClass::Cfs) t.vruntime = t.vruntime - a.minVruntime + b.minVruntime;
        t.cpu = dst;
        attachToGroupCpu(t, dst);
        t.migrations++;
        countMigration(src, dst, cause);
    }

    // ---- task groups (group_shares.h)
    // `t` joins its group's runqueue on `cpu` (enqueue_entity() -> update_cfs_group() up the
    // hierarchy): the group entities on its way up weigh anew, and `t` (not queued yet) takes
    // its share of them
    void joinGroup(Task& t, int cpu) {
        GroupOnCpu& here = s_.groups[static_cast<size_t>(t.group)].onCpu[static_cast<size_t>(cpu)];
        here.queuedWeight += t.niceWeight;
        updateGroupChain(t.group, cpu, t.id);
        setTaskWeight(t, cpu, flattenedWeight(t.niceWeight, s_.groups, t.group, cpu), false);
    }
    // `t` left its group's runqueue on `cpu` (dequeued, or moved away: no longer counted there)
    void leaveGroup(const Task& t, int cpu) {
        GroupOnCpu& here = s_.groups[static_cast<size_t>(t.group)].onCpu[static_cast<size_t>(cpu)];
        here.queuedWeight = std::max(0.0, here.queuedWeight - t.niceWeight);
        updateGroupChain(t.group, cpu, -1);
        if (bandwidthOn_ && !freezing_) returnSlackOf(t, cpu);
    }
    // update_tg_load_avg() and update_cfs_group() for group `g` and its ancestors on `cpu`: each
    // one's load there and in all and its entity's weight there, which its parent's runqueue
    // holds while the group has queued weight; then the weights of every task queued there
    // under the same top group (but `joining`, which the caller weighs)
    void updateGroupChain(int g, int cpu, int joining) {
        for (int k = g; k >= 0; k = s_.groups[static_cast<size_t>(k)].parent) {
            TaskGroupState& grp = s_.groups[static_cast<size_t>(k)];
            GroupOnCpu& here = grp.onCpu[static_cast<size_t>(cpu)];
            const double cfsLoad = refreshGroupLoad(grp, cpu, s_.tasks, s_.now);
            const double shares = calcGroupShares(grp, cpu, cfsLoad);
            if (shares != here.shares) here.reweightedStamp = ++s_.groupEntityClock;  // (only a change reweighs, since 6.7)
            here.shares = shares;
            if (grp.parent < 0) continue;
            GroupOnCpu& up = s_.groups[static_cast<size_t>(grp.parent)].onCpu[static_cast<size_t>(cpu)];
            const double inParent = here.queuedWeight > 0 ? here.shares : 0.0;
            up.queuedWeight = std::max(0.0, up.queuedWeight + inParent - here.inParent);
            here.inParent = inParent;
        }
        const TaskGroupState& top = s_.groups[static_cast<size_t>(s_.groups[static_cast<size_t>(g)].top)];
        for (int h : top.family) {
            const TaskGroupState& member = s_.groups[static_cast<size_t>(h)];
            if (member.onCpu.empty()) continue;  // no task in it or below it
            for (int m : member.onCpu[static_cast<size_t>(cpu)].attached) {
                Task& t = task(m);
                if (m == joining) continue;
                if (t.state != TaskState::Running && t.state != TaskState::Runnable && !t.delayed) continue;
                const double w = flattenedWeight(t.niceWeight, s_.groups, t.group, cpu);
                if (w != t.weight) setTaskWeight(t, cpu, w, true);
            }
        }
    }
    // pick_next_task_fair() with task groups: set_next_entity() for each group entity on the
    // next task's way up that the previous task's does not share; after an idle CPU (another
    // class), for all of them. A switch picks within the instant its previous task stopped.
    void noteGroupEntityPicks(int cpu, int group) {
        const LastStop& prev = lastStop_[static_cast<size_t>(cpu)];
        const bool fromFair = prev.at == s_.now;
        for (int g = group; g >= 0; g = s_.groups[static_cast<size_t>(g)].parent) {
            if (fromFair && isGroupOrAncestorOf(s_.groups, g, prev.group)) break;
            GroupOnCpu& entity = s_.groups[static_cast<size_t>(g)].onCpu[static_cast<size_t>(cpu)];
            entity.pickedAt = s_.now;
            entity.pickedStamp = ++s_.groupEntityClock;
        }
    }
    // (group_runqueues.h) where `t`'s load is counted in its group: `cpu`, or none (-1)
    void attachToGroupCpu(Task& t, int cpu) {
        if (t.group >= 0) sim::attachToGroupCpu(s_.groups[static_cast<size_t>(t.group)], t, cpu, s_.tasks, s_.now);
    }
    // reweight_entity(): `t`'s weight on `cpu`, where it is queued (or curr) when `queued`; its
    // load average scales with it (load_avg is the weight times load_sum over the divider) and
    // the runqueue's follows, as the kernel dequeues and enqueues the average around the change
    void setTaskWeight(Task& t, int cpu, double weight, bool queued) {
        Cpu& r = rq(cpu);
        const double old = t.weight;
        if (queued) {
            if (r.curr == t.id) account(cpu);  // update_curr(): its vruntime so far at the old weight
            reweightEntity(s_, r, t, weight);
            r.loadWeight += weight - old;
        } else {
            t.weight = weight;
        }
        t.load.update(s_.now);
        r.load.update(s_.now);
        const double before = t.load.value;
        t.load.value *= weight / old;
        r.load.value = std::max(0.0, r.load.value + t.load.value - before);
        if (queued) {
            updateTaskPelt(t);
            updateCpuPelt(cpu);
        } else {
            s_.cpuChanged(cpu);
        }
    }

    // ---- CFS bandwidth control (cfs_bandwidth.h)
    // account_cfs_rq_runtime() for each group with a quota above `t` on `cpu`: its allowance
    // there pays for `dt`; one that runs out takes a slice from the pool, or the CPU is to
    // reschedule and throttle it (exhausted_)
    [[gnu::noinline]] void chargeRuntime(const Task& t, int cpu, int64_t dt) {
        for (const int g : limitedChain_[static_cast<size_t>(t.id)]) {
            TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
            GroupOnCpu& on = grp.onCpu[static_cast<size_t>(cpu)];
            on.runtimeRemaining -= dt;
            if (on.runtimeRemaining > 0 || on.throttled) continue;
            if (!topUpRuntime(grp.bandwidth, on.runtimeRemaining, s_.now)) {
                std::vector<int>& out = exhausted_[static_cast<size_t>(cpu)];
                if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
            }
        }
    }
    bool exhaustedOn(int cpu) const { return bandwidthOn_ && !exhausted_[static_cast<size_t>(cpu)].empty(); }
    // a group whose runqueue here holds queued or running weight (its tasks', its children's)
    static bool activeHere(const GroupOnCpu& on) { return on.queuedWeight >= 1.0; }

    // check_cfs_rq_runtime() as the previous task is put back (put_prev_entity()): a group
    // that ran out here and still finds the pool empty is throttled
    void throttleExhausted(int cpu) {
        std::vector<int> groups;
        groups.swap(exhausted_[static_cast<size_t>(cpu)]);
        for (const int g : groups) {
            TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
            GroupOnCpu& on = grp.onCpu[static_cast<size_t>(cpu)];
            if (on.throttled || on.runtimeRemaining > 0 || topUpRuntime(grp.bandwidth, on.runtimeRemaining, s_.now)) continue;
            throttle(g, cpu);
        }
    }

    // throttle_cfs_rq(): group `g` stops on `cpu` until a period or the slack timer unthrottles
    // it; its tasks and its child groups' queued there come off the runqueue
    void throttle(int g, int cpu) {
        TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
        GroupOnCpu& on = grp.onCpu[static_cast<size_t>(cpu)];
        on.throttled = true;
        on.throttledAt = s_.now;
        CfsBandwidth& b = grp.bandwidth;
        b.throttledCpus.push_back(cpu);
        if (const int64_t period = s_.now / b.periodNs; b.lastThrottledPeriod != period) {
            b.lastThrottledPeriod = period;
            ++b.nrThrottled;
        }
        if (!b.periodTimerArmed) {
            b.periodTimerArmed = true;
            push(nextPeriodBoundary(b, s_.now), Ev::BandwidthPeriod, g);
        }
        freezing_ = true;
        for (const int h : grp.subtree) {
            const TaskGroupState& member = s_.groups[static_cast<size_t>(h)];
            if (member.onCpu.empty()) continue;  // no task in it or below it
            const std::vector<int> attached = member.onCpu[static_cast<size_t>(cpu)].attached;
            for (const int id : attached) freeze(task(id), cpu);
        }
        freezing_ = false;
        syncCpu(cpu);
    }
    // a task of a group throttled on `cpu` leaves the runqueue there (a delayed one, only
    // still queued, is dequeued for good); its averages stand still until it is back, as the
    // throttled runqueue's PELT clock does
    void freeze(Task& t, int cpu) {
        if (t.cpu != cpu) return;
        Cpu& r = rq(cpu);
        if (t.delayed) {
            finishDelayedDequeue(s_, r, t);
            r.loadWeight -= t.weight;
            leaveGroup(t, cpu);
            updateTaskPelt(t);
            updateCpuPelt(cpu);
            return;
        }
        const bool running = t.state == TaskState::Running;
        if (!running && t.state != TaskState::Runnable) return;
        if (running) {
            account(cpu);
            t.lastRan = s_.now;
        }
        dequeueRunnable(s_, r, t, true);
        if (running) setCurr(cpu, -1);
        updateTaskPelt(t);
        r.loadWeight -= t.weight;
        minVruntimeAfterDequeue(cpu);
        t.state = TaskState::Throttled;
        if (t.enqueuedAt < 0) t.enqueuedAt = s_.now;  // runnable and not running: it waits
        leaveGroup(t, cpu);
        frozen_[static_cast<size_t>(cpu)].push_back(t.id);
        updateCpuPelt(cpu);
    }

    // check_enqueue_throttle() as `t` is enqueued on `cpu`: a group above it that is throttled
    // there, or that starts anew there (nothing of it queued) without allowance and with an
    // empty pool, holds it. True: `t` is held (Throttled, its load attached on `cpu`).
    bool enqueueThrottled(Task& t, int cpu) {
        bool hold = false;
        for (const int g : limitedChain_[static_cast<size_t>(t.id)]) {
            TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
            GroupOnCpu& on = grp.onCpu[static_cast<size_t>(cpu)];
            if (on.throttled) {
                hold = true;
                break;
            }
            if (activeHere(on) || on.runtimeRemaining > 0 || topUpRuntime(grp.bandwidth, on.runtimeRemaining, s_.now)) continue;
            t.state = TaskState::Throttled;  // not queued yet: the throttle must not take it off
            throttle(g, cpu);
            hold = true;
            break;
        }
        if (!hold) return false;
        t.state = TaskState::Runnable;
        updateTaskPelt(t);  // runnable from now, frozen at that
        t.state = TaskState::Throttled;
        attachToGroupCpu(t, cpu);
        frozen_[static_cast<size_t>(cpu)].push_back(t.id);
        return true;
    }

    // unthrottle_cfs_rq(): group `g` runs on `cpu` again; the tasks no other throttled group
    // holds there are queued as woken, and an idle CPU picks (a busy one is not preempted)
    void unthrottle(int g, int cpu) {
        TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
        GroupOnCpu& on = grp.onCpu[static_cast<size_t>(cpu)];
        on.throttled = false;
        grp.bandwidth.throttledNs += s_.now - on.throttledAt;
        std::vector<int>& frozen = frozen_[static_cast<size_t>(cpu)];
        std::vector<int> thawed;
        const auto held = std::stable_partition(frozen.begin(), frozen.end(),
                                                [&](int id) { return groupThrottledOn(s_.groups, task(id).group, cpu); });
        thawed.assign(held, frozen.end());
        frozen.erase(held, frozen.end());
        for (const int id : thawed) thaw(task(id), cpu);
        if (!thawed.empty() && rq(cpu).curr < 0 && !inSchedule_[static_cast<size_t>(cpu)] && !inScript_[static_cast<size_t>(cpu)])
            schedule(cpu);
    }
    void thaw(Task& t, int cpu) {
        updateCurrNow(cpu);  // enqueue_entity() -> update_curr(): curr up to now before `t` is placed
        for (Pelt* p : {&t.util, &t.runnable, &t.load, &t.groupLoad}) p->stamp = s_.now;
        t.state = TaskState::Runnable;
        if (t.group >= 0) joinGroup(t, cpu);
        joinQueue(t, cpu, Place::Wakeup, false);
    }

    // return_cfs_rq_runtime(): a group above `t` with nothing left queued on `cpu` gives back
    // all but 1 ms of its allowance there; the slack timer hands it on 5 ms later
    void returnSlackOf(const Task& t, int cpu) {
        for (const int g : limitedChain_[static_cast<size_t>(t.id)]) {
            TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
            GroupOnCpu& on = grp.onCpu[static_cast<size_t>(cpu)];
            if (activeHere(on) || on.throttled) continue;
            if (returnSlack(grp.bandwidth, on.runtimeRemaining, s_.now)) {
                grp.bandwidth.slackTimerArmed = true;
                push(s_.now + kBandwidthSlackPeriodNs, Ev::BandwidthSlack, g);
            }
        }
    }

    // do_sched_cfs_period_timer(): the pool refilled, the throttled runqueues get their due in
    // order; the timer goes on while one stays throttled
    void bandwidthPeriod(int g) {
        CfsBandwidth& b = s_.groups[static_cast<size_t>(g)].bandwidth;
        b.periodTimerArmed = false;
        distribute(g);
        if (!b.throttledCpus.empty() && !b.periodTimerArmed) {
            b.periodTimerArmed = true;
            push(nextPeriodBoundary(b, s_.now), Ev::BandwidthPeriod, g);
        }
    }
    // do_sched_cfs_slack_timer(): what came back is handed out when it is more than a slice
    void bandwidthSlack(int g) {
        CfsBandwidth& b = s_.groups[static_cast<size_t>(g)].bandwidth;
        b.slackTimerArmed = false;
        refillBandwidth(b, s_.now);
        if (b.runtimeNs > kBandwidthSliceNs) distribute(g);
    }
    void distribute(int g) {
        TaskGroupState& grp = s_.groups[static_cast<size_t>(g)];
        const std::vector<int> cpus = distributeRuntime(
            grp.bandwidth, [&](int cpu) -> int64_t& { return grp.onCpu[static_cast<size_t>(cpu)].runtimeRemaining; }, s_.now);
        for (const int cpu : cpus) unthrottle(g, cpu);
    }

    // ---- contention (contention_tracker.h)
    // how slowly the task running on `cpu` runs, with what runs beside it now
    [[gnu::always_inline]] double taskSlowness(int cpu) {
        return contention_.taskSlowness(cpu, running_[static_cast<size_t>(cpu)], coreBusy(contention_.coreOf(cpu)));
    }
    // where `t`'s memory lives: the task's and the contention model's copy, set together
    void setHomeNode(Task& t, int node) {
        t.homeNode = node;
        contention_.setHomeNode(t.id, node);
    }
    void addAffected(int c) {
        if (!mark_[static_cast<size_t>(c)]) { mark_[static_cast<size_t>(c)] = 1; affected_.push_back(c); }
    }

    // task_numa_work() and the NUMA hinting faults, coarsely: the memory of the task running on
    // `cpu` moves to this node once the task has stayed here (running, queued or asleep) for a
    // scan period. Both nodes' demand and its own distance to its memory change, so it and the
    // other users of both nodes are re-timed.
    void numaMemoryFollows(int cpu) {
        Task& t = task(rq(cpu).curr);
        const int node = info(cpu).node;
        if (t.homeNode < 0 || t.homeNode == node || s_.now - t.onNodeSince < memoryFollowsNs_) return;
        if (contention_.traits(t.id).memFraction <= 0) return;  // nothing it waits on moves
        contention_.markResourcesOf(cpu, t.id);
        // the new home too, before its demand changes (a marked resource keeps what it was)
        contention_.markNodeFor(node, t.id);
        contention_.noteRunning(cpu, t.id, false);
        contention_.addDemand(cpu, t.id, -1);
        setHomeNode(t, node);
        contention_.noteRunning(cpu, t.id, true);
        contention_.addDemand(cpu, t.id, +1);
        contention_.markResourcesOf(cpu, t.id);
        addAffected(cpu);  // its own distance to its memory changed, whatever bandwidth it draws
        ++s_.metrics.numaMemoryMoves;
    }

    // task_numa_fault() -> numa_migrate_preferred(): once the task has run for a scan period
    // (numa_balancing_scan_delay_ms) its hinting faults start, and every sixteenth of a scan
    // period after that NUMA balancing tries to take the running task to its memory's node:
    // alone to an idle CPU there, or in a swap with a task running there (numa_balancing.h).
    void numaMigratePreferred(int cpu) {
        Task& t = task(rq(cpu).curr);
        if (numaPreferredNode(s_, t) < 0 || s_.now < t.numaMigrateRetry)
            return;
        t.numaMigrateRetry = s_.now + std::max<int64_t>(1, memoryFollowsNs_ / 16);
        if (info(cpu).node == t.homeNode) return;
        const NumaPlacement m = taskNumaMigrate(s_, t);
        if (m.dstCpu < 0) return;
        if (s_.recording()) recordNumaMigrate(t, cpu, m);
        if (m.swapWith < 0) {
            migrateTask(t.id, m.dstCpu, MigrationCause::Numa);  // migrate_task_to(): the stopper moves it
            ++s_.metrics.numaTaskMoves;
            return;
        }
        // migrate_swap(): the stoppers of both CPUs exchange the two tasks, then both pick again
        inSchedule_[static_cast<size_t>(cpu)] = inSchedule_[static_cast<size_t>(m.dstCpu)] = 1;
        migrateTask(t.id, m.dstCpu, MigrationCause::Numa);
        migrateTask(m.swapWith, cpu, MigrationCause::Numa);
        inSchedule_[static_cast<size_t>(cpu)] = inSchedule_[static_cast<size_t>(m.dstCpu)] = 0;
        schedule(cpu);
        schedule(m.dstCpu);
        ++s_.metrics.numaSwaps;
    }

    void recordNumaMigrate(const Task& t, int cpu, const NumaPlacement& m) {
        Decision d;
        d.timeNs = s_.now;
        d.kind = DecisionKind::NumaMigrate;
        d.task = t.id;
        d.cpu = cpu;
        d.prevCpu = cpu;
        d.level = "NUMA";
        d.span = s_.topo->nodes[static_cast<size_t>(t.homeNode)].cpus;
        d.chosenCpu = m.dstCpu;
        d.moved = {t.id};
        if (m.swapWith >= 0) d.moved.push_back(m.swapWith);
        d.rule = m.rule;
        s_.decisions->push_back(std::move(d));
    }

    // ---- hand-off (TaskSpec::handoffKB)
    // `t` will read data its waker wrote on `wakerCpu`
    void noteHandoff(Task& t, int wakerCpu) {
        if (wakerCpu >= 0 && contention_.traits(t.id).handoffKB > 0) t.handoffFrom = wakerCpu;
    }
    // the burst `t` begins on `cpu` first reads that data: longer by the transfer, which does no work
    void startHandoff(Task& t, int cpu) {
        const double ns = contention_.traits(t.id).handoffKB * contention_.handoffNsPerKB(t.handoffFrom, cpu);
        t.handoffFrom = -1;
        if (ns <= 0) return;
        t.remaining += ns;
        t.handoffLeftNs = ns;
        s_.metrics.handoffs++;  // its time counts as it is spent (account())
    }
    // Switches what runs on `cpu`. The running tasks whose speed depends on it are re-timed once
    // when the event is over (retimeAffected()): an event often switches a CPU twice (to idle and
    // to the next task) and its neighbours several times, and only the placement at its end
    // runs for any time: everything within one event happens at the same instant, so progress
    // accounted at the old speed up to now is the same whichever switch comes first.
    void setCurr(int cpu, int next) {
        Cpu& r = rq(cpu);
        const int prev = r.curr;
        if (prev == next) return;
        // __schedule() clears TIF_NEED_RESCHED: a remote resched pending for prev is answered
        if (RemoteResched& pending = remoteResched_[static_cast<size_t>(cpu)]; prev >= 0 && pending.task == prev) pending.task = -1;
        if (next >= 0 && task(next).homeNode < 0) {  // first touch
            setHomeNode(task(next), info(cpu).node);
            task(next).onNodeSince = s_.now;
        }
        // each switch of the event marks its own resources, so a task that comes and goes
        // within the event still re-times those it touched
        for (int sib : info(cpu).siblings) addAffected(sib);
        contention_.markResourcesOf(cpu, prev);
        contention_.markResourcesOf(cpu, next);
        switched_[static_cast<size_t>(cpu)] = 1;
        contention_.noteRunning(cpu, prev, false);
        contention_.noteRunning(cpu, next, true);
        if (prev >= 0) contention_.addDemand(cpu, prev, -1);
        if (next >= 0) {
            Task& t = task(next);
            contention_.addDemand(cpu, next, +1);
            t.lastUpdate = s_.now;
            r.seenCurrVruntime = t.vruntime;  // set_next_entity()
        }
        if (prev >= 0) lastStop_[static_cast<size_t>(cpu)] = {task(prev).group, s_.now};
        r.curr = next;
        running_[static_cast<size_t>(cpu)] = next;
        s_.cpuChanged(cpu);
        // (noteSpread() keeps coreBusy() too)
        if (const int nowBusy = (next >= 0) - (prev >= 0)) noteSpread(info(cpu), nowBusy);
        if (prev < 0 && next >= 0) r.busySince = s_.now;
        if (prev >= 0 && next < 0 && r.busySince >= 0) { r.busyTotal += s_.now - r.busySince; r.busySince = -1; }
        if (next < 0) events_.cancelBurstEnd(cpu);
    }

    // A CPU started (+1) or stopped (-1) running a task: the cores, clusters, LLCs and nodes
    // running one may have changed, and the time the old counts held is added to the spread.
    void noteSpread(const CpuInfo& ci, int delta) {
        const int units[4] = {ci.core, ci.cluster, ci.llc, ci.node};
        for (size_t l = 0; l < spread_.size(); ++l) {
            SpreadLevel& level = spread_[l];
            int& busy = level.busy[static_cast<size_t>(units[l])];
            const bool was = busy > 0;
            busy += delta;
            if (was == (busy > 0)) continue;
            closeSpread(l);
            level.units += delta;
        }
    }
    void closeSpread(size_t l) {
        SpreadLevel& level = spread_[l];
        s_.metrics.busyUnitNs[l] += static_cast<double>(level.units) * static_cast<double>(s_.now - level.since);
        level.since = s_.now;
    }

    // The end of an event: a switched CPU's task gets its speed and burst end; a neighbour's task
    // is accounted at its old speed and re-timed only when its speed changed by more than
    // kRetimeTolerance (a switch between tasks of the same demand, or one that leaves the core
    // as busy as before, changes nothing for it, and its burst end stands).
    void retimeAffected() {
        contention_.refreshStretches();  // (the re-timings read them)
        contention_.addResourceUsers([this](int c) { addAffected(c); });
        for (int c : affected_) {
            const size_t i = static_cast<size_t>(c);
            mark_[i] = 0;
            const bool switched = switched_[i];
            switched_[i] = 0;
            const int curr = running_[i];
            if (curr < 0) continue;
            if (switched) {
                retime(c);
                continue;
            }
            const double slowness = taskSlowness(c);
            if (sameSpeed(slowness, task(curr).slowness)) continue;
            account(c, false);
            retime(c, slowness);
        }
        affected_.clear();
    }

    void endEvent() {
        retimeAffected();
        events_.flushBursts();
    }

    // New speed and burst end for the task running on `cpu`.
    void retime(int cpu) { retime(cpu, taskSlowness(cpu)); }
    void retime(int cpu, double slowness) {
        Task& t = task(running_[static_cast<size_t>(cpu)]);
        t.slowness = slowness;
        t.speed = 1.0 / slowness;
        if (t.inBurst) {
            events_.setBurstEnd(cpu, timeAfter(std::max(0.0, t.remaining) * slowness));
        } else {
            events_.cancelBurstEnd(cpu);
        }
    }

    // The clock `ns` from now, rounded up; an end so far off (a burst of 10^18 ns slowed down
    // by contention) that it would pass int64 stays at 2^62 ns, 146 years, after any run's end.
    int64_t timeAfter(double ns) const {
        constexpr int64_t kFarFutureNs = int64_t{1} << 62;
        if (!(ns < static_cast<double>(kFarFutureNs - s_.now))) return kFarFutureNs;
        return s_.now + ceilNs(ns);
    }

    // static_cast<int64_t>(std::ceil(ns)) for 0 <= ns < 2^63: the truncation is the floor, plus
    // one when it dropped a fraction. Without SSE4.1 (x86-64's baseline) std::ceil() is a
    // dozen instructions of masks and conversions, on every re-timing.
    static int64_t ceilNs(double ns) {
        const int64_t i = static_cast<int64_t>(ns);
        return i + (static_cast<double>(i) < ns ? 1 : 0);
    }

    // adds the task's CPU time on its last CPU to its CPU times (cpuTimeNs_ while the run lasts)
    void endStint(Task& t) {
        if (t.stintCpu >= 0 && t.stintNs > 0) {
            if (cpuTimeNs_.empty()) t.cpuTime.add(t.stintCpu, t.stintNs);
            else cpuTimeNs_[static_cast<size_t>(t.id) * s_.cpus.size() + static_cast<size_t>(t.stintCpu)] += t.stintNs;
        }
        t.stintNs = 0;
    }
    // The run is over: each task's CPU times go into Task::cpuTime, CPU by CPU in ascending
    // order (CpuTimes keeps them so), and the dense table starts again from zero.
    void settleCpuTimes() {
        if (cpuTimeNs_.empty()) return;
        const size_t n = s_.cpus.size();
        for (Task& t : s_.tasks) {
            int64_t* ns = &cpuTimeNs_[static_cast<size_t>(t.id) * n];
            for (size_t c = 0; c < n; ++c) {
                t.cpuTime.add(static_cast<int>(c), ns[c]);  // (nothing is kept for a CPU without time)
                ns[c] = 0;
            }
        }
    }

    // progress of the running task since its last update. Always inlined: GCC kept it out of
    // line, and each caller (setCurr()'s neighbour loop above all, where many calls return at
    // once with dt == 0) then paid a call and reloaded what it had in registers.
    // `kernelUpdate`: the kernel runs update_curr() here (Cpu::seenCurrVruntime); false where
    // only the simulation needs curr's progress (a burst's end, a re-timing, the run's end)
    [[gnu::always_inline]] void account(int cpu, bool kernelUpdate = true) {
        const int curr = running_[static_cast<size_t>(cpu)];
        if (curr < 0) return;
        Task& t = task(curr);
        Cpu& r = rq(cpu);
        const int64_t dt = s_.now - t.lastUpdate;
        if (dt <= 0) {
            if (kernelUpdate) r.seenCurrVruntime = t.vruntime;
            return;
        }
        double work = static_cast<double>(dt) * t.speed;
        if (t.inBurst) t.remaining -= work;
        if (t.handoffLeftNs > 0) {  // reading the waker's data first: no work done meanwhile
            const double transfer = std::min(work, t.handoffLeftNs);
            t.handoffLeftNs -= transfer;
            s_.metrics.handoffNs += transfer;
            work -= transfer;
        }
        t.workDone += work;
        t.bandwidthWork += work * contention_.traits(t.id).bandwidthGBs;
        if (t.stintCpu != cpu) {
            endStint(t);
            t.stintCpu = cpu;
        }
        t.stintNs += dt;
        updateCurr(s_, r, t, static_cast<double>(dt));
        if (kernelUpdate) r.seenCurrVruntime = t.vruntime;
        t.lastUpdate = s_.now;
        if (bandwidthOn_) chargeRuntime(t, cpu, dt);
    }

    // ---- enqueue / schedule
    // `wakerCpu`: where the task that woke or forked it runs (-1: no task, a timer)
    void activate(Task& t, int cpu, Place how, bool keepWaitStart, int wakerCpu = -1) {
        Cpu& r = rq(cpu);
        // enqueue_entity() -> update_curr(): curr's vruntime (and so the average the task is
        // placed against) and deadline up to now, before the task joins
        const bool sliceUsed = updateCurrNow(cpu);
        t.cpu = cpu;
        if (!keepWaitStart || t.enqueuedAt < 0) t.enqueuedAt = s_.now;
        t.state = TaskState::Runnable;
        if (r.curr < 0 && r.queued.empty() && r.idleStamp > 0) {
            // ttwu_do_activate(): rq->avg_idle, capped at twice the migration cost
            const double delta = static_cast<double>(s_.now - r.idleStamp);
            r.avgIdleNs += (delta - r.avgIdleNs) / 8.0;
            r.avgIdleNs = std::min(r.avgIdleNs, 2 * s_.opt.migrationCostNs);
            r.idleStamp = 0;
        }
        if (bandwidthOn_ && !limitedChain_[static_cast<size_t>(t.id)].empty() && enqueueThrottled(t, cpu)) return;
        if (t.group >= 0) {
            attachToGroupCpu(t, cpu);  // (moved there already: ttwu() and migrations move it first)
            joinGroup(t, cpu);
        }
        joinQueue(t, cpu, how, false);
        // a CPU running a script is on its way through schedule(), not asleep in idle
        runOrPreempt(cpu, t, s_.opt.idleExitNs > 0 && how == Place::Wakeup && !inScript_[static_cast<size_t>(cpu)], sliceUsed,
                     how == Place::Wakeup, wakerCpu);
    }

    // enqueue_entity() once `t` (curr brought up to date, its group joined) comes to `cpu`: placed,
    // queued (`delayed`: still asleep, a delayed-dequeue task a balance moved), its weight on
    // the runqueue, both PELT signals and the runqueue's counts up to date
    void joinQueue(Task& t, int cpu, Place how, bool delayed) {
        Cpu& r = rq(cpu);
        toCfsTasksHead(s_, t);
        placeEntity(s_, r, t, how);
        if (delayed) delayDequeue(s_, r, t);
        else queueEntity(s_, r, t);
        if (!delayed) utilEstEnqueue(s_, t, cpu);
        r.loadWeight += t.weight;
        updateTaskPelt(t);
        updateCpuPelt(cpu);
        syncCpu(cpu);
    }

    // update_curr(): curr's progress and vruntime up to now and update_deadline(); true when
    // curr used its slice with another task queued (resched_curr()).
    bool updateCurrNow(int cpu) {
        if (rq(cpu).curr < 0) return false;
        account(cpu);
        return updateDeadline(s_, rq(cpu));
    }

    // `t` was just queued on `cpu`: an idle CPU runs it (after its idle exit when `idleExit`),
    // a busy one is preempted when curr's slice ran out (`sliceUsed`: the caller's
    // update_curr(), after which curr is up to date) or check_preempt_wakeup() says so (at the
    // end of the script it is running, when it is that CPU's).
    void runOrPreempt(int cpu, const Task& t, bool idleExit, bool sliceUsed, bool wakeup, int wakerCpu) {
        Cpu& r = rq(cpu);
        const bool busy = wakeup && r.curr >= 0;
        const bool remote = busy && wakerCpu >= 0 && wakerCpu != cpu;
        s_.metrics.busyWakeups += busy;
        s_.metrics.remoteBusyWakeups += remote;
        if (inSchedule_[static_cast<size_t>(cpu)]) return;
        if (r.curr < 0) {
            if (idleExit) wakeFromIdle(cpu);
            else schedule(cpu);
        } else if (remoteResched_[static_cast<size_t>(cpu)].task == r.curr) {
            // a resched is on its way already (TIF_NEED_RESCHED set): no check, no second one
        } else if (sliceUsed || checkPreemptWakeup(s_, r, t)) {
            setPreemptionBuddies(s_, r, t);
            // counted as a trace counts it (wakeup_preemptions.h): when the resched puts curr back
            // for the wakee, not when curr blocks first or the pick goes to another task
            if (busy) preemptingWakee_[static_cast<size_t>(cpu)] = {t.id, remote};
            if (remote && s_.opt.remoteReschedNs > 0) {
                remoteResched_[static_cast<size_t>(cpu)] = {r.curr, s_.now + s_.opt.remoteReschedNs};
                push(s_.now + s_.opt.remoteReschedNs, Ev::ReschedIpi, cpu);
            } else if (inScript_[static_cast<size_t>(cpu)]) {
                needResched_[static_cast<size_t>(cpu)] = 1;
            } else {
                preempt(cpu);
            }
        }
    }

    // A wakeup onto an idle CPU: the task is queued now (so the CPU is busy to other wakers, as
    // idle_cpu() counts rq->ttwu_pending and nr_running), and the CPU picks it once it is out of
    // its idle state, opt.idleExitNs later. A second wakeup meanwhile shares the exit. Forks and
    // migrations run at once: a replayed trace's tasks are exec-placed at its start (running
    // already, not woken), and the balancer mostly pulls onto the CPU that runs it (newidle).
    void wakeFromIdle(int cpu) {
        char& pending = exitingIdle_[static_cast<size_t>(cpu)];
        if (pending) return;
        pending = 1;
        push(s_.now + s_.opt.idleExitNs, Ev::IdleExit, cpu);
    }

    void preempt(int cpu) {
        Cpu& r = rq(cpu);
        const int prev = r.curr;
        if (r.curr >= 0) {
            account(cpu);
            Task& t = task(r.curr);
            t.state = TaskState::Runnable;
            t.enqueuedAt = s_.now;
            t.lastRan = s_.now;
            updateTaskPelt(t);
            setCurr(cpu, -1);
            queueEntity(s_, r, t);
        }
        reschedOf_[static_cast<size_t>(cpu)] = prev;
        schedule(cpu);
        reschedOf_[static_cast<size_t>(cpu)] = -1;
    }

    void startTick(int cpu) {
        Cpu& r = rq(cpu);
        if (r.tickRunning) return;
        r.tickRunning = true;
        const int64_t j = s_.jiffyNs();
        push((s_.now / j + 1) * j, Ev::Tick, cpu);
    }

    // __schedule(): pick the next task (the previous one, if still runnable, is already queued)
    void schedule(int cpu) {
        Cpu& r = rq(cpu);
        if (r.curr >= 0) return;
        if (bandwidthOn_ && !exhausted_[static_cast<size_t>(cpu)].empty()) throttleExhausted(cpu);
        inSchedule_[static_cast<size_t>(cpu)] = 1;
        bool triedNewidle = false, pulled = false;
        for (;;) {
            const int next = pickNextEntity(s_, r);
            if (next >= 0 && task(next).delayed) {  // pick_next_entity(): it leaves now; pick again
                Task& t = task(next);
                finishDelayedDequeue(s_, r, t);
                r.loadWeight -= t.weight;
                if (t.group >= 0) leaveGroup(t, cpu);
                updateTaskPelt(t);
                updateCpuPelt(cpu);
                syncCpu(cpu);
                continue;
            }
            if (next >= 0) {
                Task& t = task(next);
                // A resched that picks the task it interrupted again is no switch:
                // pick_next_task_fair() skips set_next_entity() when prev == p, so the task keeps
                // the slice start (CFS's prev_sum_exec_runtime) and the RUN_TO_PARITY protection
                // of its real pick, and it never waited (no sched_switch: no wait in a trace).
                const bool samePick = next == reschedOf_[static_cast<size_t>(cpu)];
                if (PreemptingWakee& w = preemptingWakee_[static_cast<size_t>(cpu)]; w.task >= 0) {
                    if (next == w.task && reschedOf_[static_cast<size_t>(cpu)] >= 0) {
                        ++s_.metrics.wakeupPreemptions;
                        s_.metrics.remoteWakeupPreemptions += w.remote;
                    }
                    w.task = -1;
                }
                if (!samePick) {
                    clearBuddies(r, next);  // set_next_entity()
                    toCfsTasksHead(s_, t);  // set_next_task_fair()
                }
                unqueueEntity(s_, r, t);
                t.state = TaskState::Running;
                if (!samePick) {
                    t.prevSumExec = t.sumExec;
                    t.sliceProtected = true;
                    t.pickedAt = s_.now;
                    if (t.group >= 0 && s_.feat.runToParity) noteGroupEntityPicks(cpu, t.group);
                    if (t.enqueuedAt >= 0) s_.metrics.waitLatency.add(s_.now - t.enqueuedAt);
                }
                t.enqueuedAt = -1;
                if (!t.started) {
                    t.started = true;
                    t.startedAt = s_.now;
                }
                setCurr(cpu, next);
                updateTaskPelt(t);
                updateCpuPelt(cpu);
                updateMisfitStatus(s_, cpu, next);  // pick_next_task_fair()
                startTick(cpu);
                inSchedule_[static_cast<size_t>(cpu)] = 0;
                if (!t.inBurst) runScript(cpu);
                return;
            }
            // pick_next_task_fair() balances again after a pull the pick found nothing in: a
            // delayed-dequeue task pulled here (migrate_load) leaves at the pick, as above
            if (triedNewidle && !pulled) break;
            triedNewidle = true;
            pulled = newidleBalance(s_, *this, cpu);
        }
        inSchedule_[static_cast<size_t>(cpu)] = 0;
        updateCpuPelt(cpu);
        preemptingWakee_[static_cast<size_t>(cpu)].task = -1;
        // going idle: update_idle_core() and NO_HZ
        const CpuInfo& ci = info(cpu);
        if (ci.siblings.size() > 1) {
            bool all = true;
            for (int sib : ci.siblings) all = all && s_.idle(sib);
            if (all) s_.llcShared[static_cast<size_t>(ci.llc)].hasIdleCores = true;
        }
        if (s_.opt.nohz) s_.nohzNextBalance = std::min(s_.nohzNextBalance, std::max(r.nextBalance, s_.now));
    }

    // dequeue_entity()'s update_min_vruntime() (CFS): with the task gone, min_vruntime moves up
    // to the leftmost queued task's vruntime if that is further (curr, if any, counts too), so a
    // task woken next is placed against what the queue holds now
    void minVruntimeAfterDequeue(int cpu) {
        if (s_.feat.fairClass == FairClass::Cfs) updateMinVruntime(s_, rq(cpu));
    }

    // The running task leaves the CPU: sleep, wait, barrier or exit.
    void block(int cpu, TaskState state) {
        Cpu& r = rq(cpu);
        Task& t = task(r.curr);
        account(cpu);
        // DELAY_DEQUEUE: leaving with a negative lag, it keeps its place in the queue (and its
        // weight on the runqueue) until the pick reaches it or a wakeup finds it still there
        const bool delay = state != TaskState::Exited && s_.feat.delayDequeue && !entityEligible(s_, r, t);
        if (!delay) {
            dequeueEntity(s_, r, t);
            r.loadWeight -= t.weight;
        }
        t.state = state;
        t.lastRan = s_.now;
        t.inBurst = false;
        setCurr(cpu, -1);
        if (!delay) minVruntimeAfterDequeue(cpu);
        if (delay) delayDequeue(s_, r, t);
        if (state == TaskState::Exited) attachToGroupCpu(t, -1);  // its load leaves with it
        if (!delay && t.group >= 0) leaveGroup(t, cpu);
        updateTaskPelt(t);
        // dequeue_task_fair(): the estimate leaves the runqueue (a delayed dequeue's too) and
        // is updated with what this activation used
        utilEstDequeue(s_, t);
        if (state != TaskState::Exited) utilEstUpdate(s_, t, cpu);
        updateCpuPelt(cpu);
        syncCpu(cpu);
        if (state == TaskState::Exited) {
            t.exitedAt = s_.now;
            ++exited_;
        }
    }

    // `parent`: the task whose Fork op starts it, running on `fromCpu`; -1 for a task the run
    // starts (exec'd by a shell the simulation does not have)
    void startTask(int id, int fromCpu, int flags, MigrationCause cause, int parent = -1) {
        Task& t = task(id);
        if (t.state != TaskState::NotStarted) return;
        t.cpu = fromCpu;
        t.recentUsedCpu = fromCpu;  // wake_up_new_task(): the CPU it was forked on
        const double forkOffset = forkPlacement(t, fromCpu, parent);
        const int cpu = selectTaskRqFair(s_, t, fromCpu, fromCpu, flags, nullptr);
        if (cpu != fromCpu) {
            t.migrations++;
            countMigration(fromCpu, cpu, cause);
        }
        enqueueNewTask(t, cpu, forkOffset);
    }

    // A task already running when the run begins (TaskSpec::startCpu): it is on `cpu`, as a
    // recording's window found it, with a new task's averages and no placement decision.
    void startOn(int id, int cpu) {
        Task& t = task(id);
        if (t.state == TaskState::NotStarted) enqueueNewTask(t, cpu, forkPlacement(t, cpu, -1));
    }

    // task_fork_fair() (CFS), at fork time on the forking CPU: the new task's distance from
    // min_vruntime there, which it keeps on the CPU it starts on (the parent's vruntime up to
    // now first, update_curr()). EEVDF places it on that CPU instead (place_entity() at the
    // enqueue with ENQUEUE_INITIAL).
    double forkPlacement(const Task& t, int cpu, int parent) {
        if (s_.feat.fairClass == FairClass::Eevdf) return 0;
        const bool parentRuns = parent >= 0 && rq(cpu).curr == parent;
        if (parentRuns) account(cpu);
        return forkVruntimeOffset(s_, rq(cpu), t, parentRuns ? &task(parent) : nullptr);
    }

    // wake_up_new_task() once the CPU is chosen: a new task's averages, attached to its CPU;
    // CFS: `forkOffset` past min_vruntime there (forkPlacement())
    void enqueueNewTask(Task& t, int cpu, double forkOffset) {
        t.cpu = cpu;
        attachToGroupCpu(t, cpu);
        t.vruntime = rq(cpu).minVruntime + forkOffset;
        t.util.value = 512;  // init_entity_runnable_average(): half a CPU to begin with
        t.util.stamp = t.runnable.stamp = t.load.stamp = s_.now;
        t.runnable.value = 1024;
        t.load.value = t.weight;
        t.groupLoad.value = t.niceWeight;  // its group's runqueue counts it at its full weight too
        t.groupLoad.stamp = s_.now;
        attachNewTask(t, cpu);
        // (CFS: placed already, as a migrated task is renormalised)
        activate(t, cpu, s_.feat.fairClass == FairClass::Eevdf ? Place::Fork : Place::Migrated, false);
    }

    // attach_entity_load_avg() (enqueue_entity() with DO_ATTACH, for a task that never ran): a
    // new task's initial averages join its runqueue's at once, so the next fork's
    // find_idlest_group() sees the CPU taken. Without it a CPU's load stayed 0 until PELT ramped
    // up, and a burst of forks all found the parent's CPU as idle as any other.
    void attachNewTask(const Task& t, int cpu) {
        Cpu& r = rq(cpu);
        for (Pelt* p : {&r.util, &r.runnable, &r.load}) p->update(s_.now);
        r.util.value = std::min(1024.0, r.util.value + t.util.value);
        r.runnable.value += t.runnable.value;
        r.load.value += t.load.value;
        s_.cpuChanged(cpu);
    }

    void wakeTask(int id, Task* waker, int wakerCpu, bool sync) {
        Task& t = task(id);
        if (t.state != TaskState::Blocked || !t.inWait) {
            // Kept for a later Wait, also by a task not forked yet: a replayed trace's wakee may
            // be woken before its simulated parent gets to fork it. A task in a Barrier or a
            // Take is not released by it. Its data is read after that Wait.
            if (t.state != TaskState::Exited) t.pendingWakes++;
            t.keptHandoffFrom = wakerCpu;
            return;
        }
        noteHandoff(t, wakerCpu);
        t.inWait = false;
        ttwu(t, waker, wakerCpu, sync);
    }

    // try_to_wake_up()
    void ttwu(Task& t, Task* waker, int wakerCpu, bool sync) {
        if (t.delayed) {
            ttwuRunnable(t, wakerCpu);
            return;
        }
        const int prev = t.cpu;
        const int thisCpu = wakerCpu >= 0 ? wakerCpu : prev;
        const int cpu = selectTaskRqFair(s_, t, prev, thisCpu, WF_TTWU | (sync ? WF_SYNC : 0), waker);
        if (cpu != prev) moveTask(t, prev, cpu, MigrationCause::Wakeup);
        activate(t, cpu, Place::Wakeup, false, wakerCpu);
    }

    // ttwu_runnable() for a delayed-dequeue task: still queued where it blocked, it is woken in
    // place (no select_task_rq_fair(), so no wakeup migration), and may preempt what runs there.
    void ttwuRunnable(Task& t, int wakerCpu) {
        const int cpu = t.cpu;
        Cpu& r = rq(cpu);
        if (s_.recording()) {  // no domain decided: the step log says why no placement ran
            Decision d;
            d.timeNs = s_.now;
            d.kind = DecisionKind::WakeupPlacement;
            d.task = t.id;
            d.cpu = wakerCpu >= 0 ? wakerCpu : cpu;
            d.prevCpu = cpu;
            d.level = "none";
            d.span = CpuSet::single(cpu);
            d.chosenCpu = cpu;
            d.rule = "ttwu_runnable: still queued (DELAY_DEQUEUE), woken where it is; select_task_rq_fair() not called";
            s_.decisions->push_back(std::move(d));
        }
        requeueDelayedEntity(s_, r, t);
        utilEstEnqueue(s_, t, cpu);  // (enqueue_task_fair() with ENQUEUE_DELAYED counts it again)
        t.state = TaskState::Runnable;
        t.enqueuedAt = s_.now;
        updateTaskPelt(t);
        updateCpuPelt(cpu);
        syncCpu(cpu);  // runnable again: counted in nr_running
        // check_preempt_wakeup_fair() -> update_curr() (the requeue read curr as it was)
        runOrPreempt(cpu, t, false, updateCurrNow(cpu), true, wakerCpu);
    }

    // Executes the running task's script until it starts a burst, blocks or exits.
    void runScript(int cpu) {
        char& inScript = inScript_[static_cast<size_t>(cpu)];
        const char wasInScript = inScript;
        inScript = 1;
        const int id = rq(cpu).curr;
        Task& t = task(id);
        const HotOp* hot = &hotOps_[scriptStart_[static_cast<size_t>(id)]];
        const size_t scriptSize = scriptStart_[static_cast<size_t>(id) + 1] - scriptStart_[static_cast<size_t>(id)];
        bool stillHere = true;
        long long countedBack = 0;
        for (int loopsBack = 0; loopsBack < kLoopsPerEvent && countedBack < kCountedLoopsPerEvent && stillHere;) {
            if (t.pc >= scriptSize) {
                block(cpu, TaskState::Exited);
                stillHere = false;
                break;
            }
            const HotOp& h = hot[t.pc];
            if (h.kind == OpKind::Run) {
                t.pc++;
                t.remaining = jittered(h.amountNs, h.jitter);
                if (t.handoffFrom >= 0) startHandoff(t, cpu);
                t.inBurst = true;
                // Switched in during this event, it gets its speed and burst end when the event
                // is over; else only the burst end is new (a neighbour's switch in this event
                // that changes its speed re-times it again then).
                if (!switched_[static_cast<size_t>(cpu)]) retime(cpu, t.slowness);
                break;
            }
            if (h.kind == OpKind::Sleep) {
                t.pc++;
                const double ns = jittered(h.amountNs, h.jitter);
                block(cpu, TaskState::Sleeping);
                push(s_.now + static_cast<int64_t>(ns), Ev::SleepEnd, id);
                stillHere = false;
                continue;
            }
            if (h.kind == OpKind::Loop) {
                const size_t here = t.pc;
                long long& left = t.loopLeft[here];
                if (h.count < 0) {
                    t.pc = static_cast<size_t>(h.to);
                    ++loopsBack;
                } else {
                    if (left == -2) left = h.count;
                    if (left > 0) { --left; t.pc = static_cast<size_t>(h.to); ++countedBack; }
                    else { left = -2; t.pc++; }
                }
                continue;
            }
            // the ops that take no time read the whole op (its targets, ids, CPUs) from the
            // task's spec, a pointer away: bursts and sleeps, most of what runs, never do
            const auto& op = t.spec->script[t.pc];
            if (op.kind == OpKind::Wait) {
                t.pc++;
                if (t.pendingWakes > 0) {
                    t.pendingWakes--;
                    noteHandoff(t, t.keptHandoffFrom);
                    continue;
                }
                t.inWait = true;
                block(cpu, TaskState::Blocked);
                stillHere = false;
            } else if (op.kind == OpKind::Wake) {
                t.pc++;
                for (int target : op.targets) wakeTask(target, &t, cpu, op.sync);
            } else if (op.kind == OpKind::Fork) {
                t.pc++;
                for (int target : op.targets) startTask(target, cpu, WF_FORK, MigrationCause::Fork, t.id);
            } else if (op.kind == OpKind::Barrier) {
                t.pc++;
                Barrier& b = barriers_[op.id];
                if (++b.arrived >= op.parties) {
                    std::vector<int> waiters;
                    waiters.swap(b.waiters);
                    b.arrived = 0;
                    for (int w : waiters) ttwu(task(w), &t, cpu, false);
                } else {
                    b.waiters.push_back(id);
                    block(cpu, TaskState::Blocked);
                    stillHere = false;
                }
            } else if (op.kind == OpKind::Post) {
                t.pc++;
                WorkQueue& q = queues_[op.id];
                if (q.takers.empty()) {
                    ++q.items;
                    q.lastPostCpu = cpu;
                } else {
                    const int taker = q.takers.front();
                    q.takers.pop_front();
                    noteHandoff(task(taker), cpu);
                    ttwu(task(taker), &t, cpu, op.sync);
                }
            } else if (op.kind == OpKind::Take) {
                t.pc++;
                WorkQueue& q = queues_[op.id];
                if (q.items > 0) {
                    --q.items;
                    noteHandoff(t, q.lastPostCpu);
                } else {
                    q.takers.push_back(id);
                    block(cpu, TaskState::Blocked);
                    stillHere = false;
                }
            } else if (op.kind == OpKind::SetAffinity) {
                t.pc++;
                // (an op whose CPUs are all offline was refused when the run was set up)
                t.setAllowed(op.cpus.empty() ? s_.unpinned : (op.cpus & s_.online), s_.onlineCount);
                t.maxAllowedCapacity = maxAllowedCapacity(s_, t);
                if (!t.allowed.test(cpu)) {
                    int dst = -1;
                    t.allowed.forEach([&](int c) { if (dst < 0 && s_.idle(c)) dst = c; });
                    if (dst < 0) dst = t.allowed.first();
                    migrateTask(id, dst, MigrationCause::Affinity);
                    stillHere = false;
                }
            } else if (op.kind == OpKind::Exec) {
                t.pc++;
                // sched_exec() (core.c): the fair class's placement with WF_EXEC from the task's
                // own CPU, whose load counts without it; another CPU has the stopper move it
                // there (stop_one_cpu(migration_cpu_stop)) before the new program runs
                const int dst = selectTaskRqFair(s_, t, cpu, cpu, WF_EXEC, nullptr);
                if (dst != cpu) {
                    migrateTask(id, dst, MigrationCause::Exec);
                    stillHere = false;
                }
            } else {  // Exit
                t.pc = scriptSize;
            }
        }
        // That many ops without a burst, a block or an exit: the script loops through ops that
        // take no time. Left running, the task would be credited CPU it never asked for.
        if (stillHere && !t.inBurst) {
            stuck_ = true;
            if (stuckTask_ < 0) stuckTask_ = id;
        }
        inScript = wasInScript;
        if (needResched_[static_cast<size_t>(cpu)]) {
            needResched_[static_cast<size_t>(cpu)] = 0;
            if (rq(cpu).curr >= 0) preempt(cpu);
        }
        if (rq(cpu).curr < 0) schedule(cpu);
    }

    void handle(const Event& e) {
        switch (e.type) {
        case Ev::BurstEnd: {
            account(e.a, false);  // the task's own code reached a point: no update_curr()
            Task& t = task(rq(e.a).curr);
            t.inBurst = false;
            t.remaining = 0;
            t.handoffLeftNs = 0;  // what rounding left of it
            runScript(e.a);
            break;
        }
        case Ev::SleepEnd: {
            Task& t = task(e.a);
            if (t.state == TaskState::Sleeping) ttwu(t, nullptr, -1, false);
            break;
        }
        case Ev::Tick: tick(e.a); break;
        case Ev::Sample: sample(); break;
        case Ev::ActiveBalance: activeLoadBalanceCpuStop(s_, *this, e.a, rq(e.a).pushCpu); break;
        case Ev::IdleExit:
            exitingIdle_[static_cast<size_t>(e.a)] = 0;
            // nothing to do when a balancer took the task away, or ran something there meanwhile
            if (rq(e.a).curr < 0) schedule(e.a);
            break;
        case Ev::BandwidthPeriod: bandwidthPeriod(e.a); break;
        case Ev::BandwidthSlack: bandwidthSlack(e.a); break;
        case Ev::ReschedIpi: remoteReschedArrives(e.a); break;
        case Ev::End: break;
        }
    }

    // A remote resched reaches its CPU's preemption point: the task it was for is preempted if it
    // is still running there (a switch meanwhile cleared it; a later one has its own event)
    void remoteReschedArrives(int cpu) {
        RemoteResched& pending = remoteResched_[static_cast<size_t>(cpu)];
        if (pending.task < 0 || pending.due != s_.now) return;
        const int forTask = pending.task;
        pending.task = -1;
        if (rq(cpu).curr != forTask || inSchedule_[static_cast<size_t>(cpu)]) return;
        if (inScript_[static_cast<size_t>(cpu)]) needResched_[static_cast<size_t>(cpu)] = 1;
        else preempt(cpu);
    }

    // scheduler_tick(): account, preemption check, trigger_load_balance(), nohz kick
    void tick(int cpu) {
        Cpu& r = rq(cpu);
        if (r.curr < 0 && s_.opt.nohz) {
            r.tickRunning = false;  // NO_HZ_IDLE: the tick stops on an idle CPU
            return;
        }
        account(cpu);
        if (r.curr >= 0) {
            updateTaskPelt(task(r.curr));
            updateCpuPelt(cpu);
            // entity_tick() -> update_cfs_group(): the group's entity weight follows its load
            if (const int g = task(r.curr).group; g >= 0) updateGroupChain(g, cpu, -1);
            updateMisfitStatus(s_, cpu, r.curr);  // task_tick_fair()
            if (memoryFollowsNs_ > 0) {
                numaMemoryFollows(cpu);
                numaMigratePreferred(cpu);
            }
            // a group's allowance that ran out in update_curr() reschedules as a used slice does
            if (r.curr >= 0 && (checkPreemptTick(s_, r) || exhaustedOn(cpu))) preempt(cpu);
        }
        const int64_t j = s_.jiffyNs();
        if (s_.now - s_.now % j >= r.nextBalance)
            rebalanceDomains(s_, *this, cpu, s_.idle(cpu) ? BalanceIdle::Idle : BalanceIdle::NotIdle,
                             MigrationCause::LbPeriodic);
        if (!s_.idle(cpu)) nohzBalancerKick(s_, *this, cpu);
        push(s_.now + j, Ev::Tick, cpu);
    }

    void sample() {
        PlacementSample ps;
        ps.timeS = static_cast<double>(s_.now) / 1e9;
        ps.running.reserve(s_.cpus.size());
        for (const auto& c : s_.cpus) ps.running.push_back(c.curr);
        s_.metrics.timeline.push_back(std::move(ps));
        push(s_.now + static_cast<int64_t>(s_.opt.samplePeriodS * 1e9), Ev::Sample, 0);
    }

};

Result<double> runDuration(const workload::Workload& wl, const SimOptions& opt) {
    const double dur = wl.durationS > 0 ? wl.durationS : opt.durationS;
    if (!(dur > 0) || dur > 1e5) return Error{"simulate: duration must be in (0, 100000] seconds"};
    return dur;
}

// why a run ended with its clock stopped (Engine::stuck()), "" when it did not
std::string stuckMessage(const Engine& engine, const SimState& s) {
    if (!engine.stuck()) return {};
    const int task = engine.stuckTask();
    const std::string who = task >= 0 ? "task '" + s.tasks[static_cast<size_t>(task)].spec->name + "': its" : "a task's";
    return "simulation stuck at " + std::to_string(static_cast<double>(s.now) / 1e9) + " s: " + who +
           " script loops through ops that take no time (" + std::to_string(kLoopsPerEvent) + " loops in one event, or " +
           std::to_string(s.opt.stuckEvents) + " events without the clock moving)";
}
}  // namespace

Result<std::unique_ptr<SimState>> simulate(const Topology& topo, const DomainTree& tree, const workload::Workload& wl,
                                           const SimOptions& opt) {
    auto st = makeSimState(topo, tree, wl, opt);
    if (!st) return Error{st.error()};
    std::unique_ptr<SimState> s = std::move(*st);
    auto dur = runDuration(wl, opt);
    if (!dur) return Error{dur.error()};
    s->opt.durationS = *dur;
    Engine engine(*s);
    const bool completed = engine.run(static_cast<int64_t>(*dur * 1e9));
    s->opt.progress = nullptr;  // it may capture the caller's frame; the state outlives the run
    if (const std::string stuck = stuckMessage(engine, *s); !stuck.empty()) return Error{stuck};
    if (!completed) return Error{"simulation cancelled"};
    return s;
}

struct Simulation::Impl {
    explicit Impl(SimState& s) : engine(s) {}
    Engine engine;
};

Result<std::unique_ptr<Simulation>> Simulation::create(const Topology& topo, const DomainTree& tree,
                                                       const workload::Workload& wl, const SimOptions& opt) {
    auto st = makeSimState(topo, tree, wl, opt);
    if (!st) return Error{st.error()};
    auto dur = runDuration(wl, opt);
    if (!dur) return Error{dur.error()};
    std::unique_ptr<Simulation> sim(new Simulation());
    sim->state_ = std::move(*st);
    sim->state_->opt.durationS = *dur;
    sim->state_->decisions = &sim->pending_;
    sim->impl_ = std::make_unique<Impl>(*sim->state_);
    sim->impl_->engine.start(static_cast<int64_t>(*dur * 1e9));  // the initial exec placements are decisions too
    return sim;
}

Simulation::~Simulation() = default;

std::optional<Decision> Simulation::nextDecision() {
    for (;;) {
        if (next_ < pending_.size()) return std::move(pending_[next_++]);
        pending_.clear();
        next_ = 0;
        if (finished_ || !state_->decisions) return std::nullopt;
        if (!impl_->engine.step()) {
            impl_->engine.finish();
            finished_ = true;
        }
    }
}

bool Simulation::stepEvent() {
    state_->decisions = nullptr;
    pending_.clear();
    next_ = 0;
    if (finished_) return false;
    if (impl_->engine.step()) return true;
    impl_->engine.finish();
    finished_ = true;
    return false;
}

int Simulation::staleSpeeds() { return impl_->engine.staleSpeeds(); }

std::string Simulation::stuckError() const { return stuckMessage(impl_->engine, *state_); }

void Simulation::runToEnd() {
    state_->decisions = nullptr;
    pending_.clear();
    next_ = 0;
    if (finished_) return;
    while (impl_->engine.step()) {
    }
    impl_->engine.finish();
    finished_ = true;
}

std::unique_ptr<SimState> Simulation::release() {
    runToEnd();
    return std::move(state_);
}

}  // namespace schedscope::sim
