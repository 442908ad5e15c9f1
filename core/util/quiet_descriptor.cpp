#include "util/quiet_descriptor.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace schedscope {
namespace {

std::mutex quietMutex;
struct Redirection {
    int holders = 0;
    int saved = -1;  // the real descriptor while a holder lives; -1 when it could not be kept
};
Redirection redirections[3];  // by descriptor: stdout and stderr

void flushStream(int fd) { std::fflush(fd == STDOUT_FILENO ? stdout : stderr); }

}  // namespace

QuietDescriptor::QuietDescriptor(int fd) : fd_(fd == STDOUT_FILENO || fd == STDERR_FILENO ? fd : -1) {
    if (fd_ < 0) return;
    const std::lock_guard<std::mutex> lock(quietMutex);
    Redirection& r = redirections[fd_];
    if (r.holders++ > 0) return;
    flushStream(fd_);  // what was written before goes where it was meant to
    r.saved = ::dup(fd_);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (r.saved < 0 || null < 0 || ::dup2(null, fd_) < 0) {
        // nothing to restore to, or nothing to point at: leave the stream as it is
        if (r.saved >= 0) ::close(r.saved);
        r.saved = -1;
    }
    if (null >= 0) ::close(null);
}

QuietDescriptor::~QuietDescriptor() {
    if (fd_ < 0) return;
    const std::lock_guard<std::mutex> lock(quietMutex);
    Redirection& r = redirections[fd_];
    if (--r.holders > 0 || r.saved < 0) return;
    flushStream(fd_);  // the library's buffered complaint goes to /dev/null, not after it
    ::dup2(r.saved, fd_);
    ::close(r.saved);
    r.saved = -1;
}

CapturedStderr::CapturedStderr() {
    const std::lock_guard<std::mutex> lock(quietMutex);
    if (redirections[STDERR_FILENO].holders > 0) return;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return;
    flushStream(STDERR_FILENO);
    saved_ = ::dup(STDERR_FILENO);
    if (saved_ < 0 || ::dup2(fds[1], STDERR_FILENO) < 0) {
        if (saved_ >= 0) ::close(saved_);
        saved_ = -1;
        ::close(fds[0]);
    } else {
        readEnd_ = fds[0];
    }
    ::close(fds[1]);
}

CapturedStderr::~CapturedStderr() {
    const std::lock_guard<std::mutex> lock(quietMutex);
    restore();
}

void CapturedStderr::restore() {
    if (saved_ < 0) return;
    flushStream(STDERR_FILENO);
    ::dup2(saved_, STDERR_FILENO);  // the pipe's write end closes with it: reads end at what was written
    ::close(saved_);
    saved_ = -1;
    char chunk[4096];
    for (ssize_t n; (n = ::read(readEnd_, chunk, sizeof chunk)) > 0;) text_.append(chunk, static_cast<size_t>(n));
    ::close(readEnd_);
    readEnd_ = -1;
}

std::string CapturedStderr::text() {
    const std::lock_guard<std::mutex> lock(quietMutex);
    restore();
    return text_;
}

}  // namespace schedscope
