// PELT helpers: setTogether() must give the same bits as three separate set() calls, whether the
// signals share a stamp or not.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sim/pelt.h"

namespace schedscope::test {
namespace {

using sim::Pelt;

TEST(Pelt, SetTogetherMatchesSeparateSets) {
    std::mt19937_64 rng(3);
    Pelt a[3], b[3];  // a: setTogether, b: one set() each
    int64_t now = 0;
    for (int step = 0; step < 100000; ++step) {
        now += static_cast<int64_t>(rng() % 3000000);  // sometimes 0: no decay, only new inputs
        if (rng() % 4 == 0) {
            // a lone read advances one signal only, as cpuLoad() does: the stamps part
            const size_t k = rng() % 3;
            a[k].update(now);
            b[k].update(now);
        }
        const double in[3] = {static_cast<double>(rng() % 2) * 1024.0, static_cast<double>(rng() % 4) * 1024.0,
                              static_cast<double>(rng() % 3000)};
        sim::setTogether(now, a[0], in[0], a[1], in[1], a[2], in[2]);
        for (int k = 0; k < 3; ++k) b[k].set(now, in[k]);
        for (int k = 0; k < 3; ++k) {
            ASSERT_EQ(a[k].value, b[k].value) << "step " << step << " signal " << k;
            ASSERT_EQ(a[k].input, b[k].input);
            ASSERT_EQ(a[k].stamp, b[k].stamp);
        }
    }
}

TEST(Pelt, HalvesEvery32Periods) {
    Pelt p;
    p.value = 1024;
    p.update(static_cast<int64_t>(32 * 1.024e6));
    EXPECT_NEAR(p.value, 512, 1e-9);
}

TEST(Pelt, DecayTableIsExpToRounding) {
    constexpr double tau = sim::PeltDecayTable::kTauNs;
    std::mt19937_64 rng(5);
    for (int i = 0; i < 1000000; ++i) {
        const int64_t dt = static_cast<int64_t>(rng() >> (20 + rng() % 44));  // 0 .. 2^44 ns
        const double x = static_cast<double>(dt) / tau;
        const double want = std::exp(-x);
        // a few ulps, plus the argument's own rounding, which exp() amplifies by x
        ASSERT_NEAR(sim::peltDecay(dt), want, want * 2.3e-16 * (4 + x)) << dt;
    }
    EXPECT_EQ(sim::peltDecay(0), 1.0);
}

}  // namespace
}  // namespace schedscope::test
