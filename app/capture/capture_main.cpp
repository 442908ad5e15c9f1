// schedscope-capture: the privileged capture helper.
//
// Why a separate executable and not `schedscope-cli capture --serve`: privileges attach to a
// file (setcap, a pkexec policy naming one path, a sudoers line). The CLI parses trace files,
// JSON, hwloc XML and runs the simulator; none of that should ever run with CAP_BPF. This
// program links only the BPF source and the protocol encoder, validates its few arguments
// before touching anything privileged, and after loading the program it drops every
// capability (and, under sudo/pkexec, switches to the invoking user) before writing a byte.
//
// Sequence: parse args -> check privileges -> [--socket: bind PATH as the invoking user, accept
// one client of that uid] -> load + attach BPF -> drop privileges -> Hello -> Records/Lost
// (stream) or Aggregate (aggregate) frames every --interval-ms -> End after --duration.
// Exits 0 when the reader goes away (EPIPE, POLLERR/POLLHUP, the socket peer closing), 1 on a
// runtime error (also sent as an Error frame; a client writing to us is one), 2 on bad
// arguments.
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bpf_source.h"
#include "capture_args.h"
#include "capture_protocol.h"
#include "capture_socket.h"
#include "helper_privileges.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

volatile sig_atomic_t g_stop = 0;
void onSignal(int) { g_stop = 1; }

bool g_clientGone = false;
int g_out = -1;  // stdout, or the accepted socket
bool g_isSocket = false;

// Writes the whole buffer; false (and g_clientGone) when the reader is gone.
bool writeAll(const std::vector<uint8_t>& buf) {
    if (g_out < 0) return false;
    size_t off = 0;
    while (off < buf.size()) {
        const ssize_t n = g_isSocket ? ::send(g_out, buf.data() + off, buf.size() - off, MSG_NOSIGNAL)
                                     : ::write(g_out, buf.data() + off, buf.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            g_clientGone = true;
            return false;
        }
        off += static_cast<size_t>(n);
    }
    return true;
}

bool sendFrame(FrameType t, std::span<const uint8_t> payload) {
    std::vector<uint8_t> buf;
    appendFrame(buf, t, payload);
    return writeAll(buf);
}

int fatal(const std::string& msg) {
    std::fprintf(stderr, "schedscope-capture: %s\n", msg.c_str());
    sendFrame(FrameType::Error, {reinterpret_cast<const uint8_t*>(msg.data()), msg.size()});
    return 1;
}

// --socket: the one client, accepted before anything is loaded (so nothing is captured, or
// lost, while nobody reads). Sets g_out; an error is one line.
Status serveSocket(const std::string& path) {
    int listenFd = -1;
    {
        capture::AsInvokingUser asUser;
        if (!asUser.status()) return asUser.status();
        auto l = capture::listenOnSocket(path);
        if (!l) return Error{l.error()};
        listenFd = *l;
    }
    std::fprintf(stderr, "schedscope-capture: waiting for a client on %s\n", path.c_str());
    auto client = capture::acceptClient(listenFd, capture::clientUid(), g_stop);
    ::close(listenFd);
    {
        // Nobody else can connect once the path is gone.
        capture::AsInvokingUser asUser;
        if (asUser.status()) ::unlink(path.c_str());
    }
    if (!client) return Error{client.error()};
    g_out = client->fd;
    g_isSocket = true;
    // A deeper socket buffer absorbs bursts while the client is busy (the kernel caps it at
    // net.core.wmem_max).
    const int bytes = 4 << 20;
    setsockopt(g_out, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> words(argv + 1, argv + argc);
    auto args = capture::parseCaptureArgs(words);
    if (!args) {
        std::fprintf(stderr, "schedscope-capture: %s\n", args.error().c_str());
        return 2;
    }
    if (args->help) {
        std::fputs(capture::captureUsage(), stdout);
        return 0;
    }
    if (args->version) {
        std::printf("schedscope-capture %s (protocol %u)\n", SCHEDSCOPE_VERSION, kCaptureProtocolVersion);
        return 0;
    }
    if (args->socketPath.empty() && isatty(STDOUT_FILENO)) {
        std::fprintf(stderr, "schedscope-capture: stdout is a terminal; pipe it into a client or serve one with --socket PATH\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    if (args->socketPath.empty()) {
        g_out = STDOUT_FILENO;
        // Fewer, larger writes and wakeups of the reader (pipe-max-size allows 1 MiB by default).
        (void)fcntl(g_out, F_SETPIPE_SZ, 1 << 20);
    }
    if (auto why = BpfSource::unavailableReason(); !why.empty()) return fatal(why);
    if (!args->socketPath.empty()) {
        if (Status s = serveSocket(args->socketPath); !s) {
            if (g_stop) return 0;
            return fatal("--socket: " + s.error());
        }
    }
    BpfOptions opt;
    opt.mode = args->aggregate ? BpfMode::Aggregate : BpfMode::Stream;
    opt.ringBytes = args->ringMiB << 20;
    opt.ignoreTgid = args->ignorePid;
    opt.wakeupBytes = opt.ringBytes / 4;
    auto source = BpfSource::start(opt);
    if (!source) return fatal(source.error());
    if (Status s = capture::dropPrivileges(); !s) return fatal("dropping privileges: " + s.error());
    if (Status s = (*source)->checkReadable(); !s)
        return fatal(s.error() + " after dropping capabilities (this kernel checks them per call)");

    CaptureHello hello;
    hello.mode = args->aggregate ? 1 : 0;
    hello.cpus = static_cast<uint32_t>(std::max<size_t>(1, (*source)->snapshot().runHist.size()));
    if (!args->aggregate) hello.cpus = static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_CONF));
    hello.attach = std::strcmp((*source)->attachKind(), "raw_tp") == 0 ? 1 : 0;
    hello.helperPid = static_cast<uint32_t>(getpid());
    if (!sendFrame(FrameType::Hello, encodeHello(hello))) return 0;

    const auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    constexpr size_t kFlushBytes = 1u << 20;
    // Records are appended behind room for their frame header, which is filled in when the
    // frame is sent: one copy per record (ring -> frame) and one write per MiB.
    std::vector<uint8_t> records(kFrameHeaderSize);
    records.reserve(kFlushBytes + 4096);
    auto flushRecords = [&] {
        if (records.size() == kFrameHeaderSize) return true;
        writeFrameHeader(records.data(), FrameType::Records, static_cast<uint32_t>(records.size() - kFrameHeaderSize));
        const bool ok = writeAll(records);
        records.resize(kFrameHeaderSize);
        return ok;
    };
    uint64_t lastLost = 0;
    BpfSource::RecordSink sink = [&](const void* data, size_t size) {
        const auto* p = static_cast<const uint8_t*>(data);
        records.insert(records.end(), p, p + size);
        if (records.size() >= kFlushBytes) flushRecords();
    };
    while (!g_stop && !g_clientGone) {
        if (args->durationS > 0 && elapsed() >= args->durationS) break;
        bool sentData = false;
        if (capture::clientGone(g_out, g_isSocket, sentData)) {
            if (sentData) return fatal("the client sent data; protocol version 1 is one-way (helper to client)");
            return 0;
        }
        if (args->aggregate) {
            usleep(static_cast<useconds_t>(args->intervalMs) * 1000);
            if (!sendFrame(FrameType::Aggregate, encodeAggregate((*source)->snapshot()))) break;
            continue;
        }
        auto n = (*source)->pollRaw(sink, args->intervalMs);
        if (!n) return fatal(n.error());
        if (!flushRecords()) break;
        if (const uint64_t lost = (*source)->lost(); lost != lastLost) {
            lastLost = lost;
            if (!sendFrame(FrameType::Lost, encodeLost(lost))) break;
        }
    }
    if (g_clientGone) return 0;
    // Last drain, then End.
    if (args->aggregate) {
        sendFrame(FrameType::Aggregate, encodeAggregate((*source)->snapshot()));
    } else {
        (void)(*source)->pollRaw(sink, 0);
        flushRecords();
        sendFrame(FrameType::Lost, encodeLost((*source)->lost()));
    }
    sendFrame(FrameType::End, {});
    return 0;
}
