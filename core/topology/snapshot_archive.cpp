#include "topology/snapshot_archive.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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
}  // namespace

Result<std::string> findSnapshotRoot(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Error{dir + ": not a directory"};
    if (holdsSysfs(dir)) return dir;
    std::vector<fs::path> found;
    collectRoots(dir, 3, found);
    if (found.size() == 1) return found.front().string();
    if (found.empty()) return Error{dir + ": not a sysfs root (no sys/devices/system/cpu directory in it or below it)"};
    return Error{dir + ": holds several sysfs snapshots (" + found[0].string() + ", " + found[1].string() + "): name one"};
}

Result<ExtractedSnapshot> ExtractedSnapshot::extract(const std::string& archive) {
    std::error_code ec;
    if (!fs::is_regular_file(archive, ec)) return Error{archive + ": no such file"};
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/schedscope-snapshot-XXXXXX";
    if (!mkdtemp(pattern.data())) return Error{archive + ": cannot make a directory to extract it into: " + std::strerror(errno)};
    ExtractedSnapshot out(pattern);
    // tar reads any of the compressions by itself (-a on extraction is implied by GNU tar);
    // its complaints go to a pipe and the first line into the error
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) return Error{archive + ": cannot run tar: " + std::strerror(errno)};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    std::string a = archive, d = out.dir_;
    std::array<char*, 8> argv = {const_cast<char*>("tar"), const_cast<char*>("--no-same-owner"),
                                 const_cast<char*>("--no-same-permissions"), const_cast<char*>("-xf"), a.data(),
                                 const_cast<char*>("-C"), d.data(), nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "tar", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipeFds[1]);
    std::string complaint;
    char buf[512];
    for (ssize_t n; (n = read(pipeFds[0], buf, sizeof buf)) > 0;)
        if (complaint.size() < 4096) complaint.append(buf, static_cast<size_t>(n));
    close(pipeFds[0]);
    if (spawned != 0) return Error{archive + ": cannot run tar to extract it: " + std::strerror(spawned)};
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
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
