#include "sibling_busy.h"

#include <algorithm>

namespace schedscope::replay {

SiblingBusy::SiblingBusy(const RunSlicesByCpu& slices, const std::vector<CpuSet>& siblings) {
    busy_.resize(slices.size());
    for (size_t c = 0; c < slices.size() && c < siblings.size(); ++c) {
        std::vector<Span>& out = busy_[c];
        siblings[c].forEach([&](int s) {
            if (s == static_cast<int>(c) || s < 0 || static_cast<size_t>(s) >= slices.size()) return;
            for (const tracing::RunSlice& r : slices[static_cast<size_t>(s)])
                if (r.pid > 0 && r.end > r.start) out.push_back({r.start, r.end});  // pid 0: the idle task
        });
        // several siblings (SMT4, SMT8): their union, a sibling busy whichever it is
        std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
        size_t kept = 0;
        for (const Span& s : out) {
            if (kept > 0 && s.start <= out[kept - 1].end) out[kept - 1].end = std::max(out[kept - 1].end, s.end);
            else out[kept++] = s;
        }
        out.resize(kept);
    }
}

uint64_t SiblingBusy::overlapNs(int cpu, uint64_t start, uint64_t end) const {
    if (cpu < 0 || static_cast<size_t>(cpu) >= busy_.size() || end <= start) return 0;
    const std::vector<Span>& spans = busy_[static_cast<size_t>(cpu)];
    // the first span ending after `start`
    auto it = std::upper_bound(spans.begin(), spans.end(), start, [](uint64_t t, const Span& s) { return t < s.end; });
    uint64_t sum = 0;
    for (; it != spans.end() && it->start < end; ++it) sum += std::min(end, it->end) - std::max(start, it->start);
    return sum;
}

}  // namespace schedscope::replay
