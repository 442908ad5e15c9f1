// Bad-input catalogue, live rows: tracefs missing, another tool's instance with our name, and a
// SIGKILLed capture's stale instance cleaned by the next start. Tests that need root and tracefs
// skip with the reason elsewhere.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <atomic>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "hardening_support.h"
#include "support/fixtures.h"
#include "tracefs_instance.h"

using namespace schedscope;
using namespace schedscope::tracing;
using namespace schedscope::hardening;
namespace fs = std::filesystem;

namespace {

const std::string kInstances = std::string(kTracingDir) + "/instances/";

// Starts schedscope-cli with `args` in a child of this process (so its pid, and with it its
// tracefs instance's name, is known: tests running in parallel have instances of their own),
// its standard input and output on /dev/null and its standard error into `errFile` ("" for
// /dev/null). Returns the child's pid, -1 when fork() failed.
pid_t spawnCli(const std::vector<std::string>& args, const std::string& errFile = "") {
    std::vector<char*> argv{const_cast<char*>(SCHEDSCOPE_CLI)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t child = fork();
    if (child != 0) return child;
    const int devnull = ::open("/dev/null", O_RDWR);
    const int err = errFile.empty() ? devnull : ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(devnull, 0);
    dup2(devnull, 1);
    dup2(err, 2);
    execv(SCHEDSCOPE_CLI, argv.data());
    _exit(127);
}

// Waits (up to 30 s) for the tracefs instance of the capture `child` to appear; its path.
std::string awaitInstance(pid_t child) {
    std::string instance = kInstances + "schedscope-" + std::to_string(child);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::is_directory(instance) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return instance;
}

TEST(BadLive, NoTracefsMounted) {
    const std::string empty = scratchPath("no-tracefs");
    fs::remove_all(empty);
    fs::create_directories(empty);
    const std::string expected = geteuid() != 0 ? "needs root (tracefs instances are root-only); run with sudo"
                                                : "tracefs is not mounted at " + empty + " (mount -t tracefs nodev " +
                                                      empty + ")";
    EXPECT_EQ(tracefsUnavailableReason(empty), expected);
    auto inst = PrivateInstance::create(empty);
    ASSERT_FALSE(inst);
    EXPECT_EQ(inst.error(), expected);
    EXPECT_EQ(removeStaleInstances(empty), 0);
    EXPECT_TRUE(fs::is_empty(empty)) << "nothing was created in a directory that is not tracefs";
}

TEST(BadLive, WithoutRootLiveAndRecordSayWhatTheyNeed) {
    // As root, play the user without it: the CLI dropped to uid/gid 65534 by setpriv.
    std::string prefix;
    if (geteuid() == 0) {
        if (std::system("command -v setpriv >/dev/null 2>&1") != 0) GTEST_SKIP() << "no setpriv to drop root";
        prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
        if (std::system((prefix + "test -x " SCHEDSCOPE_CLI).c_str()) != 0)
            GTEST_SKIP() << "uid 65534 cannot run " SCHEDSCOPE_CLI " (a build under a private directory)";
    }
    const std::string cli = SCHEDSCOPE_CLI;
    for (const std::string cmd : {"live --source tracefs --duration 1", "record -o /tmp/schedscope-noroot.dat -- true"}) {
        const std::string errFile = scratchPath("noroot-stderr");
        std::string line = prefix;
        line.append(cli).append(" ").append(cmd).append(" >/dev/null 2>").append(errFile);
        const int st = std::system(line.c_str());
        ASSERT_TRUE(WIFEXITED(st)) << cmd;
        EXPECT_EQ(WEXITSTATUS(st), 1) << cmd;
        const std::string verb = cmd.substr(0, cmd.find(' '));
        EXPECT_EQ(test::readFile(errFile),
                  "schedscope-cli: " + verb + ": needs root (tracefs instances are root-only); run with sudo\n");
    }
}

TEST(BadLive, AnotherToolsInstanceWithTheSameNameIsLeftAlone) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    // Another tool made an instance with the name we would pick (ours is schedscope-<our pid>).
    const std::string name = "schedscope-" + std::to_string(getpid());
    const std::string dir = kInstances + name;
    ASSERT_EQ(mkdir(dir.c_str(), 0750), 0) << dir;
    auto inst = PrivateInstance::create();
    EXPECT_FALSE(inst);
    if (!inst) {
        EXPECT_EQ(inst.error(), dir + ": already exists and is not ours; leaving it alone (remove it with rmdir if it is stale)");
    }
    EXPECT_TRUE(fs::is_directory(dir)) << "the other tool's instance must survive";
    // A name no pid can have is never taken for stale.
    const std::string odd = kInstances + "schedscope-99999999999";
    ASSERT_EQ(mkdir(odd.c_str(), 0750), 0);
    removeStaleInstances();
    EXPECT_TRUE(fs::is_directory(odd));
    rmdir(odd.c_str());
    rmdir(dir.c_str());
}

TEST(BadLive, SigkilledCaptureLeavesAStaleInstanceTheNextStartCleans) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    const pid_t child = spawnCli({"live", "--duration", "30"});
    ASSERT_GE(child, 0);
    const std::string stale = awaitInstance(child);
    const bool started = fs::is_directory(stale);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(started) << "schedscope-cli live never created " << stale;
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_TRUE(fs::is_directory(stale)) << "SIGKILL cannot clean up: the instance is left behind";

    CliRun again = runCli("live --duration 0.3 --json");
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_FALSE(fs::exists(stale)) << "the next start removes the dead process's instance";
    if (fs::exists(stale)) rmdir(stale.c_str());
}

// What a capture (live or record, started with `args`) did when another process switched its
// instance's sched_switch event and tracing_on off while it ran.
struct TamperRun {
    std::string name;      // the capture's instance
    bool started = false;  // it had switched tracing on
    std::string restored;  // the event's enable and tracing_on, a while after the switch-off
    int status = 0;
    std::string err;
};

TamperRun tamperWhileRunning(const std::vector<std::string>& args) {
    TamperRun r;
    const std::string errFile = scratchPath("tamper-stderr-" + std::to_string(getpid()));
    const pid_t child = spawnCli(args, errFile);
    if (child < 0) return r;
    r.name = "schedscope-" + std::to_string(child);
    const std::string ours = kInstances + r.name;
    // Wait for the capture to be set up, then play the other tool: switch our event and tracing
    // off. A new instance starts with tracing_on at 1 until the capture turns it off to enable
    // its events, so "on" alone is no sign: the event's enable is read first, and tracing_on at
    // 1 after that can only be the capture's own switch-on. (Reading tracing_on alone, writes
    // made in that first instant were undone by the set-up itself, with nothing to report.)
    const std::string eventEnable = ours + "/events/sched/sched_switch/enable";
    auto setUp = [&] {
        const bool eventOn = test::readFile(eventEnable) == "1\n";
        return eventOn && test::readFile(ours + "/tracing_on") == "1\n";
    };
    // Generous: the set-up takes ~0.5 s under ASan, but it took 15-30 s on a 2-CPU VM while the
    // capture still had libtracefs parse /proc/kallsyms (loadLocalEventFormats() skips it now),
    // and a slow machine under load should not fail this test.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    while (!setUp() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    r.started = setUp();
    if (r.started) {
        writeFile(eventEnable, "0");
        writeFile(ours + "/tracing_on", "0");
        std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // live checks once a second
        r.restored = test::readFile(eventEnable) + test::readFile(ours + "/tracing_on");
    }
    int status = 0;
    waitpid(child, &status, 0);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = test::readFile(errFile);
    return r;
}

std::string tamperNotes(const std::string& prefix, const std::string& instance) {
    return prefix + "tracefs instance " + instance +
           ": sched:sched_switch was disabled by another process; switched on again (events in between are missing)\n" +
           prefix + "tracefs instance " + instance +
           ": tracing_on was turned off by another process; switched on again (events in between are missing)\n";
}

// `err` has the two notes of tamperNotes() once each, in either order: the capture looks at its
// events before tracing_on, so when both switch-offs fall between two of its looks at the
// events (the test descheduled between its two writes on a loaded machine) it notes tracing_on
// first. Any other line must contain `otherLine`: a note of events lost on a loaded machine.
void expectTamperNotes(const std::string& err, const std::string& prefix, const std::string& instance,
                       const std::string& otherLine) {
    std::vector<std::string> notes, lines;
    std::istringstream split(tamperNotes(prefix, instance)), in(err);
    for (std::string line; std::getline(split, line);) notes.push_back(line);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    for (const std::string& note : notes) EXPECT_EQ(std::count(lines.begin(), lines.end(), note), 1) << note << "\nin:\n" << err;
    for (const std::string& line : lines) {
        if (std::find(notes.begin(), notes.end(), line) != notes.end()) continue;
        EXPECT_NE(line.find(otherLine), std::string::npos) << line << "\nin:\n" << err;
    }
}

TEST(BadLive, EventsDisabledUnderUsAreSwitchedBackOnAndReported) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    const TamperRun r = tamperWhileRunning({"live", "--source", "tracefs", "--duration", "6", "--interval", "0"});
    ASSERT_TRUE(r.started) << "schedscope-cli live never switched tracing on in " << r.name << ": " << r.err;
    EXPECT_EQ(r.restored, "1\n1\n") << "switched on again while the capture ran";
    EXPECT_EQ(r.status, 0) << r.err;
    expectTamperNotes(r.err, "schedscope-cli: live: ", r.name, " events lost: the ring buffers");
}

// record too: before, it wrote a trace that ended where the other process switched it off and
// said "0 events lost"
TEST(BadLive, RecordSwitchesTracingBackOnAndSaysSo) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::string out = scratchPath("record-tamper/tampered.dat");
    const TamperRun r = tamperWhileRunning({"record", "-o", out, "--duration", "5"});
    ASSERT_TRUE(r.started) << "schedscope-cli record never switched tracing on in " << r.name << ": " << r.err;
    EXPECT_EQ(r.restored, "1\n1\n") << "switched on again while the recording ran";
    EXPECT_EQ(r.status, 0) << r.err;
    const size_t wrote = r.err.find("record: wrote " + out);
    ASSERT_NE(wrote, std::string::npos) << r.err;
    expectTamperNotes(r.err.substr(0, wrote), "note: " + out + ": ", r.name, " events lost: the ring buffers");
}

TEST(BadLive, WindowKeepsTheStoreBounded) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    std::atomic<bool> stop{false};
    std::thread sleeper([&] {  // a few thousand context switches per second
        while (!stop) std::this_thread::sleep_for(std::chrono::microseconds(200));
    });
    CliRun r = runCli("live --duration 3 --window 0.5 --json");
    stop = true;
    sleeper.join();
    ASSERT_EQ(r.status, 0) << r.err;
    std::string out = r.out;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    const std::string last = out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
    const auto j = nlohmann::json::parse(last, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << last;
    EXPECT_TRUE(j["final"].get<bool>());
    EXPECT_LT(j["stored_events"].get<uint64_t>(), j["events"].get<uint64_t>()) << last;
    // a capture that lost nothing sees no migration in its switches that it did not record
    if (j["lost_events"].get<uint64_t>() == 0) {
        EXPECT_EQ(j["migrations_seen_in_switches"].get<uint64_t>(), 0u) << last;
    }
    EXPECT_EQ(runCli("live --window -1").err, "schedscope-cli: live: --window must be in [0, 1000000] seconds\n");
}

// record -o onto what is not a regular file, and a command that cannot start: nothing the user
// had is replaced or removed (a device node was replaced by a file, an existing trace deleted).
TEST(BadLive, RecordReplacesNoDeviceAndKeepsTheTraceThereWhenItsCommandCannotStart) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const fs::path dir = fs::path(scratchPath("record-keep/x")).parent_path();
    for (const auto& e : fs::directory_iterator(dir)) fs::remove(e.path());
    const std::string node = (dir / "full").string();
    if (mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) GTEST_SKIP() << "mknod: " << std::strerror(errno);
    CliRun r = runCli("record -o '" + node + "' --duration 0.2");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "schedscope-cli: record: " + node +
                         ": not a regular file (a device, a pipe or a directory): give a file to write the trace.dat to\n");
    struct stat st {};
    ASSERT_EQ(lstat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node is still one";

    const std::string trace = (dir / "precious.dat").string();
    writeFile(trace, "a trace recorded earlier");
    r = runCli("record -o '" + trace + "' -- /nonexistent/typo");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "schedscope-cli: record: cannot run /nonexistent/typo: No such file or directory\n");
    EXPECT_EQ(test::readFile(trace), "a trace recorded earlier");
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
    std::sort(left.begin(), left.end());
    EXPECT_EQ(left, (std::vector<std::string>{"full", "precious.dat"})) << "no temporary file is left behind";
    unlink(node.c_str());
}

// live's text output: its total line, then the events by kind (adding up to the total) and the
// migrations by cause, as the README says every source prints (they were in --json only).
TEST(BadLive, LiveTextEndsWithTheEventsByKindAndTheCausesOfTheMigrations) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "live capture unavailable: " << why;
    CliRun r = runCli("live --source tracefs --duration 0.3 --interval 0");
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    std::string total, kinds, causes;
    std::getline(lines, total);
    std::getline(lines, kinds);
    std::getline(lines, causes);
    ASSERT_TRUE(total.starts_with("total ")) << r.out;
    const size_t eventsAt = total.find(" events  ");
    ASSERT_NE(eventsAt, std::string::npos) << total;
    const unsigned long long events = std::stoull(total.substr(total.rfind(' ', eventsAt - 1) + 1));
    ASSERT_TRUE(kinds.starts_with("  events by kind: ")) << r.out;
    EXPECT_NE(kinds.find("sched_switch="), std::string::npos) << kinds;
    unsigned long long sum = 0;
    for (size_t at = kinds.find('='); at != std::string::npos; at = kinds.find('=', at + 1)) sum += std::stoull(kinds.substr(at + 1));
    EXPECT_EQ(sum, events) << r.out;
    EXPECT_TRUE(causes.starts_with("  migrations by cause: ")) << r.out;
}

// record -o '' (an unset shell variable) is refused before it records, not after its duration;
// the staging files a SIGKILLed recording to the same name left are removed, another running
// recording's (a live PID) are not.
TEST(BadLive, RecordRefusesAnEmptyPathAndClearsAKilledRecordingsStagingFiles) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const auto started = std::chrono::steady_clock::now();
    CliRun r = runCli("record -o '' --duration 5");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "schedscope-cli: record: the output path is empty: give a file to write the trace.dat to\n");
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4)) << "it recorded first";

    const fs::path dir = fs::path(scratchPath("record-stale/x")).parent_path();
    for (const auto& e : fs::directory_iterator(dir)) fs::remove(e.path());
    // a PID above the kernel's largest (PID_MAX_LIMIT, 2^22) is no process
    for (const char* name : {".t.dat.recording-4194305", ".t.dat.recording-4194305.cpu0", ".t.dat.recording-1",
                             ".other.dat.recording-4194305"})
        writeFile((dir / name).string(), "");
    r = runCli("record -o '" + (dir / "t.dat").string() + "' --duration 0.1");
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
    std::sort(left.begin(), left.end());
    EXPECT_EQ(left, (std::vector<std::string>{".other.dat.recording-4194305", ".t.dat.recording-1", "t.dat",
                                              "t.dat.groups.json", "t.dat.topology.json"}));
}

// A command that ignores SIGTERM and leaves a process behind: the recording still ends at its
// --duration (SIGKILL after the grace), and the tracefs instance is removed though the leftover
// process lives on (it inherited no descriptor of the recorders).
TEST(BadLive, RecordEndsAtItsDurationAndLeavesNoInstanceBehindItsCommandsLeftovers) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::string out = scratchPath("record-stop/stubborn.dat"), err = scratchPath("record-stop/stderr");
    const auto start = std::chrono::steady_clock::now();
    const pid_t child =
        spawnCli({"record", "-o", out, "--duration", "0.5", "--", "sh", "-c", "sleep 4 & trap '' TERM; sleep 30"}, err);
    ASSERT_GE(child, 0);
    int status = 0;
    waitpid(child, &status, 0);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << test::readFile(err);
    EXPECT_LT(took, 10.0) << "0.5 s and a 2 s grace, not the command's 30 s";
    EXPECT_NE(test::readFile(err).find("record: sh did not exit 2 s after SIGTERM: killed\n"), std::string::npos)
        << test::readFile(err);
    EXPECT_FALSE(fs::exists(kInstances + "schedscope-" + std::to_string(child))) << "the instance was removed";
}

// The trace of a command that failed is written, and the failure said: it may explain the trace.
TEST(BadLive, RecordSaysHowItsCommandEnded) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::string out = scratchPath("record-status/failed.dat");
    CliRun r = runCli("record -o '" + out + "' -- sh -c 'exit 3'");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.starts_with("record: sh exited with status 3\nrecord: wrote " + out)) << r.err;
    r = runCli("record -o '" + out + "' -- sh -c 'kill -SEGV $$'");
    EXPECT_TRUE(r.err.starts_with("record: sh was killed by signal 11 (Segmentation fault)\n")) << r.err;
    r = runCli("record -o '" + out + "' -- true");
    EXPECT_TRUE(r.err.starts_with("record: wrote " + out)) << r.err;
}

// SIGHUP (the terminal closed) ends a recording as Ctrl-C does: the trace is written and the
// instance removed, rather than left tracing with nothing written.
TEST(BadLive, RecordStopsCleanlyOnSighup) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "recording unavailable: " << why;
    const std::string out = scratchPath("record-hup/hup.dat");
    const pid_t child = spawnCli({"record", "-o", out, "--duration", "30"});
    ASSERT_GE(child, 0);
    const std::string instance = awaitInstance(child);
    kill(child, SIGHUP);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal";
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_GT(fs::file_size(out), 0u);
    EXPECT_FALSE(fs::exists(instance));
}

}  // namespace
