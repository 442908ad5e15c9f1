#pragma once
// Reads the running kernel's own sched domains so the builder can be compared with them:
// names and flags from debugfs (/sys/kernel/debug/sched/domains/cpuN/domainM/{name,flags}, which
// exists when sched_verbose is on) and spans from /proc/schedstat when it lists them.
// The kernel does not export groups there; domains read this way have none.
#include <string>
#include <vector>

#include "domains/domain_tree.h"

namespace schedscope {

// `root` is "/" for this machine, or a directory with the same layout (tests, snapshots).
Result<DomainTree> readKernelDomains(const std::string& root);

// One line per difference (level names, spans, flags) between a built tree and the kernel's;
// groups are compared only when both sides have them. A kernel log's group capacities are taken
// less the IRQ/RT time its CPUs had when the kernel built them (read off each CPU's own group,
// under a tenth of its capacity): that is no difference, and `notes` (when given) says so.
// Whether a kernel log's capacity `logged` of a CPU whose own is `full` is that capacity less the
// IRQ and RT time the CPU had while the kernel built its domains (scale_rt_capacity()): lower,
// by under a tenth. An asymmetric CPU differs by more.
bool lostToRuntimePressure(unsigned full, unsigned logged);

// `only`, when given: compare these CPUs alone.
std::vector<std::string> diffDomainTrees(const DomainTree& built, const DomainTree& kernel,
                                         std::vector<std::string>* notes = nullptr, const CpuSet* only = nullptr);
// The CPUs of `built` a kernel log printed no domains for (a log cut short, or cut to some CPUs),
// which a diff cannot compare and its notes name; none for the running kernel's tree.
CpuSet cpusNotInLog(const DomainTree& built, const DomainTree& kernel);

}  // namespace schedscope
