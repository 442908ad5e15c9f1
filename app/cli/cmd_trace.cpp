// schedscope-cli trace stats | bench load | record | live
#include "commands.h"
#include "ring_buffer_option.h"
#include "topology_options.h"
#include "trace_cmds.h"
#include "trace_load_options.h"

namespace schedscope::cli {

std::vector<Command> traceCommands() {
    auto statsOpts = topologyOptions();
    // a trace is classified on the machine it was recorded on: its sidecar, not this one
    for (auto& o : statsOpts) {
        if (o.name == "local") o.help = "use this machine's topology (with no topology option: the trace's sidecar, FILE.topology.json)";
        if (o.name == "isolate" || o.name == "partition" || o.name == "numa-distances") o.help += " [of the machine named, else the sidecar's]";
    }
    statsOpts.push_back({"json", false, "print JSON"});
    statsOpts.push_back({"bin", true, "SECONDS width of the time bins of migrations per level (default 1)"});
    statsOpts.push_back(bufferOption());
    statsOpts.push_back({"profile", true,
                         "NAME kernel profile the domains are built with (default: that of the kernel release the trace "
                         "names, else the newest)"});
    std::vector<OptionSpec> recordOpts = {
        {"output", true, "FILE the trace.dat to write (also -o)"},
        {"o", true, "FILE same as --output"},
        {"duration", true, "S seconds to record (default: until the command exits, or 10 without one)"},
        {"file-version", true, "N trace.dat version 6 or 7 (default 7, compressed)"},
        {"clock", true, "NAME trace clock, as trace-cmd record -C: local (default), global, mono, boot, x86-tsc, ..."},
        bufferKbOption(),
    };
    std::vector<OptionSpec> liveOpts = {
        {"duration", true, "S seconds to run (default 10)"},
        {"source", true, "tracefs|bpf|bpf-aggregate where events come from (default tracefs)"},
        {"via-helper", false, "capture through schedscope-capture (pkexec when not privileged)"},
        {"attach", true, "PATH read a schedscope-capture stream from its Unix socket (--socket PATH) or a FIFO"},
        {"interval", true, "S seconds between reports (default 1; 0: only the total)"},
        {"json", false, "print JSON lines"},
        bufferKbOption(),
        {"window", true, "S keep only the last S seconds of events in memory (long captures; "
                         "migrations are then counted over the window; default 0: keep them all)"},
    };
    return {
        {"trace stats", "summarise a sched trace: events, CPUs, tasks, lost events, migrations per level and cause",
         "FILE [topology options] [--profile NAME] [--json] [--bin S] [--buffer NAME]  (FILE: trace.dat, or ftrace, trace-cmd report or perf script text)", statsOpts,
         runTraceStats, 1},
        {"trace groups",
         "the task groups a trace's tasks ran in (its groups sidecar): shares, CPU limits, tasks; --snapshot saves this "
         "machine's groups now for a trace another tool recorded",
         "FILE [--snapshot] [--json] [--buffer NAME]",
         {{"snapshot", false, "write this machine's task groups now as FILE's groups sidecar (FILE.groups.json), for a trace "
                              "recorded by trace-cmd or another tool moments before; refused when FILE has one"},
          {"json", false, "print JSON"},
          bufferOption()},
         runTraceGroups, 1},
        {"bench load", "time loading a trace: events/s, peak RSS, bytes per event", "FILE [--buffer NAME]", {bufferOption()},
         runBenchLoad, 1},
        {"record", "record sched events into a trace.dat (+ topology sidecar) via a private tracefs instance",
         "-o FILE.dat [--duration S] [--file-version 6|7] [--clock NAME] [--buffer-kb N] [-- COMMAND...]", recordOpts, runRecord},
        {"live", "watch sched events live: events/s, lost events, migrations per level and cause",
         "[--source tracefs|bpf|bpf-aggregate] [--via-helper | --attach PATH] [--duration S] [--interval S] [--window S] "
         "[--buffer-kb N] [--json]",
         liveOpts, runLive},
    };
}

}  // namespace schedscope::cli
