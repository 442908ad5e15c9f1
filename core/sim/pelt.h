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

}  // namespace schedscope::sim
