#pragma once
// A PELT-like running average (kernel/sched/pelt.c): a geometric series with a 32 ms half-life,
// here in continuous time. `input` is what the signal tends to while the state lasts (1024 while
// running for util_avg, the weight while runnable for load_avg).
#include <cmath>
#include <cstdint>

namespace schedscope::sim {

// exp(-dt / tau) for the PELT half-life, y^32 = 1/2 with a 1.024 ms period: tau = 32 * 1.024 ms
// / ln 2. The engine decays a signal on every enqueue, dequeue, switch and tick with a fresh dt
// (a libm exp() each was ~4% of a run), so dt is split into four bytes and the factor is the
// product of four precomputed powers: exp(-a - b) = exp(-a) exp(-b), within a few ulps of exp()
// and the same bits on every run. Beyond 2^32 ns (4.3 s, a factor of 1e-40) exp() is called.
class PeltDecayTable {
public:
    static constexpr double kTauNs = 32.0 * 1.024e6 / 0.6931471805599453;
    PeltDecayTable() {
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 256; ++i)
                pow_[k][i] = std::exp(-static_cast<double>(static_cast<int64_t>(i) << (8 * k)) / kTauNs);
    }
    double operator()(int64_t dt) const {
        const uint64_t u = static_cast<uint64_t>(dt);
        if (u >> 32) return std::exp(-static_cast<double>(dt) / kTauNs);
        return pow_[0][u & 255] * pow_[1][(u >> 8) & 255] * (pow_[2][(u >> 16) & 255] * pow_[3][u >> 24]);
    }

private:
    double pow_[4][256];  // pow_[k][i] = exp(-(i << 8k) / tau)
};

inline const PeltDecayTable kPeltDecayTable;

inline double peltDecay(int64_t dt) { return kPeltDecayTable(dt); }

struct Pelt {
    double value = 0;
    double input = 0;
    int64_t stamp = 0;

    // Decays towards `input` up to `now`; the kernel's ~1 ms period granularity is ignored.
    void update(int64_t now) {
        if (now <= stamp) return;
        const double decay = peltDecay(now - stamp);
        value = input + (value - input) * decay;
        stamp = now;
    }
    // The value at `now` without advancing the signal (step mode reads without perturbing).
    double peek(int64_t now) const { return now <= stamp ? value : input + (value - input) * peltDecay(now - stamp); }
    void set(int64_t now, double newInput) {
        update(now);
        input = newInput;
    }
};

// Decays three signals that move together to `now`: one factor for the three when they share a
// stamp (the same bits update() gives each), as the balancer reads a runqueue's load, util and
// runnable for every CPU of every group it looks at.
inline void advanceTogether(int64_t now, Pelt& a, Pelt& b, Pelt& c) {
    if (a.stamp == b.stamp && b.stamp == c.stamp) {
        if (now > a.stamp) {
            const double decay = peltDecay(now - a.stamp);
            a.value = a.input + (a.value - a.input) * decay;
            b.value = b.input + (b.value - b.input) * decay;
            c.value = c.input + (c.value - c.input) * decay;
            a.stamp = b.stamp = c.stamp = now;
        }
        return;
    }
    a.update(now);
    b.update(now);
    c.update(now);
}

// Sets the inputs of three signals that move together (a task's or a runqueue's util, runnable
// and load), decaying them to `now` first. They usually share a stamp, and then one decay
// factor serves all three: the same factor update() would look up for each, so the same bits.
inline void setTogether(int64_t now, Pelt& a, double ia, Pelt& b, double ib, Pelt& c, double ic) {
    advanceTogether(now, a, b, c);
    a.input = ia;
    b.input = ib;
    c.input = ic;
}

}  // namespace schedscope::sim
