#include "capture_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace schedscope::tracing {

CaptureClient::CaptureClient(int fd) : fd_(fd) {}

CaptureClient::~CaptureClient() { close(); }

Result<std::unique_ptr<CaptureClient>> CaptureClient::spawn(const std::vector<std::string>& argv) {
    if (argv.empty()) return Error{"capture helper: no command"};
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return Error{std::string("capture helper: pipe: ") + std::strerror(errno)};
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        ::close(p[0]);
        ::close(p[1]);
        return Error{std::string("capture helper: fork: ") + std::strerror(errno)};
    }
    if (pid == 0) {
        dup2(p[1], STDOUT_FILENO);  // dup2 clears O_CLOEXEC on the copy
        execvp(args[0], args.data());
        const std::string msg = "schedscope: cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
        (void)!write(STDERR_FILENO, msg.data(), msg.size());
        _exit(127);
    }
    ::close(p[1]);
    auto c = std::make_unique<CaptureClient>(p[0]);
    c->child_ = pid;
    return c;
}

Result<std::unique_ptr<CaptureClient>> CaptureClient::attach(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return Error{path + ": " + std::strerror(errno)};
    if (S_ISFIFO(st.st_mode)) {
        // A blocking open of a FIFO waits for a writer, for ever if none comes (a helper that
        // failed to start): opened without waiting, the reader polls for the helper's hello
        // with its own timeout. Reads block again once poll() says there is data.
        const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return Error{path + ": " + std::strerror(errno)};
        if (const int flags = fcntl(fd, F_GETFL); flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
            const std::string e = path + ": " + std::strerror(errno);
            ::close(fd);
            return Error{e};
        }
        return std::make_unique<CaptureClient>(fd);
    }
    if (!S_ISSOCK(st.st_mode)) return Error{path + ": neither a Unix socket nor a FIFO (start schedscope-capture --socket " + path + ")"};
    sockaddr_un a{};
    if (path.size() >= sizeof a.sun_path) return Error{path + ": too long for a Unix socket address"};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, path.data(), path.size());
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error{std::string("socket: ") + std::strerror(errno)};
    if (connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
        const std::string e = path + ": " + std::strerror(errno) +
                              (errno == ECONNREFUSED ? " (no helper is listening; it serves one client and then removes the socket)" : "");
        ::close(fd);
        return Error{e};
    }
    return std::make_unique<CaptureClient>(fd);
}

Status CaptureClient::onFrame(const FrameView& f, EventStore& store) {
    if (!hello_ && f.type != FrameType::Hello && f.type != FrameType::Error)
        return Error{"capture protocol: the stream does not start with a hello frame"};
    switch (f.type) {
        case FrameType::Hello: {
            if (hello_) return Error{"capture protocol: second hello frame"};
            auto h = decodeHello(f.payload);
            if (!h) return Error{h.error()};
            hello_ = *h;
            return {};
        }
        case FrameType::Records:
            // on every frame, not once at the hello: a caller may pump the hello into a scratch store
            noteRecordKinds(store);
            return decodeRecords(f.payload, store);
        case FrameType::Lost: {
            auto l = decodeLost(f.payload);
            if (!l) return Error{l.error()};
            lost_ = std::max(lost_, *l);
            return {};
        }
        case FrameType::Aggregate: {
            auto a = decodeAggregate(f.payload);
            if (!a) return Error{a.error()};
            lost_ = std::max(lost_, a->lost);
            aggregate_ = std::move(*a);
            return {};
        }
        case FrameType::Error: {
            std::string msg(reinterpret_cast<const char*>(f.payload.data()), std::min<size_t>(f.payload.size(), 4096));
            for (char& ch : msg)
                if (ch == '\n' || ch == '\r' || static_cast<unsigned char>(ch) < 0x20) ch = ' ';
            return Error{"capture helper: " + msg};
        }
        case FrameType::End:
            ended_ = true;
            return {};
    }
    return Error{"capture protocol: unknown frame type"};
}

Status CaptureClient::feed(std::span<const uint8_t> bytes, EventStore& store) {
    if (failed_) return Error{"capture protocol: stream already rejected"};
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
    auto used = parseFrames(buf_, [&](const FrameView& f) { return ended_ ? Status(Error{"capture protocol: data after the end frame"}) : onFrame(f, store); });
    if (!used) {
        failed_ = true;
        buf_.clear();
        return Error{used.error()};
    }
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(*used));
    return {};
}

Result<bool> CaptureClient::pump(EventStore& store, int timeoutMs) {
    if (fd_ < 0 || ended_) return false;
    pollfd pfd{fd_, POLLIN, 0};
    const int r = ::poll(&pfd, 1, timeoutMs);
    if (r < 0 && errno != EINTR) return Error{std::string("capture helper: poll: ") + std::strerror(errno)};
    if (r <= 0) return true;
    uint8_t chunk[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Error{std::string("capture helper: read: ") + std::strerror(errno)};
        if (n == 0) {
            if (!buf_.empty()) return Error{"capture protocol: stream ends inside a frame"};
            if (!hello_) return Error{"capture helper: exited before it started capturing"};
            ended_ = true;
            return false;
        }
        if (Status s = feed({chunk, static_cast<size_t>(n)}, store); !s) return Error{s.error()};
        if (static_cast<size_t>(n) < sizeof chunk) break;
        pollfd again{fd_, POLLIN, 0};
        if (::poll(&again, 1, 0) <= 0) break;
    }
    return !ended_;
}

void CaptureClient::flushCounts(EventStore& store) {
    if (lost_ > lostReported_) store.addAnomaly(Anomaly::LostEvents, lost_ - lostReported_);
    lostReported_ = std::max(lost_, lostReported_);
}

int CaptureClient::close() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (child_ <= 0) return exitStatus_.value_or(-1);
    int status = 0;
    pid_t r = 0;
    // The helper notices EPIPE/POLLERR within one drain interval; give it a second.
    for (int i = 0; i < 100; ++i) {
        r = waitpid(child_, &status, WNOHANG);
        if (r == child_) break;
        usleep(10000);
    }
    if (r != child_) {
        kill(child_, SIGTERM);
        waitpid(child_, &status, 0);
    }
    child_ = -1;
    exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return *exitStatus_;
}

std::optional<int> CaptureClient::exitStatus() {
    if (child_ > 0) {
        int status = 0;
        if (waitpid(child_, &status, WNOHANG) != child_) return std::nullopt;
        child_ = -1;
        exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return exitStatus_;
}

}  // namespace schedscope::tracing
