#include "ruler_ticks.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace schedscope::gui {

RulerUnit RulerUnit::forTicks(double largest, double step, bool countsNs) {
    struct Unit {
        double perUnit;
        const char* ns;
        const char* counts;
    };
    static constexpr std::array<Unit, 4> kUnits{{{1e9, " s", " G"}, {1e6, " ms", " M"}, {1e3, " \u00b5s", " k"}, {1, " ns", ""}}};
    const Unit* unit = &kUnits.back();
    for (const Unit& u : kUnits)
        if (std::fabs(largest) >= u.perUnit) {
            unit = &u;
            break;
        }
    RulerUnit r;
    r.perUnit = unit->perUnit;
    r.suffix = QString::fromUtf8(countsNs ? unit->ns : unit->counts);
    // a step of 0.2 units needs one decimal, 0.05 two; the epsilon keeps 0.1 at one
    const double stepInUnits = std::max(step, 1.0) / r.perUnit;
    r.decimals = std::clamp(int(std::ceil(-std::log10(stepInUnits) - 1e-9)), 0, 9);
    return r;
}

QString RulerUnit::text(double t) const { return QString::number(t / perUnit, 'f', decimals) + suffix; }

}  // namespace schedscope::gui
