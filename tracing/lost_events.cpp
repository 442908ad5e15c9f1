#include "lost_events.h"

#include <algorithm>

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

std::string lostEventsAdvice(uint64_t lost, size_t bufferKb) {
    std::string text = std::to_string(lost) + " events lost: the ring buffers";
    if (bufferKb == 0) return text + " filled faster than they were read; a bigger --buffer-kb keeps more";
    text += " (" + std::to_string(bufferKb) + " KB per CPU) filled faster than they were read; ";
    if (bufferKb >= kMaxBufferKb) return text + "this is the largest --buffer-kb: fewer CPUs or a shorter capture keeps more";
    // four times the size: a burst that overflowed one buffer seldom needs less
    return text + "--buffer-kb " + std::to_string(std::min(bufferKb * 4, kMaxBufferKb)) + " keeps more";
}

}  // namespace schedscope::tracing
