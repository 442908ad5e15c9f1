#pragma once
// What a run measures, accumulated while it runs.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace schedscope::sim {

// A log-scale histogram (2% buckets from 1 ns): percentiles within 2%, constant memory.
class LatencyHistogram {
public:
    void add(int64_t ns);
    // 0 when empty; else the lower edge of the percentile's bucket, kept within the smallest and
    // largest value added (waits of exactly one 4 ms tick are 4 ms, not the edge's 3,947.6 us)
    double percentileNs(double p) const;
    long long count() const { return total_; }
    // The bucket of a value: floor(ln(ns) / ln(1.02)) + 1, 0 for ns <= 1; bucketOf() looks it
    // up in a table, bucketOfByLog() computes the formula (the tests check they agree).
    static size_t bucketOf(int64_t ns);
    static size_t bucketOfByLog(int64_t ns);

private:
    double withinSamples(double ns) const {
        return std::clamp(ns, static_cast<double>(minNs_), static_cast<double>(maxNs_));
    }
    std::vector<long long> buckets_;
    long long total_ = 0;
    int64_t minNs_ = 0, maxNs_ = 0;
};

struct PlacementSample {
    double timeS = 0;
    std::vector<int> running;  // per CPU: running task id or -1
};

struct Metrics {
    std::map<std::string, long long> migrationsByLevel;  // "CLS", "MC", "NUMA"...
    std::array<long long, 9> migrationsByCause{};        // indexed by MigrationCause
    // runqueue waits, those still open at the end of the run included (up to the end): a task
    // queued behind a CPU hog for the whole run waited that long, not not at all
    LatencyHistogram waitLatency;
    long long openWaits = 0;  // of them, still waiting when the run ended
    int64_t idleWhileOverloadedNs = 0;
    int64_t lastImbalanceCheck = 0;
    bool imbalanced = false;
    std::vector<PlacementSample> timeline;
    // The cores, clusters, LLCs and NUMA nodes running a task, each count integrated over the
    // run (ns): their time averages are the placement spread (placement_spread.h)
    std::array<double, 4> busyUnitNs{};
    long long events = 0;  // simulated events processed (for the benchmark)
    long long activeBalances = 0;
    // of the migrations, delayed-dequeue tasks a migrate_load balance moved while they slept
    // (6.12+: still queued, they carry their load; a trace shows them as sched_migrate_task of
    // a sleeping task)
    long long delayedMigrations = 0;
    long long numaMemoryMoves = 0;  // a task's memory moved to the node it runs on (NUMA balancing)
    // NUMA balancing moved a task to its memory's node (migrate_task_to()), or swapped it with a
    // task running there (migrate_swap())
    long long numaTaskMoves = 0, numaSwaps = 0;
    // newidle balance passes over a domain that ran, and those NI_RANDOM's die skipped
    long long newidleBalances = 0, newidleSkipped = 0;
    // wakeups onto a CPU running another task, and those that preempted it at once (wakeup
    // preemption, or curr's slice found used at the enqueue)
    long long busyWakeups = 0, wakeupPreemptions = 0;
    // ... of them, those a task running on another CPU than the wakee's made (a remote resched:
    // the wakee is queued where another task runs and the IPI tells that CPU)
    long long remoteBusyWakeups = 0, remoteWakeupPreemptions = 0;
    // wakees that read their waker's data from another core (TaskSpec::handoffKB), and the
    // uncontended time spent on those transfers (as they run: one the run's end cut short
    // counts as far as it got, so they never add up to more than the CPU time)
    long long handoffs = 0;
    double handoffNs = 0;
    // The run stalled: every task left was blocked in a Wait, a Barrier or a Take, none running,
    // runnable or asleep on a timer (and none of them could fork the tasks not started), so
    // nothing could end those waits. When the last of them blocked (-1: no stall), and which.
    int64_t stalledAtNs = -1;
    std::vector<int> stalledTasks;
};

}  // namespace schedscope::sim
