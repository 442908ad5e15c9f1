#pragma once
// DomainBuilder: builds the sched-domain tree the kernel would build for a topology, mirroring
// kernel/sched/topology.c (build_sched_domains, sd_init, build_sched_groups,
// build_overlap_sched_groups, cpu_attach_domain) and the arch mask functions.
#include "domains/domain_tree.h"
#include "util/result.h"

namespace schedscope {

struct DomainBuildOptions {
    Arch arch = Arch::X86_64;
    const KernelProfile* profile = nullptr;  // nullptr: defaultProfile()
    KernelConfig config;
    bool cls = true;   // build the CLS level (what-if: off as before 5.16)
    bool node = true;  // build the NUMA identity NODE level (what-if: off as before 4.15)
};

// Whether the arch's kernels can build a CLS level at all: only x86 and arm64 select
// ARCH_SUPPORTS_SCHED_CLUSTER (5.16+); powerpc, s390, riscv and the others do not.
bool archHasClusterLevel(Arch arch);

Result<DomainTree> buildDomains(const Topology& topology, const DomainBuildOptions& options);

}  // namespace schedscope
