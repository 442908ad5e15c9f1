#include "quiet_stdout.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace schedscope::tracing {
namespace {

std::mutex quietMutex;
int holders = 0;
int savedStdout = -1;  // the real fd 1 while a holder lives; -1 when it could not be kept

}  // namespace

QuietStdout::QuietStdout() {
    const std::lock_guard<std::mutex> lock(quietMutex);
    if (holders++ > 0) return;
    std::fflush(stdout);  // what was written before goes where it was meant to
    savedStdout = ::dup(STDOUT_FILENO);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (savedStdout < 0 || null < 0 || ::dup2(null, STDOUT_FILENO) < 0) {
        // nothing to restore to, or nothing to point at: leave stdout as it is
        if (savedStdout >= 0) ::close(savedStdout);
        savedStdout = -1;
    }
    if (null >= 0) ::close(null);
}

QuietStdout::~QuietStdout() {
    const std::lock_guard<std::mutex> lock(quietMutex);
    if (--holders > 0 || savedStdout < 0) return;
    std::fflush(stdout);  // the library's buffered complaint goes to /dev/null, not after it
    ::dup2(savedStdout, STDOUT_FILENO);
    ::close(savedStdout);
    savedStdout = -1;
}

}  // namespace schedscope::tracing
