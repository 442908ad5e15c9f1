#pragma once
// Per-CPU runqueue depth (nr_running: the running task plus the queued ones, idle excluded)
// over time, rebuilt from sched_switch, wakeups and migrations. deriveWorkload() uses it to
// tell a pinned task from one the load balancer merely left alone.
#include <cstdint>
#include <utility>
#include <vector>

#include "event_store.h"

namespace schedscope::replay {

class RunqueueDepth {
public:
    explicit RunqueueDepth(const tracing::EventStore& store);

    int cpuCount() const { return static_cast<int>(steps_.size()); }
    int at(int cpu, uint64_t ts) const;  // depth just after the events at ts
    // Time within [s, e) during which `busy` has queued work (depth >= 2: one running, one
    // waiting) while `other` is idle (depth 0).
    uint64_t idleWhileQueued(int busy, int other, uint64_t s, uint64_t e) const;

private:
    // per CPU: (ts, depth from ts on), time order
    std::vector<std::vector<std::pair<uint64_t, int>>> steps_;
};

}  // namespace schedscope::replay
