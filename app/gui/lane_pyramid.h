#pragma once
// LanePyramid: a CPU lane summarised once, at load time, in bins of a fixed time grid and in
// coarser bins of 2, 4, 8... grid bins (KernelShark's kshark_trace_histo, with levels). A
// zoomed-out frame then reads O(columns) compact summary cells per lane instead of searching
// the run slices for every pixel column: binLaneLod() picks the pyramid when a column spans
// many slices and the exact binLane() otherwise. Qt-free; tested in timeline_lod_test.cpp.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "timeline_lod.h"

namespace schedscope {

// The bin grid every lane of a trace shares: level k has bins of baseNs << k, bin i of any
// level starting at origin + i * (baseNs << k).
struct PyramidGrid {
    uint64_t origin = 0;
    uint64_t baseNs = 1;
    size_t bins = 0;  // level-0 bins
    int levels = 0;   // the top level has one bin

    // A grid over [t0, t1] with about `bins` level-0 bins (at least one, at least 1 ns each).
    static PyramidGrid covering(uint64_t t0, uint64_t t1, size_t bins);
    uint64_t binNs(int level) const { return baseNs << level; }
    size_t binsAt(int level) const { return (bins + (size_t{1} << level) - 1) >> level; }
    // The bin of `level` holding t, clamped to the grid.
    size_t binOf(int level, uint64_t t) const;
};

class LanePyramid {
public:
    LanePyramid() = default;
    // Summarises `lane` on `grid`: O(slices + bins) time, 8 bytes per level-0 bin for the busy
    // prefix sums plus 4 per bin of every level for the tasks (about 16 bytes per level-0 bin).
    LanePyramid(const LaneSlices& lane, const PyramidGrid& grid);

    const PyramidGrid& grid() const { return grid_; }
    bool empty() const { return prefix_.empty(); }

    // Exact busy nanoseconds of bin i of `level`.
    uint64_t busyOfBin(int level, size_t i) const;
    // The task of bin i of `level`: the one running at the bin's middle, else the first one
    // running in it (binLane's rule for a pixel column), -1 when the bin is idle.
    int32_t pidOfBin(int level, size_t i) const { return pids_[static_cast<size_t>(level)][i]; }
    // Busy nanoseconds before t: exact on level-0 bin edges, linear inside a bin (so off by
    // less than that bin's busy time).
    double busyBefore(uint64_t t) const;
    // Busy nanoseconds before level-0 edge i (exact).
    uint64_t busyBeforeEdge(size_t i) const { return prefix_[i]; }
    const uint64_t* prefixData() const { return prefix_.data(); }
    const int32_t* pidData(int level) const { return pids_[static_cast<size_t>(level)].data(); }

private:
    PyramidGrid grid_;
    std::vector<uint64_t> prefix_;            // [i] busy ns before level-0 edge i; bins + 1 entries
    std::vector<std::vector<int32_t>> pids_;  // [level][bin]
};

// Where the pixel columns of a window fall on a grid: computed once per frame and shared by
// every lane, so binning a lane from its pyramid is only loads of summary cells, no division.
struct PyramidColumns {
    int columns = 0;
    int level = 0;                 // the level whose bins are at most 1/8 column wide
    std::vector<size_t> edgeBin;   // [c] level-0 bin holding columnEdge(c), c = 0..columns
    std::vector<double> edgeFrac;  // [c] how far into that bin the edge lies, 0..1
    std::vector<double> invWidth;  // [c] 1 / column width in ns, 0 for an empty column
    std::vector<size_t> midBin;    // [c] level-0 bin holding the column's middle
    std::vector<size_t> firstBin;  // [c] bins of `level` the column overlaps: first..last
    std::vector<size_t> lastBin;
};
PyramidColumns pyramidColumns(const PyramidGrid& grid, uint64_t t0, uint64_t t1, int columns);

// Bins a lane like binLane, from the pyramid alone: the busy fraction from the level-0 prefix
// sums at the column edges (off by at most 2 x grid.baseNs / column width), the task of the
// level-0 bin holding the column's middle, else of the first busy bin of cols.level in the
// column (at most 16 to look at). Cost: O(columns) loads, whatever the zoom.
void binLanePyramid(const LanePyramid& pyramid, const PyramidColumns& cols, std::vector<LodColumn>& out);

// Level-0 bins per average slice of a lane (TraceAnalysis sizes its grid with this).
inline constexpr size_t kPyramidBinsPerSlice = 1;

// Level-of-detail policy: at least this many level-0 bins per column for the pyramid's
// busy fractions to be within 1/kPyramidMinBinsPerColumn of exact per column edge...
inline constexpr double kPyramidMinBinsPerColumn = 16;
// ...and more slices than this per column on average, below which the exact search is cheap.
inline constexpr double kPyramidMinSlicesPerColumn = 4;

// Whether the pyramid path suits the window: its level-0 bins are fine enough for the columns.
bool pyramidFits(const PyramidGrid& grid, uint64_t t0, uint64_t t1, int columns);

// binLanePyramid when `cols` is given (pyramidFits) and the lane has many slices per column
// in the window, else the exact binLane. `pyramid` and `cols` may be null.
void binLaneLod(const LaneSlices& lane, const LanePyramid* pyramid, const PyramidColumns* cols, uint64_t t0, uint64_t t1,
                int columns, std::vector<LodColumn>& out);

// Sets hit[c] to 1 where some slice of `lane` overlaps column c of the window [t0, t1), else 0
// (hit is resized): binLane's busy > 0, by walking the window's slices, O(slices + columns),
// for sparse lanes like one task's (follow mode). Falls back to binLane on dense windows.
void markBusyColumns(const LaneSlices& lane, uint64_t t0, uint64_t t1, int columns, std::vector<uint8_t>& hit);

}  // namespace schedscope
