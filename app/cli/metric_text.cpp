#include "metric_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace schedscope::cli {
namespace {

bool isCount(std::string_view name) {
    return name.starts_with("migrations") || name == "newidle_passes" || name == "numa_migrations" || name == "cpus_used";
}

bool isHistogramPercentile(std::string_view name) { return name.starts_with("wait_p") && name.ends_with("_us"); }

// decimals that leave three significant figures, between 0 and 4
int significantDecimals(double v) {
    if (v == 0 || !std::isfinite(v)) return 0;
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    return std::clamp(2 - magnitude, 0, 4);
}

int decimalsFor(std::string_view name, double v) {
    if (isCount(name)) return 0;
    if (isHistogramPercentile(name)) return significantDecimals(v);
    return 4;
}

std::string format(const char* spec, int decimals, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, decimals, v);
    return buf;
}

}  // namespace

std::string metricText(std::string_view name, double value) { return format("%.*f", decimalsFor(name, value), value); }

std::string metricDeltaText(std::string_view name, double from, double to) {
    const int decimals = std::max(decimalsFor(name, from), decimalsFor(name, to));
    return format("%+.*f", decimals, to - from);
}

}  // namespace schedscope::cli
