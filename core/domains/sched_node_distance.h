#pragma once
// The node distances sched_init_numa() builds the NUMA levels from: the SLIT's node_distance(),
// or what the arch's arch_sched_node_distance() makes of it (6.19+). Only x86 has one: on
// Granite Rapids and Clearwater Forest with SNC-3 the distances to a remote package's three
// nodes differ, and the plain table gives each node its own lopsided NUMA levels.
#include <string>
#include <vector>

#include "domains/profile.h"
#include "topology/topology.h"

namespace schedscope {

// [i][j] over t.nodes positions. What the kernel prints about it goes to `warnings` (a table
// not of the form SNC gives, more packages than the 6.19 rewrite expects) and `notes` (the
// fix-up applied).
std::vector<std::vector<int>> schedNodeDistances(const Topology& t, const KernelProfile& p,
                                                 std::vector<std::string>& warnings, std::vector<std::string>& notes);

// topology_num_nodes_per_package() (7.0+): the nodes the firmware lists over the packages,
// rounded up, however the CPUs fall in them (memory-only nodes count; nodes whose CPUs the
// source hides do not, as their packages are not counted either)
int nodesPerPackage(const Topology& t);

}  // namespace schedscope
