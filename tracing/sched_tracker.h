#pragma once
// Derived tables, computed on demand from an EventStore (not resident with the events):
// per-CPU run slices from sched_switch pairs and per-task state intervals.
#include <cstdint>
#include <vector>

#include "event_store.h"

namespace schedscope::tracing {

// Since when the trace shows what `cpu` ran: its first switch's prev ran from then. The
// recording starts every CPU at once, and a CPU makes no sched event while it runs one task
// or sits idle, so that is the trace's first timestamp. Where the trace lost events a CPU's
// earliest ones may be gone (an overwritten ring buffer): then only from its own first event.
uint64_t cpuKnownFrom(const EventStore& store, int cpu);

// A task on a CPU between the switch that put it there and the switch that took it off.
// Slices open at the trace's start (the first switch's prev) begin at cpuKnownFrom();
// slices still open at the end stop at the trace's last timestamp.
struct RunSlice {
    uint64_t start = 0;
    uint64_t end = 0;
    int32_t pid = -1;
    TaskState endState = TaskState::Unknown;  // prev_state of the closing switch
};
std::vector<std::vector<RunSlice>> computeRunSlices(const EventStore& store);  // [cpu]

enum class TaskPhase : uint8_t { Running, Runnable, Sleeping };
constexpr const char* taskPhaseName(TaskPhase p) {
    return p == TaskPhase::Running ? "running" : p == TaskPhase::Runnable ? "runnable" : "sleeping";
}

// One state of one task. Runnable intervals that follow a wakeup carry the waker (-1 if
// unknown or preempted, not woken): see wakerOf().
struct TaskInterval {
    int32_t pid = -1;
    TaskPhase phase = TaskPhase::Running;
    uint64_t start = 0;
    uint64_t end = 0;
    int32_t cpu = -1;    // running: the CPU; runnable: the target CPU when known
    int32_t waker = -1;
    // Runnable after a wakeup: when the waker ran sched_waking, the point of the waker's own
    // timeline where it woke this task. Equal to start, except for a wakeup that raced the
    // task's way to sleep (below): then before the sleep began. 0 when not woken.
    uint64_t wokenAt = 0;
    // Running: its switch in was lost (the task showed up running, as a switch's prev or the
    // task that ran a sched_waking, while it was runnable), so it began no later than `start`
    // and the wait before it has no known end: waits leave it out. Running or runnable at the
    // trace's start: it began before `start` (a wait that ends it has no known start either).
    bool startUnseen = false;
};
// All intervals, ordered by (pid, start) and, for equal starts, in time order (a zero-length
// runnable interval comes before what follows it). pid 0 (idle) is left out.
//
// A task whose first event is a switch was there before it: as the prev of its CPU's first
// switch it ran there since cpuKnownFrom(); as a switch's next, with no wakeup before, it was
// runnable since cpuKnownFrom(). Those intervals are startUnseen: their start is the trace's,
// not the task's.
//
// A wakeup that races the wakee's way to sleep: try_to_wake_up() finds the task still on its
// CPU, its sleeping state already set, so sched_waking is recorded while the task still runs
// (its sched_switch out with prev_state S comes after). The kernel does not lose that wakeup:
// either ttwu_runnable() sets the task running before it blocks (a sched_wakeup follows at once
// and the task does not sleep, or is switched out preempted, R), or the task blocks and the
// wakeup activates it as soon as it is off the CPU (the sched_wakeup comes after the switch).
// So a sched_waking of a task that is running, or runnable (it has not slept since it was
// woken: the kernel's TASK_WAKING state keeps a second ttwu from even tracing sched_waking,
// so the switch in was lost), is kept for the task's next switch out: if that is a sleep, the
// waking is what ends it, even when the sched_wakeup or the switch in is missing: then the
// sleep ends at the task's next switch in or out, or at its next sched_waking (traced only
// once the task has run again), which itself raced the next sleep.
std::vector<TaskInterval> computeTaskIntervals(const EventStore& store);

// The waker of a wake event, given the task the switches say is current on its CPU (`current`,
// from CpuTracker::observe). sched_waking and sched_wakeup_new run in the waker's context, so
// the record's own common_pid (SchedEvent::waker) is the answer when the source kept it; it
// stays right where the trace lost a sched_switch (kernels drop some under load, sometimes
// without counting them). A sched_wakeup may run on the target CPU from the remote wakeup list,
// so for it, and for sources without common_pid, the current task is the best guess.
// A wake event an interrupt did (SchedEvent::byInterrupt: a hardirq or NMI, or a softirq serving
// timers, block I/O, RCU...) has no waker (-1): the task it interrupted did not wake anyone (a
// sched_wakeup in a hardirq is also the wake list's IPI, for a waker on another CPU). One in a
// network softirq, or in a softirq the trace cannot name, keeps its task: loopback networking
// wakes the receiver from the sender's own softirq.
int32_t wakerOf(const SchedEvent& e, int32_t current);

// The task current on each CPU as events stream by in time order (the sched_switch tracker).
class CpuTracker {
public:
    explicit CpuTracker(int cpus) : current_(static_cast<size_t>(cpus), -1) {}
    // Call for every event before looking at current(); returns the current pid of e.cpu
    // *before* e (for a switch: prev_pid).
    int32_t observe(const SchedEvent& e);
    int32_t current(int cpu) const {
        return cpu >= 0 && static_cast<size_t>(cpu) < current_.size() ? current_[static_cast<size_t>(cpu)] : -1;
    }

private:
    std::vector<int32_t> current_;
};

}  // namespace schedscope::tracing
