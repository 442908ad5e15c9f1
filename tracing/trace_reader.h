#pragma once
// Readers that fill an EventStore from a file: trace.dat (v6, v7, compressed) through
// libtracecmd, and ftrace text (/sys/kernel/tracing/trace or `trace-cmd report` output).
// Bad input is a one-line Error naming the file; anomalies in good input go to the store's
// stats.
#include <atomic>
#include <functional>
#include <string>

#include "event_store.h"
#include "util/result.h"

namespace schedscope::tracing {

struct LoadOptions {
    std::function<void(double)> progress;      // fraction 0..1, called now and then
    const std::atomic<bool>* cancel = nullptr;  // set to stop; the load returns an Error
    // trace.dat only: the buffer to read, by the instance name `trace-cmd record -B NAME` gave it,
    // or "top" for the top-level buffer. Empty: the top-level buffer, or when it holds no sched
    // event (everything was recorded into an instance) the first instance that does.
    std::string buffer;
};

Result<EventStore> readTraceDat(const std::string& path, const LoadOptions& options = {});
Result<EventStore> readFtraceText(const std::string& path, const LoadOptions& options = {});
// Lines longer than this are not ftrace events (real ones are under 1 KB): they are skipped
// unparsed and counted as garbage_line, so a hostile file cannot make parsing quadratic.
constexpr size_t kMaxTextLineBytes = size_t{1} << 20;
// Parses text already in memory (`what` names it in errors and in nothing else).
// `buffer`: as LoadOptions::buffer, for trace-cmd report's "<instance>: " line prefixes.
Result<EventStore> parseFtraceText(std::string_view text, const std::string& what,
                                   size_t maxLineBytes = kMaxTextLineBytes, std::string_view buffer = {});

enum class TraceFormat { TraceDat, Text };
// Detects the format by content: the trace.dat magic, else text. Errors: missing/empty file.
Result<TraceFormat> detectTraceFormat(const std::string& path);
// Either reader, chosen by content.
Result<EventStore> readTraceFile(const std::string& path, const LoadOptions& options = {});

}  // namespace schedscope::tracing
