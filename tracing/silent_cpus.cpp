#include "silent_cpus.h"

#include <algorithm>

#include "util/cpuset.h"

namespace schedscope::tracing {

std::vector<int> silentCpus(const EventStore& store, int cpus) {
    std::vector<int> out;
    if (store.size() == 0) return out;
    for (int c = 0; c < std::max(cpus, store.cpusCovered()); ++c)
        if (c >= store.cpuCount() || store.cpuSize(c) == 0) out.push_back(c);
    return out;
}

std::string describeSilentCpus(const std::vector<int>& silent) {
    if (silent.empty()) return "";
    CpuSet set;
    for (int c : silent) set.set(c);
    return std::string("no events at all on ") + (silent.size() == 1 ? "CPU " : "CPUs ") + set.toList() +
           " (not traced: trace-cmd record -M? or idle throughout)";
}

}  // namespace schedscope::tracing
