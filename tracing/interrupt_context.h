#pragma once
// Whether a wake event ran for an interrupt rather than for the task it interrupted (the task a
// record's common_pid names). In a hardirq or an NMI it always did: a timer's expiry, a device.
// In a softirq it depends on what the softirq serves, which the trace's irq:softirq_entry
// events say by vector: timers, block I/O completions, tasklets, RCU callbacks, hrtimers and the
// scheduler's own balancing are no task's doing, wherever the softirq runs (on the way out of an
// interrupt, or at a local_bh_enable() in whatever task came next). The network vectors are
// kept with the task: loopback TCP wakes the receiver from the sender's own NET_RX processing.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedscope::tracing {

// The softirq vectors of include/linux/interrupt.h (unchanged since 2.6.x).
enum class SoftirqVec : int { Hi, Timer, NetTx, NetRx, Block, IrqPoll, Tasklet, Sched, Hrtimer, Rcu };

// Per CPU: the softirq vector being served, from softirq_entry to softirq_exit (or to the next
// entry: softirqs do not nest, so a record flagged softirq belongs to its CPU's latest entry,
// and a recording may leave the exits out); -1 when the trace has no softirq events on that
// CPU yet (or the entry came before its start).
class SoftirqTracker {
public:
    void enter(int cpu, int64_t vec);
    void exit(int cpu);
    int vec(int cpu) const;

private:
    std::vector<int8_t> vec_;
};

// `hardirq`: the record's flags say hardirq or NMI; `softirq`: they say softirq; `vec`: the
// tracker's vector on the record's CPU.
bool byInterrupt(bool hardirq, bool softirq, int vec);

// A sched_migrate_task ran in the scheduler's softirq (run_rebalance_domains(): the periodic and
// nohz idle balance): the record's flags say softirq and not a hardirq above it, and its CPU
// serves SCHED_SOFTIRQ, or a vector the trace does not say (no softirq_entry recorded): no other
// softirq moves a task that is queued, and a wakeup's move is told apart by its sched_waking.
bool inSchedSoftirq(bool hardirq, bool softirq, int vec);

}  // namespace schedscope::tracing
