#pragma once
// A standard stream (stdout or stderr) pointed at /dev/null for as long as the object lives.
//
// The C libraries print some of their complaints themselves: libtracecmd 1.3 printf()s "File
// possibly truncated" to stdout, where `schedscope-cli ... --json` writes its document; hwloc,
// asked for its XML parser's reasons (HWLOC_XML_VERBOSE), prints them to stderr even for a
// file it reads. The callers report what went wrong in one line of their own. Process-wide, as
// a file descriptor is: nested or concurrent holders of one stream share one redirection,
// undone by the last.
#include <string>

namespace schedscope {

class QuietDescriptor {
public:
    explicit QuietDescriptor(int fd);  // STDOUT_FILENO or STDERR_FILENO
    ~QuietDescriptor();
    QuietDescriptor(const QuietDescriptor&) = delete;
    QuietDescriptor& operator=(const QuietDescriptor&) = delete;

private:
    int fd_;
};

// stderr sent into a pipe for as long as the object lives, for a library that says why it
// failed only there (hwloc's synthetic parser, with HWLOC_SYNTHETIC_VERBOSE). text() ends the
// capture and gives what was written, up to the pipe's 64 KiB (more is dropped, never waited
// for). While a QuietDescriptor holds stderr nothing is captured: its redirection stands.
class CapturedStderr {
public:
    CapturedStderr();
    ~CapturedStderr();
    CapturedStderr(const CapturedStderr&) = delete;
    CapturedStderr& operator=(const CapturedStderr&) = delete;
    std::string text();

private:
    void restore();
    int saved_ = -1;    // the real stderr while capturing
    int readEnd_ = -1;  // the pipe's
    std::string text_;
};

}  // namespace schedscope
