#include "domains/domain_format.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "domains/sd_flags.h"

namespace schedscope {

nlohmann::json domainTreeToJson(const DomainTree& tree) {
    using nlohmann::json;
    const KernelProfile& p = tree.profile ? *tree.profile : defaultProfile();
    json cpus = json::array();
    for (const auto& c : tree.cpus) {
        if (c.domains.empty() && c.cpu >= 0) {
            // offline or isolated CPUs still appear, with no domains, like "attaching NULL"
        }
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
        cpus.push_back({{"cpu", c.cpu}, {"domains", doms}});
    }
    json levels = json::array();
    for (const auto& l : tree.levels) levels.push_back(l.name);
    return {{"profile", p.name},
            {"arch", archName(tree.arch)},
            {"cls", tree.clsEnabled},
            {"node", tree.nodeEnabled},
            {"topology_levels", levels},
            {"warnings", tree.warnings},
            {"cpus", cpus}};
}

// mirrors sched_domain_debug() / sched_domain_debug_one() in kernel/sched/topology.c
std::string domainTreeToKernelLog(const DomainTree& tree) {
    std::ostringstream out;
    for (const auto& c : tree.cpus) {
        if (c.domains.empty()) {
            out << "CPU" << c.cpu << " attaching NULL sched-domain.\n";
            continue;
        }
        out << "CPU" << c.cpu << " attaching sched-domain(s):\n";
        for (size_t level = 0; level < c.domains.size(); ++level) {
            const SchedDomain& sd = c.domains[level];
            out << std::string(level, ' ') << " domain-" << level << ": span=" << sd.span.toList()
                << " level=" << sd.level << "\n";
            out << std::string(level + 1, ' ') << " groups:";
            for (size_t g = 0; g < sd.groups.size(); ++g) {
                const SchedGroup& grp = sd.groups[g];
                out << " " << grp.span.first() << ":{ span=" << grp.span.toList();
                if ((sd.flags & SD_OVERLAP) && !(grp.balanceMask == grp.span)) out << " mask=" << grp.balanceMask.toList();
                if (grp.capacity != 1024) out << " cap=" << grp.capacity;
                out << " }";
                if (g + 1 < sd.groups.size()) out << ",";
            }
            out << "\n";
        }
    }
    return out.str();
}

std::string domainTreeToText(const DomainTree& tree) {
    const KernelProfile& p = tree.profile ? *tree.profile : defaultProfile();
    std::ostringstream out;
    out << "profile " << p.name << ", arch " << archName(tree.arch) << ", CLS " << (tree.clsEnabled ? "on" : "off")
        << ", NODE " << (tree.nodeEnabled ? "on" : "off") << "\n";
    for (const auto& w : tree.warnings) out << "warning: " << w << "\n";
    for (const auto& c : tree.cpus) {
        if (c.domains.empty()) continue;
        out << "cpu" << c.cpu << ":\n";
        for (const auto& d : c.domains) {
            out << "  " << d.level << " span=" << d.span.toList() << " groups=" << d.groups.size() << " [";
            for (size_t g = 0; g < d.groups.size(); ++g) out << (g ? " " : "") << "{" << d.groups[g].span.toList() << "}";
            out << "]\n    flags:";
            for (const auto& f : flagNames(p, d.flags)) out << " " << f;
            out << "\n";
        }
    }
    return out.str();
}

}  // namespace schedscope
