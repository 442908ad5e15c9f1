#include "sim/cfs_bandwidth.h"

#include <algorithm>

namespace schedscope::sim {

void setBandwidth(CfsBandwidth& b, int64_t quotaNs, int64_t periodNs, int64_t burstNs) {
    b = CfsBandwidth{};
    b.quotaNs = quotaNs;
    b.periodNs = std::max<int64_t>(1, periodNs);
    b.burstNs = std::max<int64_t>(0, burstNs);
    b.runtimeNs = b.limited() ? b.quotaNs : 0;
}

void refillBandwidth(CfsBandwidth& b, int64_t now) {
    if (!b.limited()) return;
    const int64_t boundaries = now / b.periodNs;
    if (boundaries <= b.refilledPeriods) return;
    // each refill adds a quota and caps the pool at quota + burst: n of them from a pool r >= 0
    // leave min(r + n quota, quota + burst), one cap at the end (counted without overflow)
    const int64_t n = boundaries - b.refilledPeriods;
    const int64_t cap = b.quotaNs + b.burstNs;
    b.runtimeNs = n >= (cap / b.quotaNs) + 1 ? cap : std::min(cap, b.runtimeNs + n * b.quotaNs);
    b.refilledPeriods = boundaries;
}

int64_t nextPeriodBoundary(const CfsBandwidth& b, int64_t now) { return (now / b.periodNs + 1) * b.periodNs; }

bool assignRuntime(CfsBandwidth& b, int64_t& remaining, int64_t wanted, int64_t now) {
    refillBandwidth(b, now);
    const int64_t amount = std::min(b.runtimeNs, std::max<int64_t>(0, wanted));
    b.runtimeNs -= amount;
    remaining += amount;
    return remaining > 0;
}

bool topUpRuntime(CfsBandwidth& b, int64_t& remaining, int64_t now) {
    return assignRuntime(b, remaining, kBandwidthSliceNs - remaining, now);
}

bool returnSlack(CfsBandwidth& b, int64_t& remaining, int64_t now) {
    const int64_t slack = remaining - kMinCfsRqRuntimeNs;
    if (slack <= 0) return false;
    refillBandwidth(b, now);
    b.runtimeNs += slack;
    remaining -= slack;
    // start_cfs_slack_bandwidth(): not when the period timer is about to hand out runtime anyway
    return b.runtimeNs > kBandwidthSliceNs && !b.throttledCpus.empty() && !b.slackTimerArmed &&
           nextPeriodBoundary(b, now) - now >= kMinBandwidthExpirationNs + kBandwidthSlackPeriodNs;
}

std::vector<int> distributeRuntime(CfsBandwidth& b, const std::function<int64_t&(int cpu)>& remainingOf, int64_t now) {
    refillBandwidth(b, now);
    std::vector<int> unthrottled;
    std::vector<int> still;
    for (int cpu : b.throttledCpus) {
        int64_t& remaining = remainingOf(cpu);
        if (b.runtimeNs > 0) {
            const int64_t amount = std::min(b.runtimeNs, -remaining + 1);
            b.runtimeNs -= amount;
            remaining += amount;
        }
        if (remaining > 0) unthrottled.push_back(cpu);
        else still.push_back(cpu);
    }
    b.throttledCpus = std::move(still);
    return unthrottled;
}

}  // namespace schedscope::sim
