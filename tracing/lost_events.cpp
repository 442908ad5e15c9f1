#include "lost_events.h"

namespace schedscope::tracing {

std::string describeLostEvents(const EventStore& store) {
    const uint64_t counted = store.anomaly(Anomaly::LostEvents), unknown = store.anomaly(Anomaly::LostUnknown);
    const std::string drops = std::to_string(unknown) + (unknown == 1 ? " drop" : " drops") + " of unknown size";
    if (counted == 0 && unknown == 0) return "";
    if (unknown == 0) return std::to_string(counted) + (counted == 1 ? " lost event" : " lost events");
    if (counted == 0) return "events lost in " + std::to_string(unknown) + (unknown == 1 ? " place" : " places") + " (count unknown)";
    return "at least " + std::to_string(counted) + " lost events and " + drops;
}

std::string describeUnreadableRecords(const EventStore& store) {
    const uint64_t n = store.anomaly(Anomaly::Unreadable);
    if (n == 0) return "";
    return std::to_string(n) + (n == 1 ? " record" : " records") + " unreadable (a corrupt or cut part of the file)";
}

}  // namespace schedscope::tracing
