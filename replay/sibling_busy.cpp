#include "sibling_busy.h"

#include <algorithm>
#include <utility>

namespace schedscope::replay {

SiblingBusy::SiblingBusy(const RunSlicesByCpu& slices, const std::vector<CpuSet>& siblings) {
    busy_.resize(slices.size());
    std::vector<std::pair<uint64_t, int>> edges;  // a sibling starts (+1) or stops (-1) running
    for (size_t c = 0; c < slices.size() && c < siblings.size(); ++c) {
        edges.clear();
        siblings[c].forEach([&](int s) {
            if (s == static_cast<int>(c) || s < 0 || static_cast<size_t>(s) >= slices.size()) return;
            for (const tracing::RunSlice& r : slices[static_cast<size_t>(s)]) {
                if (r.pid <= 0 || r.end <= r.start) continue;  // pid 0: the idle task
                edges.emplace_back(r.start, +1);
                edges.emplace_back(r.end, -1);
            }
        });
        std::sort(edges.begin(), edges.end());
        std::vector<Span>& out = busy_[c];
        int running = 0;
        for (size_t i = 0; i < edges.size();) {
            const uint64_t at = edges[i].first;
            for (; i < edges.size() && edges[i].first == at; ++i) running += edges[i].second;
            if (i == edges.size() || running <= 0) continue;
            const uint64_t next = edges[i].first;
            if (!out.empty() && out.back().end == at && out.back().busy == running) out.back().end = next;
            else out.push_back({at, next, running});
        }
    }
}

void SiblingBusy::addOverlapByBusy(int cpu, uint64_t start, uint64_t end, std::vector<uint64_t>& byBusy) const {
    if (cpu < 0 || static_cast<size_t>(cpu) >= busy_.size() || end <= start) return;
    const std::vector<Span>& spans = busy_[static_cast<size_t>(cpu)];
    // the first span ending after `start`
    auto it = std::upper_bound(spans.begin(), spans.end(), start, [](uint64_t t, const Span& s) { return t < s.end; });
    for (; it != spans.end() && it->start < end; ++it) {
        const size_t k = static_cast<size_t>(it->busy);
        if (byBusy.size() <= k) byBusy.resize(k + 1, 0);
        byBusy[k] += std::min(end, it->end) - std::max(start, it->start);
    }
}

uint64_t SiblingBusy::overlapNs(int cpu, uint64_t start, uint64_t end) const {
    std::vector<uint64_t> byBusy;
    addOverlapByBusy(cpu, start, end, byBusy);
    uint64_t sum = 0;
    for (uint64_t ns : byBusy) sum += ns;
    return sum;
}

}  // namespace schedscope::replay
