#include "affinity_calls.h"

#include <algorithm>

namespace schedscope::tracing {

AffinityCalls::AffinityCalls(std::vector<AffinityCallRecord> records) {
    std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.ts < b.ts; });
    struct Open {
        uint64_t ts;
        int32_t target;
    };
    std::unordered_map<int32_t, Open> openByCaller;  // a thread is in one syscall at a time
    auto close = [&](const Open& o, uint64_t to) { byTarget_[o.target].push_back({o.ts, to}); };
    for (const AffinityCallRecord& r : records) {
        auto it = openByCaller.find(r.caller);
        if (r.exit) {
            if (it == openByCaller.end()) continue;  // its enter was before the trace (or lost)
            close(it->second, r.ts);
            openByCaller.erase(it);
            continue;
        }
        // a second enter before an exit: the first call's exit was lost
        if (it != openByCaller.end()) close(it->second, std::min(r.ts, it->second.ts + kAffinityCallWithoutExitNs));
        openByCaller[r.caller] = {r.ts, r.target};
    }
    for (const auto& [caller, o] : openByCaller) close(o, o.ts + kAffinityCallWithoutExitNs);
    for (auto& [target, spans] : byTarget_)
        std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
}

std::vector<uint64_t> AffinityCalls::callEnds(int32_t pid) const {
    std::vector<uint64_t> out;
    if (const auto it = byTarget_.find(pid); it != byTarget_.end())
        for (const Span& s : it->second) out.push_back(s.to);
    std::sort(out.begin(), out.end());
    return out;
}

bool AffinityCalls::covers(int32_t pid, uint64_t ts) const {
    const auto it = byTarget_.find(pid);
    if (it == byTarget_.end()) return false;
    // the latest call entered at or before ts (calls on one task hardly overlap)
    const auto& spans = it->second;
    auto after = std::upper_bound(spans.begin(), spans.end(), ts, [](uint64_t t, const Span& s) { return t < s.from; });
    return after != spans.begin() && ts <= std::prev(after)->to;
}

}  // namespace schedscope::tracing
