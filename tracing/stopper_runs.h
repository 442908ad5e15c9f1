#pragma once
// Which job a cpu stopper ("migration/N") ran. An affinity change of a running task and an
// active balance both preempt the task with its CPU's stopper, which moves it; they differ in
// who woke the stopper. affine_move_task() wakes it with stop_one_cpu() from the task whose
// affinity changes (on the stopper's own CPU) or from the caller, which then waits for the
// stopper to complete it (the stopper wakes its waker before it switches out);
// active_load_balance_cpu_stop() is kicked from the balancing CPU's softirq with
// stop_one_cpu_nowait() and completes nobody.
#include <cstdint>
#include <string_view>
#include <unordered_map>

namespace schedscope::tracing {

inline bool isStopper(std::string_view comm) { return comm.starts_with("migration/"); }

class StopperRuns {
public:
    // A wake event of the stopper `stopper` by `waker` (-1: unknown), recorded on `cpu`.
    // keepFirst: a sched_wakeup after the same wake's sched_waking adds nothing.
    void woken(int32_t stopper, int32_t waker, int32_t cpu, bool keepFirst) {
        if (keepFirst && runs_.count(stopper)) return;
        runs_[stopper] = Run{waker, cpu, false};
    }
    // A wake event of `pid` by `waker`: the running stopper completing its waker?
    void wakes(int32_t waker, int32_t pid) {
        auto it = runs_.find(waker);
        if (it != runs_.end() && it->second.waker == pid) it->second.wokeWaker = true;
    }
    // At the stopper's switch out on `cpu`: did its run change a task's affinity?
    bool wasAffinity(int32_t stopper, int32_t cpu) const {
        auto it = runs_.find(stopper);
        return it != runs_.end() && (it->second.wokeWaker || it->second.wakerCpu == cpu);
    }
    void finished(int32_t stopper) { runs_.erase(stopper); }

private:
    struct Run {
        int32_t waker = -1;
        int32_t wakerCpu = -1;
        bool wokeWaker = false;
    };
    std::unordered_map<int32_t, Run> runs_;  // by stopper pid
};

}  // namespace schedscope::tracing
