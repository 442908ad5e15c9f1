#pragma once
// Derived tables, computed on demand from an EventStore (not resident with the events):
// per-CPU run slices from sched_switch pairs and per-task state intervals.
#include <cstdint>
#include <vector>

#include "event_store.h"

namespace schedscope::tracing {

// A task on a CPU between the switch that put it there and the switch that took it off.
// Slices open at the trace's start (the first switch's prev) begin at the CPU's first event;
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
};
// All intervals, ordered by (pid, start). pid 0 (idle) is left out.
std::vector<TaskInterval> computeTaskIntervals(const EventStore& store);

// The waker of a wake event, given the task the switches say is current on its CPU (`current`,
// from CpuTracker::observe). sched_waking and sched_wakeup_new run in the waker's context, so
// the record's own common_pid (SchedEvent::waker) is the answer when the source kept it; it
// stays right where the trace lost a sched_switch (kernels drop some under load, sometimes
// without counting them). A sched_wakeup may run on the target CPU from the remote wakeup list,
// so for it, and for sources without common_pid, the current task is the best guess.
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
