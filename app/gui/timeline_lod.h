#pragma once
// Level-of-detail math of the timeline, Qt-free on purpose (like time_axis.h, and
// KernelShark's kshark_trace_histo): per-lane run slices with busy-time prefix sums, so the
// busy fraction of any time range is two binary searches, and a frame costs
// O(pixel columns x lanes x log slices), never O(events).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedscope {

// One CPU's non-idle run slices in time order (they never overlap), with the running total of
// busy time before each slice.
class LaneSlices {
public:
    // Appends [start, end) for `pid`; slices must come in time order and not overlap (a slice
    // starting before the previous end is clipped to it, an empty one is dropped).
    void add(uint64_t start, uint64_t end, int32_t pid) {
        if (!end_.empty()) start = std::max(start, end_.back());
        if (end <= start) return;
        if (prefix_.empty()) prefix_.push_back(0);
        start_.push_back(start);
        end_.push_back(end);
        pid_.push_back(pid);
        prefix_.push_back(prefix_.back() + (end - start));
    }
    void reserve(size_t n) {
        start_.reserve(n);
        end_.reserve(n);
        pid_.reserve(n);
        prefix_.reserve(n + 1);
    }

    size_t size() const { return pid_.size(); }
    bool empty() const { return pid_.empty(); }
    uint64_t start(size_t i) const { return start_[i]; }
    uint64_t end(size_t i) const { return end_[i]; }
    int32_t pid(size_t i) const { return pid_[i]; }

    // Index of the first slice ending after t (size() if none): the slice covering t, or the
    // next one.
    size_t firstEndingAfter(uint64_t t) const {
        return static_cast<size_t>(std::upper_bound(end_.begin(), end_.end(), t) - end_.begin());
    }
    // The slice covering t, or -1.
    ptrdiff_t sliceAt(uint64_t t) const {
        const size_t i = firstEndingAfter(t);
        return i < size() && start_[i] <= t ? static_cast<ptrdiff_t>(i) : -1;
    }
    // Busy nanoseconds before t.
    uint64_t busyBefore(uint64_t t) const {
        if (empty()) return 0;
        const size_t i = firstEndingAfter(t);
        uint64_t b = prefix_[i];
        if (i < size() && start_[i] < t) b += t - start_[i];
        return b;
    }
    // Busy nanoseconds in [t0, t1).
    uint64_t busyIn(uint64_t t0, uint64_t t1) const { return t1 > t0 ? busyBefore(t1) - busyBefore(t0) : 0; }
    // Slices overlapping [t0, t1) as an index range [first, last).
    std::pair<size_t, size_t> overlapping(uint64_t t0, uint64_t t1) const {
        const size_t first = firstEndingAfter(t0);
        const size_t last = static_cast<size_t>(std::lower_bound(start_.begin(), start_.end(), t1) - start_.begin());
        return {first, std::max(first, last)};
    }
    // As firstEndingAfter, searching only [from, size()): galloping from `from`, so walking
    // forward through time costs O(log distance) per step and stays in cache.
    size_t firstEndingAfterFrom(uint64_t t, size_t from) const {
        const size_t n = size();
        if (from >= n || end_[from] > t) return std::min(from, n);
        size_t step = 1, lo = from, hi = from + 1;
        while (hi < n && end_[hi] <= t) {
            lo = hi;
            step *= 2;
            hi = std::min(n, hi + step);
        }
        return static_cast<size_t>(std::upper_bound(end_.begin() + static_cast<ptrdiff_t>(lo), end_.begin() + static_cast<ptrdiff_t>(hi), t) -
                                   end_.begin());
    }
    // Busy nanoseconds before t, given i = firstEndingAfter(t).
    uint64_t busyBeforeAt(uint64_t t, size_t i) const {
        if (empty()) return 0;
        uint64_t b = prefix_[i];
        if (i < size() && start_[i] < t) b += t - start_[i];
        return b;
    }
    uint64_t totalBusy() const { return prefix_.empty() ? 0 : prefix_.back(); }

private:
    std::vector<uint64_t> start_, end_;
    std::vector<int32_t> pid_;
    std::vector<uint64_t> prefix_;  // prefix_[i] = busy ns of slices [0, i)
};

// What one pixel column of one lane shows.
struct LodColumn {
    float busy = 0;     // fraction of the column's time some task ran, 0..1
    int32_t pid = -1;   // the task on the CPU at the column's middle, else the first one in it
};

// The pixel column boundaries of the window [t0, t1) split into `columns` columns: column c
// covers [edge(c), edge(c+1)).
inline uint64_t columnEdge(uint64_t t0, uint64_t t1, int columns, int c) {
    return t0 + static_cast<uint64_t>(std::llround(static_cast<double>(t1 - t0) * c / std::max(columns, 1)));
}

// Bins a lane over the window [t0, t1) into `columns` columns (out is resized).
// Cost: O(columns x log(slices per column)), independent of how many slices the window
// holds: the search walks forward from the previous column (galloping).
inline void binLane(const LaneSlices& lane, uint64_t t0, uint64_t t1, int columns, std::vector<LodColumn>& out) {
    out.assign(static_cast<size_t>(std::max(columns, 0)), LodColumn{});
    if (columns <= 0 || t1 <= t0 || lane.empty()) return;
    uint64_t edge = t0;
    size_t iEdge = lane.firstEndingAfter(edge);
    uint64_t busyAtEdge = lane.busyBeforeAt(edge, iEdge);
    for (int c = 0; c < columns; ++c) {
        const uint64_t next = columnEdge(t0, t1, columns, c + 1);
        if (next <= edge) continue;  // more columns than nanoseconds
        const size_t iNext = lane.firstEndingAfterFrom(next, iEdge);
        const uint64_t busyAtNext = lane.busyBeforeAt(next, iNext);
        LodColumn& col = out[static_cast<size_t>(c)];
        col.busy = static_cast<float>(static_cast<double>(busyAtNext - busyAtEdge) / static_cast<double>(next - edge));
        if (busyAtNext > busyAtEdge) {
            // The slice at the column's middle, else the first one in the column.
            const uint64_t mid = edge + (next - edge) / 2;
            const size_t m = lane.firstEndingAfterFrom(mid, iEdge);
            if (m < lane.size() && lane.start(m) <= mid) col.pid = lane.pid(m);
            else if (iEdge < lane.size()) col.pid = lane.pid(iEdge);
        }
        edge = next;
        iEdge = iNext;
        busyAtEdge = busyAtNext;
    }
}

// Number of sorted timestamps in [t0, t1).
inline size_t countInRange(const std::vector<uint64_t>& sortedTs, uint64_t t0, uint64_t t1) {
    if (t1 <= t0) return 0;
    const auto a = std::lower_bound(sortedTs.begin(), sortedTs.end(), t0);
    const auto b = std::lower_bound(a, sortedTs.end(), t1);
    return static_cast<size_t>(b - a);
}

// Indices into a time-sorted sequence, at most one per `bucketPx` pixels of the window: what
// to draw of a dense event list (migration arrows) so the cost stays O(pixels).
// `tsOf(i)` gives the i-th timestamp; n is the count.
template <typename TsOf>
std::vector<size_t> sampleForPixels(size_t n, TsOf tsOf, uint64_t t0, uint64_t t1, int widthPx, int bucketPx = 1) {
    std::vector<size_t> out;
    if (n == 0 || t1 <= t0 || widthPx <= 0) return out;
    // The first index in [from, n) with tsOf >= t: galloping from `from`, so stepping through
    // the window touches O(log distance) entries per step, near each other.
    auto lower = [&](uint64_t t, size_t from) {
        size_t lo = from, hi = from, step = 1;
        while (hi < n && tsOf(hi) < t) {
            lo = hi + 1;
            hi = std::min(n, hi + step);
            step *= 2;
        }
        while (lo < hi) {
            const size_t m = lo + (hi - lo) / 2;
            if (tsOf(m) < t) lo = m + 1;
            else hi = m;
        }
        return lo;
    };
    const double nsPerPx = static_cast<double>(t1 - t0) / widthPx;
    size_t i = lower(t0, 0);
    while (i < n && tsOf(i) < t1) {
        out.push_back(i);
        const auto px = static_cast<int64_t>(static_cast<double>(tsOf(i) - t0) / nsPerPx);
        const uint64_t nextT = t0 + static_cast<uint64_t>(std::ceil(static_cast<double>(px + bucketPx) * nsPerPx));
        i = lower(nextT, i + 1);
    }
    return out;
}

// The p-th percentile (0..100) of values by nearest rank; sorts a copy. 0 when empty.
inline uint64_t percentile(std::vector<uint64_t> v, double p) {
    if (v.empty()) return 0;
    const auto rank = static_cast<size_t>(std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(v.size())));
    const size_t k = rank == 0 ? 0 : rank - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<ptrdiff_t>(k), v.end());
    return v[k];
}

// Log-spaced histogram: bucket b counts values in [lo*r^b, lo*r^(b+1)), r = (hi/lo)^(1/bins);
// values below lo go to bucket 0, above hi to the last one.
struct LogHistogram {
    double lo = 1, hi = 1e9;
    std::vector<uint64_t> counts;
    double edge(size_t b) const { return lo * std::pow(hi / lo, static_cast<double>(b) / static_cast<double>(counts.size())); }
};
inline LogHistogram logHistogram(const std::vector<uint64_t>& values, size_t bins, double lo = 0, double hi = 0) {
    LogHistogram h;
    h.counts.assign(std::max<size_t>(bins, 1), 0);
    if (lo <= 0 || hi <= lo) {
        uint64_t mn = UINT64_MAX, mx = 0;
        for (uint64_t v : values) {
            mn = std::min(mn, std::max<uint64_t>(v, 1));
            mx = std::max(mx, v);
        }
        lo = values.empty() ? 1 : static_cast<double>(mn);
        hi = values.empty() ? 10 : std::max(static_cast<double>(mx) * 1.0001, lo * 10);
    }
    h.lo = lo;
    h.hi = hi;
    const double logSpan = std::log(hi / lo);
    for (uint64_t v : values) {
        const double x = std::log(std::max(static_cast<double>(v), 1.0) / lo) / logSpan;
        const auto b = static_cast<int64_t>(std::floor(x * static_cast<double>(h.counts.size())));
        ++h.counts[static_cast<size_t>(std::clamp<int64_t>(b, 0, static_cast<int64_t>(h.counts.size()) - 1))];
    }
    return h;
}

}  // namespace schedscope
