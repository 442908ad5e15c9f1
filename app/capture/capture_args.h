#pragma once
// schedscope-capture's command line, validated strictly before anything privileged happens:
// a capability-holding program must not interpret anything it did not expect.
#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace schedscope::capture {

struct CaptureArgs {
    bool aggregate = false;     // --mode stream|aggregate
    double durationS = 0;       // --duration S (0: until the client goes), <= 86400
    int intervalMs = 100;       // --interval-ms N, 10..10000: drain / snapshot period
    uint32_t ringMiB = 16;      // --ring-mb N, power of two 1..256 (stream mode)
    int32_t ignorePid = 0;      // --ignore-pid PID: also drop this process's events (the client's)
    std::string socketPath;     // --socket PATH: serve one client on a new Unix socket, not stdout
    bool help = false;
    bool version = false;
};

Result<CaptureArgs> parseCaptureArgs(const std::vector<std::string>& argv);
// The syntax of a --socket path, before the file system is asked anything: absolute, fits
// sockaddr_un (<= 107 bytes), no control characters, no "." or ".." component, not a directory.
Status checkSocketPathSyntax(const std::string& path);
const char* captureUsage();

}  // namespace schedscope::capture
