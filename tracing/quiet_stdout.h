#pragma once
// Standard output pointed at /dev/null for as long as the object lives.
//
// libtracecmd 1.3 printf()s some of its complaints to stdout ("File possibly truncated. Need at
// least ..., but file size is ..."), where `schedscope-cli ... --json` writes its document, and
// the reader already reports the same failure as its own one-line error. Process-wide, as file
// descriptor 1 is: nested or concurrent holders share one redirection, undone by the last.
namespace schedscope::tracing {

class QuietStdout {
public:
    QuietStdout();
    ~QuietStdout();
    QuietStdout(const QuietStdout&) = delete;
    QuietStdout& operator=(const QuietStdout&) = delete;
};

}  // namespace schedscope::tracing
