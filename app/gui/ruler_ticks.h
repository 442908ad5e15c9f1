#pragma once
// The labels of a time ruler's ticks. Every tick of one ruler is written in one unit, chosen
// by the largest time it shows, with as many decimals as the tick step needs: "0 s, 2 s, 4 s"
// or "1.2 s, 1.4 s", never "0 ns, 2.000 s" (each label in its own best unit read as a jump).
#include <QString>

namespace schedscope::gui {

struct RulerUnit {
    double perUnit = 1;  // ns (or clock counts) per unit
    int decimals = 0;
    QString suffix;      // " s", " ms", " µs", " ns"; " G", " M", " k", "" for counts

    // `largest`: the largest |time| a tick shows; `step`: the time between two ticks (> 0);
    // `countsNs`: false for a clock that counts something else (SI prefixes, no unit name).
    static RulerUnit forTicks(double largest, double step, bool countsNs);
    QString text(double t) const;
};

}  // namespace schedscope::gui
