// schedscope-cli record -o FILE.dat [--duration S] [--file-version 6|7] [--clock NAME] [--buffer-kb N] [-- COMMAND...]
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "capture_signals.h"
#include "commands.h"
#include "ring_buffer_option.h"
#include "topology/hwloc_loader.h"
#include "trace_cmds.h"
#include "trace_recorder.h"
#include "task_groups.h"
#include "trace_topology.h"
#include "tracefs_instance.h"

namespace schedscope::cli {
namespace {

// Ends the command at the end of the recording: SIGTERM, and SIGKILL when it is still there
// kTermGraceS later (a command that ignores SIGTERM would otherwise stretch the recording).
constexpr double kTermGraceS = 2.0;
void stopCommand(pid_t child, const std::string& name) {
    kill(child, SIGTERM);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kTermGraceS);
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
            std::fprintf(stderr, "record: %s did not exit %g s after SIGTERM: killed\n", name.c_str(), kTermGraceS);
            kill(child, SIGKILL);
            while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// Runs `command` (if any) until it exits, `duration` passes, or a stop signal arrives. Returns
// "" or why the command could not be started: the child reports a failed exec through a
// close-on-exec pipe, which a successful exec closes unread.
std::string runWorkload(const std::vector<std::string>& command, double duration) {
    if (command.empty()) {
        sleepUnlessStopped(duration);
        return "";
    }
    std::vector<char*> argv;  // built before the fork: the child of a threaded process only execs
    argv.reserve(command.size() + 1);
    for (const auto& w : command) argv.push_back(const_cast<char*>(w.c_str()));
    argv.push_back(nullptr);
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
    const pid_t child = fork();
    if (child == 0) {
        close(report[0]);
        // The recorders' files and trace_pipe_raw are open here without close-on-exec (libtracecmd
        // opens them): a command that left a process behind would keep the instance busy, and
        // its removal would fail, after the recording ended.
        if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
            for (int fd = 3; fd < 4096; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
        execvp(argv[0], argv.data());
        const int err = errno;
        (void)!write(report[1], &err, sizeof err);
        _exit(127);
    }
    close(report[1]);
    if (child < 0) {
        close(report[0]);
        return std::string("fork: ") + std::strerror(errno);
    }
    int execErrno = 0;
    ssize_t got = 0;
    while ((got = read(report[0], &execErrno, sizeof execErrno)) < 0 && errno == EINTR) {}
    close(report[0]);
    int status = 0;
    if (got == static_cast<ssize_t>(sizeof execErrno)) {
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        return "cannot run " + command[0] + ": " + std::strerror(execErrno);
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(duration);
    pid_t done = 0;
    while ((done = waitpid(child, &status, WNOHANG)) == 0) {
        if (stopRequested() || std::chrono::steady_clock::now() >= end) {
            stopCommand(child, command[0]);
            return "";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // the trace is what it is either way; a failed command may explain an odd one
    if (done == child && WIFEXITED(status) && WEXITSTATUS(status) != 0)
        std::fprintf(stderr, "record: %s exited with status %d\n", command[0].c_str(), WEXITSTATUS(status));
    else if (done == child && WIFSIGNALED(status))
        std::fprintf(stderr, "record: %s was killed by signal %d (%s)\n", command[0].c_str(), WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
    return "";
}

}  // namespace

int runRecord(const Args& args) {
    auto out = args.value("output");
    if (!out) out = args.value("o");
    if (!out) return fail("record: give the output file with -o FILE.dat");
    const bool hasCommand = !args.trailing().empty();
    auto duration = args.numberIn("duration", hasCommand ? 1e9 : 10.0, 0.001, 1e9, "seconds");
    if (!duration) return fail("record: " + duration.error());
    auto version = args.integer("file-version", 7, 6, 7);
    if (!version) return fail("record: " + version.error());
    auto bufferKb = bufferKbFrom(args);
    if (!bufferKb) return fail("record: " + bufferKb.error());
    if (auto why = tracing::tracefsUnavailableReason(); !why.empty()) return failRuntime("record: " + why);

    installStopSignals();
    tracing::RecordOptions opt;
    opt.output = *out;
    opt.fileVersion = static_cast<int>(*version);
    if (auto clock = args.value("clock")) {
        // a clock the kernel lacks is bad input: said before the workload runs (exit 2)
        const std::vector<std::string> clocks = tracing::traceClocks();
        if (!clocks.empty() && std::find(clocks.begin(), clocks.end(), *clock) == clocks.end()) {
            std::string list;
            for (const auto& c : clocks) list += (list.empty() ? "" : ", ") + c;
            return fail("record: --clock " + *clock + ": not a trace clock of this kernel (it has: " + list + ")");
        }
        opt.clock = *clock;
    }
    opt.bufferKb = *bufferKb;
    const auto& command = args.trailing();
    const double seconds = *duration;
    std::string workloadError;
    // a command that could not start: a trace of nothing in particular, not written (a file
    // already at -o stays as it was)
    // every running task's group before the workload starts; its tasks inherit theirs by fork.
    // Those that started meanwhile in a group no fork leads to (a container runtime's, moved into
    // its container's cgroup) are read as the workload ends, while still there.
    tracing::TaskGroupSnapshot groups = tracing::snapshotTaskGroups();
    opt.whileRecording = [&] {
        workloadError = runWorkload(command, seconds);
        tracing::addLaterSnapshot(groups, tracing::snapshotTaskGroups());
        return workloadError;
    };
    auto summary = tracing::recordTrace(opt);
    if (!workloadError.empty()) return fail("record: " + workloadError);
    if (!summary) return failRuntime("record: " + summary.error());

    for (const auto& note : summary->notes) std::fprintf(stderr, "note: %s: %s\n", out->c_str(), note.c_str());
    if (summary->overruns > 0)
        std::fprintf(stderr, "note: %s: %s\n", out->c_str(), lostEventsAdvice(summary->overruns, summary->bufferKb).c_str());
    auto topo = loadLocalTopology();
    if (!topo) return failRuntime("record: " + *out + " written, but this machine's topology: " + topo.error());
    if (auto st = tracing::writeTopologySidecar(*out, *topo); !st) return failRuntime("record: " + st.error());
    if (auto st = tracing::writeGroupsSidecar(*out, groups); !st) return failRuntime("record: " + st.error());
    std::fprintf(stderr, "record: wrote %s (%llu bytes, %d CPUs, %llu events lost), %s and %s\n", out->c_str(),
                 static_cast<unsigned long long>(summary->bytes), summary->cpus,
                 static_cast<unsigned long long>(summary->overruns), tracing::sidecarPath(*out).c_str(),
                 tracing::groupsSidecarPath(*out).c_str());
    return 0;
}

}  // namespace schedscope::cli
