#include "util/parallel_runs.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace schedscope {

unsigned workerCount(size_t jobs, unsigned requested) {
    const unsigned want = requested > 0 ? requested : std::max(1U, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(want, jobs)));
}

void runParallel(size_t jobs, unsigned workers, const std::function<void(size_t)>& job) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr firstError;
    std::mutex errorLock;
    auto work = [&] {
        for (;;) {
            const size_t i = next.fetch_add(1);
            if (i >= jobs || failed.load()) return;
            try {
                job(i);
            } catch (...) {
                const std::lock_guard lock(errorLock);
                if (!firstError) firstError = std::current_exception();
                failed = true;
            }
        }
    };
    const unsigned n = workerCount(jobs, workers);
    std::vector<std::thread> helpers;
    helpers.reserve(n - 1);
    for (unsigned k = 1; k < n; ++k) helpers.emplace_back(work);
    work();
    for (auto& t : helpers) t.join();
    if (firstError) std::rethrow_exception(firstError);
}

}  // namespace schedscope
