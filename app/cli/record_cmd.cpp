// schedscope-cli record -o FILE.dat [--duration S] [--file-version 6|7] [-- COMMAND...]
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "capture_signals.h"
#include "commands.h"
#include "topology/hwloc_loader.h"
#include "trace_cmds.h"
#include "trace_recorder.h"
#include "trace_topology.h"
#include "tracefs_instance.h"

namespace schedscope::cli {
namespace {

// Runs `command` (if any) until it exits, `duration` passes, or a stop signal arrives.
void runWorkload(const std::vector<std::string>& command, double duration) {
    if (command.empty()) {
        sleepUnlessStopped(duration);
        return;
    }
    const pid_t child = fork();
    if (child == 0) {
        std::vector<char*> argv;
        for (const auto& w : command) argv.push_back(const_cast<char*>(w.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        std::fprintf(stderr, "schedscope-cli: record: cannot run %s\n", argv[0]);
        _exit(127);
    }
    if (child < 0) return;
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(duration);
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (stopRequested() || std::chrono::steady_clock::now() >= end) {
            kill(child, SIGTERM);
            waitpid(child, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

}  // namespace

int runRecord(const Args& args) {
    auto out = args.value("output");
    if (!out) out = args.value("o");
    if (!out) return fail("record: give the output file with -o FILE.dat");
    const bool hasCommand = !args.trailing().empty();
    auto duration = args.number("duration", hasCommand ? 1e9 : 10.0);
    if (!duration) return fail("record: " + duration.error());
    auto version = args.integer("file-version", 7, 6, 7);
    if (!version) return fail("record: " + version.error());
    if (auto why = tracing::tracefsUnavailableReason(); !why.empty()) return failRuntime("record: " + why);

    installStopSignals();
    tracing::RecordOptions opt;
    opt.output = *out;
    opt.fileVersion = static_cast<int>(*version);
    const auto command = args.trailing();
    const double seconds = *duration;
    opt.whileRecording = [&] { runWorkload(command, seconds); };
    auto summary = tracing::recordTrace(opt);
    if (!summary) return failRuntime("record: " + summary.error());

    auto topo = loadLocalTopology();
    if (!topo) return failRuntime("record: " + *out + " written, but this machine's topology: " + topo.error());
    if (auto st = tracing::writeTopologySidecar(*out, *topo); !st) return failRuntime("record: " + st.error());
    std::fprintf(stderr, "record: wrote %s (%llu bytes, %d CPUs, %llu events lost) and %s\n", out->c_str(),
                 static_cast<unsigned long long>(summary->bytes), summary->cpus,
                 static_cast<unsigned long long>(summary->overruns), tracing::sidecarPath(*out).c_str());
    return 0;
}

}  // namespace schedscope::cli
