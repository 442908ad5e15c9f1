#include "sim_topologies.h"

#include <gtest/gtest.h>

#include "topology/topology_source.h"
#include "workload/workload_spec.h"

namespace schedscope::test {

Topology preset(const std::string& name) {
    auto t = loadTopology({TopologySpec::Kind::Preset, name});
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error());
    return t.ok() ? std::move(*t) : Topology{};
}

Topology makeTopology(const std::string& name, const Shape& s) {
    Topology t;
    t.name = name;
    t.source = "built by tests/sim/sim_topologies.cpp";
    t.arch = s.arch;
    t.nodeReclaimDistance = s.reclaimDistance;
    const int perCluster = s.coresPerCluster * s.threads;
    const int perLlc = perCluster * s.clustersPerLlc;
    const int perNode = perLlc * s.llcsPerNode;
    const int perPkg = perNode * s.nodesPerPackage;
    const int n = perPkg * s.packages;
    auto block = [](int cpu, int size) { return CpuSet::range(cpu - cpu % size, cpu - cpu % size + size - 1); };
    for (int c = 0; c < n; ++c) {
        CpuTopology ct;
        ct.id = c;
        ct.node = c / perNode;
        ct.packageId = c / perPkg;
        ct.dieId = ct.packageId;
        ct.clusterId = (c % perPkg) / perCluster;
        ct.coreId = (c % perPkg) / s.threads;
        ct.threadSiblings = block(c, s.threads);
        // x86 exports the L2 sharers as cluster_cpus; arm64 the firmware cluster
        ct.clusterCpus = s.arch == Arch::X86_64 ? ct.threadSiblings : block(c, perCluster);
        ct.coreSiblings = block(c, perPkg);
        ct.dieCpus = ct.coreSiblings;
        ct.packageCpus = ct.coreSiblings;
        ct.caches = {{1, "Data", ct.threadSiblings}, {2, "Unified", ct.threadSiblings}, {3, "Unified", block(c, perLlc)}};
        t.cpus.push_back(ct);
    }
    const int nodes = s.packages * s.nodesPerPackage;
    for (int i = 0; i < nodes; ++i) t.nodes.push_back({i, CpuSet::range(i * perNode, i * perNode + perNode - 1)});
    t.distance = s.distance;
    if (t.distance.empty()) {
        t.distance.assign(static_cast<size_t>(nodes), std::vector<int>(static_cast<size_t>(nodes), 20));
        for (int i = 0; i < nodes; ++i) t.distance[static_cast<size_t>(i)][static_cast<size_t>(i)] = 10;
    }
    return t;
}

const Topology& twoNodesOfTwoCores() {
    static const Topology topo = [] {
        Shape shape;
        shape.packages = 2;
        shape.coresPerCluster = 2;
        return makeTopology("2 nodes of 2 cores", shape);
    }();
    return topo;
}

Topology kunpeng920_24() { return preset("kunpeng920-24"); }

Topology epyc7601_2s() { return preset("epyc7601-2s"); }

DomainTree buildTree(const Topology& t, const std::string& profile, bool cls, bool node) {
    DomainBuildOptions o;
    o.arch = t.arch;
    o.profile = findProfile(profile);
    EXPECT_NE(o.profile, nullptr) << profile;
    o.cls = cls;
    o.node = node;
    auto tree = buildDomains(t, o);
    EXPECT_TRUE(tree.ok()) << (tree.ok() ? "" : tree.error());
    return tree.ok() ? std::move(*tree) : DomainTree{};
}

std::unique_ptr<sim::SimState> runSpec(const Topology& topo, const std::string& profile, const std::string& spec,
                                       double seconds) {
    const DomainTree tree = buildTree(topo, profile, true, true);
    auto wl = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
    EXPECT_TRUE(wl.ok()) << (wl.ok() ? "" : wl.error());
    if (!wl.ok()) return nullptr;
    sim::SimOptions o;
    o.durationS = seconds;
    auto st = sim::simulate(topo, tree, *wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    return st.ok() ? std::move(*st) : nullptr;
}

TestRun startRun(const Topology& topo, const std::string& profile, const workload::Workload& wl, double seconds,
                 double numaMemoryFollowsS) {
    TestRun run;
    run.tree = std::make_unique<DomainTree>(buildTree(topo, profile, true, true));
    sim::SimOptions opt;
    opt.durationS = seconds;
    opt.numaMemoryFollowsS = numaMemoryFollowsS;
    opt.samplePeriodS = seconds / 4;
    auto sim = sim::Simulation::create(topo, *run.tree, wl, opt);
    EXPECT_TRUE(sim.ok()) << (sim.ok() ? "" : sim.error());
    if (sim.ok()) run.sim = std::move(*sim);
    return run;
}

}  // namespace schedscope::test
