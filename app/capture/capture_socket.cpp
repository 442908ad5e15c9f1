#include "capture_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace schedscope::capture {
namespace {

std::string errnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

sockaddr_un addressOf(const std::string& path) {
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, path.data(), std::min(path.size(), sizeof a.sun_path - 1));
    return a;
}

// True when something accepts connections at `path` (a live helper or another server).
bool someoneListens(const std::string& path) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return true;  // cannot tell: do not replace it
    const sockaddr_un a = addressOf(path);
    const bool listening = connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0 || errno != ECONNREFUSED;
    close(fd);
    return listening;
}

// `path`'s directory, a name no other helper uses: ".<name>.<pid>"
std::string temporaryNameBeside(const std::string& path) {
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    return dir + "." + name + "." + std::to_string(getpid());
}

}  // namespace

Result<int> listenOnSocket(const std::string& path) {
    if (path.size() >= sizeof(sockaddr_un::sun_path)) return Error{path + ": too long for a Unix socket"};
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) return Error{path + ": exists and is not a socket (refusing to replace it)"};
        if (someoneListens(path)) return Error{path + ": a server is already listening there"};
        if (unlink(path.c_str()) != 0) return Error{errnoText(path + ": removing the stale socket")};
    } else if (errno != ENOENT) {
        return Error{errnoText(path)};
    }
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error{errnoText("socket")};
    // Bound under a temporary name and renamed once listening: a client that sees the path can
    // connect (bound at the path itself, it exists from bind() and refuses connections until
    // listen()). A directory too long for the temporary name binds the path itself.
    std::string bindPath = temporaryNameBeside(path);
    if (bindPath.size() >= sizeof(sockaddr_un::sun_path)) bindPath = path;
    const sockaddr_un a = addressOf(bindPath);
    // Linux creates the socket inode with the umask applied: 0600 from the start, no window
    // in which another user could connect.
    const mode_t old = umask(0177);
    const int bound = bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    const int bindErrno = errno;
    umask(old);
    if (bound != 0) {
        close(fd);
        errno = bindErrno;
        return Error{errnoText(path)};
    }
    if (listen(fd, 1) != 0) {
        const std::string e = errnoText(path + ": listen");
        close(fd);
        unlink(bindPath.c_str());
        return Error{e};
    }
    // RENAME_NOREPLACE: a server that took the path since the check above keeps it
    if (bindPath != path && renameat2(AT_FDCWD, bindPath.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) {
        const std::string e = errno == EEXIST ? path + ": a server is already listening there" : errnoText(path);
        close(fd);
        unlink(bindPath.c_str());
        return Error{e};
    }
    return fd;
}

Result<AcceptedClient> acceptClient(int listenFd, uid_t allowedUid, const volatile sig_atomic_t& stop) {
    while (!stop) {
        pollfd p{listenFd, POLLIN, 0};
        const int r = poll(&p, 1, 200);
        if (r < 0 && errno != EINTR) return Error{errnoText("poll on the socket")};
        if (r <= 0) continue;
        const int fd = accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN) continue;
            return Error{errnoText("accept")};
        }
        ucred cred{};
        socklen_t len = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
            const std::string e = errnoText("SO_PEERCRED");
            close(fd);
            return Error{e};
        }
        // The 0600 mode already keeps others out; this also covers a socket made in a
        // directory whose owner could rename another user's connection attempt onto it.
        if (cred.uid != allowedUid && cred.uid != 0) {
            std::fprintf(stderr, "schedscope-capture: turned away a client of uid %u (only uid %u or root may connect)\n",
                         static_cast<unsigned>(cred.uid), static_cast<unsigned>(allowedUid));
            close(fd);
            continue;
        }
        return AcceptedClient{fd, cred.pid, cred.uid};
    }
    return Error{"stopped before a client connected"};
}

bool clientGone(int fd, bool isSocket, bool& sentData) {
    pollfd p{fd, static_cast<short>(isSocket ? (POLLIN | POLLRDHUP) : 0), 0};
    if (poll(&p, 1, 0) <= 0) return false;
    if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return true;
    if (!isSocket || !(p.revents & (POLLIN | POLLRDHUP))) return false;
    char c;
    const ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK);
    if (n > 0) {
        sentData = true;
        return true;
    }
    return n == 0 || (errno != EAGAIN && errno != EINTR);
}

}  // namespace schedscope::capture
