// schedscope-capture: the privileged capture helper.
//
// Why a separate executable and not `schedscope-cli capture --serve`: privileges attach to a
// file (setcap, a pkexec policy naming one path, a sudoers line). The CLI parses trace files,
// JSON, hwloc XML and runs the simulator; none of that should ever run with CAP_BPF. This
// program links only the BPF source and the protocol encoder, validates its few arguments
// before touching anything privileged, and after loading the program it drops every
// capability (and, under sudo/pkexec, switches to the invoking user) before writing a byte.
//
// Sequence: parse args -> check privileges -> load + attach BPF -> drop privileges -> Hello ->
// Records/Lost (stream) or Aggregate (aggregate) frames every --interval-ms -> End after
// --duration. Exits 0 when the reader goes away (EPIPE, POLLERR/POLLHUP on stdout), 1 on a
// runtime error (also sent as an Error frame), 2 on bad arguments.
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bpf_source.h"
#include "capture_args.h"
#include "capture_protocol.h"
#include "process_caps.h"

using namespace schedscope;
using namespace schedscope::tracing;

namespace {

volatile sig_atomic_t g_stop = 0;
void onSignal(int) { g_stop = 1; }

bool g_clientGone = false;

// Writes the whole buffer to stdout; false (and g_clientGone) when the reader is gone.
bool writeAll(const std::vector<uint8_t>& buf) {
    size_t off = 0;
    while (off < buf.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, buf.data() + off, buf.size() - off);
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

bool stdoutHungUp() {
    pollfd p{STDOUT_FILENO, 0, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL));
}

// The uid/gid of whoever ran us through pkexec or sudo, when we are root because of them.
bool invokingUser(uid_t& uid, gid_t& gid) {
    auto num = [](const char* s, unsigned long& out) {
        if (!s || !*s) return false;
        auto [p, ec] = std::from_chars(s, s + std::strlen(s), out);
        return ec == std::errc() && *p == '\0' && out > 0 && out < 0xfffffffeul;
    };
    unsigned long u = 0, g = 0;
    if (num(std::getenv("PKEXEC_UID"), u)) {
        uid = static_cast<uid_t>(u);
        gid = static_cast<gid_t>(u);  // pkexec passes no gid; the user's own group id is the usual choice
        if (num(std::getenv("SUDO_GID"), g)) gid = static_cast<gid_t>(g);
        return true;
    }
    if (num(std::getenv("SUDO_UID"), u) && num(std::getenv("SUDO_GID"), g)) {
        uid = static_cast<uid_t>(u);
        gid = static_cast<gid_t>(g);
        return true;
    }
    return false;
}

// After setup we need nothing: the links, maps and the mmapped ring stay usable through
// their file descriptors.
Status dropPrivileges() {
    uid_t uid = 0;
    gid_t gid = 0;
    if (getuid() == 0 && invokingUser(uid, gid)) {
        if (Status s = dropCapabilities({kCapSetuid, kCapSetgid}); !s) return s;
        if (setgroups(0, nullptr) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0)
            return Error{std::string("switching to the invoking user: ") + std::strerror(errno)};
    }
    return dropCapabilities({});
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
    if (isatty(STDOUT_FILENO)) {
        std::fprintf(stderr, "schedscope-capture: stdout is a terminal; pipe it into a client (e.g. schedscope-cli live --source helper)\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    if (auto why = BpfSource::unavailableReason(); !why.empty()) return fatal(why);
    BpfOptions opt;
    opt.mode = args->aggregate ? BpfMode::Aggregate : BpfMode::Stream;
    opt.ringBytes = args->ringMiB << 20;
    opt.ignoreTgid = args->ignorePid;
    opt.wakeupBytes = opt.ringBytes / 4;
    auto source = BpfSource::start(opt);
    if (!source) return fatal(source.error());
    if (Status s = dropPrivileges(); !s) return fatal("dropping privileges: " + s.error());
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
    std::vector<uint8_t> frame, payload;
    uint64_t lastLost = 0;
    BpfSource::RecordSink sink = [&](const void* data, size_t size) {
        const auto* p = static_cast<const uint8_t*>(data);
        payload.insert(payload.end(), p, p + size);
        if (payload.size() >= kFlushBytes) {
            frame.clear();
            appendFrame(frame, FrameType::Records, payload);
            payload.clear();
            writeAll(frame);
        }
    };
    while (!g_stop && !g_clientGone) {
        if (args->durationS > 0 && elapsed() >= args->durationS) break;
        if (stdoutHungUp()) return 0;
        if (args->aggregate) {
            usleep(static_cast<useconds_t>(args->intervalMs) * 1000);
            if (!sendFrame(FrameType::Aggregate, encodeAggregate((*source)->snapshot()))) break;
            continue;
        }
        auto n = (*source)->pollRaw(sink, args->intervalMs);
        if (!n) return fatal(n.error());
        if (!payload.empty()) {
            frame.clear();
            appendFrame(frame, FrameType::Records, payload);
            payload.clear();
            if (!writeAll(frame)) break;
        }
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
        if (!payload.empty()) sendFrame(FrameType::Records, payload);
        sendFrame(FrameType::Lost, encodeLost((*source)->lost()));
    }
    sendFrame(FrameType::End, {});
    return 0;
}
