#include "sim/compare_modes.h"

#include <algorithm>

namespace schedscope::sim {

const std::vector<CompareMode>& compareModes() {
    static const std::vector<CompareMode> modes = {
        {CompareWhat::Cls, "cls", "CLS", "CLS level: off vs on", "CLS"},
        {CompareWhat::Node, "node", "NODE", "NODE level: off vs on", "NODE"},
        {CompareWhat::DelayDequeue, "delay-dequeue", "DELAY_DEQUEUE", "DELAY_DEQUEUE: off vs on", ""},
        {CompareWhat::NewidleRandom, "ni-random", "NI_RANDOM", "NI_RANDOM: off vs on", ""},
        {CompareWhat::WakeWide, "wake-wide", "wake_wide", "wake_wide(): off vs on", ""},
        {CompareWhat::UtilEst, "util-est", "UTIL_EST", "UTIL_EST: off vs on", ""},
        {CompareWhat::RunToParity, "run-to-parity", "RUN_TO_PARITY", "RUN_TO_PARITY: off vs on", ""},
        {CompareWhat::NumaBalancing, "numa-balancing", "NUMA balancing", "NUMA balancing: off vs on", ""},
        {CompareWhat::TaskGroups, "task-groups", "task groups", "Task groups: one for all vs the workload's", ""},
        {CompareWhat::Bandwidth, "bandwidth", "bandwidth limits", "CPU bandwidth limits: none vs the groups'", ""},
    };
    return modes;
}

const CompareMode* findCompareMode(std::string_view key) {
    for (const auto& m : compareModes())
        if (m.key == key) return &m;
    return nullptr;
}

std::vector<std::string> comparedLevels(const std::vector<std::string>& off, const std::vector<std::string>& on) {
    std::vector<std::string> merged = on;
    for (size_t i = 0; i < off.size(); ++i) {
        if (std::find(merged.begin(), merged.end(), off[i]) != merged.end()) continue;
        auto next = i + 1 < off.size() ? std::find(merged.begin(), merged.end(), off[i + 1]) : merged.end();
        merged.insert(next, off[i]);
    }
    return merged;
}

std::string compareKeyList() {
    std::string out;
    const auto& modes = compareModes();
    for (size_t i = 0; i < modes.size(); ++i) {
        if (i > 0) out += i + 1 == modes.size() ? " or " : ", ";
        out += modes[i].key;
    }
    return out;
}

}  // namespace schedscope::sim
