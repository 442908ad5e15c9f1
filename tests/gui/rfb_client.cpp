#include "rfb_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace schedscope::test {
namespace {

int64_t nowMs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

uint16_t be16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }
uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
void put16(uint8_t* p, uint16_t v) {
    p[0] = uint8_t(v >> 8);
    p[1] = uint8_t(v);
}

}  // namespace

RfbClient::~RfbClient() {
    if (fd_ >= 0) ::close(fd_);
}

std::string RfbClient::readExact(void* buf, size_t n) {
    auto* out = static_cast<uint8_t*>(buf);
    while (n > 0) {
        pollfd pfd{fd_, POLLIN, 0};
        const int64_t left = deadlineMs_ - nowMs();
        if (left <= 0) return "timed out reading from the VNC server";
        const int r = ::poll(&pfd, 1, int(left));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return "timed out reading from the VNC server";
        const ssize_t got = ::recv(fd_, out, n, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return got == 0 ? "the VNC server closed the connection" : std::string("recv: ") + std::strerror(errno);
        out += got;
        n -= size_t(got);
    }
    return {};
}

std::string RfbClient::writeAll(const void* buf, size_t n) {
    const auto* in = static_cast<const uint8_t*>(buf);
    while (n > 0) {
        const ssize_t put = ::send(fd_, in, n, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return std::string("send: ") + std::strerror(errno);
        in += put;
        n -= size_t(put);
    }
    return {};
}

std::string RfbClient::readReason() {
    uint8_t len[4];
    if (auto e = readExact(len, 4); !e.empty()) return e;
    std::string reason(std::min<uint32_t>(be32(len), 4096), '\0');
    if (auto e = readExact(reason.data(), reason.size()); !e.empty()) return e;
    return "the VNC server refused: " + reason;
}

std::string RfbClient::connect(int port, int timeoutMs) {
    deadlineMs_ = nowMs() + timeoutMs;
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return std::string("socket: ") + std::strerror(errno);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        return "connect to port " + std::to_string(port) + ": " + std::strerror(errno);

    // ProtocolVersion: answer with the highest version both speak.
    char version[13] = {};
    if (auto e = readExact(version, 12); !e.empty()) return e;
    int major = 0, minor = 0;
    if (std::sscanf(version, "RFB %3d.%3d\n", &major, &minor) != 2) return "not an RFB server";
    minor = major > 3 ? 8 : minor >= 8 ? 8 : minor == 7 ? 7 : 3;
    char reply[13];
    std::snprintf(reply, sizeof reply, "RFB 003.%03d\n", minor);
    if (auto e = writeAll(reply, 12); !e.empty()) return e;

    // Security: None only (tests run the servers without a password).
    if (minor == 3) {
        uint8_t type[4];
        if (auto e = readExact(type, 4); !e.empty()) return e;
        if (be32(type) == 0) return readReason();
        if (be32(type) != 1) return "the VNC server wants authentication (type " + std::to_string(be32(type)) + ")";
    } else {
        uint8_t count = 0;
        if (auto e = readExact(&count, 1); !e.empty()) return e;
        if (count == 0) return readReason();
        std::vector<uint8_t> types(count);
        if (auto e = readExact(types.data(), count); !e.empty()) return e;
        if (std::find(types.begin(), types.end(), 1) == types.end()) return "the VNC server offers no security type None";
        const uint8_t none = 1;
        if (auto e = writeAll(&none, 1); !e.empty()) return e;
        if (minor == 8) {
            uint8_t result[4];
            if (auto e = readExact(result, 4); !e.empty()) return e;
            if (be32(result) != 0) return readReason();
        }
    }

    // ClientInit (shared), ServerInit.
    const uint8_t shared = 1;
    if (auto e = writeAll(&shared, 1); !e.empty()) return e;
    uint8_t init[24];
    if (auto e = readExact(init, 24); !e.empty()) return e;
    width_ = be16(init);
    height_ = be16(init + 2);
    name_.assign(std::min<uint32_t>(be32(init + 20), 4096), '\0');
    if (auto e = readExact(name_.data(), name_.size()); !e.empty()) return e;

    // SetPixelFormat: 32 bpp, depth 24, little endian, true colour, 0xRRGGBB.
    uint8_t pf[20] = {0, 0, 0, 0, 32, 24, 0, 1};
    put16(pf + 8, 255);
    put16(pf + 10, 255);
    put16(pf + 12, 255);
    pf[14] = 16;
    pf[15] = 8;
    pf[16] = 0;
    if (auto e = writeAll(pf, sizeof pf); !e.empty()) return e;
    // SetEncodings: Raw only.
    const uint8_t enc[8] = {2, 0, 0, 1, 0, 0, 0, 0};
    return writeAll(enc, sizeof enc);
}

std::string RfbClient::grab(RfbFrame& frame, int timeoutMs) {
    if (fd_ < 0) return "not connected";
    deadlineMs_ = nowMs() + timeoutMs;
    uint8_t req[10] = {3, 0};
    put16(req + 6, uint16_t(width_));
    put16(req + 8, uint16_t(height_));
    if (auto e = writeAll(req, sizeof req); !e.empty()) return e;
    frame.width = width_;
    frame.height = height_;
    frame.pixels.assign(size_t(width_) * size_t(height_), 0);
    std::vector<uint8_t> row;
    for (;;) {
        uint8_t type = 0;
        if (auto e = readExact(&type, 1); !e.empty()) return e;
        switch (type) {
            case 0: {  // FramebufferUpdate
                uint8_t head[3];
                if (auto e = readExact(head, 3); !e.empty()) return e;
                for (int r = be16(head + 1); r > 0; --r) {
                    uint8_t rect[12];
                    if (auto e = readExact(rect, 12); !e.empty()) return e;
                    const int x = be16(rect), y = be16(rect + 2), w = be16(rect + 4), h = be16(rect + 6);
                    const auto encoding = int32_t(be32(rect + 8));
                    if (encoding != 0) return "unexpected encoding " + std::to_string(encoding);
                    row.resize(size_t(w) * 4);
                    for (int yy = y; yy < y + h; ++yy) {
                        if (auto e = readExact(row.data(), row.size()); !e.empty()) return e;
                        for (int xx = 0; xx < w; ++xx) {
                            if (xx + x >= width_ || yy >= height_) continue;
                            const uint8_t* p = row.data() + size_t(xx) * 4;  // little endian 0x..RRGGBB
                            frame.pixels[size_t(yy) * size_t(width_) + size_t(x + xx)] =
                                uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0];
                        }
                    }
                }
                return {};  // the answer to a non-incremental request covers the whole screen
            }
            case 1: {  // SetColourMapEntries: not used with true colour, skipped
                uint8_t head[5];
                if (auto e = readExact(head, 5); !e.empty()) return e;
                std::vector<uint8_t> skip(size_t(be16(head + 3)) * 6);
                if (auto e = readExact(skip.data(), skip.size()); !e.empty()) return e;
                break;
            }
            case 2: break;  // Bell
            case 3: {       // ServerCutText
                uint8_t head[7];
                if (auto e = readExact(head, 7); !e.empty()) return e;
                std::vector<uint8_t> skip(be32(head + 3));
                if (auto e = readExact(skip.data(), skip.size()); !e.empty()) return e;
                break;
            }
            default: return "unexpected server message " + std::to_string(type);
        }
    }
}

}  // namespace schedscope::test
