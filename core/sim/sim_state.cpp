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
    case MigrationCause::Count: break;
    }
    return "?";
}

double SimState::cpuLoad(int cpu) {
    Pelt& p = cpus[static_cast<size_t>(cpu)].load;
    p.update(now);
    return p.value;
}
double SimState::cpuUtil(int cpu) {
    Pelt& p = cpus[static_cast<size_t>(cpu)].util;
    p.update(now);
    return std::min(1024.0, p.value);
}
double SimState::cpuRunnable(int cpu) {
    Pelt& p = cpus[static_cast<size_t>(cpu)].runnable;
    p.update(now);
    return p.value;
}
double SimState::taskLoad(int task) {
    Pelt& p = tasks[static_cast<size_t>(task)].load;
    p.update(now);
    return p.value;
}
double SimState::taskUtil(int task) {
    Pelt& p = tasks[static_cast<size_t>(task)].util;
    p.update(now);
    return p.value;
}

}  // namespace schedscope::sim
