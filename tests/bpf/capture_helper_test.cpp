// schedscope-capture end to end over a pipe (spawned by CaptureClient), and its argument
// checks (exit 2 with one line on stderr), which need no privileges.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "bpf_source.h"
#include "capture_client.h"
#include "support/pinned_moves.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

struct RunResult {
    int exitCode = -1;
    std::string err;
};

// Runs the helper with stdout on a pipe (it refuses a terminal), collecting stderr.
RunResult runHelper(const std::string& args) {
    RunResult r;
    const std::string full = "sh -c '" + std::string(SCHEDSCOPE_CAPTURE) + " " + args + " 3>&1 1>/dev/null 2>&3; echo \"rc=$?\"'";
    FILE* p = popen(full.c_str(), "r");
    if (!p) return r;
    char buf[512];
    while (fgets(buf, sizeof buf, p)) r.err += buf;
    pclose(p);
    const auto pos = r.err.rfind("rc=");
    if (pos != std::string::npos) {
        r.exitCode = std::stoi(r.err.substr(pos + 3));
        r.err.erase(pos);
    }
    return r;
}

}  // namespace

TEST(CaptureHelper, RejectsBadArgumentsWithOneLine) {
    for (const char* bad : {"--mode bogus", "--duration -1", "--duration 1e9", "--interval-ms 5", "--ring-mb 3",
                            "--ignore-pid 0", "--ignore-pid 12x", "--frobnicate", "stray", "--mode", "--mode stream --mode stream",
                            "--duration nan",
                            // --socket: syntax is checked before anything privileged happens
                            "--socket relative/sock", "--socket=", "--socket /tmp/a/../sock", "--socket /tmp/dir/",
                            "--socket /tmp/./sock", "--socket /tmp/a --socket /tmp/b",
                            "--socket /tmp/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}) {
        auto r = runHelper(bad);
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
        EXPECT_TRUE(r.err.starts_with("schedscope-capture: ")) << r.err;
    }
}

TEST(CaptureHelper, StreamsEventsOverAPipe) {
    if (auto why = BpfSource::unavailableReason(); !why.empty()) GTEST_SKIP() << "BPF capture unavailable: " << why;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs at least 2 online CPUs";
    auto client = CaptureClient::spawn({SCHEDSCOPE_CAPTURE, "--mode", "stream", "--interval-ms", "50", "--duration", "30"});
    ASSERT_TRUE(client) << client.error();
    EventStore store;
    // Wait for the hello: the program is loaded and attached once it arrives.
    for (int i = 0; i < 100 && !(*client)->hello(); ++i) ASSERT_TRUE((*client)->pump(store, 100));
    ASSERT_TRUE((*client)->hello());
    EXPECT_EQ((*client)->hello()->mode, 0u);
    const pid_t tid = test::runPinnedMoves(4, [&] { ASSERT_TRUE((*client)->pump(store, 0)); });
    for (int i = 0; i < 3; ++i) ASSERT_TRUE((*client)->pump(store, 100));
    (*client)->flushCounts(store);
    store.finish();
    EXPECT_GT(store.count(EventKind::Switch), 0u);
    int moved = 0;
    for (const auto& mig : inferMigrations(store))
        if (mig.pid == tid && mig.cause == MigrationCause::Affinity) ++moved;
    EXPECT_GE(moved, 3);
    // Closing our end makes the helper exit (EPIPE / POLLERR) long before its --duration.
    EXPECT_EQ((*client)->close(), 0);
}

TEST(CaptureHelper, AggregateSnapshotsAndEnd) {
    if (auto why = BpfSource::unavailableReason(); !why.empty()) GTEST_SKIP() << "BPF capture unavailable: " << why;
    auto client = CaptureClient::spawn({SCHEDSCOPE_CAPTURE, "--mode=aggregate", "--interval-ms=100", "--duration=1"});
    ASSERT_TRUE(client) << client.error();
    EventStore store;
    bool going = true;
    for (int i = 0; i < 100 && going; ++i) {
        auto r = (*client)->pump(store, 100);
        ASSERT_TRUE(r) << r.error();
        going = *r;
    }
    EXPECT_TRUE((*client)->ended());
    ASSERT_TRUE((*client)->aggregate());
    EXPECT_GT((*client)->aggregate()->eventsByKind[static_cast<size_t>(EventKind::Switch)], 0u);
    EXPECT_EQ(store.size(), 0u) << "aggregate mode streams no events";
    EXPECT_EQ((*client)->close(), 0);
}
