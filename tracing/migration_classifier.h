#pragma once
// MigrationClassifier: (src CPU, dst CPU) -> the lowest sched-domain level spanning both,
// precomputed as a matrix from a DomainTree, plus the per-level / per-cause / per-time-bin /
// per-task summaries of a trace's migrations.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "domains/domain_tree.h"
#include "event_store.h"
#include "migration_causes.h"
#include "plausible_span.h"

namespace schedscope::tracing {

struct MigrationReport {
    std::vector<std::string> levels;        // level names bottom-up, then "unknown" (CPU outside the tree)
    std::vector<uint64_t> byLevel;          // [level]
    std::array<uint64_t, static_cast<size_t>(MigrationCause::Count)> byCause{};
    std::vector<std::vector<uint64_t>> causeByLevel;  // [level][cause]
    uint64_t binNs = 0;
    uint64_t firstTs = 0;                                // of the first bin: the plausible span's start
    std::vector<std::vector<uint64_t>> byLevelOverTime;  // [bin][level] over the plausible span (plausible_span.h)
    std::vector<Migration> migrations;                   // time order, level and cause filled in
    std::map<int32_t, std::vector<uint32_t>> byTask;     // pid -> indices into migrations
};

class MigrationClassifier {
public:
    explicit MigrationClassifier(const DomainTree& tree);

    int cpuCount() const { return n_; }
    const std::vector<std::string>& levelNames() const { return names_; }  // bottom-up
    // Index into levelNames() of the lowest level spanning src and dst; -1 when src == dst or
    // either CPU is outside the tree.
    int level(int src, int dst) const {
        if (src < 0 || dst < 0 || src >= n_ || dst >= n_) return -1;
        return matrix_[static_cast<size_t>(src) * static_cast<size_t>(n_) + static_cast<size_t>(dst)];
    }
    std::string levelName(int src, int dst) const;

    // byLevelOverTime has at most kMaxBins bins: a finer `binNs` is widened (MigrationReport::binNs).
    static constexpr uint64_t kMaxBins = 100000;
    MigrationReport classify(const EventStore& store, uint64_t binNs = 1000000000ull) const;
    // The same with the store's plausibleSpan() already at hand (the bins are over it).
    MigrationReport classify(const EventStore& store, uint64_t binNs, const PlausibleSpan& plausible) const;

private:
    int n_ = 0;
    std::vector<std::string> names_;
    std::vector<int8_t> matrix_;
};

}  // namespace schedscope::tracing
