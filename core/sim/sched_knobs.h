#pragma once
// The kernel's sched_features knobs a what-if may set against a profile's own behaviours.
#include <optional>
#include <string>
#include <string_view>

#include "sim/compare_modes.h"
#include "sim/sim_options.h"

namespace schedscope::sim {

struct SchedKnobs {
    std::optional<bool> delayDequeue;   // DELAY_DEQUEUE; nullopt: the profile's (on from 6.12)
    std::optional<bool> newidleRandom;  // NI_RANDOM; nullopt: the profile's (on from 6.19 and its backports)
    std::optional<WakeWide> wakeWide;   // wake_wide()'s factor; nullopt: the kernel's (the LLC's size)
    // 6.6's SMT balancing (group_smt_balance, smt_vs_nonsmt_groups(), sibling_imbalance(), an
    // idle core's CPU first in should_we_balance()); nullopt: the profile's (on from 6.6)
    std::optional<bool> smtBalance;
    // UTIL_EST (util_est.h); nullopt: off, as the simulator's runs are calibrated (see featuresFor())
    std::optional<bool> utilEst;
    // RUN_TO_PARITY (fair_rq.h's checkPreemptWakeup()); nullopt: off, as the simulator's runs are
    // calibrated (see featuresFor())
    std::optional<bool> runToParity;
};

// "llc", "cluster", "off": as --wake-wide takes them and the JSON config names them
std::string_view wakeWideName(WakeWide w);
// the setting `name` names; an error naming the choices otherwise
Result<WakeWide> parseWakeWide(std::string_view name);

// The knobs of one side of a what-if comparing `what` (setting 0: off, 1: on), the others as
// `knobs` sets them; nullopt when `what` is no sched feature (a level, NUMA balancing). The on
// side of wake-wide is `knobs`' factor when it names one, else the kernel's.
std::optional<SchedKnobs> knobsOfSide(const SchedKnobs& knobs, CompareWhat what, int setting);

// `profile`'s behaviours with the knobs that are set; DELAY_DEQUEUE on is an error for a CFS
// profile (featuresWithDelayDequeue()), UTIL_EST on one for a kernel before 4.17, RUN_TO_PARITY
// on one for a CFS profile.
Result<SimFeatures> featuresWithKnobs(const KernelProfile& profile, const SchedKnobs& knobs);

}  // namespace schedscope::sim
