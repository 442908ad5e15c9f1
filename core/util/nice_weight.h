#pragma once
// sched_prio_to_weight[] (kernel/sched/core.c): the load weight of a nice value, each step ~1.25x.
// The fair class weighs a task by it, and an autogroup by its session's nice.
#include <algorithm>
#include <array>
#include <cstddef>

namespace schedscope {

inline int niceWeight(int nice) {
    static constexpr std::array<int, 40> kWeights = {
        88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
        9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
        1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
        110,   87,    70,    56,    45,    36,    29,    23,    18,    15};
    const int row = std::clamp(nice, -20, 19) + 20;  // the table starts at nice -20
    return kWeights[static_cast<size_t>(row)];
}

}  // namespace schedscope
