#pragma once
// A synthetic mix of short CPU bursts and sleeps (1 ms each, 50% jitter), looping forever:
// wakeups all the time, so placement and balancing run constantly. Every `memoryEvery`-th task
// is memory-bound. The simulator benchmark (`bench sim`) and contention tests use it.
#include "workload/workload.h"

namespace schedscope::workload {

Workload burstsAndSleeps(int tasks, int memoryEvery, double memFraction, double bandwidthGBs);

}  // namespace schedscope::workload
