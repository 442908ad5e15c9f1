#pragma once
// Which buffer of a trace.dat was read, when the file holds several (trace-cmd record -B): the
// reader takes the first with sched events, and the ones after it are never looked at, so the
// user is told they exist and how to read one.
#include <string>

#include "event_store.h"

namespace schedscope::tracing {

// "" when the file has one buffer, or the buffer was chosen with --buffer (`chosen`); else
// "read its buffer inst2, the first with sched events; not read: inst1 (--buffer NAME reads one)"
std::string describeUnreadBuffers(const EventStore& store, bool chosen);

}  // namespace schedscope::tracing
