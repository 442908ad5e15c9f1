#pragma once
// TraceAnalysis: everything the trace views show, derived once from an EventStore and a
// DomainTree on a worker thread, then shared read-only between the views. Qt-free (the views
// are thin adapters over it) so tests and the paint benchmark drive it directly.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "domains/domain_tree.h"
#include "event_store.h"
#include "lane_pyramid.h"
#include "migration_causes.h"
#include "migration_classifier.h"
#include "plausible_span.h"
#include "switch_gaps.h"
#include "timeline_lod.h"

namespace schedscope {

struct TaskSummary {
    int32_t pid = -1;
    std::string comm;
    uint64_t cpuNs = 0;        // time running
    uint64_t migrations = 0;   // its migrations (TraceAnalysis::migrations: recorded, or seen in the switches)
    uint64_t waits = 0;        // runnable -> running transitions
    uint64_t waitP95Ns = 0;    // 95th percentile of those waits
    uint64_t waitMaxNs = 0;
};

// Statistics of a time interval [a, b) (the timeline's A/B markers).
struct IntervalStats {
    uint64_t a = 0, b = 0;
    uint64_t events = 0;
    std::vector<uint64_t> migrationsByLevel;  // [level], levels as TraceAnalysis::levels
    std::array<uint64_t, static_cast<size_t>(tracing::MigrationCause::Count)> migrationsByCause{};
    std::vector<double> busy;                 // [cpu] fraction 0..1
};

struct TraceAnalysis {
    std::shared_ptr<const tracing::EventStore> store;
    int cpus = 0;  // lanes: max(store CPUs, topology CPUs)
    uint64_t firstTs = 0, lastTs = 0;                 // the span the views show: span.first, span.last
    tracing::PlausibleSpan span;                      // the store's events outside it (broken timestamps)
    std::vector<LaneSlices> lanes;                    // [cpu] non-idle run slices
    PyramidGrid laneGrid;                             // the bins of laneSummaries, shared by all lanes
    std::vector<LanePyramid> laneSummaries;           // [cpu] lanes summarised for zoomed-out frames
    std::vector<std::string> levels;                  // migration levels bottom-up, then "unknown"
    std::vector<tracing::Migration> migrations;       // time order, level filled in (-1: unknown)
    size_t migrationsSeenInSwitches = 0;              // of them, inferred from the switches
    // With sched_migrate_task recorded and none in the trace (a filter that matched nothing),
    // the CPU changes its switches show all the same: then the empty plots say so.
    size_t movesOnlyInSwitches = 0;
    std::vector<std::vector<uint64_t>> migrationTsByLevel;  // [level] sorted timestamps
    uint64_t rateBinNs = 0;
    std::vector<std::vector<uint64_t>> ratesByLevel;  // [level][bin] migrations per bin
    std::vector<std::vector<uint64_t>> ratesByCause;  // [MigrationCause][bin] the same, by cause
    std::vector<uint64_t> matrix;                     // [src * cpus + dst] migration counts
    std::vector<uint64_t> waitLatencies;              // every runnable -> running wait, ns
    LogHistogram waitHistogram;                       // of waitLatencies, 48 log bins
    uint64_t waitP50 = 0, waitP95 = 0, waitP99 = 0;   // percentiles of waitLatencies, ns
    std::vector<TaskSummary> tasks;                   // by pid
    tracing::SwitchGaps switchGaps;                   // switches missing from the chains (a filter, a loss)
    std::vector<uint32_t> migrationsOfTask(int32_t pid) const;  // indices into migrations

    // Index of level `l` of migrations into `levels` (the unknown bucket for -1).
    size_t levelIndex(int l) const { return l < 0 ? levels.size() - 1 : static_cast<size_t>(l); }
    const TaskSummary* task(int32_t pid) const;
    IntervalStats statsIn(uint64_t a, uint64_t b) const;
    // Migrations per CPU (counted at source and destination), of one task or all (pid < 0).
    std::vector<double> migrationsPerCpu(int32_t pid = -1) const;
    // The run slices of one task, per CPU (follow-a-task mode).
    std::vector<LaneSlices> lanesOfTask(int32_t pid) const;
};

struct AnalysisOptions {
    std::function<void(double)> progress;       // 0..1
    const std::atomic<bool>* cancel = nullptr;  // set to stop: analyzeTrace returns null
    size_t rateBins = 200;                      // time bins of the per-level rates
    // false: the tree is a stand-in for an unknown machine (a flat package of the trace's CPUs),
    // and every migration's level is "unknown"
    bool levelsKnown = true;
};

// Why `a` has no migrations, a sentence for an empty plot to wrap ("" when it has some): the
// trace's switches show no task changing CPU, or sched_migrate_task matched nothing, or the
// events migrations come from were not recorded.
std::string whyNoMigrations(const TraceAnalysis& a);

// The levels a legend of migrations by level names, as indices into a.levels bottom-up: those
// with migrations (the unknown bucket too, when it has any). A level listed as "MC (0)" read as
// a fault of the legend.
std::vector<size_t> levelsWithMigrations(const TraceAnalysis& a);
// What such a legend leaves out: "none at SMT, CLS", the levels no migration was at ("" when
// each has some, or when the trace has no migrations at all: whyNoMigrations() says why then).
std::string describeLevelsWithoutMigrations(const TraceAnalysis& a);

// Derives the views' tables. `tree` classifies migrations (a CPU outside it: "unknown").
std::shared_ptr<const TraceAnalysis> analyzeTrace(std::shared_ptr<const tracing::EventStore> store,
                                                  const DomainTree& tree, const AnalysisOptions& options = {});

}  // namespace schedscope
