#include "sim/metrics.h"

#include <bit>
#include <cmath>

namespace schedscope::sim {

namespace {
constexpr double kLogBase = 0.0198026272961797;  // ln(1.02)

// The bucket of `ns` by definition: floor(ln(ns) / ln(1.02)) + 1, 0 for ns <= 1.
size_t bucketByLog(int64_t ns) {
    return ns <= 1 ? 0 : static_cast<size_t>(std::log(static_cast<double>(ns)) / kLogBase) + 1;
}

// bucketByLog() without a log() per sample (one per context switch): a table indexed by the
// value's top bit and the 6 bits below it. One such slice spans 1/64 of an octave, less than a
// 2% bucket, so it meets at most one bucket edge; the table holds the slice's first bucket and
// the last integer in it. Both come from bucketByLog() itself (a binary search
// over integers), so every value lands in the bucket the formula gives: the JSON does not move.
class BucketTable {
public:
    BucketTable() {
        for (int msb = 0; msb < 63; ++msb)
            for (int64_t m = 0; m < 64; ++m) {
                const int64_t lo = sliceStart(msb, m);
                const int64_t hi = sliceEnd(msb, m);  // inclusive
                Slice& s = slices_[static_cast<size_t>(msb) * 64 + static_cast<size_t>(m)];
                s.first = static_cast<uint32_t>(bucketByLog(lo));
                s.last = hi;  // no edge inside
                if (bucketByLog(hi) != s.first) {
                    int64_t a = lo, b = hi;  // bucketByLog(a) == first, bucketByLog(b) > first
                    while (b - a > 1) {
                        const int64_t mid = a + (b - a) / 2;
                        (bucketByLog(mid) == s.first ? a : b) = mid;
                    }
                    s.last = a;
                }
            }
    }
    size_t bucket(int64_t ns) const {
        if (ns <= 1) return 0;
        const int msb = 63 - std::countl_zero(static_cast<uint64_t>(ns));
        const uint64_t m = msb >= 6 ? (static_cast<uint64_t>(ns) >> (msb - 6)) & 63 : (static_cast<uint64_t>(ns) << (6 - msb)) & 63;
        const Slice& s = slices_[static_cast<size_t>(msb) * 64 + m];
        return s.first + (ns > s.last ? 1 : 0);
    }

private:
    struct Slice {
        int64_t last = 0;  // the slice's last value in bucket `first`; the rest are in first + 1
        uint32_t first = 0;
    };
    Slice slices_[63 * 64];

    // the values whose top bit is `msb` and next 6 bits are `m` (fewer bits below small msb)
    static int64_t sliceStart(int msb, int64_t m) {
        if (msb >= 6) return (int64_t{1} << msb) | (m << (msb - 6));
        const int64_t v = (int64_t{1} << msb) | (m >> (6 - msb));
        return v;
    }
    static int64_t sliceEnd(int msb, int64_t m) {
        // the width less one first: the top slice ends at INT64_MAX, and start + width overflows
        if (msb >= 6) return sliceStart(msb, m) + ((int64_t{1} << (msb - 6)) - 1);
        return sliceStart(msb, m);
    }
};
}  // namespace

size_t LatencyHistogram::bucketOf(int64_t ns) {
    static const BucketTable table;
    return table.bucket(ns);
}

size_t LatencyHistogram::bucketOfByLog(int64_t ns) { return bucketByLog(ns); }

void LatencyHistogram::add(int64_t ns) {
    const size_t b = bucketOf(ns);
    if (b >= buckets_.size()) buckets_.resize(b + 1, 0);
    ++buckets_[b];
    if (total_ == 0 || ns < minNs_) minNs_ = ns;
    if (total_ == 0 || ns > maxNs_) maxNs_ = ns;
    ++total_;
}

double LatencyHistogram::percentileNs(double p) const {
    if (total_ == 0) return 0;
    const double want = p / 100.0 * static_cast<double>(total_);
    long long seen = 0;
    for (size_t b = 0; b < buckets_.size(); ++b) {
        seen += buckets_[b];
        if (static_cast<double>(seen) >= want && buckets_[b] > 0)
            return b == 0 ? 0.0 : withinSamples(std::exp(static_cast<double>(b - 1) * kLogBase));  // bucket's lower edge
    }
    return withinSamples(std::exp(static_cast<double>(buckets_.size() - 1) * kLogBase));
}

}  // namespace schedscope::sim
