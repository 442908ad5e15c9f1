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

}  // namespace schedscope::tracing
