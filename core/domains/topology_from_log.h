#pragma once
// A machine one only has a sched_verbose log of (a bug report's dmesg, a serial console capture):
// the topology its domains say it has, so it can be explored and simulated like any other. The
// log gives spans, not hardware: SMT siblings, cluster, LLC and node are read off the SMT, CLS,
// MC and PKG/DIE/NODE spans, NUMA distances are ranks (20, 30, ...) ordered as the NUMA spans
// nest, and the result is built again and compared with the log CPU for CPU, so what is
// returned says whether it reproduces the log exactly and, if not, where it differs.
#include <optional>
#include <string>
#include <vector>

#include "domains/domain_tree.h"

namespace schedscope {

struct TopologyFromLogOptions {
    // unset: the log's (its banner's build or arch-only boot lines), else the first of x86_64
    // and arm64 that rebuilds the log
    std::optional<Arch> arch;
    // unset: the kernel the log's banner names, else the newest kernel the log's format allows
    const KernelProfile* profile = nullptr;
};

struct TopologyFromLog {
    Topology topology;
    const KernelProfile* profile = nullptr;  // the kernel it was rebuilt for
    // diffDomainTrees() of the rebuild against the log: empty when it reproduces the log
    std::vector<std::string> differences;
    std::vector<std::string> notes;  // what the log could not tell (distances, offline CPUs...)
};

// `where` names the log in errors and in the topology's source. Fails on a log without CPUs
// that have domains, on levels of other architectures (powerpc's CACHE, s390's BOOK...) and on
// spans no machine has (two nodes sharing CPUs).
Result<TopologyFromLog> topologyFromKernelLog(const DomainTree& log, const std::string& where,
                                              const TopologyFromLogOptions& options = {});

// readKernelLog() then topologyFromKernelLog(); the topology's notes carry the differences.
Result<TopologyFromLog> loadTopologyFromKernelLog(const std::string& path, const TopologyFromLogOptions& options = {});

}  // namespace schedscope
