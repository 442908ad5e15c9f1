#include "util/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace schedscope {

namespace {

Error readFailed(const std::string& name, const std::string& what, int error) {
    return Error{name + ": cannot read " + what + " (" + std::strerror(error) + ")"};
}

Error tooLarge(const std::string& name, const std::string& what, size_t maxBytes) {
    return Error{name + ": more than the " + std::to_string(maxBytes >> 20) + " MiB a " + what + " may have"};
}

// `fd` to its end, at most `maxBytes`; errors name the input `name`
Result<std::string> readToEnd(int fd, const std::string& name, const std::string& what, size_t maxBytes) {
    std::string bytes;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return readFailed(name, what, errno);
        if (n == 0) break;
        if (bytes.size() + static_cast<size_t>(n) > maxBytes) return tooLarge(name, what, maxBytes);
        bytes.append(buf, static_cast<size_t>(n));
    }
    return bytes;
}

}  // namespace

bool isPipe(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

Result<std::string> readPipe(const std::string& path, const std::string& what, size_t maxBytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error{path + ": cannot open " + what + " (" + std::strerror(errno) + ")"};
    auto bytes = readToEnd(fd, path, what, maxBytes);
    ::close(fd);
    return bytes;
}

Result<std::string> readInputFile(const std::string& path, const std::string& what, size_t maxBytes) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return Error{path + ": cannot open " + what + " (" + std::strerror(errno) + ")"};
    struct stat st {};
    std::string bytes;
    std::string problem;
    if (fstat(fd, &st) != 0) problem = "cannot read " + what + " (" + std::strerror(errno) + ")";
    else if (!S_ISREG(st.st_mode)) problem = "not a regular file";
    else if (static_cast<unsigned long long>(st.st_size) > maxBytes)
        problem = what + " of " + std::to_string(static_cast<unsigned long long>(st.st_size) >> 20) +
                  " MiB, more than the " + std::to_string(maxBytes >> 20) + " MiB an input may have";
    if (problem.empty()) {
        bytes.resize(static_cast<size_t>(st.st_size));
        size_t got = 0;
        while (got < bytes.size()) {
            const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                problem = "cannot read " + what + " (" + std::strerror(errno) + ")";
                break;
            }
            if (n == 0) break;  // shrank while read: what is there
            got += static_cast<size_t>(n);
        }
        bytes.resize(got);
    }
    ::close(fd);
    if (!problem.empty()) return Error{path + ": " + problem};
    return bytes;
}

Result<std::string> readStandardInput(const std::string& what, size_t maxBytes) {
    return readToEnd(STDIN_FILENO, "standard input", what, maxBytes);
}

}  // namespace schedscope
