#pragma once
// Renderings of a DomainTree: JSON (schedscope's schema), the kernel's sched_verbose boot log,
// and a compact human table.
#include <ostream>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "domains/domain_tree.h"

namespace schedscope {

// {"profile":..., "arch":..., "cpus":[{"cpu":0,"domains":[{"level","span","flags","groups",...}]}]}
nlohmann::json domainTreeToJson(const DomainTree& tree);
// The same document as domainTreeToJson(tree).dump(2), written one CPU at a time: a flat
// 4096-CPU package lists 16M groups, a DOM of them needs ~10 GB, this one CPU's worth.
void writeDomainTreeJson(std::ostream& out, const DomainTree& tree);
// The kernel's sched_verbose boot log of these domains: per root domain, "CPU0 attaching
// sched-domain(s):\n domain-0: span=0-1 level=SMT\n  groups: 0:{ span=0 }, ..." for each of its
// CPUs, then "root domain span: 0-15 (max cpu_capacity = 1024)" (no capacity since 6.10).
std::string domainTreeToKernelLog(const DomainTree& tree);
// One line per CPU and level, for terminals.
std::string domainTreeToText(const DomainTree& tree);

}  // namespace schedscope
