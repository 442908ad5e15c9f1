#pragma once
// The span a trace's timestamps plausibly cover. A corrupt trace.dat (a flipped bit in a time
// extend or a page header) stamps some events years away from the rest: the span from the first
// to the last event is then centuries long, and every view drawn over it shows nothing. The
// events far outside the bulk of the trace are set aside here, so the views can show the rest
// and say what they left out.
#include <cstdint>
#include <string>

#include "event_store.h"

namespace schedscope::tracing {

struct PlausibleSpan {
    uint64_t first = 0, last = 0;  // the earliest and latest timestamps kept
    uint64_t before = 0;           // events stamped implausibly long before `first`
    uint64_t after = 0;            // and after `last`
    uint64_t gapBefore = 0;        // ns from the latest of those before to `first`
    uint64_t gapAfter = 0;         // ns from `last` to the earliest of those after
    bool whole() const { return before == 0 && after == 0; }
};

// An event is implausible when it lies more than kImplausibleFactor times the span of the
// central 98% of the events (at least 1 s) outside that span: 1000 s past a trace of a second
// (a flipped bit in a trace.dat put some 582 years past it). Needs the store finish()ed (its
// CPUs' events in time order). The whole span for a store without such events (or empty).
inline constexpr uint64_t kImplausibleFactor = 1000;
PlausibleSpan plausibleSpan(const EventStore& store);

// "" when the span is whole; else one sentence: "broken timestamps: of the 4068 events, 63 are
// stamped 582 years after the rest, which spans 1.03 s (a corrupt file?): the views show only
// those 1.03 s"
std::string describeImplausibleTimestamps(const EventStore& store, const PlausibleSpan& span);

// A duration in the largest unit that keeps it readable: "850 ns", "12.3 ms", "1.03 s",
// "2.5 hours", "582 years".
std::string roughDuration(uint64_t ns);

}  // namespace schedscope::tracing
