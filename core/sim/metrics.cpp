#include "sim/metrics.h"

#include <cmath>

namespace schedscope::sim {

namespace {
constexpr double kLogBase = 0.0198026272961797;  // ln(1.02)
}

void LatencyHistogram::add(int64_t ns) {
    const size_t b = ns <= 1 ? 0 : static_cast<size_t>(std::log(static_cast<double>(ns)) / kLogBase) + 1;
    if (b >= buckets_.size()) buckets_.resize(b + 1, 0);
    ++buckets_[b];
    ++total_;
}

double LatencyHistogram::percentileNs(double p) const {
    if (total_ == 0) return 0;
    const double want = p / 100.0 * static_cast<double>(total_);
    long long seen = 0;
    for (size_t b = 0; b < buckets_.size(); ++b) {
        seen += buckets_[b];
        if (static_cast<double>(seen) >= want && buckets_[b] > 0)
            return b == 0 ? 0.0 : std::exp(static_cast<double>(b - 1) * kLogBase);  // bucket's lower edge
    }
    return std::exp(static_cast<double>(buckets_.size() - 1) * kLogBase);
}

}  // namespace schedscope::sim
