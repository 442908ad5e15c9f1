#pragma once
// A minimal RFB (VNC) client for tests (RFC 6143): protocol 3.3, 3.7 or 3.8, security type None,
// Raw encoding, 32-bit true colour. Enough to see what a VNC viewer would show of a server
// such as x11vnc or Qt's vnc platform plugin. Plain POSIX sockets, blocking with deadlines.
#include <cstdint>
#include <string>
#include <vector>

namespace schedscope::test {

struct RfbFrame {
    int width = 0, height = 0;
    std::vector<uint32_t> pixels;  // 0xRRGGBB, row-major
};

class RfbClient {
public:
    RfbClient() = default;
    RfbClient(const RfbClient&) = delete;
    RfbClient& operator=(const RfbClient&) = delete;
    ~RfbClient();

    // Connects to 127.0.0.1:port and does the handshake; an error message, empty on success.
    std::string connect(int port, int timeoutMs);
    // Asks for the whole screen (non-incremental) and reads the update that answers it;
    // an error message, empty on success.
    std::string grab(RfbFrame& frame, int timeoutMs);
    const std::string& desktopName() const { return name_; }

private:
    std::string readExact(void* buf, size_t n);
    std::string writeAll(const void* buf, size_t n);
    std::string readReason();  // a failure reason string, as the server sends it

    int fd_ = -1;
    int64_t deadlineMs_ = 0;  // of the current call, CLOCK_MONOTONIC
    int width_ = 0, height_ = 0;
    std::string name_;
};

}  // namespace schedscope::test
