#include "sim/metric_change.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace schedscope::sim {

namespace {

// The continued fraction of the regularized incomplete beta function I_x(a, b), evaluated by
// the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x) {
    constexpr double kTiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (std::fabs(d) < kTiny) d = kTiny;
    d = 1 / d;
    double f = d;
    for (int m = 1; m <= 300; ++m) {
        const double m2 = 2.0 * m;
        // the even step, then the odd one
        for (const double coef : {m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                                  -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))}) {
            d = 1 + coef * d;
            if (std::fabs(d) < kTiny) d = kTiny;
            c = 1 + coef / c;
            if (std::fabs(c) < kTiny) c = kTiny;
            d = 1 / d;
            f *= c * d;
        }
        if (std::fabs(c * d - 1) < 1e-15) break;
    }
    return f;
}

double regularizedBeta(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;  // the symmetry converges there
}

// P(T > t) for Student's t with df degrees of freedom, t >= 0
double studentUpperTail(double t, double df) { return 0.5 * regularizedBeta(df / 2, 0.5, df / (df + t * t)); }

}  // namespace

double studentT975(double df) {
    if (!(df >= 1)) df = 1;  // Welch's df is at least the smaller side's n - 1
    // the tail falls as t rises: bisect [0, 1000] (t(1) = 12.7) to far below the figures' precision
    double lo = 0, hi = 1000;
    for (int i = 0; i < 60; ++i) {
        const double mid = (lo + hi) / 2;
        (studentUpperTail(mid, df) > 0.025 ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

std::string intervalText(const MetricChange& c) {
    if (!c.hasInterval) return {};
    char buf[96];
    std::snprintf(buf, sizeof buf, "%+.2f..%+.2f%%%s", c.lowPct, c.highPct,
                  c.significant ? "" : c.withinResolution ? "  within resolution" : "  within noise");
    return buf;
}

std::string intervalFootnote(const std::string& reference) {
    return "95% interval: of the change of the means, by Welch's t over the seeds, as a share of " + reference +
           "; \"within noise\": it holds 0, so the seeds' own spread can explain the change";
}

double metricResolutionPct(const std::string& metric) { return metric.starts_with("wait_p") ? 2.0 : 0.0; }

MetricChange metricChange(const MetricStats& off, const MetricStats& on, double resolutionPct) {
    MetricChange c;
    if (off.n == 0 || on.n == 0 || (off.mean == 0 && on.mean != 0)) return c;
    c.defined = true;
    const double scale = off.mean == 0 ? 0.0 : 100.0 / std::fabs(off.mean);
    c.relativePct = (on.mean - off.mean) * scale;
    // (a hair over, for a bucket's 2.0% printed from 2.0000000001)
    c.withinResolution = resolutionPct > 0 && std::fabs(c.relativePct) <= resolutionPct * 1.0001;
    if (off.n < 2 || on.n < 2) return c;
    // a side whose values differ only in their last bits has no spread, not an sd of 1e-16
    // that would make any difference significant
    const double vOff = sameToRounding(off) ? 0.0 : off.sd * off.sd / off.n;
    const double vOn = sameToRounding(on) ? 0.0 : on.sd * on.sd / on.n;
    const double se2 = vOff + vOn;
    if (!(se2 > 0) || scale == 0) return c;
    // Welch-Satterthwaite degrees of freedom
    const double df = se2 * se2 / (vOff * vOff / (off.n - 1) + vOn * vOn / (on.n - 1));
    const double half = studentT975(df) * std::sqrt(se2);
    c.hasInterval = true;
    c.lowPct = (on.mean - off.mean - half) * scale;
    c.highPct = (on.mean - off.mean + half) * scale;
    c.significant = (c.lowPct > 0 || c.highPct < 0) && !c.withinResolution;
    return c;
}

}  // namespace schedscope::sim
