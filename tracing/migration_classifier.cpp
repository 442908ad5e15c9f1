#include "migration_classifier.h"

#include <algorithm>

namespace schedscope::tracing {

MigrationClassifier::MigrationClassifier(const DomainTree& tree) : n_(tree.cpuCount()) {
    // Level names bottom-up as the tree has them; NUMA levels of different distances share
    // the name "NUMA" and so one bucket, as in the kernel's own sched_domain names.
    names_ = tree.levelNames();
    matrix_.assign(static_cast<size_t>(n_) * static_cast<size_t>(n_), -1);
    for (int a = 0; a < n_; ++a)
        for (int b = 0; b < n_; ++b) {
            const std::string name = tree.lowestCommonLevel(a, b);
            if (name.empty()) continue;
            auto it = std::find(names_.begin(), names_.end(), name);
            if (it == names_.end()) {
                names_.push_back(name);
                it = names_.end() - 1;
            }
            matrix_[static_cast<size_t>(a) * static_cast<size_t>(n_) + static_cast<size_t>(b)] =
                static_cast<int8_t>(it - names_.begin());
        }
}

std::string MigrationClassifier::levelName(int src, int dst) const {
    const int l = level(src, dst);
    return l < 0 ? std::string{} : names_[static_cast<size_t>(l)];
}

MigrationReport MigrationClassifier::classify(const EventStore& store, uint64_t binNs) const {
    return classify(store, binNs, plausibleSpan(store));
}

MigrationReport MigrationClassifier::classify(const EventStore& store, uint64_t binNs, const PlausibleSpan& plausible) const {
    MigrationReport r;
    r.levels = names_;
    r.levels.push_back("unknown");
    const size_t unknown = names_.size();
    r.byLevel.assign(r.levels.size(), 0);
    r.causeByLevel.assign(r.levels.size(), std::vector<uint64_t>(static_cast<size_t>(MigrationCause::Count), 0));
    r.binNs = binNs ? binNs : 1;
    // Over the span the timestamps plausibly cover: a corrupt file's event stamped centuries
    // away would widen every bin to centuries. Migrations outside it are counted, not binned.
    r.firstTs = plausible.first;
    // A fine bin over a long trace would ask for millions of bins: at most kMaxBins, the bin
    // widened to fit (r.binNs says which).
    const uint64_t span = store.size() ? plausible.last - plausible.first : 0;
    if (span / r.binNs >= kMaxBins) r.binNs = span / kMaxBins + 1;
    const size_t bins = store.size() ? static_cast<size_t>(span / r.binNs + 1) : 0;
    r.byLevelOverTime.assign(bins, std::vector<uint64_t>(r.levels.size(), 0));
    r.migrations = inferMigrations(store);
    for (uint32_t i = 0; i < r.migrations.size(); ++i) {
        Migration& m = r.migrations[i];
        m.level = level(m.src, m.dst);
        const size_t l = m.level < 0 ? unknown : static_cast<size_t>(m.level);
        ++r.byLevel[l];
        ++r.byCause[static_cast<size_t>(m.cause)];
        ++r.causeByLevel[l][static_cast<size_t>(m.cause)];
        if (bins && m.ts >= plausible.first && m.ts <= plausible.last)
            ++r.byLevelOverTime[std::min(bins - 1, static_cast<size_t>((m.ts - r.firstTs) / r.binNs))][l];
        r.byTask[m.pid].push_back(i);
    }
    return r;
}

}  // namespace schedscope::tracing
