#include "capture_launch.h"

#include <sys/xattr.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "process_caps.h"

namespace schedscope::tracing {
namespace fs = std::filesystem;

std::string findCaptureHelper() {
    if (const char* env = std::getenv("SCHEDSCOPE_CAPTURE"); env && *env)
        return access(env, X_OK) == 0 ? std::string(env) : std::string();
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    for (const fs::path& p : {exe.parent_path() / "schedscope-capture",
                              exe.parent_path().parent_path() / "capture" / "schedscope-capture"})
        if (access(p.c_str(), X_OK) == 0) return p.string();
    return "";
}

bool hasFileCapabilities(const std::string& path) {
    return getxattr(path.c_str(), "security.capability", nullptr, 0) > 0;
}

std::string findPkexec() {
    if (const char* env = std::getenv("SCHEDSCOPE_PKEXEC"); env && *env)
        return access(env, X_OK) == 0 ? std::string(env) : std::string();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path && *path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        if (dir.empty()) continue;
        const std::string p = dir + "/pkexec";
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    return "";
}

Result<HelperCommand> helperCommand(const std::string& helper, const std::vector<std::string>& args) {
    HelperCommand c;
    if (!canLoadBpf() && !hasFileCapabilities(helper)) {
        const std::string pkexec = findPkexec();
        if (pkexec.empty())
            return Error{"pkexec is not installed: install polkit (pkexec), or run `sudo setcap "
                         "cap_bpf,cap_perfmon,cap_sys_resource+ep " + helper +
                         "`, or start `sudo schedscope-capture --socket PATH` and attach to PATH"};
        c.argv.push_back(pkexec);
        c.viaPkexec = true;
    }
    c.argv.push_back(helper);
    c.argv.insert(c.argv.end(), args.begin(), args.end());
    return c;
}

std::string helperExitText(int status, bool viaPkexec) {
    if (viaPkexec && status == 126) return "pkexec: the authentication was dismissed";
    if (viaPkexec && status == 127)
        return "pkexec: not authorized (or polkit is not running; start `sudo schedscope-capture --socket PATH` and attach to it)";
    if (status == 127) return "the capture helper could not be run";
    if (status == 2) return "the capture helper rejected its arguments (exit 2; see stderr)";
    if (status == 1) return "the capture helper failed (exit 1; see stderr)";
    if (status < 0) return "the capture helper was killed";
    return "the capture helper exited with status " + std::to_string(status);
}

}  // namespace schedscope::tracing
