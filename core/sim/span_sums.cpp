#include "sim/span_sums.h"

#include <algorithm>
#include <utility>

namespace schedscope::sim {

int SpanSums::addSpan(const CpuSet& span) {
    const auto [it, added] = ids_.try_emplace(span, static_cast<int>(spans_.size()));
    if (added) {
        spans_.push_back(span);
        onlyCpu_.push_back(span.count() == 1 ? span.first() : -1);
    }
    return it->second;
}

void SpanSums::reset(int ncpus) {
    const size_t n = static_cast<size_t>(ncpus);
    cpus_.assign(n, Contribution{});
    changed_.assign(n, 0);
    changedCpus_.clear();
    totals_.assign(spans_.size(), SpanTotals{});
    std::vector<std::vector<int>> spansOf(n);
    for (size_t id = 0; id < spans_.size(); ++id) {
        if (onlyCpu_[id] >= 0) continue;
        spans_[id].forEach([&](int c) {
            if (c < ncpus) spansOf[static_cast<size_t>(c)].push_back(static_cast<int>(id));
        });
        totals_[id].idleCpus = std::min(spans_[id].count(), ncpus);
    }
    spansOfCpu_.clear();
    spansStart_.assign(1, 0);
    for (const auto& ids : spansOf) {
        spansOfCpu_.insert(spansOfCpu_.end(), ids.begin(), ids.end());
        spansStart_.push_back(static_cast<int>(spansOfCpu_.size()));
    }
    ref_ = kRebaseNs;
    readAt_ = -1;
}

void SpanSums::rebase(int64_t now) {
    const int64_t next = now + kRebaseNs;
    const double f = peltDecay(next - ref_);
    for (SpanTotals& t : totals_)
        for (double& d : t.d) d *= f;
    for (Contribution& c : cpus_)
        for (double& d : c.d) d *= f;
    ref_ = next;
    readAt_ = -1;
}

void SpanSums::publish(int cpu, const CpuReading& r, int64_t now) {
    if (now > ref_) rebase(now);
    // a runqueue's three signals are decayed and set together, so they usually share a stamp
    const double weight = peltDecay(ref_ - r.load->stamp);
    auto decaying = [&](const Pelt& p) { return (p.value - p.input) * (p.stamp == r.load->stamp ? weight : peltDecay(ref_ - p.stamp)); };
    // scalars, not arrays: arrays built on the stack with 8-byte stores and copied into the
    // contribution with 16-byte loads stalled on store forwarding (perf: a sixth of publish())
    const double in0 = r.load->input, in1 = r.util->input, in2 = r.runnable->input;
    const double d0 = (r.load->value - r.load->input) * weight, d1 = decaying(*r.util), d2 = decaying(*r.runnable);
    Contribution& prev = cpus_[static_cast<size_t>(cpu)];
    const double dIn0 = in0 - prev.in[0], dIn1 = in1 - prev.in[1], dIn2 = in2 - prev.in[2];
    const double dD0 = d0 - prev.d[0], dD1 = d1 - prev.d[1], dD2 = d2 - prev.d[2];
    prev.in[0] = in0;
    prev.in[1] = in1;
    prev.in[2] = in2;
    prev.d[0] = d0;
    prev.d[1] = d1;
    prev.d[2] = d2;
    const int dNr = r.nrRunning - prev.nrRunning;
    const int dRunnable = r.nrRunnable - prev.nrRunnable;
    const int dIdle = (r.nrRunning == 0) - (prev.nrRunning == 0);
    prev.nrRunning = r.nrRunning;
    prev.nrRunnable = r.nrRunnable;
    // written out: GCC at -O2 kept the three-signal loop, and this runs for every span the CPU
    // is in on every publish
    static_assert(kSignals == 3);
    const int* id = spansOfCpu_.data() + spansStart_[static_cast<size_t>(cpu)];
    const int* end = spansOfCpu_.data() + spansStart_[static_cast<size_t>(cpu) + 1];
    for (; id != end; ++id) {
        SpanTotals& t = totals_[static_cast<size_t>(*id)];
        t.in[0] += dIn0;
        t.in[1] += dIn1;
        t.in[2] += dIn2;
        t.d[0] += dD0;
        t.d[1] += dD1;
        t.d[2] += dD2;
        t.nrRunning += dNr;
        t.nrRunnable += dRunnable;
        t.idleCpus += dIdle;
    }
}

void SpanSums::clearChanged() {
    for (int c : changedCpus_) changed_[static_cast<size_t>(c)] = 0;
    changedCpus_.clear();
}

namespace {
// x rounded to a multiple of 1/1024 (|x| < 2^40): adding and taking away 1.5 * 2^42 leaves
// the nearest multiple in round-to-nearest, without a libm call
double roundTo1024th(double x) {
    constexpr double kShift = 0x1.8p42;
    return (x + kShift) - kShift;
}
}  // namespace

SpanSums::Sums SpanSums::read(int id, int64_t now) {
    if (now > ref_) rebase(now);
    if (now != readAt_) {  // the balancer reads many groups at one instant
        toNow_ = 1.0 / peltDecay(ref_ - now);
        readAt_ = now;
    }
    const SpanTotals& t = totals_[static_cast<size_t>(id)];
    Sums s;
    s.load = roundTo1024th(t.in[0] + t.d[0] * toNow_);
    s.util = roundTo1024th(t.in[1] + t.d[1] * toNow_);
    s.runnable = roundTo1024th(t.in[2] + t.d[2] * toNow_);
    s.nrRunning = t.nrRunning;
    s.nrRunnable = t.nrRunnable;
    s.idleCpus = t.idleCpus;
    return s;
}

}  // namespace schedscope::sim
