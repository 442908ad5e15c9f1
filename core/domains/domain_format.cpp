#include "domains/domain_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "domains/sd_flags.h"

namespace schedscope {

namespace {

nlohmann::json cpuToJson(const CpuDomains& c, const KernelProfile& p) {
    using nlohmann::json;
    json doms = json::array();
    for (const auto& d : c.domains) {
        json groups = json::array();
        for (const auto& g : d.groups) {
            json jg = {{"span", g.span.toList()}, {"capacity", g.capacity}};
            if (!(g.balanceMask == g.span)) jg["mask"] = g.balanceMask.toList();
            groups.push_back(jg);
        }
        json jd = {{"level", d.level},
                   {"span", d.span.toList()},
                   {"flags", flagNames(p, d.flags)},
                   {"groups", groups},
                   {"imbalance_pct", d.imbalancePct},
                   {"busy_factor", d.busyFactor},
                   {"cache_nice_tries", d.cacheNiceTries},
                   {"min_interval", d.minInterval},
                   {"max_interval", d.maxInterval}};
        if (d.numaLevel >= 0) jd["numa_distance"] = d.numaDistance;
        if (d.imbNumaNr) jd["imb_numa_nr"] = d.imbNumaNr;
        doms.push_back(jd);
    }
    // offline or isolated CPUs appear too, with no domains, like "attaching NULL"
    return {{"cpu", c.cpu}, {"domains", doms}};
}

// the cpuset root partitions' root domains as CPU lists; none when the CPUs are one
std::vector<std::string> rootDomainLists(const DomainTree& tree) {
    std::vector<std::string> out;
    out.reserve(tree.rootDomains.size());
    for (const CpuSet& rd : tree.rootDomains) out.push_back(rd.toList());
    return out;
}

// Everything but "cpus", which the streaming writer fills in place.
nlohmann::json treeHeaderToJson(const DomainTree& tree, const KernelProfile& p) {
    using nlohmann::json;
    json levels = json::array();
    for (const auto& l : tree.levels) levels.push_back(l.name);
    return {{"profile", p.name},
            {"arch", archName(tree.arch)},
            {"cls", tree.clsEnabled},
            {"node", tree.nodeEnabled},
            {"topology_levels", levels},
            {"warnings", tree.warnings},
            {"notes", tree.notes},
            {"problems", validateDomainTree(tree)},
            {"isolated", tree.isolated.toList()},
            {"root_domains", rootDomainLists(tree)},
            {"cpus", json::array()}};
}

// `text` (a dump at indent 2) as it reads nested `depth` levels deep in an indent-2 dump.
void writeIndented(std::ostream& out, const std::string& text, int depth) {
    const std::string pad(static_cast<size_t>(2 * depth), ' ');
    size_t from = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
        out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
        out << pad;
        from = nl + 1;
    }
    out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace

nlohmann::json domainTreeToJson(const DomainTree& tree) {
    const KernelProfile& p = tree.profile ? *tree.profile : defaultProfile();
    nlohmann::json out = treeHeaderToJson(tree, p);
    for (const auto& c : tree.cpus) out["cpus"].push_back(cpuToJson(c, p));
    return out;
}

void writeDomainTreeJson(std::ostream& out, const DomainTree& tree) {
    const KernelProfile& p = tree.profile ? *tree.profile : defaultProfile();
    if (tree.cpus.empty()) {
        out << domainTreeToJson(tree).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
    }
    // The header's own dump, with its empty "cpus" array opened up and filled one CPU at a time.
    const std::string header = treeHeaderToJson(tree, p).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string slot = "\"cpus\": []";
    const size_t at = header.find(slot);
    out.write(header.data(), static_cast<std::streamsize>(at));
    out << "\"cpus\": [";
    for (size_t i = 0; i < tree.cpus.size(); ++i) {
        out << (i ? ",\n    " : "\n    ");
        writeIndented(out, cpuToJson(tree.cpus[i], p).dump(2, ' ', false, nlohmann::json::error_handler_t::replace), 2);
    }
    out << "\n  ]";
    out << header.substr(at + slot.size());
}

// mirrors sched_domain_debug() / sched_domain_debug_one() in kernel/sched/topology.c
namespace {
// sched_domain_debug() as cpu_attach_domain() prints it for one CPU
void appendAttach(std::ostringstream& out, const CpuDomains& c) {
    if (c.domains.empty()) {
        out << "CPU" << c.cpu << " attaching NULL sched-domain.\n";
        return;
    }
    out << "CPU" << c.cpu << " attaching sched-domain(s):\n";
    for (size_t level = 0; level < c.domains.size(); ++level) {
        const SchedDomain& sd = c.domains[level];
        out << std::string(level, ' ') << " domain-" << level << ": span=" << sd.span.toList() << " level=" << sd.level
            << "\n";
        out << std::string(level + 1, ' ') << " groups:";
        for (size_t g = 0; g < sd.groups.size(); ++g) {
            const SchedGroup& grp = sd.groups[g];
            // the id is the group capacity's (sgc->id): the first CPU of the balance mask, which
            // an overlapping group takes its sgc by ("72:{ span=48-95 mask=72-95 ...}")
            const int id = grp.balanceMask.empty() ? grp.span.first() : grp.balanceMask.first();
            out << " " << id << ":{ span=" << grp.span.toList();
            if ((sd.flags & (SD_OVERLAP | SD_NUMA)) && !(grp.balanceMask == grp.span)) out << " mask=" << grp.balanceMask.toList();
            if (grp.capacity != 1024) out << " cap=" << grp.capacity;
            out << " }";
            if (g + 1 < sd.groups.size()) out << ",";
        }
        out << "\n";
        CpuSet covered;
        for (const SchedGroup& grp : sd.groups) covered |= grp.span;
        if (!(covered == sd.span)) out << "ERROR: groups don't span domain->span\n";
    }
}
}  // namespace

std::string domainTreeToKernelLog(const DomainTree& tree) {
    const KernelProfile& p = tree.profile ? *tree.profile : defaultProfile();
    // A tree read from a kernel knows only the CPUs that have domains.
    CpuSet built = tree.builtFor;
    if (built.empty())
        for (const auto& c : tree.cpus)
            if (!c.domains.empty()) built.set(c.cpu);
    const std::vector<CpuSet> roots = tree.rootDomains.empty() ? std::vector<CpuSet>{built} : tree.rootDomains;
    // What boot prints: build_sched_domains() once per root domain, which attaches its CPUs in
    // order and then names the root domain. Isolated CPUs are never attached. (The tree may hold
    // only some CPUs: `domains --cpu` prints theirs.)
    std::ostringstream out;
    for (const CpuSet& rd : roots) {
        std::vector<const CpuDomains*> members;
        bool anyDomains = false;
        for (const CpuDomains& c : tree.cpus)
            if (c.cpu >= 0 && rd.test(c.cpu)) {
                members.push_back(&c);
                anyDomains = anyDomains || !c.domains.empty();
            }
        // several CPUs and not one domain: the build gave up before attaching (a broken topology)
        if (members.empty() || (rd.count() > 1 && !anyDomains)) continue;
        unsigned maxCapacity = 0;
        for (const CpuDomains* c : members) {
            appendAttach(out, *c);
            maxCapacity = std::max(maxCapacity, c->capacity);
        }
        out << "root domain span: " << rd.toList();
        if (p.rootDomainCapacityInLog) out << " (max cpu_capacity = " << maxCapacity << ")";
        out << "\n";
    }
    return out.str();
}

constexpr size_t kProblemsShown = 5;

std::string domainTreeToText(const DomainTree& tree) {
    const KernelProfile& p = tree.profile ? *tree.profile : defaultProfile();
    std::ostringstream out;
    if (tree.fromKernelLog)
        out << "from the kernel's sched_verbose log: levels, spans and groups (the log prints no flags)\n";
    else
        out << "profile " << p.name << ", arch " << archName(tree.arch) << ", CLS " << (tree.clsEnabled ? "on" : "off")
            << ", NODE " << (tree.nodeEnabled ? "on" : "off") << "\n";
    for (const auto& w : tree.warnings) out << "warning: " << w << "\n";
    for (const auto& n : tree.notes) out << "note: " << n << "\n";
    // what sched_domain_debug() would print ERROR for (a build broken by an asymmetric SLIT):
    // the first few, the domains below show the rest
    const std::vector<std::string> problems = validateDomainTree(tree);
    for (size_t i = 0; i < problems.size() && i < kProblemsShown; ++i) out << "error: " << problems[i] << "\n";
    if (problems.size() > kProblemsShown)
        out << "error: ... and " << problems.size() - kProblemsShown << " more inconsistencies in the domains below\n";
    if (!tree.isolated.empty()) out << "isolated (no sched domains): " << tree.isolated.toList() << "\n";
    if (!tree.rootDomains.empty()) {
        out << "root domains (cpuset partitions, built apart):";
        for (const std::string& rd : rootDomainLists(tree)) out << " " << rd;
        out << "\n";
    }
    for (const auto& c : tree.cpus) {
        if (c.domains.empty()) continue;
        out << "cpu" << c.cpu << ":\n";
        for (const auto& d : c.domains) {
            out << "  " << d.level << " span=" << d.span.toList() << " groups=" << d.groups.size() << " [";
            for (size_t g = 0; g < d.groups.size(); ++g) out << (g ? " " : "") << "{" << d.groups[g].span.toList() << "}";
            out << "]\n";
            if (tree.fromKernelLog) continue;
            out << "    flags:";
            for (const auto& f : flagNames(p, d.flags)) out << " " << f;
            out << "\n";
        }
    }
    return out.str();
}

}  // namespace schedscope
