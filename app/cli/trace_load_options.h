#pragma once
// The trace-loading options shared by the commands that read a trace file.
#include <optional>

#include "args.h"
#include "domains/profile.h"
#include "topology/topology_source.h"
#include "trace_reader.h"

namespace schedscope::cli {

// --buffer NAME: the trace.dat buffer (trace-cmd record -B instance, or "top") to read
OptionSpec bufferOption();
tracing::LoadOptions loadOptionsFrom(const Args& args);

// The kernel profile of the machine that recorded a trace when no --profile names one: that of
// the kernel release the trace saved (trace-cmd's uname option), else, for a trace read against
// this machine (--local), the running kernel's, as `domains --local` and the window use; null
// when neither says (the caller then takes the newest). `fromRunningKernel` tells the second case.
const KernelProfile* recordingKernelProfile(const tracing::EventStore& store, const std::optional<TopologySpec>& topology,
                                            bool* fromRunningKernel = nullptr);

}  // namespace schedscope::cli
