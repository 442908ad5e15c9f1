#include "topology/cpuset_partitions.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "util/sysfs_text.h"

namespace schedscope {
namespace fs = std::filesystem;
namespace {

// A systemd machine has hundreds of cgroups; a partition is rarely deeper than a few levels,
// and a walk of a runaway tree must end.
constexpr int kMaxDepth = 8;
constexpr int kMaxCgroups = 20000;

Result<CpuSet> readCpus(const fs::path& file) {
    auto cpus = CpuSet::parseList(readAttributeText(file));
    if (!cpus) return Error{file.string() + ": " + cpus.error()};
    return cpus;
}

// The v1 walk of generate_sched_domains(): below a cpuset that balances (and has housekeeping
// CPUs), nothing more is looked at; one that does not is walked into.
class V1Walk {
public:
    V1Walk(CpuSet housekeeping) : housekeeping_(std::move(housekeeping)) {}

    Status visitChildren(const fs::path& dir, int depth) {
        if (depth >= kMaxDepth) return {};
        std::vector<fs::path> children;
        std::error_code ec;
        for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
             it.increment(ec))
            if (it->is_directory(ec) && !it->is_symlink(ec)) children.push_back(it->path());
        std::sort(children.begin(), children.end());  // the kernel's order is creation's; the result is not
        for (const fs::path& child : children) {
            if (++seen_ > kMaxCgroups) return {};
            if (!fs::exists(child / "cpuset.cpus", ec)) continue;
            auto allowed = readCpus(child / "cpuset.cpus");
            if (!allowed) return Error{allowed.error()};
            // older kernels have no effective_cpus: cpus is what they use then
            const fs::path effectiveFile = fs::exists(child / "cpuset.effective_cpus", ec) ? child / "cpuset.effective_cpus"
                                                                                           : child / "cpuset.cpus";
            auto effective = readCpus(effectiveFile);
            if (!effective) return Error{effective.error()};
            const bool balances = readAttributeText(child / "cpuset.sched_load_balance") == "1";
            if (!allowed->empty() && !(balances && allowed->intersects(housekeeping_))) {
                if (auto st = visitChildren(child, depth + 1); !st) return st;
                continue;
            }
            if (balances && !effective->empty()) balanced_.push_back(*effective);
        }
        return {};
    }

    // the balanced cpusets, those that overlap merged into one domain each
    std::vector<CpuSet> domains() const {
        std::vector<CpuSet> merged;
        for (CpuSet set : balanced_) {
            for (bool grew = true; grew;) {
                grew = false;
                for (auto it = merged.begin(); it != merged.end(); ++it)
                    if (it->intersects(set)) {
                        set |= *it;
                        merged.erase(it);
                        grew = true;
                        break;
                    }
            }
            merged.push_back(set);
        }
        return merged;
    }

private:
    CpuSet housekeeping_;
    std::vector<CpuSet> balanced_;
    int seen_ = 0;
};

// cgroup v1's cpuset hierarchy (mounted at sys/fs/cgroup/cpuset, alone or beside the unified
// one): with the top cpuset's sched_load_balance off, the domains are the balancing cpusets'
// CPUs, overlapping ones merged, and a CPU in none of them gets no domain.
Status readV1Cpusets(const fs::path& top, Topology& topo, std::vector<CpuSet>& partitions) {
    std::error_code ec;
    if (!fs::exists(top / "cpuset.sched_load_balance", ec)) return {};
    if (readAttributeText(top / "cpuset.sched_load_balance") != "0") return {};  // one domain, the usual case
    const CpuSet online = topo.onlineCpus();
    const CpuSet housekeeping = online.minus(topo.isolated);
    V1Walk walk(housekeeping);
    if (auto st = walk.visitChildren(top, 0); !st) return st;
    CpuSet covered;
    for (const CpuSet& d : walk.domains())
        if (CpuSet mine = d & housekeeping; !mine.empty()) {
            covered |= mine;
            partitions.push_back(mine);
        }
    topo.isolated |= housekeeping.minus(covered);
    return {};
}

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
        const std::string type = readAttributeText(partitionFile);
        // "root", "isolated", "member", or "<type> invalid (<why>)"
        const bool valid = type.find("invalid") == std::string::npos;
        const bool isRoot = valid && type.rfind("root", 0) == 0;
        const bool isIsolated = valid && type.rfind("isolated", 0) == 0;
        if (!isRoot && !isIsolated) continue;
        const fs::path effectiveFile = it->path() / "cpuset.cpus.effective";
        auto cpus = CpuSet::parseList(readAttributeText(effectiveFile));
        if (!cpus) return Error{effectiveFile.string() + ": " + cpus.error()};
        const CpuSet mine = *cpus & online;
        if (mine.empty()) continue;
        if (isIsolated) topo.isolated |= mine;
        else partitions.push_back(mine);
    }
    if (auto st = readV1Cpusets(top / "cpuset", topo, partitions); !st) return st;
    std::sort(partitions.begin(), partitions.end(), [](const CpuSet& a, const CpuSet& b) { return a.first() < b.first(); });
    for (CpuSet& p : partitions) topo.rootPartitions.push_back(std::move(p));
    return {};
}

}  // namespace schedscope
