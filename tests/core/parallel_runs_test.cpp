// runParallel(): every job runs once, on more than one thread when asked, and a failing job's
// exception reaches the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "util/parallel_runs.h"

namespace schedscope {
namespace {

TEST(ParallelRuns, WorkerCountIsBoundedByTheJobs) {
    EXPECT_EQ(workerCount(10, 4), 4u);
    EXPECT_EQ(workerCount(3, 8), 3u);
    EXPECT_EQ(workerCount(0, 8), 1u);
    EXPECT_GE(workerCount(1000, 0), 1u);
    EXPECT_LE(workerCount(2, 0), 2u);
}

TEST(ParallelRuns, EveryJobRunsOnceAndWritesItsOwnSlot) {
    std::vector<int> slot(257, 0);
    std::atomic<int> calls{0};
    runParallel(slot.size(), 4, [&](size_t i) {
        slot[i] += static_cast<int>(i) * 3;
        ++calls;
    });
    EXPECT_EQ(calls.load(), 257);
    for (size_t i = 0; i < slot.size(); ++i) EXPECT_EQ(slot[i], static_cast<int>(i) * 3) << i;
}

TEST(ParallelRuns, JobsShareTheWorkers) {
    // two jobs that each wait for the other to start can only finish if they run at once
    std::atomic<int> started{0};
    std::mutex m;
    std::set<std::thread::id> threads;
    runParallel(2, 2, [&](size_t) {
        {
            const std::lock_guard hold(m);
            threads.insert(std::this_thread::get_id());
        }
        ++started;
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (started.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    });
    EXPECT_EQ(started.load(), 2);
    EXPECT_EQ(threads.size(), 2u);
}

TEST(ParallelRuns, TheFirstFailureReachesTheCaller) {
    std::atomic<int> ran{0};
    EXPECT_THROW(runParallel(100, 1,
                             [&](size_t i) {
                                 ++ran;
                                 if (i == 5) throw std::runtime_error("job 5 failed");
                             }),
                 std::runtime_error);
    EXPECT_EQ(ran.load(), 6) << "with one worker, no job after the failing one starts";
    EXPECT_NO_THROW(runParallel(0, 4, [](size_t) { FAIL() << "no job to run"; }));
}

}  // namespace
}  // namespace schedscope
