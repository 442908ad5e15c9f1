#include "util/time_left.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace schedscope {

std::string timeLeftText(double shareDone, double elapsedS) {
    if (!(shareDone > 0.02) || shareDone >= 1.0 || !(elapsedS >= 1.0)) return {};
    const double left = elapsedS * (1.0 - shareDone) / shareDone;
    char buf[64];
    if (left < 90) std::snprintf(buf, sizeof buf, "about %.0f s left", std::max(1.0, std::round(left)));
    else std::snprintf(buf, sizeof buf, "about %.0f min left", std::round(left / 60.0));
    return buf;
}

}  // namespace schedscope
