#pragma once
// A standard stream (stdout or stderr) pointed at /dev/null for as long as the object lives.
//
// The C libraries print some of their complaints themselves: libtracecmd 1.3 printf()s "File
// possibly truncated" to stdout, where `schedscope-cli ... --json` writes its document; hwloc,
// asked for its XML parser's reasons (HWLOC_XML_VERBOSE), prints them to stderr even for a
// file it reads. The callers report what went wrong in one line of their own. Process-wide, as
// a file descriptor is: nested or concurrent holders of one stream share one redirection,
// undone by the last.
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

}  // namespace schedscope
