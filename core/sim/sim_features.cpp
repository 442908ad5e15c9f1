#include "sim/sim_options.h"

namespace schedscope::sim {

SimFeatures featuresFor(const KernelProfile& p) {
    SimFeatures f;
    f.fairClass = p.fairClass;
    f.clusterScan = p.clusterScanOnWakeup;
    if (p.name == "linux-4.14") {
        f.sisUtil = false;
        f.numaImbalance = 0;
        f.legacyActiveBalance = true;
    } else if (p.name == "linux-5.15") {
        f.sisUtil = false;
        f.numaImbalance = 1;
    } else if (p.name == "linux-6.12") {
        f.delayDequeue = true;  // "sched/fair: Implement delayed dequeue", v6.12
    }
    // RUN_TO_PARITY ("sched/eevdf: Curb wakeup-preemption", v6.6, on in the kernels) is modelled
    // but left off: against this 6.18 VM's recordings, the share of wakeups onto a busy CPU that
    // preempted it (recorded / without / with it) was pingpong 79% / 73% / 24%, forkstorm 70% /
    // 48% / 38%, pinned 80% / 83% / 74%, hackbench 33% / 45% / 41%: the simulated tasks' lag
    // keeps curr eligible through its slice more often than the kernel's does.
    f.runToParity = false;
    return f;
}

Result<SimFeatures> featuresWithDelayDequeue(const KernelProfile& profile, bool on) {
    if (on && profile.fairClass != FairClass::Eevdf)
        return Error{"DELAY_DEQUEUE needs an EEVDF profile (linux-6.6 or later), not " + profile.name};
    SimFeatures f = featuresFor(profile);
    f.delayDequeue = on;
    return f;
}

}  // namespace schedscope::sim
