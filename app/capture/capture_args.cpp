#include "capture_args.h"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <set>

namespace schedscope::capture {
namespace {

Result<long long> integer(const std::string& opt, const std::string& v, long long lo, long long hi) {
    long long x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
        return Error{"--" + opt + ": '" + escapeControl(v) + "' is not an integer in " + std::to_string(lo) + ".." + std::to_string(hi)};
    return x;
}

}  // namespace

Status checkSocketPathSyntax(const std::string& path) {
    if (path.empty()) return Error{"empty path"};
    for (unsigned char c : path)
        if (c < 0x20 || c == 0x7f) return Error{"'" + escapeControl(path) + "' contains a control character"};
    if (path.front() != '/') return Error{"'" + path + "' is not an absolute path"};
    if (path.size() > 107) return Error{"'" + path + "' is longer than 107 bytes (sockaddr_un)"};
    if (path.back() == '/') return Error{"'" + path + "' names a directory"};
    for (size_t pos = 0; pos < path.size();) {
        const size_t end = std::min(path.find('/', pos + 1), path.size());
        const std::string part = path.substr(pos + 1, end - pos - 1);
        if (part == "." || part == "..") return Error{"'" + path + "' has a '" + part + "' component"};
        pos = end;
    }
    return {};
}

const char* captureUsage() {
    return "usage: schedscope-capture [--mode stream|aggregate] [--duration S] [--interval-ms N] [--ring-mb N]\n"
           "                          [--ignore-pid PID] [--socket PATH]\n"
           "Captures sched events with BPF and writes them to stdout (a pipe) in the framing of\n"
           "tracing/capture_protocol.h, or with --socket to the one client that connects to a new\n"
           "Unix socket at PATH (mode 0600, owned by the sudo/pkexec user). Needs root or\n"
           "cap_bpf,cap_perfmon(+cap_sys_resource); drops every capability after setup; exits when\n"
           "the reader goes away.\n";
}

Result<CaptureArgs> parseCaptureArgs(const std::vector<std::string>& argv) {
    CaptureArgs a;
    std::set<std::string> seen;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& w = argv[i];
        if (w == "--help" || w == "-h") {
            a.help = true;
            continue;
        }
        if (w == "--version") {
            a.version = true;
            continue;
        }
        if (!w.starts_with("--")) return Error{"unexpected argument '" + escapeControl(w) + "'"};
        std::string opt = w.substr(2), val;
        bool inlineVal = false;
        if (auto eq = opt.find('='); eq != std::string::npos) {
            val = opt.substr(eq + 1);
            opt = opt.substr(0, eq);
            inlineVal = true;
        }
        static const std::set<std::string> known = {"mode", "duration", "interval-ms", "ring-mb", "ignore-pid", "socket"};
        if (!known.count(opt)) return Error{"unknown option '--" + escapeControl(opt) + "'"};
        if (!seen.insert(opt).second) return Error{"--" + opt + " given twice"};
        if (!inlineVal) {
            if (i + 1 >= argv.size()) return Error{"--" + opt + " needs a value"};
            val = argv[++i];
        }
        // sockaddr_un holds 108 bytes; every other value is a short word or number.
        if (val.size() > (opt == "socket" ? 107u : 64u)) return Error{"--" + opt + ": value too long"};
        if (opt == "mode") {
            if (val == "stream") a.aggregate = false;
            else if (val == "aggregate") a.aggregate = true;
            else return Error{"--mode: '" + escapeControl(val) + "' is not stream or aggregate"};
        } else if (opt == "duration") {
            double d = 0;
            auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), d);
            if (ec != std::errc() || p != val.data() + val.size() || !std::isfinite(d) || d < 0 || d > 86400)
                return Error{"--duration: '" + escapeControl(val) + "' is not a number of seconds in 0..86400"};
            a.durationS = d;
        } else if (opt == "interval-ms") {
            auto v = integer(opt, val, 10, 10000);
            if (!v) return Error{v.error()};
            a.intervalMs = static_cast<int>(*v);
        } else if (opt == "ring-mb") {
            auto v = integer(opt, val, 1, 256);
            if (!v) return Error{v.error()};
            if (*v & (*v - 1)) return Error{"--ring-mb: " + escapeControl(val) + " is not a power of two"};
            a.ringMiB = static_cast<uint32_t>(*v);
        } else if (opt == "ignore-pid") {
            auto v = integer(opt, val, 1, 4194304);
            if (!v) return Error{v.error()};
            a.ignorePid = static_cast<int32_t>(*v);
        } else if (opt == "socket") {
            if (Status s = checkSocketPathSyntax(val); !s) return Error{"--socket: " + s.error()};
            a.socketPath = val;
        }
    }
    return a;
}

}  // namespace schedscope::capture
