#include "interrupt_context.h"

namespace schedscope::tracing {

void SoftirqTracker::enter(int cpu, int64_t vec) {
    if (cpu < 0) return;
    if (static_cast<size_t>(cpu) >= vec_.size()) vec_.resize(static_cast<size_t>(cpu) + 1, -1);
    // NR_SOFTIRQS is 10: anything else is a vector this code does not know the nature of
    vec_[static_cast<size_t>(cpu)] = vec >= 0 && vec <= static_cast<int>(SoftirqVec::Rcu) ? static_cast<int8_t>(vec) : -1;
}

void SoftirqTracker::exit(int cpu) {
    if (cpu >= 0 && static_cast<size_t>(cpu) < vec_.size()) vec_[static_cast<size_t>(cpu)] = -1;
}

int SoftirqTracker::vec(int cpu) const {
    return cpu >= 0 && static_cast<size_t>(cpu) < vec_.size() ? vec_[static_cast<size_t>(cpu)] : -1;
}

bool byInterrupt(bool hardirq, bool softirq, int vec) {
    if (hardirq) return true;
    if (!softirq || vec < 0) return false;  // task context, or a softirq of unknown purpose
    const auto v = static_cast<SoftirqVec>(vec);
    return v != SoftirqVec::NetTx && v != SoftirqVec::NetRx;
}

bool inSchedSoftirq(bool hardirq, bool softirq, int vec) {
    return softirq && !hardirq && (vec < 0 || static_cast<SoftirqVec>(vec) == SoftirqVec::Sched);
}

}  // namespace schedscope::tracing
