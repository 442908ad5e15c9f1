#pragma once
// Allocation-free walks over a CpuSet for the simulator's hot paths.
#include <algorithm>
#include <vector>

#include "util/cpuset.h"

namespace schedscope::sim {

// for_each_cpu_wrap(): the CPUs of `set` from `start` upwards, then from the lowest CPU up to
// `start`. `f(cpu)` returns true to stop; returns true when it stopped early.
template <typename F>
bool forEachCpuWrap(const CpuSet& set, int start, F&& f) {
    for (int c = set.next(start - 1); c >= 0; c = set.next(c))
        if (f(c)) return true;
    for (int c = set.first(); c >= 0 && c < start; c = set.next(c))
        if (f(c)) return true;
    return false;
}

// The same walk over a set kept as an ascending list of CPUs (CpuInfo's precomputed spans):
// no bit scanning and no call per CPU.
template <typename F>
bool forEachCpuWrap(const std::vector<int>& ascending, int start, F&& f) {
    const auto mid = std::lower_bound(ascending.begin(), ascending.end(), start);
    for (auto it = mid; it != ascending.end(); ++it)
        if (f(*it)) return true;
    for (auto it = ascending.begin(); it != mid; ++it)
        if (f(*it)) return true;
    return false;
}

}  // namespace schedscope::sim
