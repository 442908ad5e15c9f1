#include "domains/domain_tree.h"

#include <algorithm>
#include <unordered_map>

#include "domains/sd_flags.h"

namespace schedscope {

const std::vector<SchedDomain>& DomainTree::domainsOf(int cpu) const {
    static const std::vector<SchedDomain> none;
    if (cpu < 0 || static_cast<size_t>(cpu) >= cpus.size()) return none;
    return cpus[static_cast<size_t>(cpu)].domains;
}

int DomainTree::lowestCommonDomain(int a, int b) const {
    const auto& doms = domainsOf(a);
    for (size_t i = 0; i < doms.size(); ++i)
        if (doms[i].span.test(b)) return static_cast<int>(i);
    return -1;
}

std::string DomainTree::lowestCommonLevel(int a, int b) const {
    if (a == b) return {};
    int i = lowestCommonDomain(a, b);
    return i < 0 ? std::string{} : domainsOf(a)[static_cast<size_t>(i)].level;
}

std::vector<std::string> DomainTree::levelNames() const {
    // Order by topology level so CPUs with different depths still merge bottom-up.
    std::vector<std::pair<int, std::string>> seen;
    for (const auto& c : cpus)
        for (const auto& d : c.domains) {
            bool dup = false;
            for (const auto& s : seen) dup = dup || s.first == d.topologyLevel;
            if (!dup) seen.emplace_back(d.topologyLevel, d.level);
        }
    std::sort(seen.begin(), seen.end());
    std::vector<std::string> names;
    for (const auto& s : seen)
        if (names.empty() || names.back() != s.second || s.second != "NUMA") names.push_back(s.second);
    return names;
}

namespace {

// Groups are non-empty, inside the span, disjoint unless overlapping, and cover the span.
template <typename Fail>
void checkGroups(const SchedDomain& sd, Fail fail) {
    CpuSet covered;
    for (const auto& g : sd.groups) {
        if (g.span.empty()) fail("empty group");
        // NUMA groups overlap: SD_OVERLAP marks them, and SD_NUMA since 6.17 dropped that flag
        if (!(sd.flags & (SD_OVERLAP | SD_NUMA)) && covered.intersects(g.span)) fail("groups overlap");
        if (!g.span.isSubsetOf(sd.span)) fail("group " + g.span.toList() + " outside the span");
        if (g.balanceMask.empty() || !g.balanceMask.isSubsetOf(g.span)) fail("group balance mask not within the group");
        covered |= g.span;
    }
    if (!(covered == sd.span)) fail("groups do not cover the span");
}

}  // namespace

std::vector<std::string> validateDomainTree(const DomainTree& tree) {
    std::vector<std::string> errors;
    std::unordered_map<const void*, const CpuSet*> checkedRings;
    auto fail = [&](int cpu, size_t level, const std::string& what) {
        errors.push_back("cpu" + std::to_string(cpu) + " domain-" + std::to_string(level) + ": " + what);
    };
    for (const auto& c : tree.cpus) {
        const auto& doms = c.domains;
        for (size_t i = 0; i < doms.size(); ++i) {
            const SchedDomain& sd = doms[i];
            if (!sd.span.test(c.cpu)) fail(c.cpu, i, "span does not contain the CPU");
            if (i > 0 && !doms[i - 1].span.isSubsetOf(sd.span)) fail(c.cpu, i, "span does not contain the child's");
            // (before 5.10 a one-group parent kept flags its child lacked: SD_NUMA over a
            // non-NUMA child stayed)
            const bool keptByLegacyMasks = tree.profile && tree.profile->legacyDegenerateMasks && i > 0 &&
                                           (sd.flags & ~doms[i - 1].flags) != 0;
            if (i > 0 && doms[i - 1].span == sd.span && sd.groups.size() < 2 && !keptByLegacyMasks)
                fail(c.cpu, i, "equal to its child with a single group: should have been pruned");
            if (sd.groups.empty()) { fail(c.cpu, i, "no groups"); continue; }
            if (!sd.groups.front().span.test(c.cpu)) fail(c.cpu, i, "first group does not contain the CPU");
            // A ring shared by a span's CPUs is checked once, not once per CPU (quadratic on flat spans).
            auto [seen, fresh] = checkedRings.emplace(sd.groups.ringId(), &sd.span);
            if (fresh || !(*seen->second == sd.span)) checkGroups(sd, [&](const std::string& what) { fail(c.cpu, i, what); });
            // Meta-flags: SHARED_CHILD set here must be set on the child, SHARED_PARENT on the parent.
            // (4.20-5.9 put SD_ASYM_CPUCAPACITY on one level: its parents lack it)
            const bool asymOnOneLevel = tree.profile && tree.profile->asymCapacity == AsymCapacityRule::OneLevel;
            for (const auto& f : sdFlagTable()) {
                if (!(sd.flags & f.flag)) continue;
                if (f.flag == SD_ASYM_CPUCAPACITY && asymOnOneLevel) continue;
                if ((f.meta & SDF_SHARED_CHILD) && i > 0 && !(doms[i - 1].flags & f.flag))
                    fail(c.cpu, i, std::string(f.name) + " set but not on the child domain");
                if ((f.meta & SDF_SHARED_PARENT) && i + 1 < doms.size() && !(doms[i + 1].flags & f.flag))
                    fail(c.cpu, i, std::string(f.name) + " set but not on the parent domain");
            }
        }
    }
    return errors;
}

}  // namespace schedscope
