#pragma once
// The load balancer, mirroring kernel/sched/fair.c: load_balance() per domain at its interval,
// with update_sd_lb_stats()/group_classify(), find_busiest_group(), calculate_imbalance(),
// find_busiest_queue(), detach_tasks() with can_migrate_task(), active balance; and the
// drivers rebalance_domains() (periodic), newidle_balance() and nohz_idle_balance().
#include "sim/group_stats.h"
#include "sim/sim_state.h"

namespace schedscope::sim {

enum class MigrationType { Load, Util, Task, Misfit };

// enum fbq_type (CONFIG_NUMA_BALANCING): a runqueue or group with tasks that have no preferred
// node is `Regular`, one whose tasks all have one but some run away from it `Remote`, else `All`
enum class FbqType { Regular, Remote, All };

// What the balancer needs from the engine to move tasks.
class SchedOps {
public:
    virtual ~SchedOps() = default;
    // detach_task() + attach_task(): move a task; a running one is first preempted (as the
    // stopper does in active balance).
    virtual void migrateTask(int task, int dstCpu, MigrationCause cause) = 0;
    // stop_one_cpu_nowait(active_load_balance_cpu_stop) on srcCpu, pushing to dstCpu.
    virtual void requestActiveBalance(int srcCpu, int dstCpu) = 0;
};

struct LbEnv {
    int sd = 0;  // index into domainsOf(sdOwner())
    int dstCpu = 0;
    // the CPU balancing, whose domain `sd` is: dstCpu, until LBF_DST_PINNED moves the
    // destination to another CPU of its group (-1: dstCpu)
    int sdCpu = -1;
    int sdOwner() const { return sdCpu >= 0 ? sdCpu : dstCpu; }
    int srcCpu = -1;
    BalanceIdle idle = BalanceIdle::Idle;
    double imbalance = 0;
    MigrationType type = MigrationType::Load;
    // env->fbq_type: at a NUMA domain the busiest group's class; find_busiest_queue() skips a
    // runqueue of a higher class, so tasks at their preferred node stay while others may move
    FbqType fbqType = FbqType::All;
    // the group whose runqueues' classes find_busiest_group() left in SimState::fbqRqClass for
    // this pass (-1: none; find_busiest_queue() then counts them itself)
    int fbqClassesOfGroup = -1;
    bool allPinned = false, somePinned = false, dstPinned = false;
    int newDstCpu = -1;
    // env->cpus, the CPUs still considered (candidates()): the domain's whole span (`span`, with
    // cpusWhole) until a CPU is dropped because all its tasks are pinned, then `cpus`. The whole
    // span is the common case: it takes no copy, and its group sums are read from
    // SimState::spanSums rather than added up CPU by CPU.
    bool cpusWhole = false;
    const CpuSet* span = nullptr;
    CpuSet cpus;
    const CpuSet& candidates() const { return cpusWhole ? *span : cpus; }
    void dropCandidate(int cpu) {
        if (cpusWhole) cpus = *span;
        cpusWhole = false;
        cpus.reset(cpu);
    }
    std::vector<int> moved;  // step mode only: the tasks detach_tasks() moved
    // rq->nr_preferred_running of the source, which the kernel keeps as a counter: counted when
    // first needed and kept while detach_tasks() walks the source (-1: not counted, or changed)
    int srcPreferredRunning = -1;
    bool keepSrcPreferredRunning = false;
};

struct SdLbStats {
    int busiest = -1, local = -1;  // group indices; busiestStat and localStat hold only when >= 0
    SgStats busiestStat, localStat;
    double totalLoad = 0, totalCapacity = 0, avgLoad = 0;
    bool preferSibling = false;
};

// update_sg_lb_stats() for group `g` of env.sd
SgStats updateSgLbStats(SimState& s, const LbEnv& env, int g);
// update_sd_lb_stats(), with update_sd_pick_busiest() and SIS_UTIL's update_idle_cpu_scan()
SdLbStats updateSdLbStats(SimState& s, LbEnv& env);
// calculate_imbalance(): sets env.imbalance and env.type
void calculateImbalance(SimState& s, LbEnv& env, SdLbStats& sds);
// find_busiest_group(): the busiest group index, or -1 when balanced; `sds` is filled anew
int findBusiestGroup(SimState& s, LbEnv& env, SdLbStats& sds);
// fbq_classify_rq(): the class of `cpu`'s runqueue
FbqType fbqClassifyRq(const SimState& s, int cpu);
// find_busiest_queue(): the busiest CPU of that group, or -1
int findBusiestQueue(SimState& s, const LbEnv& env, int group);
// can_migrate_task(): affinity, running, cache hotness (migration_cost) vs nr_balance_failed
bool canMigrateTask(SimState& s, LbEnv& env, const Task& p);
// detach_tasks() + attach_tasks(): moves tasks of env.srcCpu to env.dstCpu until env.imbalance
// (of env.type) is used up; returns how many moved
int detachTasks(SimState& s, SchedOps& ops, LbEnv& env, MigrationCause cause);
// should_we_balance(): the first idle CPU of the local group (from 6.6, above SMT, of an idle core
// first), else its first CPU
bool shouldWeBalance(SimState& s, const LbEnv& env);
// load_balance(): returns the number of tasks moved; `cause` labels the migrations.
// `weBalance`: the caller has just found should_we_balance() true for this CPU and domain with
// nothing changed since (rebalanceDomains() asks it first to stop its walk upwards), so the
// first pass does not ask again; a redo, with fewer CPUs in env->cpus, always asks.
int loadBalance(SimState& s, SchedOps& ops, int cpu, int sdIndex, BalanceIdle idle, MigrationCause cause,
                bool weBalance = false);
// sd->balance_interval = `ms`, with the idle and busy intervals get_sd_balance_interval() makes
// of it (in ns, rounded to jiffies, busy_factor times as long and, 5.10+, one jiffy short when busy,
// capped at HZ x CPUs / 10 jiffies)
void setBalanceInterval(const SimState& s, DomainState& ds, double ms);
// rebalance_domains(): every domain of `cpu` whose interval elapsed
void rebalanceDomains(SimState& s, SchedOps& ops, int cpu, BalanceIdle idle, MigrationCause cause);
// newidle_balance(): returns true when a task was pulled
bool newidleBalance(SimState& s, SchedOps& ops, int cpu);
// nohz_balancer_kick() + nohz_idle_balance(), run from a busy CPU's tick
void nohzBalancerKick(SimState& s, SchedOps& ops, int cpu);
// active_load_balance_cpu_stop(): move one task from src (its running task preempted) to dst
int activeLoadBalanceCpuStop(SimState& s, SchedOps& ops, int srcCpu, int dstCpu);

}  // namespace schedscope::sim
