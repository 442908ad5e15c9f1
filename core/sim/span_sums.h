#pragma once
// The runqueue signals summed over each group span the balancer reads, kept up to date as the
// CPUs change instead of added up CPU by CPU on every pass.
//
// update_sg_lb_stats() adds the load, util and runnable averages and nr_running of every CPU of
// every group it looks at. In the kernel that loop is the cost a newidle pass is charged for;
// here it was a quarter of a run's instructions, one PELT decay per CPU per group per pass.
//
// A runqueue signal between two changes is in + (v - in) * exp(-(t - stamp) / tau): a constant
// plus a decaying part. Written against a reference time R the decaying part is
// d * exp((R - t) / tau) with d = (v - in) * exp(-(R - stamp) / tau), so a span's sum at any t
// is sum(in) + sum(d) * exp((R - t) / tau): one factor per span, whatever its size. A change on
// a CPU (a new input when a task comes or goes, a jump when a task's average is attached or
// detached) replaces that CPU's (in, d) in every span that holds it. CPUs are published lazily:
// marked when they change, folded in when a sum is next read.
//
// R is kept ahead of the clock (a stamp is never past it), so d is a PELT decay: the engine's
// own table, already in cache, with no second table beside it. When the clock passes R, R
// moves a step ahead and every d is decayed by the step; the factor at a read stays below
// e^2.8, and the sums keep their precision.
//
// The sums are the per-CPU sums up to the rounding of many additions and subtractions, so they
// are rounded to 1/1024 when read: spans whose sums are equal in exact arithmetic (saturated
// runqueues, idle ones) read as equal, as the kernel's integer sums do, and ties go the
// kernel's way.
#include <cstdint>
#include <map>
#include <vector>

#include "sim/pelt.h"
#include "util/cpuset.h"

namespace schedscope::sim {

class SpanSums {
public:
    struct Sums {
        double load = 0, util = 0, runnable = 0;
        int nrRunning = 0, nrRunnable = 0, idleCpus = 0;
    };
    // What a CPU contributes: its runqueue's three signals, how many tasks it has queued
    // (rq->nr_running, which counts a delayed-dequeue task until its dequeue finishes) and how
    // many of them can run (h_nr_runnable).
    struct CpuReading {
        const Pelt* load;
        const Pelt* util;
        const Pelt* runnable;
        int nrRunning;
        int nrRunnable;
    };

    // Registers `span` (once per distinct span) and returns its id. All spans are added before
    // the first publish().
    int addSpan(const CpuSet& span);
    // Sizes the per-CPU state for `ncpus` CPUs, all idle with zero signals.
    void reset(int ncpus);

    void markChanged(int cpu) {
        char& m = changed_[static_cast<size_t>(cpu)];
        if (m) return;
        m = 1;
        changedCpus_.push_back(cpu);
    }
    const std::vector<int>& changedCpus() const { return changedCpus_; }
    // Folds `cpu`'s current state in; `now` is the engine's clock (never behind the last call).
    void publish(int cpu, const CpuReading& r, int64_t now);
    // Ends a round of publish() calls for the changed CPUs.
    void clearChanged();

    // The sums over span `id` at `now`. The caller publishes the changed CPUs first
    // (SimState::groupSums()).
    Sums read(int id, int64_t now);
    // The CPU when span `id` is that one CPU, else -1. One-CPU spans (the groups of an SMT
    // level) are not kept: the caller reads the CPU itself, which is as cheap as a read here,
    // and every publish() has one span less to update.
    int onlyCpu(int id) const { return onlyCpu_[static_cast<size_t>(id)]; }

    size_t spanCount() const { return spans_.size(); }
    const CpuSet& span(int id) const { return spans_[static_cast<size_t>(id)]; }

private:
    static constexpr int kSignals = 3;  // load, util, runnable
    // how far ahead of the clock R is set: exp((R - t) / tau) stays below e^2.8
    static constexpr int64_t kRebaseNs = int64_t{1} << 27;
    // A CPU's contribution and a span's totals are 56 bytes: packed end to end, three in four
    // straddle two cache lines, and publish() reads and writes the whole of each (the CPU's, and
    // every span's the CPU is in). One line each: cachegrind, bench sim --duration 2, D1 misses
    // 19.10 M -> 18.15 M (the totals alone: -0.08 M).
    struct alignas(64) Contribution {
        double in[kSignals] = {0, 0, 0};
        double d[kSignals] = {0, 0, 0};
        int nrRunning = 0, nrRunnable = 0;
    };
    struct alignas(64) SpanTotals {
        double in[kSignals] = {0, 0, 0};
        double d[kSignals] = {0, 0, 0};
        int nrRunning = 0, nrRunnable = 0, idleCpus = 0;
    };
    void rebase(int64_t now);  // R = now + kRebaseNs

    std::vector<CpuSet> spans_;
    std::vector<int> onlyCpu_;
    std::map<CpuSet, int> ids_;  // the distinct spans: a machine's CPUs share most of their groups
    std::vector<SpanTotals> totals_;
    std::vector<int> spansOfCpu_;  // CPU c's multi-CPU spans: [spansStart_[c], spansStart_[c + 1])
    std::vector<int> spansStart_;
    std::vector<Contribution> cpus_;
    std::vector<char> changed_;
    std::vector<int> changedCpus_;
    int64_t ref_ = kRebaseNs;  // R
    int64_t readAt_ = -1;  // the last read's clock and its exp((R - now) / tau)
    double toNow_ = 1;
};

}  // namespace schedscope::sim
