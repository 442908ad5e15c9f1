#pragma once
// Shared by simulate and bench sim: topology + options -> domains -> simulation run.
#include <memory>
#include <optional>
#include <string>

#include "args.h"
#include "domains/domain_builder.h"
#include "sim/sched_knobs.h"
#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "workload/workload.h"

namespace schedscope::cli {

struct SimSetup {
    Topology topology;
    workload::Workload workload;
    DomainBuildOptions build;
    sim::SimOptions options;
    // --delay-dequeue / --ni-random / --wake-wide / --smt-balance / --util-est / --run-to-parity as
    // given (options.features holds their result)
    sim::SchedKnobs knobs;
    std::string profileName;
    // the domains `build` gives (its own --cls and --node), built once to say their warnings and
    // reused by the run with those settings; null when they could not be built
    std::shared_ptr<const DomainTree> tree;
};

// Reads --workload, --profile, --seed, --duration, --hz, --cls, --node, --idle-exit-us,
// --delay-dequeue, --ni-random, --wake-wide, --smt-balance, --util-est, --run-to-parity; errors are
// one line.
Result<SimSetup> simSetupFrom(const Args& args);

// --delay-dequeue on|off, --ni-random on|off, --wake-wide llc|cluster|off, --smt-balance on|off,
// --util-est on|off and --run-to-parity on|off: `profile`'s behaviours with those set so;
// nullopt when none is given (the profile decides: DELAY_DEQUEUE from 6.12, NI_RANDOM from 6.19
// and its stable backports; UTIL_EST and RUN_TO_PARITY stay off). DELAY_DEQUEUE and
// RUN_TO_PARITY on are errors for a CFS profile, which has no lag to delay on or slice to
// protect, UTIL_EST on one for a kernel before 4.17.
Result<std::optional<sim::SimFeatures>> schedFeatureOptions(const Args& args, const KernelProfile& profile);
// the knobs those options set, unset when not given
Result<sim::SchedKnobs> schedKnobOptions(const Args& args);

struct SimRun {
    DomainTree tree;
    std::unique_ptr<sim::SimState> state;
};
// `explain` > 0: step mode; the first `explain` decisions are stored in `decisions`.
// `progress`: see sim::SimOptions::progress (not called in step mode).
Result<SimRun> runSimulation(const SimSetup& setup, bool cls, bool node, uint64_t seed, int explain = 0,
                             std::vector<sim::Decision>* decisions = nullptr,
                             const std::function<bool(double)>& progress = {});
sim::RunConfig runConfig(const SimSetup& setup, bool cls, bool node);

}  // namespace schedscope::cli
