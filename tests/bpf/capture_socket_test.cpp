// schedscope-capture --socket PATH end to end: a client attaches with CaptureClient and sees
// pinned moves as affinity migrations at the right level; the helper refuses paths it must not
// touch, serves one client, removes the socket, exits when the client goes, and rejects a
// client that writes to it (the protocol is one-way). Needs BPF (root or CAP_BPF+CAP_PERFMON):
// skipped with the reason otherwise.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bpf_source.h"
#include "capture_client.h"
#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "support/fixtures.h"
#include "support/pinned_moves.h"

extern char** environ;

using namespace schedscope;
using namespace schedscope::tracing;
namespace fs = std::filesystem;

namespace {

// A running helper with its stderr on a pipe.
struct Helper {
    pid_t pid = -1;
    int err = -1;
    ~Helper() {
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        if (err >= 0) close(err);
    }
    // Exit status, waiting at most `ms`; -2 when still running.
    int wait(int ms) {
        for (int i = 0; i < ms / 10; ++i) {
            int st = 0;
            if (waitpid(pid, &st, WNOHANG) == pid) {
                pid = -1;
                return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return -2;
    }
    std::string stderrText() {
        std::string out;
        char buf[512];
        pollfd p{err, POLLIN, 0};
        while (poll(&p, 1, 0) > 0) {
            const ssize_t n = read(err, buf, sizeof buf);
            if (n <= 0) break;
            out.append(buf, static_cast<size_t>(n));
        }
        return out;
    }
};

std::unique_ptr<Helper> startHelper(const std::vector<std::string>& args, const std::vector<std::string>& extraEnv = {}) {
    std::vector<std::string> argv{SCHEDSCOPE_CAPTURE};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> av;
    for (auto& a : argv) av.push_back(a.data());
    av.push_back(nullptr);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
    env.insert(env.end(), extraEnv.begin(), extraEnv.end());
    std::vector<char*> ev;
    for (auto& e : env) ev.push_back(e.data());
    ev.push_back(nullptr);
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return nullptr;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    auto h = std::make_unique<Helper>();
    const int rc = posix_spawn(&h->pid, av[0], &fa, nullptr, av.data(), ev.data());
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    h->err = p[0];
    if (rc != 0) h->pid = -1;
    return h;
}

bool waitForSocket(const std::string& path, int ms = 10'000) {
    for (int i = 0; i < ms / 10; ++i) {
        struct stat st {};
        if (lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

struct TempDir {
    std::string path;
    TempDir() {
        char tmpl[] = "/tmp/schedscope-sock-XXXXXX";
        if (mkdtemp(tmpl)) path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

#define SKIP_WITHOUT_BPF()                                                                                           \
    do {                                                                                                             \
        if (auto why = BpfSource::unavailableReason(); !why.empty()) {                                               \
            std::printf("[  SKIPPED ] BPF capture unavailable: %s\n", why.c_str());                                  \
            GTEST_SKIP() << "BPF capture unavailable: " << why;                                                      \
        }                                                                                                            \
    } while (0)

}  // namespace

TEST(CaptureSocket, PinnedMovesReachAnAttachedClientAtTheRightLevel) {
    SKIP_WITHOUT_BPF();
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs at least 2 online CPUs";
    auto tree = test::localDomainTree();
    ASSERT_TRUE(tree) << tree.error();
    MigrationClassifier classifier(*tree);

    TempDir dir;
    const std::string sock = dir.path + "/capture.sock";
    auto helper = startHelper({"--socket", sock, "--interval-ms", "50", "--duration", "60"});
    ASSERT_TRUE(helper && helper->pid > 0);
    ASSERT_TRUE(waitForSocket(sock)) << helper->stderrText();
    struct stat st {};
    ASSERT_EQ(lstat(sock.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << "the socket must not be reachable by other users";

    auto client = CaptureClient::attach(sock);
    ASSERT_TRUE(client) << client.error();
    EventStore store;
    for (int i = 0; i < 100 && !(*client)->hello(); ++i) ASSERT_TRUE((*client)->pump(store, 100));
    ASSERT_TRUE((*client)->hello()) << helper->stderrText();
    EXPECT_EQ((*client)->hello()->mode, 0u);
    // One client only: the path is gone once it is served.
    EXPECT_FALSE(fs::exists(sock)) << "the helper keeps its socket after accepting";

    const pid_t moved = test::runPinnedMoves(6, [&] { ASSERT_TRUE((*client)->pump(store, 0)); });
    for (int i = 0; i < 3; ++i) ASSERT_TRUE((*client)->pump(store, 100));
    (*client)->flushCounts(store);
    store.finish();
    EXPECT_GT(store.count(EventKind::Switch), 0u);
    EXPECT_EQ((*client)->lost(), 0u);
    auto report = classifier.classify(store);
    int affinity = 0;
    std::string seen;
    for (const auto& mig : report.migrations) {
        if (mig.pid != moved) continue;
        seen += " " + std::to_string(mig.src) + "->" + std::to_string(mig.dst) + ":" + std::string(migrationCauseName(mig.cause));
        if (mig.cause != MigrationCause::Affinity) continue;
        ++affinity;
        EXPECT_EQ(classifier.levelNames()[static_cast<size_t>(mig.level)], tree->lowestCommonLevel(mig.src, mig.dst));
    }
    EXPECT_GE(affinity, 6 - 1) << "migrations of the moved thread:" << seen;

    // The helper exits (status 0) when its client goes, long before --duration.
    (*client)->close();
    EXPECT_EQ(helper->wait(5000), 0) << helper->stderrText();
}

// The CLI end to end: `schedscope-cli live --attach SOCK` reads the helper's socket and counts
// the pinned moves as affinity migrations (the helper was started as root, as with sudo).
TEST(CaptureSocket, CliLiveAttachCountsMigrations) {
    SKIP_WITHOUT_BPF();
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs at least 2 online CPUs";
    TempDir dir;
    const std::string sock = dir.path + "/s";
    auto helper = startHelper({"--socket", sock, "--interval-ms", "50"});
    ASSERT_TRUE(waitForSocket(sock)) << helper->stderrText();
    const std::string out = dir.path + "/live.json";
    const std::string cmd = std::string(SCHEDSCOPE_CLI) + " live --attach " + sock + " --duration 3 --interval 0 --json > " + out;
    std::thread cli([&] { EXPECT_EQ(std::system(cmd.c_str()), 0); });
    std::this_thread::sleep_for(std::chrono::milliseconds(800));  // attached, hello received
    test::runPinnedMoves(6, [] {});
    cli.join();
    const std::string json = test::readFile(out);
    EXPECT_NE(json.find("\"source\":\"bpf (attached)\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"lost_events\":0"), std::string::npos) << json;
    const auto affinity = json.find("\"affinity\":");
    ASSERT_NE(affinity, std::string::npos) << json;
    EXPECT_GE(std::atoi(json.c_str() + affinity + 11), 5) << json;
    // The CLI went away: so does the helper.
    EXPECT_EQ(helper->wait(5000), 0) << helper->stderrText();
}

TEST(CaptureSocket, RefusesPathsItMustNotReplace) {
    SKIP_WITHOUT_BPF();
    TempDir dir;
    // A regular file: untouched, exit 1 with one line.
    const std::string file = dir.path + "/notes.txt";
    FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_TRUE(f);
    std::fputs("keep me\n", f);
    std::fclose(f);
    // A symlink to a socket path elsewhere, and a directory.
    const std::string link = dir.path + "/link";
    ASSERT_EQ(symlink("/run/some.sock", link.c_str()), 0);
    const std::string sub = dir.path + "/sub";
    ASSERT_EQ(mkdir(sub.c_str(), 0700), 0);
    for (const std::string& path : {file, link, sub, dir.path + "/missing-dir/sock"}) {
        auto h = startHelper({"--socket", path});
        ASSERT_TRUE(h && h->pid > 0);
        EXPECT_EQ(h->wait(10'000), 1) << path;
        const std::string err = h->stderrText();
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_NE(err.find(path), std::string::npos) << err;
    }
    EXPECT_EQ(test::readFile(file), "keep me\n");
    EXPECT_TRUE(fs::is_symlink(link));
}

TEST(CaptureSocket, RefusesASocketInUseAndReplacesAStaleOne) {
    SKIP_WITHOUT_BPF();
    TempDir dir;
    const std::string sock = dir.path + "/s";
    // A live server at the path: refused.
    const int server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strcpy(a.sun_path, sock.c_str());
    ASSERT_EQ(bind(server, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(listen(server, 1), 0);
    {
        auto h = startHelper({"--socket", sock});
        EXPECT_EQ(h->wait(10'000), 1);
        EXPECT_NE(h->stderrText().find("already listening"), std::string::npos);
    }
    // The server goes, its socket file stays (stale): the helper replaces it.
    close(server);
    auto h = startHelper({"--socket", sock, "--duration", "30"});
    // The stale file is there from the start: wait for the helper to say it listens.
    std::string err;
    for (int i = 0; i < 1000 && err.find("waiting for a client") == std::string::npos; ++i) {
        err += h->stderrText();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_NE(err.find("waiting for a client"), std::string::npos) << err;
    auto client = CaptureClient::attach(sock);
    ASSERT_TRUE(client) << client.error() << " " << h->stderrText();
    EventStore store;
    for (int i = 0; i < 100 && !(*client)->hello(); ++i) ASSERT_TRUE((*client)->pump(store, 100));
    EXPECT_TRUE((*client)->hello()) << h->stderrText();
}

TEST(CaptureSocket, UnderSudoTheSocketBelongsToTheInvokingUser) {
    SKIP_WITHOUT_BPF();
    if (geteuid() != 0) GTEST_SKIP() << "needs root to act as sudo";
    TempDir dir;
    // The directory is the user's: the helper binds as that user, so it needs the user's rights.
    ASSERT_EQ(chown(dir.path.c_str(), 65534, 65534), 0);
    const std::string sock = dir.path + "/s";
    auto h = startHelper({"--socket", sock, "--duration", "30"}, {"SUDO_UID=65534", "SUDO_GID=65534"});
    ASSERT_TRUE(waitForSocket(sock)) << h->stderrText();
    struct stat st {};
    ASSERT_EQ(lstat(sock.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    // Root may still connect (as sudo's caller could); the helper then runs as uid 65534.
    auto client = CaptureClient::attach(sock);
    ASSERT_TRUE(client) << client.error();
    EventStore store;
    for (int i = 0; i < 100 && !(*client)->hello(); ++i) ASSERT_TRUE((*client)->pump(store, 100));
    ASSERT_TRUE((*client)->hello()) << h->stderrText();
    const std::string status = test::readFile("/proc/" + std::to_string(h->pid) + "/status");
    EXPECT_NE(status.find("Uid:\t65534\t65534\t65534\t65534"), std::string::npos) << status;
    EXPECT_NE(status.find("CapEff:\t0000000000000000"), std::string::npos) << status;
    // Without the user's rights on the directory, binding fails: root's are not used.
    TempDir rootDir;
    ASSERT_EQ(chmod(rootDir.path.c_str(), 0755), 0);
    auto denied = startHelper({"--socket", rootDir.path + "/s"}, {"SUDO_UID=65534", "SUDO_GID=65534"});
    EXPECT_EQ(denied->wait(10'000), 1);
    EXPECT_NE(denied->stderrText().find("Permission denied"), std::string::npos);
}

TEST(CaptureSocket, ThePathAppearsOnlyOnceTheHelperListens) {
    SKIP_WITHOUT_BPF();
    TempDir dir;
    const std::string sock = dir.path + "/s";
    // listen() made 300 ms slow: a path bound in place would refuse connections all that time
    auto h = startHelper({"--socket", sock, "--interval-ms", "20", "--duration", "30"}, {"LD_PRELOAD=" SLOW_LISTEN_SHIM});
    ASSERT_TRUE(waitForSocket(sock)) << h->stderrText();
    // the temporary name it was bound under is gone, and the path is the owner's alone (looked
    // at before connecting: the helper removes the path once it has its one client)
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"s"});
    struct stat st {};
    ASSERT_EQ(lstat(sock.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strcpy(a.sun_path, sock.c_str());
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0) << std::strerror(errno);
    close(fd);
    EXPECT_GE(h->wait(10'000), 0) << h->stderrText();
}

TEST(CaptureSocket, AClientThatWritesIsRejected) {
    SKIP_WITHOUT_BPF();
    TempDir dir;
    const std::string sock = dir.path + "/s";
    auto h = startHelper({"--socket", sock, "--interval-ms", "20", "--duration", "30"});
    ASSERT_TRUE(waitForSocket(sock));
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strcpy(a.sun_path, sock.c_str());
    // The path exists from the helper's bind(); until its listen() a connect is refused (a
    // clean clone's run hit that window once): try again, on a new socket each time.
    int fd = -1, connected = -1;
    for (int i = 0; i < 200 && connected != 0; ++i) {
        if (fd >= 0) close(fd);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        connected = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        if (connected != 0 && errno != ECONNREFUSED) break;
        if (connected != 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(connected, 0) << std::strerror(errno);
    // Bytes that look like a frame: the protocol has no client-to-helper frames at all.
    const char junk[] = "SSCP\x01\x00\x01\x00\x00\x00\x00\x00";
    ASSERT_EQ(write(fd, junk, sizeof junk - 1), static_cast<ssize_t>(sizeof junk - 1));
    CaptureClient client(fd);
    EventStore store;
    std::string error;
    for (int i = 0; i < 200; ++i) {
        auto r = client.pump(store, 50);
        if (!r) {
            error = r.error();
            break;
        }
        if (!*r) break;
    }
    EXPECT_NE(error.find("one-way"), std::string::npos) << error;
    EXPECT_EQ(h->wait(5000), 1);
}
