#pragma once
// CPU capacity awareness on asymmetric machines (big.LITTLE, DynamIQ, Grace/GB10-style cores of
// two sizes): the fit tests, misfit tracking and the capacity-aware wakeup of kernel/sched/fair.c.
//
// A task "fits" a CPU when its utilisation leaves 20% of the CPU's capacity spare. One that
// does not is a misfit: the balancer of an SD_ASYM_CPUCAPACITY domain moves it to a bigger CPU
// (migrate_misfit, by the stopper when it is running), and the wakeup path looks for an idle
// CPU it fits before anything else. Everything here is a no-op on a symmetric machine.
#include "sim/sim_state.h"

namespace schedscope::sim {

// fits_capacity(): util leaves a 20% margin (util * 1280 < capacity * 1024)
inline bool fitsCapacity(double util, double capacity) { return util * 1280.0 < capacity * 1024.0; }
// capacity_greater(): more than ~5% bigger
inline bool capacityGreater(double a, double b) { return a * 1024.0 > b * 1078.0; }

// task_fits_cpu() without uclamp: the task's synced util against the CPU's capacity
bool taskFitsCpu(SimState& s, const Task& p, int cpu);

// update_misfit_status(): rq->misfit_task_load from the task now running on `cpu` (-1: none).
// Called at the tick, when a task is picked and when the CPU goes newly idle: inline, so a
// symmetric machine pays one test of the static key there, not a call.
void updateMisfitStatusAsym(SimState& s, int cpu, int task);
inline void updateMisfitStatus(SimState& s, int cpu, int task) {
    if (s.asymCapacity) updateMisfitStatusAsym(s, cpu, task);
}

// check_misfit_status(): a misfit task runs on `cpu` and a bigger CPU exists in its root domain
bool checkMisfitStatus(const SimState& s, int cpu);

// wake_cap() (until 5.6): the smaller of the waker's and the wakee's previous CPU is too small
// for the wakee on a machine whose capacities differ by 1/8 or more: no affine wakeup then
bool wakeCap(SimState& s, const Task& p, int cpu, int prevCpu);

// asym_fits_cpu(): on an asymmetric machine, `util` fits `cpu`; always true on a symmetric one
bool asymFitsCpu(const SimState& s, double util, int cpu);

// select_idle_capacity(): the first idle CPU of the domain the task fits, scanning from `target`,
// else the idle CPU of the largest capacity; -1 when none is idle
int selectIdleCapacity(SimState& s, const Task& p, int sdIndex, int target);

// The CPU's capacity as the hardware has it (the topology's; 1024 when it gives none): the
// speed of its computation, which the kernel may not know of (x86 before 6.12).
double hardwareCapacity(const Topology& topo, int cpu);

// Sets the capacities the scheduler sees, rd->max_cpu_capacity, sd_asym_cpucapacity and the static key from the
// topology and the domains (called once, when the state is built).
void setUpCapacities(SimState& s);

// p->max_allowed_capacity: the largest capacity among the task's allowed CPUs
double maxAllowedCapacity(const SimState& s, const Task& p);

}  // namespace schedscope::sim
