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

}  // namespace schedscope
