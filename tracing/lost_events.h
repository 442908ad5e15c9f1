#pragma once
// What a trace lost to ring-buffer overruns, in words: the reported counts, and the places where
// the kernel only said that events were lost (a dropped sub-buffer of unknown size).
#include <cstddef>
#include <cstdint>
#include <string>

#include "event_store.h"

namespace schedscope::tracing {

// "" when nothing was lost; "1290 lost events", "at least 1290 lost events and 2 drops of
// unknown size" or "events lost in 2 places (count unknown)"
std::string describeLostEvents(const EventStore& store);
// "" when every record the file promises was read; "1748 records unreadable (a corrupt or cut part
// of the file)": records a trace.dat's per-CPU stats count that the reader could not decode
std::string describeUnreadableRecords(const EventStore& store);

// The ring buffer sizes a capture accepts per CPU (--buffer-kb, as trace-cmd record -b): from a
// page to 1 GB. The kernel's default (often 1.4 MB) overflows under a fork or wakeup storm.
inline constexpr size_t kMinBufferKb = 4;
inline constexpr size_t kMaxBufferKb = size_t{1} << 20;
// The note after a capture that lost events: how many, the per-CPU buffer size they overflowed
// (0: unknown) and the --buffer-kb that keeps more. The CLI's record and live and the GUI's live
// mode say it in the same words.
std::string lostEventsAdvice(uint64_t lost, size_t bufferKb);

}  // namespace schedscope::tracing
