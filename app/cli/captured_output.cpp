#include "captured_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace schedscope::cli {
namespace {

void flushAll() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
}

// One standard descriptor pointed at a temporary file while it lives.
class Redirect {
public:
    explicit Redirect(int fd) : fd_(fd), file_(std::tmpfile()) {
        if (!file_) return;
        saved_ = ::dup(fd_);
        if (saved_ < 0 || ::dup2(::fileno(file_), fd_) < 0) {
            if (saved_ >= 0) ::close(saved_);
            saved_ = -1;
        }
    }
    ~Redirect() {
        restore();
        if (file_) std::fclose(file_);
    }
    Redirect(const Redirect&) = delete;
    Redirect& operator=(const Redirect&) = delete;

    bool ok() const { return saved_ >= 0; }
    // puts the descriptor back and returns what was written to it meanwhile
    std::string restore() {
        std::string text;
        if (saved_ < 0) return text;
        ::dup2(saved_, fd_);
        ::close(saved_);
        saved_ = -1;
        std::rewind(file_);
        char buf[65536];
        for (size_t n; (n = std::fread(buf, 1, sizeof buf, file_)) > 0;) text.append(buf, n);
        return text;
    }

private:
    int fd_;
    std::FILE* file_;
    int saved_ = -1;
};

}  // namespace

Result<CapturedRun> captureOutput(const std::function<int()>& fn) {
    flushAll();  // what was printed before goes to the terminal, not into the capture
    Redirect out(STDOUT_FILENO), err(STDERR_FILENO);
    if (!out.ok() || !err.ok()) {
        const std::string why = std::strerror(errno);
        out.restore();
        err.restore();
        return Error{"cannot redirect the output to read a step's --json output: " + why};
    }
    CapturedRun run;
    run.exitStatus = fn();
    flushAll();
    run.out = out.restore();
    run.err = err.restore();
    return run;
}

}  // namespace schedscope::cli
