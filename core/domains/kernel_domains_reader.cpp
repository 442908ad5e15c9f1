#include "domains/kernel_domains_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "domains/sd_flags.h"
#include "util/sysfs_text.h"

namespace schedscope {
namespace fs = std::filesystem;
namespace {

int numbered(const std::string& name, const std::string& prefix) {
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return -1;
    std::string d = name.substr(prefix.size());
    if (d.size() > 6 || !std::all_of(d.begin(), d.end(), ::isdigit)) return -1;
    return std::stoi(d);
}

// /proc/schedstat (version 15+): "cpuN ..." followed by "domainM [NAME] <hex mask> ..." lines.
std::map<int, std::vector<CpuSet>> schedstatSpans(const fs::path& file) {
    std::map<int, std::vector<CpuSet>> spans;
    std::ifstream in(file);
    std::string line;
    int cpu = -1;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first.rfind("cpu", 0) == 0) {
            cpu = numbered(first, "cpu");
        } else if (first.rfind("domain", 0) == 0 && cpu >= 0) {
            std::string w;
            while (words >> w) {
                auto mask = CpuSet::parseMask(w);
                if (mask && w.find_first_not_of("0123456789abcdef,") == std::string::npos && w.size() >= 8) {
                    spans[cpu].push_back(*mask);
                    break;
                }
            }
        }
    }
    return spans;
}

// "{0-1} {2-3 mask=2 cap=1024}": spans in ring order, with what the kernel log prints of a group
// besides (the balance mask where it is not the span, a capacity other than one CPU's)
std::string groupList(const GroupRing& groups) {
    std::string out;
    for (const SchedGroup& g : groups) {
        out += (out.empty() ? "{" : " {") + g.span.toList();
        if (!(g.balanceMask == g.span)) out += " mask=" + g.balanceMask.toList();
        if (g.capacity != 1024 * static_cast<unsigned>(g.span.count())) out += " cap=" + std::to_string(g.capacity);
        out += "}";
    }
    return out;
}

}  // namespace

bool lostToRuntimePressure(unsigned full, unsigned logged) { return logged < full && (full - logged) * 10 < full; }

namespace {

// Capacity the kernel's log shows a CPU without, against what the builder gives it (the log's
// capacities are those of when the domains were built: update_group_capacity() takes
// scale_rt_capacity(), the CPU's capacity less its IRQ, RT and deadline time, so a CPU busy with
// interrupts at boot prints "0:{ span=0 cap=1011 }"). Indexed by CPU; empty when the log has none.
using RuntimePressure = std::vector<unsigned>;

// Read off the one-CPU groups of every printed CPU's lowest domain (its own and its siblings'):
// a deficit under a tenth of the CPU's capacity is taken as that pressure, the largest seen; a
// larger one is a real difference (a LITTLE core built as a big one) and stays reported. The
// pressure changes while the kernel prints (each CPU prints the groups' capacities of its own
// moment), so a CPU can show 1009 in its own block and 1024 in a sibling's; a CPU the log does
// not print (its start overwritten) shows only in its siblings' blocks.
RuntimePressure runtimePressure(const DomainTree& built, const DomainTree& kernel) {
    RuntimePressure pressure;
    const size_t n = built.cpus.size();
    for (size_t k = 0; k < kernel.cpus.size(); ++k) {
        const auto& b = kernel.domainsOf(static_cast<int>(k));
        if (b.empty()) continue;
        for (const SchedGroup& logged : b[0].groups) {
            const int c = logged.span.first();
            if (logged.span.count() != 1 || static_cast<size_t>(c) >= n) continue;
            const unsigned mine = built.cpus[static_cast<size_t>(c)].capacity;
            if (!lostToRuntimePressure(mine, logged.capacity)) continue;
            if (pressure.empty()) pressure.assign(n, 0);
            pressure[static_cast<size_t>(c)] = std::max(pressure[static_cast<size_t>(c)], mine - logged.capacity);
        }
    }
    return pressure;
}

unsigned pressureOver(const RuntimePressure& pressure, const CpuSet& span) {
    unsigned sum = 0;
    span.forEach([&](int c) {
        if (static_cast<size_t>(c) < pressure.size()) sum += pressure[static_cast<size_t>(c)];
    });
    return sum;
}

// the same groups in the same order, as far as a kernel log tells them apart (what groupList()
// prints), a group's capacity short by at most its CPUs' pressure: compared before anything is
// formatted, a 4096-CPU flat domain has 4096 groups per CPU. The pressure moves while the
// kernel prints (Juno's CPU 1 printed 1020 and 1021 of 1024, CPU 2 1023, and their group {1-2}
// 2044 and 2042), so a group may be short by half as much again as its CPUs' largest deficits
// seen add up to; a group short by more, or one of CPUs without any seen pressure, differs.
bool sameGroups(const GroupRing& a, const GroupRing& b, const RuntimePressure& pressure) {
    if (a.size() != b.size()) return false;
    for (size_t g = 0; g < a.size(); ++g) {
        if (!(a[g].span == b[g].span) || !(a[g].balanceMask == b[g].balanceMask)) return false;
        if (a[g].capacity == b[g].capacity) continue;
        const unsigned seen = pressure.empty() ? 0 : pressureOver(pressure, a[g].span);
        if (b[g].capacity > a[g].capacity || a[g].capacity - b[g].capacity > seen + seen / 2) return false;
    }
    return true;
}

std::string pressureNote(const RuntimePressure& pressure, const DomainTree& built) {
    std::string cpus;
    int shown = 0, count = 0;
    for (size_t c = 0; c < pressure.size(); ++c) {
        if (pressure[c] == 0) continue;
        ++count;
        if (shown++ >= 4) continue;
        const unsigned full = built.cpus[c].capacity;  // its own group's capacity (a CPU the log lacks has none)
        cpus += (cpus.empty() ? "" : ", ") + std::string("CPU ") + std::to_string(c) + " at " +
                std::to_string(full - pressure[c]) + " of " + std::to_string(full);
    }
    if (count > shown) cpus += " and " + std::to_string(count - shown) + " more";
    return "the log's capacities are those of when the kernel built its domains, less IRQ and RT time "
           "(scale_rt_capacity()): " + cpus + "; groups holding them may be short by as much";
}

}  // namespace

Result<DomainTree> readKernelDomains(const std::string& root) {
    const fs::path dir = fs::path(root) / "sys/kernel/debug/sched/domains";
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return Error{dir.string() +
                     ": not readable (needs root, debugfs mounted and sched_verbose on: "
                     "echo Y > /sys/kernel/debug/sched/verbose)"};
    DomainTree tree;
    tree.profile = &defaultProfile();
    auto spans = schedstatSpans(fs::path(root) / "proc/schedstat");
    int maxCpu = -1;
    std::map<int, std::vector<SchedDomain>> perCpu;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        int cpu = numbered(e.path().filename().string(), "cpu");
        if (cpu < 0 || cpu >= kMaxCpus) continue;
        maxCpu = std::max(maxCpu, cpu);
        std::vector<std::pair<int, SchedDomain>> doms;
        for (const auto& d : fs::directory_iterator(e.path(), ec)) {
            int level = numbered(d.path().filename().string(), "domain");
            if (level < 0) continue;
            SchedDomain sd;
            sd.level = readAttributeText(d.path() / "name");
            std::istringstream flags(readAttributeText(d.path() / "flags"));
            std::string f;
            while (flags >> f) sd.flags |= flagFromName(*tree.profile, f);
            doms.emplace_back(level, sd);
        }
        std::sort(doms.begin(), doms.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        auto& out = perCpu[cpu];
        for (size_t i = 0; i < doms.size(); ++i) {
            if (spans.count(cpu) && i < spans[cpu].size()) doms[i].second.span = spans[cpu][i];
            out.push_back(doms[i].second);
        }
    }
    if (maxCpu < 0) return Error{dir.string() + ": no cpuN directories"};
    tree.cpus.resize(static_cast<size_t>(maxCpu) + 1);
    for (int i = 0; i <= maxCpu; ++i) {
        tree.cpus[static_cast<size_t>(i)].cpu = i;
        if (perCpu.count(i)) tree.cpus[static_cast<size_t>(i)].domains = perCpu[i];
    }
    // Flag names tell the kernel generation: SD_SHARE_LLC is 6.9+.
    tree.profile = &defaultProfile();
    return tree;
}

CpuSet cpusNotInLog(const DomainTree& built, const DomainTree& kernel) {
    CpuSet out;
    if (!kernel.fromKernelLog) return out;
    for (const CpuDomains& c : built.cpus)
        if (c.cpu >= 0 && !c.domains.empty() && !kernel.builtFor.test(c.cpu) && !kernel.isolated.test(c.cpu)) out.set(c.cpu);
    return out;
}

std::vector<std::string> diffDomainTrees(const DomainTree& built, const DomainTree& kernel,
                                         std::vector<std::string>* notes, const CpuSet* only) {
    std::vector<std::string> diff;
    if (const CpuSet missing = only ? cpusNotInLog(built, kernel) & *only : cpusNotInLog(built, kernel); notes && !missing.empty())
        notes->push_back("not compared: cpus " + missing.toList() +
                         ", which the log printed no domains for (a log cut short, or cut to some CPUs)");
    const KernelProfile& p = built.profile ? *built.profile : defaultProfile();
    const RuntimePressure pressure = kernel.fromKernelLog ? runtimePressure(built, kernel) : RuntimePressure{};
    if (notes && !pressure.empty()) notes->push_back(pressureNote(pressure, built));
    size_t n = std::max(built.cpus.size(), kernel.cpus.size());
    for (size_t cpu = 0; cpu < n; ++cpu) {
        const auto& a = built.domainsOf(static_cast<int>(cpu));
        const auto& b = kernel.domainsOf(static_cast<int>(cpu));
        // a log knows the CPUs it printed; one cut to some CPUs says nothing of the others
        if (only && !only->test(static_cast<int>(cpu))) continue;
        const bool printed = kernel.builtFor.test(static_cast<int>(cpu)) || kernel.isolated.test(static_cast<int>(cpu));
        if (kernel.fromKernelLog && !printed) continue;
        std::string where = "cpu" + std::to_string(cpu);
        if (a.size() != b.size()) {
            auto names = [](const std::vector<SchedDomain>& d) {
                std::string s;
                for (const auto& x : d) s += (s.empty() ? "" : " ") + x.level;
                return s.empty() ? std::string("(none)") : s;
            };
            diff.push_back(where + ": levels differ: built " + names(a) + ", kernel " + names(b));
            continue;
        }
        for (size_t i = 0; i < a.size(); ++i) {
            std::string at = where + " domain-" + std::to_string(i) + " ";
            if (a[i].level != b[i].level) diff.push_back(at + "level: built " + a[i].level + ", kernel " + b[i].level);
            if (!b[i].span.empty() && !(a[i].span == b[i].span))
                diff.push_back(at + a[i].level + " span: built " + a[i].span.toList() + ", kernel " + b[i].span.toList());
            const uint32_t builtFlags = shownFlags(p, a[i].flags), kernelFlags = b[i].flags;
            if (!kernel.fromKernelLog && builtFlags != kernelFlags) {
                std::string only;
                for (const auto& f : flagNames(p, builtFlags & ~kernelFlags)) only += " +" + f;
                for (const auto& f : flagNames(p, kernelFlags & ~builtFlags)) only += " -" + f;
                diff.push_back(at + a[i].level + " flags differ (built vs kernel):" + only);
            }
            // a log prints every domain's groups: none read is a line missing from it
            if (kernel.fromKernelLog && !a[i].groups.empty() && b[i].groups.empty())
                diff.push_back(at + a[i].level + " groups: built " + groupList(a[i].groups) + ", the log printed none");
            if (!a[i].groups.empty() && !b[i].groups.empty() && !sameGroups(a[i].groups, b[i].groups, pressure)) {
                std::string line = at + a[i].level;
                line += " groups: built " + groupList(a[i].groups);
                line += ", kernel " + groupList(b[i].groups);
                diff.push_back(std::move(line));
            }
        }
    }
    return diff;
}

}  // namespace schedscope
