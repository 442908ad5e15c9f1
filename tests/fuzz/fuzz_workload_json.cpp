// The workload JSON format: a workload whose task references are in range, or a one-line error.
#include <cstdlib>
#include <string>

#include "workload/workload_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto w = schedscope::workload::parseWorkloadJson(text, "fuzz.json", 24);
    if (!w.ok()) {
        if (w.error().find('\n') != std::string::npos) std::abort();
        return 0;
    }
    const auto n = static_cast<int>(w->tasks.size());
    for (const auto& g : w->groups) {
        if (g.name.empty() || g.shares < schedscope::workload::kMinGroupShares || g.shares > schedscope::workload::kMaxGroupShares)
            std::abort();
        // parents in range, and every chain reaches the root within the depth bound
        int depth = 0;
        for (int p = g.parent; p >= 0; p = w->groups[static_cast<size_t>(p)].parent)
            if (p >= static_cast<int>(w->groups.size()) || ++depth > schedscope::workload::kMaxGroupDepth) std::abort();
        // a bandwidth limit within the kernel's ranges, or none
        namespace wl = schedscope::workload;
        if (g.quotaUs != -1 && (g.quotaUs < wl::kMinBandwidthQuotaUs || g.quotaUs > wl::kMaxBandwidthQuotaUs ||
                                g.periodUs < wl::kMinBandwidthPeriodUs || g.periodUs > wl::kMaxBandwidthPeriodUs ||
                                g.burstUs < 0 || g.burstUs > g.quotaUs))
            std::abort();
    }
    for (const auto& t : w->tasks) {
        if (t.nice < -20 || t.nice > 19) std::abort();
        if (!t.affinity.empty() && t.affinity.last() >= 24) std::abort();
        // start_cpu: a CPU of the topology and of its affinity, on a task that starts at the beginning
        if (t.startCpu >= 24 || (t.startCpu >= 0 && (!t.startAtBegin || (!t.affinity.empty() && !t.affinity.test(t.startCpu)))))
            std::abort();
        // group: the root group or one of the workload's groups
        if (t.group < -1 || t.group >= static_cast<int>(w->groups.size())) std::abort();
        for (size_t k = 0; k < t.script.size(); ++k) {
            const auto& op = t.script[k];
            for (int x : op.targets)
                if (x < 0 || x >= n) std::abort();
            if (op.kind == schedscope::workload::OpKind::Loop && (op.to < 0 || static_cast<size_t>(op.to) >= k)) std::abort();
            if (op.kind == schedscope::workload::OpKind::Barrier && op.parties < 1) std::abort();
        }
    }
    return 0;
}
