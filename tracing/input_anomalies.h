#pragma once
// What a reader found wrong in otherwise readable input, in words: events out of time order,
// fields or records it could not decode, lines of text that are no event, events on a CPU the
// recording does not have. The store counts them (trace stats lists them under "anomalies:");
// this says them where a trace is shown. Losses have their own sentences (lost_events.h), and
// pid reuse is the workload's doing, not the input's.
#include <string>

#include "event_store.h"

namespace schedscope::tracing {

// "" when none; else one sentence naming each count by trace stats' key: "anomalies in the input:
// out_of_order 12 (events older than the one before them on their CPU: put back in order),
// garbage_line 22 (lines that are no event, header or comment: skipped)"
std::string describeInputAnomalies(const EventStore& store);

}  // namespace schedscope::tracing
