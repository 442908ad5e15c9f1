#include "domains/sched_node_distance.h"

#include <algorithm>

namespace schedscope {
namespace {

constexpr int kRemoteDistance = 20;  // REMOTE_DISTANCE

// the CPUs x86's arch_sched_node_distance() rewrites the distances for: INTEL_GRANITERAPIDS_X
// (IFM(6, 0xAD)) and INTEL_ATOM_DARKMONT_X, Clearwater Forest (IFM(6, 0xDD))
bool rewritesDistances(const Topology& t) {
    return t.arch == Arch::X86_64 && (t.isIntelModel(6, 0xAD) || t.isIntelModel(6, 0xDD));
}

// 6.19's avg_remote_numa_distance(): the mean, rounded down, of every distance of
// REMOTE_DISTANCE or more between two nodes with CPUs
int averageRemoteDistance(const Topology& t) {
    long total = 0, count = 0;
    for (const NumaNode& a : t.nodes)
        for (const NumaNode& b : t.nodes) {
            if (a.cpus.empty() || b.cpus.empty()) continue;
            const int d = t.nodeDistance(a.id, b.id);
            if (d < kRemoteDistance) continue;
            total += d;
            ++count;
        }
    return count ? static_cast<int>(total / count) : kRemoteDistance;
}

// the package of a node's CPUs (by its first CPU), -1 for none, -2 when they span several
int packageOfNode(const Topology& t, int node) {
    int pkg = -1;
    bool mixed = false;
    t.nodeCpus(node).forEach([&](int cpu) {
        const int id = t.cpus[static_cast<size_t>(cpu)].packageCpus.first();
        if (pkg == -1) pkg = id;
        if (pkg != id) mixed = true;
    });
    return mixed ? -2 : pkg;
}

// 7.0's slit_validate(): the table has the form SNC gives it when package p's nodes are
// p*u .. p*u+u-1 ("on-trace" clusters of u nodes), each cluster's distances are symmetric and
// its CPUs are in one package, a different one from the cluster before.
bool slitHasSncForm(const Topology& t, int u) {
    int previous = -1;
    for (int pkg = 0; pkg < t.packageCount(); ++pkg) {
        const int first = pkg * u;
        for (int k = 0; k < u; ++k)
            for (int l = k; l < u; ++l)
                if (t.nodeDistance(first + k, first + l) != t.nodeDistance(first + l, first + k)) return false;
        int cluster = -1;
        for (int n = 0; n < u; ++n) {
            const int p = packageOfNode(t, first + n);
            if (p == -2 || (p >= 0 && cluster >= 0 && p != cluster)) return false;
            if (p >= 0) cluster = p;
        }
        if (cluster < 0 || (pkg > 0 && cluster == previous)) return false;
        previous = cluster;
    }
    return true;
}

// 7.0's slit_cluster_distance(): nodes of one package keep their distance; between two
// packages every pair gets the mean, rounded down, of both directions over the packages' nodes
int slitClusterDistance(const Topology& t, int u, int i, int j) {
    if (i / u == j / u) return t.nodeDistance(i, j);
    const int x = i - i % u, y = j - j % u;
    long sum = 0;
    for (int a = x; a < x + u; ++a)
        for (int b = y; b < y + u; ++b) sum += t.nodeDistance(a, b) + t.nodeDistance(b, a);
    return static_cast<int>(sum / (2L * u * u));
}

}  // namespace

int nodesPerPackage(const Topology& t) {
    // x86's num_phys_nodes(): the nodes the SRAT gives CPUs (numa_phys_nodes_parsed is set by
    // its processor affinity entries only), so memory-only nodes (CXL, a QEMU memdev node) do
    // not count: a 7.2 kernel with a memory-only third node on two sockets printed "Max. logical
    // nodes: 2" and kept PKG. A source that hides some CPUs hides their packages too, so their
    // nodes are left out with them.
    const int packages = std::max(1, t.packageCount());
    const int nodes = std::max(1, static_cast<int>(std::count_if(t.nodes.begin(), t.nodes.end(),
                                                                 [](const NumaNode& n) { return !n.cpus.empty(); })));
    return (nodes + packages - 1) / packages;
}

std::vector<std::vector<int>> schedNodeDistances(const Topology& t, const KernelProfile& p,
                                                 std::vector<std::string>& warnings, std::vector<std::string>& notes) {
    const size_t n = t.nodes.size();
    std::vector<std::vector<int>> table(n, std::vector<int>(n));
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) table[i][j] = t.nodeDistance(t.nodes[i].id, t.nodes[j].id);
    if (p.x86SncDistances == X86SncDistances::Slit || !rewritesDistances(t) || t.packageCount() == 1) return table;

    if (p.x86SncDistances == X86SncDistances::AverageRemote) {
        if (!t.hasNodesInPackage()) return table;
        if (t.packageCount() > 2)
            warnings.push_back("sched: Expect only up to 2 packages for GNR or CWF, but saw " +
                            std::to_string(t.packageCount()) + " packages when building sched domains.");
        const int average = averageRemoteDistance(t);
        for (auto& row : table)
            for (int& d : row)
                if (d >= kRemoteDistance) d = average;
        notes.push_back("x86 (Granite Rapids / Clearwater Forest with nodes in a package): the NUMA levels are "
                        "built with every distance of 20 or more as their mean, " + std::to_string(average));
        return table;
    }

    const int u = nodesPerPackage(t);
    if (u < 3) return table;  // SNC-2 and fewer nodes keep their table
    if (!slitHasSncForm(t, u)) {
        warnings.push_back("[Firmware Bug]: SLIT table doesn't have the expected form for SNC -- fixup disabled!");
        return table;
    }
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) table[i][j] = slitClusterDistance(t, u, t.nodes[i].id, t.nodes[j].id);
    notes.push_back("Fixing up SNC SLIT table: the NUMA levels are built with the distances between two packages "
                    "averaged over their " + std::to_string(u) + " nodes each (x86, SNC-3)");
    return table;
}

}  // namespace schedscope
