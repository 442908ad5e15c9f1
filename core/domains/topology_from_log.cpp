#include "domains/topology_from_log.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>

#include "domains/domain_builder.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "domains/sd_flags.h"

namespace schedscope {
namespace {

// The levels x86's and the generic (arm64) tables name; the other arches' (powerpc's CACHE and
// ASYM, s390's BOOK and DRAWER) mean masks this reading does not invert.
bool knownLevel(const std::string& name) {
    for (const char* n : {"SMT", "CLS", "MC", "DIE", "PKG", "NODE", "NUMA"})
        if (name == n) return true;
    return false;
}

const SchedDomain* named(const std::vector<SchedDomain>& ds, std::initializer_list<const char*> names) {
    for (const SchedDomain& d : ds)
        for (const char* n : names)
            if (d.level == n) return &d;
    return nullptr;
}

// the span of the level named so, or `otherwise` when the kernel pruned it
CpuSet spanOr(const std::vector<SchedDomain>& ds, const char* name, const CpuSet& otherwise) {
    const SchedDomain* d = named(ds, {name});
    return d ? d->span : otherwise;
}

bool isNuma(const SchedDomain& d) { return (d.flags & SD_NUMA) != 0; }

// What one CPU's domains say of its hardware. A level the kernel pruned had its child's span
// (sd_parent_degenerate() drops the parent), so a missing level takes the span below it.
struct CpuSpans {
    CpuSet smt, cluster, llc, node;
    std::vector<CpuSet> numa;  // the NUMA domains' spans, bottom-up
    CpuSet top;                // the widest span: the CPU's root domain, as far as it reaches
    unsigned capacity = 0;     // a CPU without a block: its group's in a sibling's lowest domain (0: none)
};

CpuSpans spansOf(int cpu, const std::vector<SchedDomain>& ds) {
    CpuSpans s;
    const CpuSet self = CpuSet::single(cpu);
    s.smt = spanOr(ds, "SMT", self);
    s.cluster = spanOr(ds, "CLS", s.smt);
    s.llc = spanOr(ds, "MC", s.cluster);
    // NODE and PKG/DIE (cpu_cpu_mask) both span the node; without either, the widest of the
    // levels below is the node (they were pruned for equalling it)
    s.node = self;
    for (const SchedDomain& d : ds)
        if (!isNuma(d)) s.node = d.span;
    if (const SchedDomain* n = named(ds, {"NODE", "PKG", "DIE"})) s.node = n->span;
    for (const SchedDomain& d : ds)
        if (isNuma(d)) s.numa.push_back(d.span);
    s.top = ds.empty() ? self : ds.back().span;
    return s;
}

struct UnionFind {
    std::vector<size_t> parent;
    explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), size_t{0}); }
    size_t find(size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(size_t a, size_t b) { parent[find(a)] = find(b); }
};

// The distance table the NUMA spans need. From node a, the nodes its k-th NUMA domain adds are
// all at one distance (the span of a level holds every node within its distance), and distances
// are symmetric: so (a, k) and (b, the level at which b sees a) are one distance. Those classes,
// ordered as each node's levels nest, become 20, 30, ... by their depth in that order: the fewest
// distinct distances (NUMA levels) that give every node its spans. Nodes no span joins (in
// different root domains) get one more distance, which no domain sees. Unsolvable orders (not
// from a symmetric table) fall back to each node's own ranks, made symmetric by the larger.
std::vector<std::vector<int>> rankDistances(const std::vector<CpuSet>& nodes, const std::vector<std::vector<CpuSet>>& numaSpans) {
    const size_t n = nodes.size();
    constexpr int kUnseen = -1;
    std::vector<std::vector<int>> rank(n, std::vector<int>(n, kUnseen));  // local NUMA level, 1-based
    std::vector<size_t> base(n + 1, 0);  // (a, k) -> base[a] + k - 1
    for (size_t a = 0; a < n; ++a) {
        base[a + 1] = base[a] + numaSpans[a].size();
        rank[a][a] = 0;
        for (size_t b = 0; b < n; ++b)
            for (size_t k = 0; k < numaSpans[a].size() && b != a; ++k)
                if (numaSpans[a][k].intersects(nodes[b])) {
                    rank[a][b] = static_cast<int>(k) + 1;
                    break;
                }
    }
    UnionFind classes(base[n]);
    for (size_t a = 0; a < n; ++a)
        for (size_t b = a + 1; b < n; ++b)
            if (rank[a][b] > 0 && rank[b][a] > 0)
                classes.unite(base[a] + static_cast<size_t>(rank[a][b] - 1), base[b] + static_cast<size_t>(rank[b][a] - 1));
    // depth of each class: its longest chain of "a's level k below a's level k+1" (Kahn's order
    // over the classes; one left out sits on a cycle, and a class below itself is one)
    const size_t classCount = base[n];
    std::vector<std::vector<size_t>> above(classCount);
    std::vector<int> below(classCount, 0), depth(classCount, 0);
    bool solved = true;
    for (size_t a = 0; a < n; ++a)
        for (size_t k = 1; k < numaSpans[a].size(); ++k) {
            const size_t lo = classes.find(base[a] + k - 1), hi = classes.find(base[a] + k);
            if (lo == hi) solved = false;
            above[lo].push_back(hi);
            ++below[hi];
        }
    std::vector<size_t> ready;
    for (size_t c = 0; c < classCount; ++c)
        if (below[c] == 0) ready.push_back(c);
    size_t ordered = 0;
    while (!ready.empty()) {
        const size_t c = ready.back();
        ready.pop_back();
        ++ordered;
        for (size_t up : above[c]) {
            depth[up] = std::max(depth[up], depth[c] + 1);
            if (--below[up] == 0) ready.push_back(up);
        }
    }
    if (ordered != classCount) solved = false;
    std::vector<std::vector<int>> level(n, std::vector<int>(n, -1));  // 0-based distance rank, -1 local
    int deepest = 0;
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) {
            if (a == b || rank[a][b] <= 0) continue;
            level[a][b] = solved ? depth[classes.find(base[a] + static_cast<size_t>(rank[a][b] - 1))]
                                 : std::max(rank[a][b], rank[b][a]) - 1;
            deepest = std::max(deepest, level[a][b]);
        }
    // steps of 10 while they fit in the SLIT's byte (up to 255); closer beyond
    const int step = std::max(1, std::min(10, 235 / (deepest + 2)));
    std::vector<std::vector<int>> d(n, std::vector<int>(n, 10));
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) {
            if (a == b) continue;
            const bool unseen = rank[a][b] <= 0 || rank[b][a] <= 0;
            const int l = unseen ? deepest + 1 : solved ? level[a][b] : std::max(level[a][b], level[b][a]);
            d[a][b] = 20 + step * l;
        }
    return d;
}

// Disjoint CPU sets joined where spans overlap: the root domains (no domain spans two of them).
std::vector<CpuSet> components(const std::vector<CpuSet>& spans) {
    std::vector<CpuSet> out;
    for (const CpuSet& s : spans) {
        CpuSet merged = s;
        std::vector<CpuSet> kept;
        for (CpuSet& c : out)
            if (c.intersects(merged)) merged |= c;
            else kept.push_back(std::move(c));
        kept.push_back(merged);
        out = std::move(kept);
    }
    std::sort(out.begin(), out.end(), [](const CpuSet& a, const CpuSet& b) { return a.first() < b.first(); });
    return out;
}

struct Reading {
    std::vector<CpuSpans> spans;  // by CPU; only built CPUs filled
    std::vector<CpuSet> nodes;    // by node id, ascending first CPU
    std::vector<int> nodeOf;      // by CPU, -1 when not built
    std::vector<CpuSet> roots;    // root domains (components), ascending first CPU
    bool nodeLevel = false;       // some CPU has a NODE domain: nodes inside packages
    CpuSet unprinted;             // CPUs the spans hold whose blocks the log lacks (fillUnprinted())
};

// A log whose start the ring buffer overwrote (a big machine's sched_verbose outgrows it) lacks
// the first CPUs' blocks while later CPUs' spans hold them. Such a CPU is read off the printed
// CPUs: the groups of a non-NUMA domain are its CPUs' spans one level down, non-NUMA spans are
// equal or disjoint across CPUs (so the SMT, CLS or MC span that holds it is its own), and a
// node's CPUs share their NUMA spans. Without a printed CPU of its node the log says too little.
// `built` grows by the CPUs filled in; `r.unprinted` lists them.
Status fillUnprinted(const DomainTree& log, Reading& r, CpuSet& built, const CpuSet& spanned, const std::string& where) {
    const CpuSet printed = built;
    r.unprinted = spanned.minus(printed);
    if (r.unprinted.empty()) return {};
    const size_t size = std::max(r.spans.size(), static_cast<size_t>(spanned.last()) + 1);
    r.spans.resize(size);
    r.nodeOf.resize(size, -1);
    std::string problem;
    r.unprinted.forEach([&](int cpu) {
        if (!problem.empty()) return;
        auto holding = [&](CpuSet CpuSpans::*span) -> const CpuSpans* {
            const CpuSpans* found = nullptr;
            printed.forEach([&](int y) {
                if (!found && (r.spans[static_cast<size_t>(y)].*span).test(cpu)) found = &r.spans[static_cast<size_t>(y)];
            });
            return found;
        };
        const CpuSpans* sameNode = holding(&CpuSpans::node);
        if (!sameNode) {
            problem = where + ": its domains span cpus " + spanned.toList() + " but it prints the domains of cpus " +
                      printed.toList() + " only, none on cpu" + std::to_string(cpu) +
                      "'s node: a topology needs a block of each node (is the log cut short?)";
            return;
        }
        // the group holding it in a printed CPU's domain whose child is `level`
        auto grouped = [&](const char* level) -> std::optional<CpuSet> {
            std::optional<CpuSet> found;
            printed.forEach([&](int y) {
                if (found || static_cast<size_t>(y) >= log.cpus.size()) return;
                const std::vector<SchedDomain>& ds = log.cpus[static_cast<size_t>(y)].domains;
                for (size_t i = 1; i < ds.size() && !found; ++i) {
                    if (isNuma(ds[i]) || ds[i - 1].level != level) continue;
                    for (const SchedGroup& g : ds[i].groups)
                        if (g.span.test(cpu)) found = g.span;
                }
            });
            return found;
        };
        // The group holding it in a printed CPU's lowest domain, when that group is several
        // CPUs: the span of a level below, which that CPU lacks (it degenerated there: its SMT
        // sibling offline), and this one has. Below CLS that is SMT; below MC a pair is SMT
        // threads (x86's and arm64's SMT is 2-way; wider groups are clusters).
        auto lowestGroup = [&](bool smtLevel) -> std::optional<CpuSet> {
            std::optional<CpuSet> found;
            printed.forEach([&](int y) {
                if (found || static_cast<size_t>(y) >= log.cpus.size()) return;
                const std::vector<SchedDomain>& ds = log.cpus[static_cast<size_t>(y)].domains;
                if (ds.empty() || isNuma(ds.front()) || (ds.front().level != "CLS" && ds.front().level != "MC")) return;
                for (const SchedGroup& g : ds.front().groups) {
                    if (!g.span.test(cpu) || g.span.count() < 2) continue;
                    const bool smtBelow = ds.front().level == "CLS" || g.span.count() == 2;
                    if (smtBelow == smtLevel) found = g.span;
                }
            });
            return found;
        };
        CpuSpans s;
        const CpuSpans* smt = holding(&CpuSpans::smt);
        s.smt = smt ? smt->smt : grouped("SMT").value_or(lowestGroup(true).value_or(CpuSet::single(cpu)));
        const CpuSpans* cluster = holding(&CpuSpans::cluster);
        s.cluster = cluster ? cluster->cluster : grouped("CLS").value_or(lowestGroup(false).value_or(s.smt));
        const CpuSpans* llc = holding(&CpuSpans::llc);
        s.llc = llc ? llc->llc : grouped("MC").value_or(s.cluster);
        s.node = sameNode->node;
        s.numa = sameNode->numa;
        s.top = sameNode->top;
        printed.forEach([&](int y) {  // a lowest domain's groups are single CPUs, with their capacity
            if (s.capacity || static_cast<size_t>(y) >= log.cpus.size() || log.cpus[static_cast<size_t>(y)].domains.empty()) return;
            for (const SchedGroup& g : log.cpus[static_cast<size_t>(y)].domains.front().groups)
                if (g.span.count() == 1 && g.span.test(cpu)) s.capacity = g.capacity;
        });
        r.spans[static_cast<size_t>(cpu)] = std::move(s);
    });
    if (!problem.empty()) return Error{problem};
    built |= r.unprinted;
    return {};
}

Result<Reading> readSpans(const DomainTree& log, const std::string& where) {
    Reading r;
    r.spans.resize(log.cpus.size());
    r.nodeOf.assign(log.cpus.size(), -1);
    std::vector<CpuSet> tops;
    bool anyNuma = false;
    CpuSet built;
    for (const CpuDomains& c : log.cpus) {
        if (c.cpu < 0 || c.domains.empty()) continue;
        for (const SchedDomain& d : c.domains)
            if (!knownLevel(d.level))
                return Error{where + ": level " + d.level + " of cpu" + std::to_string(c.cpu) +
                             ": a topology is read only from x86 and arm64 levels (SMT, CLS, MC, PKG/DIE, NODE, NUMA)"};
        // spans hold their CPU and nest, as the kernel builds them (a log's groups may not
        // cover their domain, 5.6's NUMA ERROR; only the spans are read)
        for (size_t i = 0; i < c.domains.size(); ++i) {
            const SchedDomain& d = c.domains[i];
            const bool holdsCpu = d.span.test(c.cpu), nests = i == 0 || c.domains[i - 1].span.isSubsetOf(d.span);
            if (holdsCpu && nests) continue;
            std::string which = where;  // named only when it fails: a 4096-CPU log has 4096 blocks
            which += ": cpu" + std::to_string(c.cpu) + "'s " + d.level + " span " + d.span.toList();
            if (!holdsCpu) return Error{which + " does not hold the CPU"};
            return Error{which + " does not hold the span below it (" + c.domains[i - 1].span.toList() + ")"};
        }
        CpuSpans s = spansOf(c.cpu, c.domains);
        anyNuma = anyNuma || !s.numa.empty();
        r.nodeLevel = r.nodeLevel || named(c.domains, {"NODE"});
        tops.push_back(s.top);
        built.set(c.cpu);
        r.spans[static_cast<size_t>(c.cpu)] = std::move(s);
    }
    // a CPU alone in its root domain has no domains: it is printed, so it is online
    (log.builtFor.minus(built)).forEach([&](int cpu) {
        if (static_cast<size_t>(cpu) >= r.spans.size()) return;
        r.spans[static_cast<size_t>(cpu)] = spansOf(cpu, {});
        tops.push_back(CpuSet::single(cpu));
        built.set(cpu);
    });
    if (built.empty()) return Error{where + ": no CPU with sched domains in the log: nothing to read a topology from"};
    CpuSet spanned;
    for (const CpuSet& top : tops) spanned |= top;
    if (auto filled = fillUnprinted(log, r, built, spanned, where); !filled) return Error{filled.error()};
    r.roots = components(tops);
    // Without NUMA domains anywhere the machine is one node (its PKG spans, cut to each root
    // domain, are the root domains); otherwise each CPU's node span
    built.forEach([&](int cpu) {
        const CpuSet node = anyNuma ? r.spans[static_cast<size_t>(cpu)].node : built;
        auto at = std::find(r.nodes.begin(), r.nodes.end(), node);
        if (at == r.nodes.end()) {
            for (const CpuSet& other : r.nodes)
                if (other.intersects(node))
                    return;  // reported below: this CPU stays without a node
            at = r.nodes.insert(r.nodes.end(), node);
        }
        r.nodeOf[static_cast<size_t>(cpu)] = static_cast<int>(at - r.nodes.begin());
    });
    for (int cpu = 0; cpu < static_cast<int>(r.nodeOf.size()); ++cpu)
        if (built.test(cpu) && r.nodeOf[static_cast<size_t>(cpu)] < 0)
            return Error{where + ": cpu" + std::to_string(cpu) + "'s node span (" +
                         r.spans[static_cast<size_t>(cpu)].node.toList() +
                         ") overlaps another CPU's: no machine's nodes do that"};
    return r;
}

// What a package holds, which a log shows only through x86's NODE level (nodes inside a package
// make it drop PKG): the node itself, the lowest NUMA span (Naples' sockets: their dies are
// nodes one hop apart), or the whole root domain.
enum class PackageSpan { Node, LowestNumaSpan, RootDomain };

// Whether every CPU's lowest NUMA span is a package: some, and equal or disjoint across CPUs.
bool lowestNumaSpansPartition(const Reading& r) {
    std::vector<CpuSet> seen;
    for (size_t cpu = 0; cpu < r.spans.size(); ++cpu) {
        if (r.nodeOf[cpu] < 0) continue;
        if (r.spans[cpu].numa.empty()) return false;
        const CpuSet& s = r.spans[cpu].numa.front();
        for (const CpuSet& o : seen)
            if (o != s && o.intersects(s)) return false;
        if (std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
    }
    return true;
}

// A printed capacity is the CPU's own (arch_scale_cpu_capacity()) less the time interrupts and
// RT tasks took while the domains were built: 1020 on a big CPU, 444 to 446 on Juno's LITTLE
// ones. The kernel's own asymmetry check reads the CPUs' own, so capacities within a tenth
// under a larger printed one are that one (the largest of its kind; 1024 for the biggest
// CPUs), or a LITTLE cluster reads as asymmetric where the kernel said "CPUs do not have
// asymmetric capacities".
void capacitiesOfTheirKind(Topology& t) {
    std::vector<unsigned> printed;
    for (const auto& c : t.cpus)
        if (c.online) printed.push_back(c.capacity);
    std::sort(printed.begin(), printed.end(), std::greater<>());
    std::vector<unsigned> kinds;  // the top of each run of capacities within a tenth of it
    for (unsigned cap : printed)
        if (kinds.empty() || (cap != kinds.back() && !lostToRuntimePressure(kinds.back(), cap))) kinds.push_back(cap);
    if (!kinds.empty() && lostToRuntimePressure(1024, kinds.front())) kinds.front() = 1024;
    for (auto& c : t.cpus) {
        if (!c.online) continue;
        for (unsigned kind : kinds)
            if (c.capacity == kind || lostToRuntimePressure(kind, c.capacity)) {
                c.capacity = kind;
                break;
            }
    }
}

Topology topologyOf(const DomainTree& log, const Reading& r, Arch arch, PackageSpan package, const std::string& where) {
    Topology t;
    t.name = std::filesystem::path(where).filename().string();
    t.source = "kernel log " + where;
    t.arch = arch;
    t.cpus.resize(r.spans.size());
    for (size_t i = 0; i < r.nodes.size(); ++i) t.nodes.push_back({static_cast<int>(i), r.nodes[i], false});
    std::vector<std::vector<CpuSet>> numa(r.nodes.size());
    for (size_t i = 0; i < r.nodes.size(); ++i) numa[i] = r.spans[static_cast<size_t>(r.nodes[i].first())].numa;
    t.distance = rankDistances(r.nodes, numa);
    auto rootOf = [&](int cpu) {
        for (const CpuSet& root : r.roots)
            if (root.test(cpu)) return root;
        return CpuSet::single(cpu);
    };
    for (size_t i = 0; i < t.cpus.size(); ++i) {
        CpuTopology& c = t.cpus[i];
        c.id = static_cast<int>(i);
        c.online = false;
        const int node = r.nodeOf[i];
        if (node < 0) continue;
        const CpuSpans& s = r.spans[i];
        c.online = true;
        c.node = node;
        c.threadSiblings = s.smt;
        c.clusterCpus = s.cluster;
        c.packageCpus = package == PackageSpan::Node ? s.node : package == PackageSpan::LowestNumaSpan ? s.numa.front() : rootOf(c.id);
        c.coreSiblings = c.dieCpus = c.packageCpus;
        c.coreId = s.smt.first();
        c.clusterId = s.cluster.first();
        c.packageId = c.dieId = c.packageCpus.first();
        c.caches = {{1, "Data", s.smt}, {2, "Unified", s.cluster}, {3, "Unified", s.llc}};
        c.capacity = s.capacity ? s.capacity : i < log.cpus.size() ? log.cpus[i].capacity : 1024u;
    }
    capacitiesOfTheirKind(t);
    // isolated CPUs (attached to NULL): online, no domains; their hardware is unknown, so each
    // stands alone, in the node of the nearest CPU below it (or above)
    log.isolated.forEach([&](int cpu) {
        if (static_cast<size_t>(cpu) >= t.cpus.size() || t.cpus[static_cast<size_t>(cpu)].online) return;
        int near = -1;
        for (int d = 1; d < static_cast<int>(t.cpus.size()) && near < 0; ++d)
            for (int probe : {cpu - d, cpu + d})
                if (probe >= 0 && probe < static_cast<int>(r.nodeOf.size()) && r.nodeOf[static_cast<size_t>(probe)] >= 0) {
                    near = probe;
                    break;
                }
        if (near < 0) return;
        CpuTopology& c = t.cpus[static_cast<size_t>(cpu)];
        c.online = true;
        c.node = r.nodeOf[static_cast<size_t>(near)];
        c.threadSiblings = c.clusterCpus = c.packageCpus = c.coreSiblings = c.dieCpus = CpuSet::single(cpu);
        c.coreId = c.clusterId = c.packageId = c.dieId = cpu;
        c.caches = {{1, "Data", c.threadSiblings}};
        t.nodes[static_cast<size_t>(c.node)].cpus.set(cpu);
        t.isolated.set(cpu);
    });
    for (size_t i = 1; i < r.roots.size(); ++i) t.rootPartitions.push_back(r.roots[i]);
    // packages numbered 0, 1, ... in the order of their first CPUs, as a machine's sysfs numbers
    // them (the firmware's ids are not in a log)
    std::map<int, int> ordinal;
    for (const CpuTopology& c : t.cpus)
        if (c.online) ordinal.emplace(c.packageId, 0);
    int next = 0;
    for (auto& [first, id] : ordinal) id = next++;
    for (CpuTopology& c : t.cpus)
        if (c.online) c.packageId = c.dieId = ordinal[c.packageId];
    return t;
}

std::string cpusNamed(const CpuSet& cpus) { return (cpus.count() == 1 ? "cpu " : "cpus ") + cpus.toList(); }
// the verb after cpusNamed(): "cpu 1 has", "cpus 1-3 have"
const char* has(const CpuSet& cpus) { return cpus.count() == 1 ? " has" : " have"; }
const char* is(const CpuSet& cpus) { return cpus.count() == 1 ? " is" : " are"; }

}  // namespace

Result<TopologyFromLog> topologyFromKernelLog(const DomainTree& log, const std::string& where,
                                              const TopologyFromLogOptions& options) {
    auto reading = readSpans(log, where);
    if (!reading) return Error{reading.error()};
    const KernelProfile* profile = options.profile;
    if (!profile && !log.logProfile.empty()) profile = findProfile(log.logProfile);
    if (!profile) profile = &defaultProfile();

    // the arch the user named, else the one the log's banner or boot lines show, else either
    std::vector<Arch> arches = options.arch    ? std::vector<Arch>{*options.arch}
                               : log.logArch ? std::vector<Arch>{*log.logArch}
                                             : std::vector<Arch>{Arch::X86_64, Arch::Arm64};
    // nodes inside a package are what gives x86 its NODE level; without one the package is the node
    std::vector<PackageSpan> packages{PackageSpan::Node, PackageSpan::RootDomain};
    if (reading->nodeLevel) {
        packages = {PackageSpan::RootDomain, PackageSpan::Node};
        if (lowestNumaSpansPartition(*reading)) packages.insert(packages.begin(), PackageSpan::LowestNumaSpan);
    }

    std::optional<TopologyFromLog> best;
    std::string firstProblem;
    for (PackageSpan package : packages)
        for (Arch arch : arches) {
            TopologyFromLog candidate;
            candidate.topology = topologyOf(log, *reading, arch, package, where);
            candidate.profile = profile;
            DomainBuildOptions build;
            build.arch = arch;
            build.profile = profile;
            auto rebuilt = buildDomains(candidate.topology, build);  // checks the topology first
            if (!rebuilt) {
                if (firstProblem.empty()) firstProblem = rebuilt.error();
                continue;
            }
            candidate.differences = diffDomainTrees(*rebuilt, log, &candidate.notes);
            if (!best || candidate.differences.size() < best->differences.size()) best = std::move(candidate);
            if (best->differences.empty()) break;
        }
    if (!best) return Error{where + ": the topology read from it is inconsistent: " + firstProblem};

    Topology& t = best->topology;
    std::vector<std::string>& notes = best->notes;
    notes.insert(notes.begin(), std::string(best->differences.empty() ? "rebuilt identical to the log" : "rebuilt with " +
                                 std::to_string(best->differences.size()) + " difference(s) from the log") +
                                    " with " + archName(t.arch) + " rules for " + profile->name);
    if (t.nodes.size() > 1)
        notes.push_back("NUMA distances are ranks (20, 30, ...) in the order the NUMA spans nest: a log has no distances");
    CpuSet offline;
    for (const CpuTopology& c : t.cpus)
        if (!c.online) offline.set(c.id);
    if (!offline.empty())
        notes.push_back(cpusNamed(offline) + has(offline) + " no domains in the log: taken as offline (a CPU isolated by "
                        "isolcpus= is not printed either)");
    if (!reading->unprinted.empty())
        notes.push_back(cpusNamed(reading->unprinted) + has(reading->unprinted) + " no block in the log (its start overwritten?) but" +
                        is(reading->unprinted) + " in "
                        "its spans: read off the printed CPUs' spans and groups");
    std::map<unsigned, CpuSet> roundedUp;  // by the capacity taken
    for (size_t i = 0; i < t.cpus.size(); ++i)
        if (i < log.cpus.size() && t.cpus[i].online && log.cpus[i].capacity > 0 && t.cpus[i].capacity > log.cpus[i].capacity &&
            !t.isolated.test(t.cpus[i].id))
            roundedUp[t.cpus[i].capacity].set(static_cast<int>(i));
    for (auto it = roundedUp.rbegin(); it != roundedUp.rend(); ++it)
        notes.push_back(cpusNamed(it->second) + " printed a capacity within a tenth under " + std::to_string(it->first) +
                        " (interrupt time while the domains were built): taken as " + std::to_string(it->first));
    t.source += ": " + notes.front();
    return std::move(*best);
}

Result<TopologyFromLog> loadTopologyFromKernelLog(const std::string& path, const TopologyFromLogOptions& options) {
    auto log = readKernelLog(path);
    if (!log) return Error{log.error()};
    auto t = topologyFromKernelLog(*log, kernelLogName(path), options);
    if (!t) return t;
    for (const std::string& d : t->differences) t->topology.notes.push_back("differs from the log: " + d);
    return t;
}

}  // namespace schedscope
