#pragma once
// --buffer-kb N: the size of each CPU's ring buffer in the private tracefs instance that record
// and live capture through, as trace-cmd record -b sets it. The bounds and the lost-events note
// that points here are the tracing library's (lost_events.h), shared with the GUI's live mode.
#include <cstddef>

#include "args.h"
#include "lost_events.h"
#include "util/result.h"

namespace schedscope::cli {

using tracing::kMaxBufferKb;
using tracing::lostEventsAdvice;

OptionSpec bufferKbOption();
// The size asked for in kilobytes, or 0 when --buffer-kb is not given (the kernel's default).
Result<size_t> bufferKbFrom(const Args& args);

}  // namespace schedscope::cli
