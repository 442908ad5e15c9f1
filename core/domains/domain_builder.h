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

// Why `profile`'s kernel on `arch` never builds the "CLS" or "NODE" level, whatever the options
// ask ("linux-5.15 has no CLS level (5.16+)", "ppc64 kernels build no CLS level (no
// SCHED_CLUSTER)": only x86 and arm64 select ARCH_SUPPORTS_SCHED_CLUSTER); empty when it can.
std::string levelNeverBuilt(const std::string& level, Arch arch, const KernelProfile& profile);
// The CLS level is in the table: the options ask for it and the kernel can build it.
bool buildsClusterLevel(const DomainBuildOptions& options, const KernelProfile& profile);

Result<DomainTree> buildDomains(const Topology& topology, const DomainBuildOptions& options);

// Why switching the "CLS" or "NODE" level off changes nothing on this machine (its kernel never
// builds it: levelNeverBuilt(); or every such domain degenerates: no cluster wider than a core,
// no node holding several LLCs), so a what-if of it would run the same twice; empty when the
// domains differ.
std::string levelChangesNothing(const Topology& topology, const DomainBuildOptions& options, const std::string& level);
// The same from the two trees a caller built already (`level` off and on): the reason, or empty.
std::string levelChangesNothing(const Topology& topology, const DomainTree& off, const DomainTree& on, const std::string& level);

}  // namespace schedscope
