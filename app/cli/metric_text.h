#pragma once
// How the CLI's metric tables print a value, by what the metric is.
//
// A count (migrations, newidle passes) is a whole number. A wait-latency percentile is the
// lower edge of a 2%-wide bucket of the simulator's histogram (LatencyHistogram), so it holds
// about three significant figures: printing 11054.5399 us claims a tenth of a nanosecond it
// does not have. Everything else keeps four decimals.
#include <string>
#include <string_view>

namespace schedscope::cli {

std::string metricText(std::string_view name, double value);
// `to - from` with its sign, to the finer of the two values' precisions
std::string metricDeltaText(std::string_view name, double from, double to);

}  // namespace schedscope::cli
