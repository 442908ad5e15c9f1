#include "topology/snapshot_archive.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

extern char** environ;

namespace schedscope {
namespace fs = std::filesystem;

bool isSnapshotArchive(const std::string& path) {
    for (const char* suffix : {".tar", ".tar.bz2", ".tbz2", ".tar.gz", ".tgz", ".tar.xz", ".txz"})
        if (path.ends_with(suffix)) return true;
    return false;
}

namespace {
bool holdsSysfs(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "sys/devices/system/cpu", ec);
}

void collectRoots(const fs::path& dir, int depth, std::vector<fs::path>& found) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (!e.is_directory(ec) || e.is_symlink(ec)) continue;
        if (holdsSysfs(e.path())) found.push_back(e.path());
        else if (depth > 1) collectRoots(e.path(), depth - 1, found);
        if (found.size() > 1) return;
    }
}
// Starts tar with `args`, one of its outputs (`piped`: STDOUT_FILENO or STDERR_FILENO) into the
// returned pipe, the other to /dev/null.
struct TarRun {
    pid_t pid;
    int fd;
};
Result<TarRun> runTar(std::vector<std::string> args, int piped, const std::string& archive) {
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) return Error{archive + ": cannot run tar: " + std::strerror(errno)};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], piped);
    posix_spawn_file_actions_addopen(&actions, piped == STDOUT_FILENO ? STDERR_FILENO : STDOUT_FILENO, "/dev/null",
                                     O_WRONLY, 0);
    args.insert(args.begin(), "tar");
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "tar", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipeFds[1]);
    if (spawned != 0) {
        close(pipeFds[0]);
        return Error{archive + ": cannot run tar to extract it: " + std::strerror(spawned)};
    }
    return TarRun{pid, pipeFds[0]};
}

int waitStatus(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return status;
}

// The size field of a `tar -tv` line ("MODE OWNER/GROUP SIZE DATE TIME NAME"), 0 for a device
// ("MAJOR,MINOR") or a line it cannot read.
long long listedSize(std::string_view line) {
    size_t at = 0;
    for (int field = 0; field < 2; ++field) {
        at = line.find(' ', at);
        if (at == std::string_view::npos) return 0;
        while (at < line.size() && line[at] == ' ') ++at;
    }
    long long size = 0;
    for (; at < line.size() && line[at] >= '0' && line[at] <= '9'; ++at) {
        if (size > (1LL << 50)) return size;  // far past any limit: no overflow
        size = size * 10 + (line[at] - '0');
    }
    return at < line.size() && line[at] == ' ' ? size : 0;
}

// Lists the archive (tar -tvf) and stops tar as soon as its members add up to more than the
// limits. A listing that fails is let through: the extraction then fails with tar's own words.
Result<bool> checkListing(const std::string& archive, const ArchiveLimits& limits) {
    auto tar = runTar({"-tvf", archive}, STDOUT_FILENO, archive);
    if (!tar) return Error{tar.error()};
    const auto [pid, fd] = *tar;
    long long bytes = 0, members = 0;
    std::string pending;
    char buf[65536];
    bool tooBig = false;
    for (ssize_t n; !tooBig && (n = read(fd, buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        pending.append(buf, static_cast<size_t>(n));
        size_t start = 0;
        for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
            bytes += listedSize(std::string_view(pending).substr(start, nl - start));
            ++members;
        }
        pending.erase(0, start);
        if (pending.size() > 65536) pending.clear();  // a name that long is not sysfs; its size does not matter
        tooBig = bytes > limits.maxBytes || members > limits.maxMembers;
    }
    close(fd);
    if (tooBig) kill(pid, SIGKILL);
    waitStatus(pid);
    if (bytes > limits.maxBytes) {
        const std::string cap = limits.maxBytes >= (1LL << 20) ? std::to_string(limits.maxBytes >> 20) + " MiB"
                                                               : std::to_string(limits.maxBytes) + " bytes";
        return Error{archive + ": unpacks to more than " + cap + ", too much for a sysfs snapshot: not extracted"};
    }
    if (members > limits.maxMembers)
        return Error{archive + ": holds more than " + std::to_string(limits.maxMembers) +
                     " files, too many for a sysfs snapshot: not extracted"};
    return true;
}
}  // namespace

Result<std::string> findSnapshotRoot(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Error{dir + (fs::exists(dir, ec) ? ": not a directory" : ": does not exist")};
    if (holdsSysfs(dir)) return dir;
    std::vector<fs::path> found;
    collectRoots(dir, 3, found);
    if (found.size() == 1) return found.front().string();
    if (found.empty()) return Error{dir + ": not a sysfs root (no sys/devices/system/cpu directory in it or below it)"};
    return Error{dir + ": holds several sysfs snapshots (" + found[0].string() + ", " + found[1].string() + "): name one"};
}

Result<ExtractedSnapshot> ExtractedSnapshot::extract(const std::string& archive, const ArchiveLimits& limits) {
    std::error_code ec;
    if (!fs::is_regular_file(archive, ec)) return Error{archive + ": no such file"};
    // tar has no limit of its own: list first (the dumps are small, so reading twice is cheap)
    if (auto listed = checkListing(archive, limits); !listed) return Error{listed.error()};
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/schedscope-snapshot-XXXXXX";
    if (!mkdtemp(pattern.data())) return Error{archive + ": cannot make a directory to extract it into: " + std::strerror(errno)};
    ExtractedSnapshot out(pattern);
    // tar reads any of the compressions by itself (-a on extraction is implied by GNU tar);
    // its complaints go to a pipe and the first line into the error
    auto tar = runTar({"--no-same-owner", "--no-same-permissions", "-xf", archive, "-C", out.dir_}, STDERR_FILENO, archive);
    if (!tar) return Error{tar.error()};
    const auto [pid, fd] = *tar;
    std::string complaint;
    char buf[512];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
        if (complaint.size() < 4096) complaint.append(buf, static_cast<size_t>(n));
    close(fd);
    const int status = waitStatus(pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const auto nl = complaint.find('\n');
        std::string first = escapeControl(complaint.substr(0, nl));
        if (first.rfind("tar: ", 0) == 0) first.erase(0, 5);
        return Error{archive + ": tar cannot extract it" + (first.empty() ? std::string() : ": " + first)};
    }
    return out;
}

ExtractedSnapshot::ExtractedSnapshot(ExtractedSnapshot&& other) noexcept : dir_(std::move(other.dir_)) { other.dir_.clear(); }

ExtractedSnapshot::~ExtractedSnapshot() {
    if (dir_.empty()) return;
    std::error_code ec;
    // a snapshot's files may be read-only (sysfs modes); make them removable first
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec)) fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
}

}  // namespace schedscope
