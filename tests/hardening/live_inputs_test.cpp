// Bad-input catalogue, live rows: tracefs missing, another tool's instance with our name, and a
// SIGKILLed capture's stale instance cleaned by the next start. Tests that need root and tracefs
// skip with the reason elsewhere.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "hardening_support.h"
#include "tracefs_instance.h"

using namespace schedscope;
using namespace schedscope::tracing;
using namespace schedscope::hardening;
namespace fs = std::filesystem;

namespace {

const std::string kInstances = std::string(kTracingDir) + "/instances/";

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
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const int devnull = ::open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execl(SCHEDSCOPE_CLI, SCHEDSCOPE_CLI, "live", "--duration", "30", static_cast<char*>(nullptr));
        _exit(127);
    }
    const std::string stale = kInstances + "schedscope-" + std::to_string(child);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::is_directory(stale) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
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
    EXPECT_EQ(runCli("live --window -1").err, "schedscope-cli: live: --window must be in [0, 1000000] seconds\n");
}

}  // namespace
