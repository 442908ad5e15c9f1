#pragma once
// The trace commands' entry points, registered in cmd_trace.cpp.
#include "args.h"

namespace schedscope::cli {
int runTraceStats(const Args& args);  // trace_stats_cmd.cpp
int runTraceGroups(const Args& args);  // trace_groups_cmd.cpp
int runBenchLoad(const Args& args);   // trace_stats_cmd.cpp
int runRecord(const Args& args);      // record_cmd.cpp
int runLive(const Args& args);        // live_cmd.cpp
}  // namespace schedscope::cli
