#include "input_anomalies.h"

#include <array>
#include <utility>

namespace schedscope::tracing {

namespace {
// Each anomaly of the input, and what it means for the events the views show.
constexpr std::array<std::pair<Anomaly, std::string_view>, 5> kInputAnomalies{{
    {Anomaly::OutOfOrder, "events older than the one before them on their CPU: put back in order"},
    {Anomaly::Malformed, "events whose fields could not be read: skipped"},
    {Anomaly::UnknownEvent, "records of an event the file has no format for: skipped"},
    {Anomaly::GarbageLine, "lines that are no event, header or comment: skipped"},
    {Anomaly::CpuOutOfRange, "events on a CPU the recording does not have, or past the 8192 CPUs the tool reads: dropped"},
}};
}  // namespace

std::string describeInputAnomalies(const EventStore& store) {
    std::string out;
    for (const auto& [anomaly, meaning] : kInputAnomalies) {
        const uint64_t n = store.anomaly(anomaly);
        if (n == 0) continue;
        out += out.empty() ? "anomalies in the input: " : ", ";
        out += std::string(kAnomalyNames[static_cast<size_t>(anomaly)]) + " " + std::to_string(n) + " (" + std::string(meaning) + ")";
    }
    return out;
}

}  // namespace schedscope::tracing
