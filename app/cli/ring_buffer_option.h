#pragma once
// --buffer-kb N: the size of each CPU's ring buffer in the private tracefs instance that record
// and live capture through, as trace-cmd record -b sets it. The kernel's default (often 1.4 MB
// per CPU) overflows under a fork or wakeup storm; the lost-events notes point here.
#include <cstddef>
#include <cstdint>
#include <string>

#include "args.h"
#include "util/result.h"

namespace schedscope::cli {

inline constexpr size_t kMaxBufferKb = 1 << 20;  // 1 GB per CPU

OptionSpec bufferKbOption();
// The size asked for in kilobytes, or 0 when --buffer-kb is not given (the kernel's default).
Result<size_t> bufferKbFrom(const Args& args);
// The note after a capture that lost events: how many, the buffer size they overflowed (0:
// unknown) and the size that keeps more.
std::string lostEventsAdvice(uint64_t lost, size_t bufferKb);

}  // namespace schedscope::cli
