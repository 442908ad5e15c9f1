#pragma once
// Step mode: the placement and balancing decisions of a run, one record each, for explaining a
// run (`simulate --explain N`) and for the teaching lessons. Recording only reads the state (PELT
// signals are peeked, not advanced), so a run with recording on is the same run as without.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/cpuset.h"

namespace schedscope::sim {

enum class DecisionKind {
    WakeupPlacement,  // select_task_rq_fair() for try_to_wake_up()
    ForkPlacement,    // ... for wake_up_new_task()
    ExecPlacement,    // ... for sched_exec()
    LoadBalance,      // load_balance() from the tick (periodic) or for nohz idle CPUs
    NewidleBalance,   // load_balance() from newidle_balance()
    ActiveBalance,    // active_load_balance_cpu_stop()
    NumaMigrate,      // task_numa_migrate(): NUMA balancing moves a task to its memory, or swaps it
};
const char* decisionKindName(DecisionKind k);

// One sched group as the decision saw it (sg_lb_stats / the wakeup statistics).
struct GroupView {
    CpuSet span;
    double load = 0, util = 0;
    int nrRunning = 0;
    int idleCpus = 0;
    std::string type;    // group_type ("has_spare", "overloaded"...); empty when not classified
    bool local = false;  // holds the deciding CPU
};

struct Decision {
    int64_t timeNs = 0;
    DecisionKind kind = DecisionKind::WakeupPlacement;
    int task = -1;       // the placed task; for balancing the first task moved, or -1
    int cpu = -1;        // the deciding CPU: waker/parent CPU (this_cpu) or the balancing CPU
    int prevCpu = -1;    // placement: the task's previous CPU
    std::string level;   // the domain level the decision was taken at ("CLS", "MC"...)
    CpuSet span;         // that domain's span
    std::vector<GroupView> groups;  // the groups compared (may be empty: the idle scans compare CPUs)
    int chosenCpu = -1;  // placement: where the task goes; balancing: the busiest CPU pulled from
    std::vector<int> moved;  // balancing: the tasks moved
    std::string rule;    // the rule that chose, e.g. "select_idle_cpu: first idle CPU in the cluster scan"
};

nlohmann::json decisionToJson(const Decision& d);
// One or two lines: "12.345678 ms wakeup t3 prev 5 this 0 @MC 0-23 -> cpu 2 (select_idle_cpu: ...)"
std::string decisionToText(const Decision& d);

}  // namespace schedscope::sim
