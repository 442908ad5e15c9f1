#include "sim/group_shares.h"

#include <algorithm>

#include "workload/workload.h"

namespace schedscope::sim {

double calcGroupShares(const TaskGroupState& g, int cpu, double cfsLoadAvg) {
    const GroupOnCpu& here = g.onCpu[static_cast<size_t>(cpu)];
    const double load = std::max(here.queuedWeight, cfsLoadAvg);
    // tg->load_avg with this CPU's own contribution replaced by its load now: never below it
    const double tgWeight = g.loadAvg - here.loadContrib + load;
    double shares = g.shares * load;
    if (tgWeight > 0) shares /= tgWeight;
    return std::clamp(shares, static_cast<double>(workload::kMinGroupShares), g.shares);
}

double flattenedWeight(double niceWeight, double shares, double queuedWeight) {
    if (queuedWeight <= 0) return std::max(2.0, shares);
    return std::max(2.0, niceWeight * shares / queuedWeight);
}

double flattenedWeight(double niceWeight, const std::vector<TaskGroupState>& groups, int group, int cpu) {
    double w = niceWeight;
    for (int g = group; g >= 0; g = groups[static_cast<size_t>(g)].parent) {
        const GroupOnCpu& on = groups[static_cast<size_t>(g)].onCpu[static_cast<size_t>(cpu)];
        w = on.queuedWeight > 0 ? w * on.shares / on.queuedWeight : on.shares;
    }
    return std::max(2.0, w);
}

bool isGroupOrAncestorOf(const std::vector<TaskGroupState>& groups, int g, int h) {
    for (int k = h; k >= 0; k = groups[static_cast<size_t>(k)].parent)
        if (k == g) return true;
    return g < 0;
}

bool groupThrottledOn(const std::vector<TaskGroupState>& groups, int group, int cpu) {
    for (int g = group; g >= 0; g = groups[static_cast<size_t>(g)].parent) {
        const TaskGroupState& grp = groups[static_cast<size_t>(g)];
        if (grp.bandwidth.limited() && grp.onCpu[static_cast<size_t>(cpu)].throttled) return true;
    }
    return false;
}

}  // namespace schedscope::sim
