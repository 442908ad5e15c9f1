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
    return f;
}

}  // namespace schedscope::sim
