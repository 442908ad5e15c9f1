#include "sim/util_est.h"

#include <algorithm>

namespace schedscope::sim {
namespace {
// PELT's period: an average moves only when an update crosses one of its boundaries
constexpr int64_t kPeltPeriodNs = 1024 * 1000;
}  // namespace

namespace detail {

void updateEstimate(SimState& s, Task& t, int cpu) {
    // UTIL_AVG_UNCHANGED: no period boundary since the last update, so the average is as it was
    if (t.utilEstAt >= 0 && t.utilEstAt / kPeltPeriodNs == s.now / kPeltPeriodNs) return;
    // the kernel's averages are integers: task_util(), task_runnable()
    const auto dequeued = static_cast<unsigned>(s.taskUtil(t.id));
    const auto runnable = static_cast<unsigned>(s.tasks[static_cast<size_t>(t.id)].runnable.peek(s.now));
    unsigned ewma = t.utilEst;
    const auto done = [&] {
        t.utilEst = ewma;
        t.utilEstAt = s.now;
    };
    if (ewma <= dequeued) {  // a rise is taken at once
        ewma = dequeued;
        return done();
    }
    const unsigned lastEwmaDiff = ewma - dequeued;
    if (lastEwmaDiff < kUtilEstMargin) return done();
    // more than the CPU could give: no idle time to tell the task's own need by
    if (dequeued > static_cast<unsigned>(s.capacityOf(cpu))) return;
    // it waited for the CPU: it may have wanted more than it got, so no decay
    if (dequeued + kUtilEstMargin < runnable) return done();
    // ewma = ewma + (dequeued - ewma) / 4, as the kernel computes it
    ewma = ((ewma << 2) - lastEwmaDiff) >> 2;
    done();
}

double excessOver(SimState& s, const CpuSet& span) {
    double excess = 0;
    span.forEach([&](int c) {
        const Cpu& r = s.cpus[static_cast<size_t>(c)];
        if (r.utilEst == 0) return;
        excess += std::max(0.0, std::min(1024.0, static_cast<double>(r.utilEst)) - r.util.peek(s.now));
    });
    return excess;
}

}  // namespace detail
}  // namespace schedscope::sim
