#pragma once
// What a what-if compares, off against on: a domain level (CLS, NODE), a sched feature
// (DELAY_DEQUEUE, NI_RANDOM, wake_wide(), UTIL_EST, RUN_TO_PARITY), automatic NUMA balancing or the workload's task
// groups (every task in one group against each in its own) or their CPU bandwidth limits. One table for the CLI's --compare and
// the GUI's what-if panel, so both accept and name the same settings.
#include <string>
#include <string_view>
#include <vector>

namespace schedscope::sim {

enum class CompareWhat { Cls, Node, DelayDequeue, NewidleRandom, WakeWide, UtilEst, RunToParity, NumaBalancing, TaskGroups, Bandwidth };

struct CompareMode {
    CompareWhat what;
    std::string_view key;    // as --compare takes it: "cls", "numa-balancing"
    std::string_view name;   // as the results name the setting: "CLS", "NUMA balancing"
    std::string_view label;  // a line for a menu: "CLS level: off vs on"
    std::string_view level;  // the domain level compared ("CLS", "NODE"), empty for a feature
};

const std::vector<CompareMode>& compareModes();
// the mode `key` names, or nullptr
const CompareMode* findCompareMode(std::string_view key);
// The levels a what-if counts migrations at, bottom-up: the "on" tree's (levelNames()), with
// those only the "off" tree has put where they fit (before the next level both have).
std::vector<std::string> comparedLevels(const std::vector<std::string>& off, const std::vector<std::string>& on);
// "cls, node, delay-dequeue, ni-random, wake-wide or numa-balancing", for messages
std::string compareKeyList();

}  // namespace schedscope::sim
