#pragma once
// The kernel's sched_features knobs a what-if may set against a profile's own behaviours.
#include <optional>

#include "sim/sim_options.h"

namespace schedscope::sim {

struct SchedKnobs {
    std::optional<bool> delayDequeue;   // DELAY_DEQUEUE; nullopt: the profile's (on from 6.12)
    std::optional<bool> newidleRandom;  // NI_RANDOM; nullopt: the profile's (on from 6.19 and its backports)
};

// `profile`'s behaviours with the knobs that are set; DELAY_DEQUEUE on is an error for a CFS
// profile (featuresWithDelayDequeue()).
Result<SimFeatures> featuresWithKnobs(const KernelProfile& profile, const SchedKnobs& knobs);

}  // namespace schedscope::sim
