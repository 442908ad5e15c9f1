#pragma once
// Independent jobs (the seeds and settings of a what-if comparison) on several threads. Each
// job writes only its own result slot, so the results come back in job order whichever thread
// ran them: a comparison prints the same figures with one worker or eight.
#include <cstddef>
#include <functional>

namespace schedscope {

// The workers to use for `jobs` jobs: `requested` if > 0, else one per hardware thread; never
// more than the jobs, at least one.
unsigned workerCount(size_t jobs, unsigned requested = 0);

// Calls job(i) for every i in [0, jobs) on `workers` threads (the caller's counts as one) and
// returns when all are done. A job that throws stops the others from taking new jobs and the
// first exception is rethrown here.
void runParallel(size_t jobs, unsigned workers, const std::function<void(size_t)>& job);

}  // namespace schedscope
