#pragma once
// The columns of a text trace's event line before its payload, in every shape read:
//   tracefs `trace`, trace-cmd report:  "<comm>-<pid> [(<tgid>)] [<cpu>] [<irq flags>] <ts>: <event>: <payload>"
//   trace-cmd report -l (latency):     "<comm, cut to 8>-<pid> <cpu><irq flags> <ts>: ..."
//   trace-cmd report -R -l:            "<comm, cut to 8>-<pid> <cpu>-0x<common_flags> <ts>: ..."
//   trace-cmd report --ts-diff:        "... <ts>: (+<ns since the previous event>) <event>: ..."
//   perf script (perf sched record):   "<comm> <pid>[/<tid>] [<cpu>] <ts>: sched:<event>: <payload>"
// <ts> is "<s>.<us or ns>", or a plain count where the trace clock does not count ns.
#include <cstdint>
#include <string_view>

namespace schedscope::tracing {

struct TextLineColumns {
    std::string_view comm;  // the task column's: the task that ran the tracepoint
    int32_t pid = -1;
    int32_t cpu = -1;
    bool hardirq = false, softirq = false;  // by the irq flags, where the shape has them
    bool irqFlags = false;  // the line has an irq-flags column (else hardirq/softirq say nothing)
    bool commCut = false;   // -l: the comm is cut to 8 characters
    uint64_t ts = 0;        // ns, or clock counts when rawCount
    bool rawCount = false;
    std::string_view event;    // "sched_switch" (perf's "sched:" taken off)
    std::string_view payload;  // after "<event>: ", trimmed
};

// False when `line` is no event line of any shape above.
bool parseTextLineColumns(std::string_view line, TextLineColumns& out);

// A frame of the call chain perf script prints under an event recorded with -g.
bool isCallchainFrame(std::string_view raw);

}  // namespace schedscope::tracing
