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

// One state of one task. Runnable intervals that follow a wakeup carry the waker: the task
// current on the CPU that executed sched_waking (-1 if unknown or preempted, not woken).
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
