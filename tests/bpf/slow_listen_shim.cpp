// LD_PRELOAD shim for the capture socket test: listen() waits 300 ms first, so a helper that
// made its socket path visible before listening would be caught refusing a connection.
#include <dlfcn.h>
#include <sys/socket.h>

#include <ctime>

extern "C" int listen(int fd, int backlog) {
    using Listen = int (*)(int, int);
    static const auto real = reinterpret_cast<Listen>(dlsym(RTLD_NEXT, "listen"));
    const timespec wait{0, 300'000'000};
    nanosleep(&wait, nullptr);
    return real ? real(fd, backlog) : -1;
}
