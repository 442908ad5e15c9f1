#pragma once
// What a trace lost to ring-buffer overruns, in words: the reported counts, and the places where
// the kernel only said that events were lost (a dropped sub-buffer of unknown size).
#include <string>

#include "event_store.h"

namespace schedscope::tracing {

// "" when nothing was lost; "1290 lost events", "at least 1290 lost events and 2 drops of
// unknown size" or "events lost in 2 places (count unknown)"
std::string describeLostEvents(const EventStore& store);
// "" when every record the file promises was read; "1748 records unreadable (a corrupt or cut part
// of the file)": records a trace.dat's per-CPU stats count that the reader could not decode
std::string describeUnreadableRecords(const EventStore& store);

}  // namespace schedscope::tracing
