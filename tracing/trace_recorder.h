#pragma once
// Records the sched events of a private tracefs instance into a trace.dat with libtracecmd's
// own recorder and output writer (as trace-cmd record does): per-CPU raw buffers are spliced
// into temporary files, then tracecmd_output_* writes headers, formats, cmdlines and the CPU data.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "util/result.h"

namespace schedscope::tracing {

struct RecordOptions {
    std::string output;             // the trace.dat to write
    int fileVersion = 7;            // 6, or 7 (compressed with the best available algorithm)
    // The trace clock ("mono", "x86-tsc", ... as trace-cmd record -C takes it); empty: the
    // instance's default, "local". Saved in the file either way.
    std::string clock;
    // Each CPU's ring buffer in kilobytes (trace-cmd record -b); 0: the kernel's default size.
    size_t bufferKb = 0;
    // Called once tracing is on; returns when recording should stop (a command exits, a
    // duration elapses, `stop` is set): "", or why the recording is no trace to keep (its
    // command could not be started), which recordTrace() then returns with nothing written.
    std::function<std::string()> whileRecording;
};

struct RecordSummary {
    int cpus = 0;
    uint64_t overruns = 0;  // events the ring buffers dropped
    size_t bufferKb = 0;    // each CPU's ring buffer, as recorded with
    uint64_t bytes = 0;     // size of the written file
    // what another process did to the recording's instance (an event or tracing_on switched
    // off), each switched back on within kTamperCheckMs: the trace misses what came in between
    std::vector<std::string> notes;
};

inline constexpr int kTamperCheckMs = 100;

// The trace.dat is written beside `output` under a temporary name and renamed over it once it
// is whole: a failed recording leaves a file that was there as it was. `output` must be a
// regular file or not exist (a symlink is followed): a device or a pipe is refused, not replaced.
Result<RecordSummary> recordTrace(const RecordOptions& options);

// The trace clocks this kernel offers (tracefs' top-level trace_clock); empty when it cannot be
// read. A --clock not among them is bad input, known before anything is recorded.
std::vector<std::string> traceClocks();

}  // namespace schedscope::tracing
