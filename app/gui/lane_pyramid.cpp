#include "lane_pyramid.h"

#include <algorithm>
#include <cmath>

namespace schedscope {

PyramidGrid PyramidGrid::covering(uint64_t t0, uint64_t t1, size_t bins) {
    PyramidGrid g;
    g.origin = t0;
    const uint64_t span = t1 > t0 ? t1 - t0 + 1 : 1;  // t1 itself is inside the grid
    bins = std::max<size_t>(bins, 1);
    g.baseNs = std::max<uint64_t>(1, (span + bins - 1) / bins);
    g.bins = static_cast<size_t>((span + g.baseNs - 1) / g.baseNs);
    g.levels = 1;
    while (g.binsAt(g.levels - 1) > 1) ++g.levels;
    return g;
}

size_t PyramidGrid::binOf(int level, uint64_t t) const {
    if (t <= origin) return 0;
    return std::min(static_cast<size_t>((t - origin) / binNs(level)), binsAt(level) - 1);
}

LanePyramid::LanePyramid(const LaneSlices& lane, const PyramidGrid& grid) : grid_(grid) {
    if (grid.bins == 0) return;
    // Busy time before every level-0 edge, walking the slices forward once.
    prefix_.resize(grid.bins + 1);
    size_t i = 0;
    for (size_t b = 0; b <= grid.bins; ++b) {
        const uint64_t edge = grid.origin + b * grid.baseNs;
        i = lane.firstEndingAfterFrom(edge, i);
        prefix_[b] = lane.busyBeforeAt(edge, i);
    }
    // The task of every bin of every level, by binLane's rule for a column.
    pids_.resize(static_cast<size_t>(grid.levels));
    for (int level = 0; level < grid.levels; ++level) {
        auto& pids = pids_[static_cast<size_t>(level)];
        pids.assign(grid.binsAt(level), -1);
        const uint64_t w = grid.binNs(level);
        size_t first = 0;
        for (size_t b = 0; b < pids.size(); ++b) {
            const uint64_t start = grid.origin + b * w;
            first = lane.firstEndingAfterFrom(start, first);
            if (first >= lane.size()) break;
            if (lane.start(first) >= start + w) continue;  // idle bin
            const uint64_t mid = start + w / 2;
            const size_t m = lane.firstEndingAfterFrom(mid, first);
            pids[b] = m < lane.size() && lane.start(m) <= mid ? lane.pid(m) : lane.pid(first);
        }
    }
}

uint64_t LanePyramid::busyOfBin(int level, size_t i) const {
    const size_t a = std::min(i << level, grid_.bins), b = std::min((i + 1) << level, grid_.bins);
    return prefix_[b] - prefix_[a];
}

double LanePyramid::busyBefore(uint64_t t) const {
    if (prefix_.empty() || t <= grid_.origin) return 0;
    const uint64_t off = t - grid_.origin;
    const size_t i = static_cast<size_t>(off / grid_.baseNs);
    if (i >= grid_.bins) return static_cast<double>(prefix_.back());
    const double frac = static_cast<double>(off - i * grid_.baseNs) / static_cast<double>(grid_.baseNs);
    return static_cast<double>(prefix_[i]) + frac * static_cast<double>(prefix_[i + 1] - prefix_[i]);
}

PyramidColumns pyramidColumns(const PyramidGrid& g, uint64_t t0, uint64_t t1, int columns) {
    PyramidColumns pc;
    pc.columns = std::max(columns, 0);
    if (pc.columns == 0 || t1 <= t0 || g.bins == 0) return pc;
    const double colNs = static_cast<double>(t1 - t0) / columns;
    while (pc.level + 1 < g.levels && static_cast<double>(g.binNs(pc.level + 1)) * 8 <= colNs) ++pc.level;
    const auto n = static_cast<size_t>(columns);
    pc.edgeBin.resize(n + 1);
    pc.edgeFrac.resize(n + 1);
    pc.invWidth.resize(n);
    pc.midBin.resize(n);
    pc.firstBin.resize(n);
    pc.lastBin.resize(n);
    uint64_t edge = t0;
    for (size_t c = 0; c <= n; ++c) {
        const uint64_t e = c == 0 ? t0 : columnEdge(t0, t1, columns, static_cast<int>(c));
        const uint64_t off = e > g.origin ? e - g.origin : 0;
        const size_t bin = static_cast<size_t>(off / g.baseNs);
        pc.edgeBin[c] = std::min(bin, g.bins);
        pc.edgeFrac[c] = bin >= g.bins ? 0.0 : static_cast<double>(off - bin * g.baseNs) / static_cast<double>(g.baseNs);
        if (c == 0) continue;
        const size_t k = c - 1;
        pc.invWidth[k] = e > edge ? 1.0 / static_cast<double>(e - edge) : 0.0;
        pc.midBin[k] = g.binOf(0, edge + (e - edge) / 2);
        pc.firstBin[k] = g.binOf(pc.level, edge);
        pc.lastBin[k] = g.binOf(pc.level, e > edge ? e - 1 : edge);
        edge = e;
    }
    return pc;
}

void binLanePyramid(const LanePyramid& pyr, const PyramidColumns& pc, std::vector<LodColumn>& out) {
    out.assign(static_cast<size_t>(pc.columns), LodColumn{});
    if (pc.columns == 0 || pyr.empty()) return;
    auto busyAt = [&](size_t c) {
        const size_t i = pc.edgeBin[c];
        const auto b = static_cast<double>(pyr.busyBeforeEdge(i));
        return pc.edgeFrac[c] > 0 ? b + pc.edgeFrac[c] * (static_cast<double>(pyr.busyBeforeEdge(i + 1)) - b) : b;
    };
    double busyAtEdge = busyAt(0);
    constexpr size_t kAhead = 16;  // columns: the cells are apart, so start their loads early
    for (size_t c = 0; c < out.size(); ++c) {
        if (c + kAhead < out.size()) {
            __builtin_prefetch(pyr.prefixData() + pc.edgeBin[c + kAhead]);
            __builtin_prefetch(pyr.pidData(0) + pc.midBin[c + kAhead]);
        }
        const double busyAtNext = busyAt(c + 1);
        if (busyAtNext > busyAtEdge && pc.invWidth[c] > 0) {
            LodColumn& col = out[c];
            col.busy = static_cast<float>(std::min(1.0, (busyAtNext - busyAtEdge) * pc.invWidth[c]));
            col.pid = pyr.pidOfBin(0, pc.midBin[c]);
            for (size_t b = pc.firstBin[c]; col.pid < 0 && b <= pc.lastBin[c]; ++b) col.pid = pyr.pidOfBin(pc.level, b);
        }
        busyAtEdge = busyAtNext;
    }
}

bool pyramidFits(const PyramidGrid& grid, uint64_t t0, uint64_t t1, int columns) {
    return grid.bins > 0 && columns > 0 && t1 > t0 &&
           static_cast<double>(t1 - t0) / columns >= kPyramidMinBinsPerColumn * static_cast<double>(grid.baseNs);
}

void binLaneLod(const LaneSlices& lane, const LanePyramid* pyr, const PyramidColumns* cols, uint64_t t0, uint64_t t1,
                int columns, std::vector<LodColumn>& out) {
    if (pyr && cols && !pyr->empty() && cols->columns == columns) {
        const auto [a, b] = lane.overlapping(t0, t1);
        if (static_cast<double>(b - a) > kPyramidMinSlicesPerColumn * columns) {
            binLanePyramid(*pyr, *cols, out);
            return;
        }
    }
    binLane(lane, t0, t1, columns, out);
}

void markBusyColumns(const LaneSlices& lane, uint64_t t0, uint64_t t1, int columns, std::vector<uint8_t>& hit) {
    hit.assign(static_cast<size_t>(std::max(columns, 0)), 0);
    if (columns <= 0 || t1 <= t0 || lane.empty()) return;
    const auto [a, b] = lane.overlapping(t0, t1);
    if (b - a > 4 * static_cast<size_t>(columns)) {  // dense: the per-column search is cheaper
        std::vector<LodColumn> cols;
        binLane(lane, t0, t1, columns, cols);
        for (size_t c = 0; c < cols.size(); ++c) hit[c] = cols[c].busy > 0;
        return;
    }
    // The column holding t: the last c with columnEdge(c) <= t.
    const double perNs = columns / static_cast<double>(t1 - t0);
    auto columnOf = [&](uint64_t t) {
        int c = std::clamp(static_cast<int>(static_cast<double>(t - t0) * perNs), 0, columns - 1);
        while (c + 1 < columns && columnEdge(t0, t1, columns, c + 1) <= t) ++c;
        while (c > 0 && columnEdge(t0, t1, columns, c) > t) --c;
        return c;
    };
    for (size_t i = a; i < b; ++i) {
        const uint64_t s = std::max(lane.start(i), t0), e = std::min(lane.end(i), t1);
        if (e <= s) continue;
        for (int c = columnOf(s), last = columnOf(e - 1); c <= last; ++c)
            hit[static_cast<size_t>(c)] = columnEdge(t0, t1, columns, c + 1) > columnEdge(t0, t1, columns, c);
    }
}

}  // namespace schedscope
