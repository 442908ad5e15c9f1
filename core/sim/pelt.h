#pragma once
// A PELT-like running average (kernel/sched/pelt.c): a geometric series with a 32 ms half-life,
// here in continuous time. `input` is what the signal tends to while the state lasts (1024 while
// running for util_avg, the weight while runnable for load_avg).
#include <cmath>
#include <cstdint>

namespace schedscope::sim {

// exp(-dt / tau) for the PELT half-life. The engine updates several signals with the same stamp
// back to back (a task's util, runnable and load; a runqueue's), so the last few decays are
// remembered: the same dt gives the bit-identical factor without calling exp() again.
inline double peltDecay(int64_t dt) {
    // y^32 = 1/2 with a 1.024 ms period: tau = 32 * 1.024 ms / ln 2
    constexpr double kTauNs = 32.0 * 1.024e6 / 0.6931471805599453;
    struct Slot {
        int64_t dt = -1;
        double decay = 1;
    };
    static thread_local Slot cache[64];
    Slot& slot = cache[static_cast<uint64_t>(dt) % 64];
    if (slot.dt != dt) {
        slot.dt = dt;
        slot.decay = std::exp(-static_cast<double>(dt) / kTauNs);
    }
    return slot.decay;
}

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

// Sets the inputs of three signals that move together (a task's or a runqueue's util, runnable
// and load), decaying them to `now` first. They usually share a stamp, and then one decay
// factor serves all three: the same factor update() would look up for each, so the same bits.
inline void setTogether(int64_t now, Pelt& a, double ia, Pelt& b, double ib, Pelt& c, double ic) {
    if (a.stamp == b.stamp && b.stamp == c.stamp) {
        if (now > a.stamp) {
            const double decay = peltDecay(now - a.stamp);
            a.value = a.input + (a.value - a.input) * decay;
            b.value = b.input + (b.value - b.input) * decay;
            c.value = c.input + (c.value - c.input) * decay;
            a.stamp = b.stamp = c.stamp = now;
        }
        a.input = ia;
        b.input = ib;
        c.input = ic;
        return;
    }
    a.set(now, ia);
    b.set(now, ib);
    c.set(now, ic);
}

}  // namespace schedscope::sim
