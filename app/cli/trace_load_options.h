#pragma once
// The trace-loading options shared by the commands that read a trace file.
#include "args.h"
#include "trace_reader.h"

namespace schedscope::cli {

// --buffer NAME: the trace.dat buffer (trace-cmd record -B instance, or "top") to read
OptionSpec bufferOption();
tracing::LoadOptions loadOptionsFrom(const Args& args);

}  // namespace schedscope::cli
