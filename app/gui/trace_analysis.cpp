#include "trace_analysis.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "sched_tracker.h"
#include "switch_migrations.h"

namespace schedscope {

namespace {
bool cancelled(const AnalysisOptions& o) { return o.cancel && o.cancel->load(std::memory_order_relaxed); }
void report(const AnalysisOptions& o, double f) {
    if (o.progress) o.progress(f);
}
}  // namespace

std::shared_ptr<const TraceAnalysis> analyzeTrace(std::shared_ptr<const tracing::EventStore> store,
                                                  const DomainTree& tree, const AnalysisOptions& options) {
    auto a = std::make_shared<TraceAnalysis>();
    const tracing::EventStore& s = *store;
    a->store = store;
    a->cpus = std::max(s.cpuCount(), tree.cpuCount());
    // A corrupt file's events stamped years away would stretch every time axis over nothing.
    a->span = tracing::plausibleSpan(s);
    a->firstTs = a->span.first;
    a->lastTs = a->span.last;
    const auto n = static_cast<size_t>(a->cpus);
    a->switchGaps = tracing::switchGaps(s);

    // Run slices per CPU, idle left out: the lanes.
    report(options, 0.0);
    {
        auto slices = tracing::computeRunSlices(s);
        a->lanes.resize(n);
        for (size_t c = 0; c < slices.size() && c < n; ++c) {
            a->lanes[c].reserve(slices[c].size());
            for (const auto& sl : slices[c])
                if (sl.pid > 0) a->lanes[c].add(sl.start, sl.end, sl.pid);
        }
    }
    // The timeline's summaries: level-0 bins about as long as a lane's average slice, so
    // they cost about as much memory as the slices' pids and prefix sums (the pyramid is only
    // read where a pixel column spans many slices).
    {
        size_t total = 0;
        for (const auto& l : a->lanes) total += l.size();
        a->laneGrid = PyramidGrid::covering(a->firstTs, a->lastTs, kPyramidBinsPerSlice * total / std::max<size_t>(n, 1));
        a->laneSummaries.reserve(n);
        for (const auto& l : a->lanes) a->laneSummaries.emplace_back(l, a->laneGrid);
    }
    if (cancelled(options)) return nullptr;
    report(options, 0.25);

    // Migrations, classified by the lowest domain level spanning source and destination.
    {
        const tracing::MigrationClassifier classifier(tree);
        if (options.levelsKnown) a->levels = classifier.levelNames();
        a->levels.push_back("unknown");
        a->migrations = tracing::inferMigrations(s);
        const uint64_t span = a->lastTs > a->firstTs ? a->lastTs - a->firstTs : 1;
        a->rateBinNs = std::max<uint64_t>(1, (span + options.rateBins - 1) / std::max<size_t>(options.rateBins, 1));
        const size_t bins = static_cast<size_t>(span / a->rateBinNs + 1);
        a->ratesByLevel.assign(a->levels.size(), std::vector<uint64_t>(bins, 0));
        a->ratesByCause.assign(static_cast<size_t>(tracing::MigrationCause::Count), std::vector<uint64_t>(bins, 0));
        a->migrationTsByLevel.assign(a->levels.size(), {});
        a->matrix.assign(n * n, 0);
        for (auto& m : a->migrations) {
            a->migrationsSeenInSwitches += m.seenInSwitches;
            m.level = options.levelsKnown ? classifier.level(m.src, m.dst) : -1;
            const size_t l = a->levelIndex(m.level);
            a->migrationTsByLevel[l].push_back(m.ts);
            if (m.src >= 0 && m.dst >= 0 && static_cast<size_t>(m.src) < n && static_cast<size_t>(m.dst) < n)
                ++a->matrix[static_cast<size_t>(m.src) * n + static_cast<size_t>(m.dst)];
            if (m.ts < a->firstTs || m.ts > a->lastTs) continue;  // a broken timestamp: off the time axes
            const size_t bin = std::min(bins - 1, static_cast<size_t>((m.ts - a->firstTs) / a->rateBinNs));
            ++a->ratesByLevel[l][bin];
            ++a->ratesByCause[static_cast<size_t>(m.cause)][bin];
        }
        // inferMigrations() trusts a recorded sched_migrate_task: none happening is no migration.
        // When the switches disagree, the recording's filter is the likelier reason.
        if (a->migrations.empty() && tracing::migrationSource(s) == "sched_migrate_task" &&
            s.count(tracing::EventKind::Switch) > 0)
            a->movesOnlyInSwitches = tracing::migrationsFromSwitches(s).size();
    }
    if (cancelled(options)) return nullptr;
    report(options, 0.5);

    // Task states: CPU time and runnable -> running waits.
    std::unordered_map<int32_t, TaskSummary> tasks;
    std::unordered_map<int32_t, std::vector<uint64_t>> waits;
    {
        const auto intervals = tracing::computeTaskIntervals(s);
        if (cancelled(options)) return nullptr;
        report(options, 0.8);
        for (size_t i = 0; i < intervals.size(); ++i) {
            const auto& iv = intervals[i];
            TaskSummary& t = tasks[iv.pid];
            t.pid = iv.pid;
            if (iv.phase == tracing::TaskPhase::Running) t.cpuNs += iv.end - iv.start;
            // (runnable at the trace's start: no known start of the wait; a lost switch in: no known end)
            else if (iv.phase == tracing::TaskPhase::Runnable && !iv.startUnseen && i + 1 < intervals.size() &&
                     intervals[i + 1].pid == iv.pid && intervals[i + 1].phase == tracing::TaskPhase::Running &&
                     !intervals[i + 1].startUnseen) {
                waits[iv.pid].push_back(iv.end - iv.start);
                a->waitLatencies.push_back(iv.end - iv.start);
            }
        }
    }
    for (const auto& m : a->migrations) {
        if (m.pid <= 0) continue;
        TaskSummary& t = tasks[m.pid];
        t.pid = m.pid;
        ++t.migrations;
    }
    a->tasks.reserve(tasks.size());
    for (auto& [pid, t] : tasks) {
        t.comm = std::string(s.commAt(pid, a->lastTs));
        if (auto it = waits.find(pid); it != waits.end()) {
            t.waits = it->second.size();
            t.waitMaxNs = *std::max_element(it->second.begin(), it->second.end());
            t.waitP95Ns = percentile(std::move(it->second), 95);
        }
        a->tasks.push_back(std::move(t));
    }
    std::sort(a->tasks.begin(), a->tasks.end(), [](const TaskSummary& x, const TaskSummary& y) { return x.pid < y.pid; });
    // The histogram and percentiles here, on the worker: millions of waits are too many to
    // sort on the GUI thread.
    a->waitHistogram = logHistogram(a->waitLatencies, 48);
    if (!a->waitLatencies.empty()) {
        std::vector<uint64_t> sorted = a->waitLatencies;
        std::sort(sorted.begin(), sorted.end());
        auto at = [&](double p) {
            const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
            return sorted[rank == 0 ? 0 : rank - 1];
        };
        a->waitP50 = at(50);
        a->waitP95 = at(95);
        a->waitP99 = at(99);
    }
    report(options, 1.0);
    return a;
}

const TaskSummary* TraceAnalysis::task(int32_t pid) const {
    auto it = std::lower_bound(tasks.begin(), tasks.end(), pid, [](const TaskSummary& t, int32_t p) { return t.pid < p; });
    return it != tasks.end() && it->pid == pid ? &*it : nullptr;
}

std::vector<uint32_t> TraceAnalysis::migrationsOfTask(int32_t pid) const {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < migrations.size(); ++i)
        if (migrations[i].pid == pid) out.push_back(i);
    return out;
}

IntervalStats TraceAnalysis::statsIn(uint64_t a, uint64_t b) const {
    IntervalStats st;
    if (b < a) std::swap(a, b);
    st.a = a;
    st.b = b;
    // Events: each CPU's partition is in time order, so two binary searches per CPU.
    if (store) {
        for (int c = 0; c < store->cpuCount(); ++c) {
            const size_t sz = store->cpuSize(c);
            auto lower = [&](uint64_t t) {
                size_t lo = 0, hi = sz;
                while (lo < hi) {
                    const size_t m = lo + (hi - lo) / 2;
                    if (store->tsAt(c, m) < t) lo = m + 1;
                    else hi = m;
                }
                return lo;
            };
            st.events += lower(b) - lower(a);
        }
    }
    st.migrationsByLevel.resize(levels.size());
    for (size_t l = 0; l < migrationTsByLevel.size(); ++l) st.migrationsByLevel[l] = countInRange(migrationTsByLevel[l], a, b);
    // migrations are in time order
    auto first = std::lower_bound(migrations.begin(), migrations.end(), a,
                                  [](const tracing::Migration& m, uint64_t t) { return m.ts < t; });
    for (auto it = first; it != migrations.end() && it->ts < b; ++it) ++st.migrationsByCause[static_cast<size_t>(it->cause)];
    st.busy.resize(lanes.size());
    for (size_t c = 0; c < lanes.size(); ++c)
        st.busy[c] = b > a ? static_cast<double>(lanes[c].busyIn(a, b)) / static_cast<double>(b - a) : 0.0;
    return st;
}

std::vector<double> TraceAnalysis::migrationsPerCpu(int32_t pid) const {
    std::vector<double> v(static_cast<size_t>(cpus), 0.0);
    for (const auto& m : migrations) {
        if (pid >= 0 && m.pid != pid) continue;
        if (m.src >= 0 && m.src < cpus) v[static_cast<size_t>(m.src)] += 1;
        if (m.dst >= 0 && m.dst < cpus) v[static_cast<size_t>(m.dst)] += 1;
    }
    return v;
}

std::vector<LaneSlices> TraceAnalysis::lanesOfTask(int32_t pid) const {
    std::vector<LaneSlices> out(lanes.size());
    for (size_t c = 0; c < lanes.size(); ++c)
        for (size_t i = 0; i < lanes[c].size(); ++i)
            if (lanes[c].pid(i) == pid) out[c].add(lanes[c].start(i), lanes[c].end(i), pid);
    return out;
}

std::string whyNoMigrations(const TraceAnalysis& a) {
    if (!a.migrations.empty() || !a.store) return {};
    const std::string_view from = tracing::migrationSource(*a.store);
    if (from.empty()) return "No migrations: the trace holds neither sched_migrate_task nor sched_switch events to see them in";
    if (from != "sched_migrate_task")
        return "No migrations in this trace: sched_migrate_task was not recorded, and no task changes CPU in its " +
               std::string(from) + " events";
    if (a.movesOnlyInSwitches == 0)
        return "No migrations in this trace: sched_migrate_task was recorded, and no task changes CPU in its switches either";
    const size_t n = a.movesOnlyInSwitches;
    return "No migrations recorded: the trace has sched_migrate_task's format but none of its events (a filter that "
           "matched nothing?), while its switches show " + std::to_string(n) + (n == 1 ? " task move" : " task moves") +
           " between CPUs";
}

std::vector<size_t> levelsWithMigrations(const TraceAnalysis& a) {
    std::vector<size_t> out;
    for (size_t l = 0; l < a.levels.size() && l < a.migrationTsByLevel.size(); ++l)
        if (!a.migrationTsByLevel[l].empty()) out.push_back(l);
    return out;
}

std::string describeLevelsWithoutMigrations(const TraceAnalysis& a) {
    if (a.migrations.empty()) return {};
    std::string names;
    // the unknown bucket (last) is no level of the machine: nothing to say when it is empty
    for (size_t l = 0; l + 1 < a.levels.size() && l < a.migrationTsByLevel.size(); ++l)
        if (a.migrationTsByLevel[l].empty()) names += (names.empty() ? "" : ", ") + a.levels[l];
    return names.empty() ? std::string() : "none at " + names;
}

}  // namespace schedscope
