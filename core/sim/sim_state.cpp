#include "sim/sim_state.h"

#include <algorithm>

namespace schedscope::sim {

const char* causeName(MigrationCause c) {
    switch (c) {
    case MigrationCause::Wakeup: return "wakeup";
    case MigrationCause::Fork: return "fork";
    case MigrationCause::Exec: return "exec";
    case MigrationCause::LbPeriodic: return "lb_periodic";
    case MigrationCause::LbNohz: return "lb_nohz_idle";
    case MigrationCause::LbNewidle: return "lb_newidle";
    case MigrationCause::LbActive: return "lb_active";
    case MigrationCause::Affinity: return "affinity";
    case MigrationCause::Numa: return "numa";
    case MigrationCause::Count: break;
    }
    return "?";
}

void SimState::publishChangedCpus() {
    for (int c : spanSums.changedCpus()) {
        const Cpu& r = cpus[static_cast<size_t>(c)];
        spanSums.publish(c, {&r.load, &r.util, &r.runnable, r.nrQueued(), r.nrRunning()}, now);
    }
    spanSums.clearChanged();
}

}  // namespace schedscope::sim
