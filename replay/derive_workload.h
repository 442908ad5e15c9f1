#pragma once
// deriveWorkload(): turns a recorded sched trace into a simulator workload, so the machine's
// own run can be replayed under other placement rules (CLS/NODE on or off, another machine).
//
// Per kept task the script follows its recorded timeline in order:
//   Run       CPU time between switch-in and the next action (preemptions merged away: being
//             runnable-but-not-running is the scheduler's business, not the task's), scaled by
//             the CPU's capacity / 1024 and by `scale`;
//   Wake      at the point of the waker's timeline where it executed sched_waking for a kept
//             task (1:N when it woke several without running in between); a waking that raced
//             the wakee's way to sleep ends the sleep that follows it (computeTaskIntervals),
//             so its Wake comes before the wakee's Wait, which keeps it, as the kernel does;
//   Wait      for a sleep ended by such a wakeup: the wakee waits until its simulated waker
//             reaches the same point, not for the recorded time;
//   Sleep     for a sleep ended by anything else (timer or interrupt from idle, a dropped
//             kernel thread, a task outside the filters): the recorded sleep time;
//   Fork      where the parent executed sched_process_fork for a kept child;
//   SetAffinity where an affinity (or exec) migration starts a stretch with different pinning;
//   exit      the script ends where the task's timeline ends.
// Lives outside core/ because it reads tracing's EventStore; core/workload stays trace-free.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "event_store.h"
#include "trace_timelines.h"
#include "topology/topology.h"
#include "util/cpuset.h"
#include "util/result.h"
#include "workload/workload.h"

namespace schedscope::replay {

// A comm regex and what it sets (ECMAScript regex, matched against the whole comm).
struct MemoryRule {
    std::string commRegex;
    double share = 0;  // memory-bound share of uncontended time, 0..1
};
struct AffinityRule {
    std::string commRegex;
    CpuSet cpus;
};

// The default run limit of a replay of a window of `windowS` seconds: 3x it + 1 s.
inline double defaultRunLimitS(double windowS) { return 3.0 * windowS + 1.0; }

struct DeriveOptions {
    // Window in seconds from the trace's first event; end < 0 means the trace's end.
    double windowStartS = 0;
    double windowEndS = -1;
    std::vector<int32_t> pids;           // keep these and their descendants forked in the trace
    std::vector<std::string> commRegex;  // keep tasks whose comm matches (with pids: either)
    bool keepKernelThreads = false;      // default drops kworker, ksoftirqd, migration, idle...
    double scale = 1.0;                  // multiplies every run burst (2 = twice the CPU demand)
    // Simulated seconds after which a replay stops, finished or not; 0: 3x the window + 1 s
    // (defaultRunLimitS()), long enough for a what-if three times slower than the recording.
    double runLimitS = 0;
    std::vector<MemoryRule> memory;      // first match wins
    double defaultMemoryShare = 0;       // for tasks no rule matches
    std::vector<AffinityRule> affinity;  // overrides what the trace suggests
    // Which task-to-task wakeups are WF_SYNC. A sched trace does not show the flag, which the
    // kernel sets by mechanism: pipes and sockets wake with it, futexes (mutexes, condition
    // variables, thread pools) without. false: those whose waker blocks right after (its reading
    // the answer); true: all (a workload known to talk through pipes or sockets).
    bool allWakeupsSync = false;
    // Per CPU capacity of the recording machine (cpu_capacity, 1024 = full); empty: all 1024.
    std::vector<unsigned> capacity;
    // The recording machine's SMT siblings per CPU, and how much slower a thread ran while one of
    // them ran too (the contention model's smtSlowdown for that machine): such CPU time is
    // replayed as time / smtSlowdown of work, time with k threads of the core busy as time /
    // smtSlowdownOf(k) (SMT4, SMT8). Empty, or 1: CPU time is work as it is.
    std::vector<CpuSet> smtSiblings;
    double smtSlowdown = 1.0;
    int cpuCount = 0;  // CPUs of the recording machine; 0: the highest CPU in the trace + 1
};

// One derived task and what the trace said about it.
struct DerivedTask {
    int32_t pid = -1;
    std::string comm;
    int32_t parent = -1;       // forking pid when the fork is in the window and kept, else -1
    uint64_t cpuTimeNs = 0;    // recorded CPU time in the window (not capacity-scaled)
    int64_t firstNs = 0;       // first appearance, relative to the window start
    int64_t exitNs = -1;       // recorded exit (last switch out as dead), relative; -1 none
    bool affinityFromTrace = false;  // pinning inferred (else from a user rule or none)
    CpuSet initialAffinity;    // empty: every CPU
    int wakes = 0, waits = 0, sleeps = 0;
};

struct WakeEdge {
    int waker = 0, wakee = 0;  // task indices
    int count = 0;
};

struct DerivedWorkload {
    workload::Workload workload;
    std::vector<DerivedTask> tasks;  // same order as workload.tasks
    std::vector<WakeEdge> edges;     // waker -> wakee, by (waker, wakee)
    int multiWakeOps = 0;            // Wake ops with more than one target (1:N)
    int execs = 0;                   // Exec ops: execve() calls of kept tasks in the window
    uint64_t traceStartNs = 0;                    // the trace's first event
    uint64_t windowStartNs = 0, windowEndNs = 0;  // absolute trace timestamps
    int cpuCount = 0;
    std::vector<std::string> assumptions;  // what the trace cannot show and was assumed
    int droppedTasks = 0;                  // tasks in the window left out by the filters
    bool runLimitGiven = false;            // workload.durationS is DeriveOptions::runLimitS

    int indexOfPid(int32_t pid) const;  // -1 if not kept
};

// Kernel threads dropped by default: kworker/, ksoftirqd/, migration/, idle/swapper, rcu*,
// cpuhp/, kthreadd, watchdog/, irq/, k(compactd|swapd|hugepaged).
bool isKernelThreadComm(std::string_view comm);

// Errors (one line naming `what`): no sched_switch events, an empty window, no task left after
// the filters, a bad regex.
// `timelines` are the store's (TraceTimelines::of(store)); the short form derives them itself.
Result<DerivedWorkload> deriveWorkload(const tracing::EventStore& store, const TraceTimelines& timelines,
                                       const DeriveOptions& options, const std::string& what);

// `options` with what the recording machine says of how fast its CPUs ran: their count and
// capacities, their SMT siblings and the contention model's smtSlowdown for that machine.
DeriveOptions onRecordingMachine(DeriveOptions options, const Topology& recordedOn);
Result<DerivedWorkload> deriveWorkload(const tracing::EventStore& store, const DeriveOptions& options,
                                       const std::string& what);

}  // namespace schedscope::replay
