#pragma once
// sched_exec()'s moves in a trace. execve() has its CPU's stopper move the task (stop_one_cpu()
// from the task itself), which looks like the task changing its own affinity; the task's own
// sched_process_exec soon after says it was exec balancing (rule 3 of migration_causes.h).
// Shared by the sched_migrate_task rules and the moves inferred from switches.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "affinity_calls.h"
#include "event_schema.h"
#include "migration_causes.h"

namespace schedscope::tracing {

class ExecMoves {
public:
    // `calls`: the trace's sched_setaffinity() calls (affinity_calls.h), which it may not have
    explicit ExecMoves(const AffinityCalls& calls) : calls_(calls) {}
    // out[index] is the task's latest move: a candidate when it was taken for an affinity change,
    // unless a setaffinity call on the task was open then (it was one).
    void moved(const Migration& m, size_t index) {
        if (m.cause == MigrationCause::Affinity && !calls_.covers(m.pid, m.ts)) pending_[m.pid] = index;
        else pending_.erase(m.pid);
    }
    // The task is past any execve() (it forked) or gone.
    void forget(int32_t pid) { pending_.erase(pid); }
    // A sched_process_exec: its thread's candidate move, when recent, becomes exec's.
    void execed(const SchedEvent& e, std::vector<Migration>& out) {
        auto it = pending_.find(e.pid2 >= 0 ? e.pid2 : e.pid);  // old_pid: the thread that called execve()
        if (it == pending_.end()) return;
        if (e.ts - out[it->second].ts <= kExecAfterStopperNs) out[it->second].cause = MigrationCause::Exec;
        pending_.erase(it);
    }

private:
    const AffinityCalls& calls_;
    std::unordered_map<int32_t, size_t> pending_;  // by pid: index of its affinity-like move
};

}  // namespace schedscope::tracing
