#include <cstdio>

#include "workload/workload.h"

namespace schedscope::workload {

std::string describeBandwidthLimit(long long quotaUs, long long periodUs, long long burstUs) {
    char text[96];
    std::snprintf(text, sizeof text, "%.3g ms per %.3g ms", static_cast<double>(quotaUs) / 1000.0,
                  static_cast<double>(periodUs) / 1000.0);
    std::string out = text;
    if (burstUs > 0) {
        std::snprintf(text, sizeof text, ", burst %.3g ms", static_cast<double>(burstUs) / 1000.0);
        out += text;
    }
    return out;
}

}  // namespace schedscope::workload
