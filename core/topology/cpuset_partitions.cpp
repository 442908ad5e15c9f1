#include "topology/cpuset_partitions.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace schedscope {
namespace fs = std::filesystem;
namespace {

std::string readTrimmed(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

// A systemd machine has hundreds of cgroups; a partition is rarely deeper than a few levels,
// and a walk of a runaway tree must end.
constexpr int kMaxDepth = 8;
constexpr int kMaxCgroups = 20000;

}  // namespace

Status readCpusetPartitions(const std::string& root, Topology& topo) {
    const fs::path top = fs::path(root) / "sys/fs/cgroup";
    std::error_code ec;
    if (!fs::is_directory(top, ec)) return {};
    const CpuSet online = topo.onlineCpus();
    std::vector<CpuSet> partitions;
    int seen = 0;
    for (fs::recursive_directory_iterator it(top, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < kMaxCgroups; it.increment(ec)) {
        if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
        if (!it->is_directory(ec) || it->is_symlink(ec)) {
            if (it->is_symlink(ec)) it.disable_recursion_pending();
            continue;
        }
        ++seen;
        const fs::path partitionFile = it->path() / "cpuset.cpus.partition";
        if (!fs::exists(partitionFile, ec)) continue;
        const std::string type = readTrimmed(partitionFile);
        // "root", "isolated", "member", or "<type> invalid (<why>)"
        const bool valid = type.find("invalid") == std::string::npos;
        const bool isRoot = valid && type.rfind("root", 0) == 0;
        const bool isIsolated = valid && type.rfind("isolated", 0) == 0;
        if (!isRoot && !isIsolated) continue;
        const fs::path effectiveFile = it->path() / "cpuset.cpus.effective";
        auto cpus = CpuSet::parseList(readTrimmed(effectiveFile));
        if (!cpus) return Error{effectiveFile.string() + ": " + cpus.error()};
        const CpuSet mine = *cpus & online;
        if (mine.empty()) continue;
        if (isIsolated) topo.isolated |= mine;
        else partitions.push_back(mine);
    }
    std::sort(partitions.begin(), partitions.end(), [](const CpuSet& a, const CpuSet& b) { return a.first() < b.first(); });
    for (CpuSet& p : partitions) topo.rootPartitions.push_back(std::move(p));
    return {};
}

}  // namespace schedscope
