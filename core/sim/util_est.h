#pragma once
// util_est (UTIL_EST, 4.17+): the utilisation a task is expected to have when it runs next,
// kept across its sleeps, and the sum of those of the tasks queued on a CPU.
//
// PELT's average of a task that runs in bursts decays while it sleeps, so a CPU it is about to
// run on reads as less busy than it will be. The kernel reads the larger of a runqueue's average
// and the estimates of its tasks (cpu_util()), and of a task's average and its estimate
// (task_util_est()): the balancer's group utilisation and the SIS_UTIL scan depth it feeds, fork
// placement, the utilisation a migrate_util balance moves, and whether a task fits a CPU.
//
// A task's estimate is an EWMA (weight 1/4) of its utilisation at the end of each activation,
// updated at a sleep's dequeue (util_est_update()): it rises to a larger value at once
// (UTIL_EST_FASTUP, always since 6.9) and decays towards a smaller one, and it stays as it is
// when within 1% (UTIL_EST_MARGIN), when the task's utilisation exceeds the CPU's capacity, or
// when the task did not get all the CPU time it wanted (its runnable average past its
// utilisation by the margin). It is updated once per move of the average (UTIL_AVG_UNCHANGED,
// cleared when PELT next crosses a 1024 us period). A runqueue's estimate is the sum of the
// estimates of the tasks enqueued there (util_est_enqueue() / util_est_dequeue()); a task whose
// dequeue is delayed (DELAY_DEQUEUE) has left it.
//
// The rule is 6.9's (one EWMA, "sched/fair: Simplify util_est"), with the capacity and runnable
// checks of later 5.x kernels, for every profile from 4.17. Before 5.5 (UTIL_EST_FASTUP) a rise moved the EWMA a quarter of the way
// too, but the estimate read was the larger of the EWMA and the last activation's utilisation, so
// it rose at once all the same; only the next fall starts lower there.
//
// Off unless SimFeatures::utilEst: no estimate is kept, and SimState::withUtilEst() does not read
// them (cpuSignals(), cpuUtil() and taskUtilEst() give the averages alone).
#include "sim/sim_state.h"

namespace schedscope::sim {

// UTIL_EST_MARGIN: 1% of SCHED_CAPACITY_SCALE
inline constexpr unsigned kUtilEstMargin = 1024 / 100;

namespace detail {
void updateEstimate(SimState& s, Task& t, int cpu);
double excessOver(SimState& s, const CpuSet& span);
}  // namespace detail

// Inline, with the feature's test first: the engine calls them at every enqueue, sleep and
// group read, and off (the default) they do nothing.

// util_est_dequeue(): `t` counted in no runqueue's estimate
inline void utilEstDequeue(SimState& s, Task& t) {
    if (!s.feat.utilEst || t.utilEstCpu < 0) return;
    unsigned& sum = s.cpus[static_cast<size_t>(t.utilEstCpu)].utilEst;
    sum -= sum < t.utilEst ? sum : t.utilEst;  // lsub_positive()
    t.utilEstCpu = -1;
}
// util_est_enqueue(): `t` counted in `cpu`'s estimate (taken out of another CPU's first)
inline void utilEstEnqueue(SimState& s, Task& t, int cpu) {
    if (!s.feat.utilEst) return;
    utilEstDequeue(s, t);
    s.cpus[static_cast<size_t>(cpu)].utilEst += t.utilEst;
    t.utilEstCpu = cpu;
}
// util_est_update(): `t` goes to sleep on `cpu`, its PELT averages up to date
inline void utilEstUpdate(SimState& s, Task& t, int cpu) {
    if (s.feat.utilEst) detail::updateEstimate(s, t, cpu);
}
// What the estimates add to the summed averages of `span`'s CPUs: the sum of
// max(0, estimate - average) over them, each clamped as cpu_util() clamps (SpanSums keeps the
// averages alone). 0 without UTIL_EST.
inline double utilEstExcess(SimState& s, const CpuSet& span) { return s.feat.utilEst ? detail::excessOver(s, span) : 0.0; }

}  // namespace schedscope::sim
