#pragma once
// The live-capture workload: two busy threads pinned to CPUs 0 and 1; the first is moved back
// and forth with sched_setaffinity by this thread, itself pinned on the source CPU ("taskset
// from a task on the source CPU"), so each move goes through the source CPU's stopper.
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

namespace schedscope::test {

inline void pinTo(pid_t tid, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(tid, sizeof set, &set);
}

// Runs `moves` moves 0 -> 1 -> 0 ... of a busy thread, calling `between` after each. Returns
// the moved thread's tid.
inline pid_t runPinnedMoves(int moves, const std::function<void()>& between) {
    std::atomic<bool> stop{false};
    std::atomic<pid_t> tids[2] = {0, 0};
    std::vector<std::thread> loops;
    for (int i = 0; i < 2; ++i)
        loops.emplace_back([&, i] {
            tids[i] = static_cast<pid_t>(syscall(SYS_gettid));
            pinTo(0, i);
            while (!stop.load(std::memory_order_relaxed)) {
            }
        });
    while (!tids[0] || !tids[1]) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (int m = 0; m < moves; ++m) {
        pinTo(0, m % 2);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        pinTo(tids[0], (m + 1) % 2);
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        between();
    }
    stop = true;
    for (auto& t : loops) t.join();
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
    sched_setaffinity(0, sizeof all, &all);
    return tids[0];
}

}  // namespace schedscope::test
