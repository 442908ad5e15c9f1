#pragma once
// Topologies for the simulator tests: the real-machine presets of resources/topologies/ for the
// seed scenarios, and small regular shapes built here for policy unit tests.
#include <memory>

#include "domains/domain_builder.h"
#include "sim/simulator.h"
#include "topology/topology.h"

namespace schedscope::test {

struct Shape {
    Arch arch = Arch::Arm64;
    int packages = 1, nodesPerPackage = 1, llcsPerNode = 1, clustersPerLlc = 1, coresPerCluster = 1, threads = 1;
    std::vector<std::vector<int>> distance;  // empty: 10 local / 20 remote
    int reclaimDistance = 30;
};
// Builds the masks sysfs would export for a regular machine of that shape (CPU ids sequential,
// SMT siblings adjacent).
Topology makeTopology(const std::string& name, const Shape& shape);

// 2 NUMA nodes of 2 cores (CPUs 0-1 and 2-3), distance 20; built once, so a run's state may
// point at it
const Topology& twoNodesOfTwoCores();
// Kunpeng 920, 24 cores per node: 2 sockets x 2 nodes x 6 clusters of 4 cores, L3 per node.
Topology kunpeng920_24();
// A built-in preset by name (fails the test when it does not load).
Topology preset(const std::string& name);
// AMD EPYC 7601 2S "Naples": 2 sockets x 4 nodes x 2 CCX (L3) of 4 cores x SMT2 = 128 CPUs.
Topology epyc7601_2s();

DomainTree buildTree(const Topology& t, const std::string& profile, bool cls, bool node);

// A whole run of a workload spec (workload_spec.h) on `topo` under `profile` (CLS and NODE on)
// for `seconds`; null (and the test failed) when it could not run.
std::unique_ptr<sim::SimState> runSpec(const Topology& topo, const std::string& profile, const std::string& spec,
                                       double seconds);

// A run of `wl` on `topo` under `profile` (CLS and NODE on) for `seconds`, to step through or
// inspect, with the domain tree it runs on. `sim` is null (and the test failed) when it could
// not start. `numaMemoryFollowsS` as SimOptions' (the default's 1 s).
struct TestRun {
    std::unique_ptr<DomainTree> tree;
    std::unique_ptr<sim::Simulation> sim;
};
TestRun startRun(const Topology& topo, const std::string& profile, const workload::Workload& wl, double seconds,
                 double numaMemoryFollowsS = 1.0);
// the run points into both: temporaries would dangle
TestRun startRun(Topology&&, const std::string&, const workload::Workload&, double, double = 1.0) = delete;
TestRun startRun(const Topology&, const std::string&, workload::Workload&&, double, double = 1.0) = delete;

}  // namespace schedscope::test
