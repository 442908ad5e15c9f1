#pragma once
// The SD_* sched-domain flags, declared once as include/linux/sched/sd_flags.h does, with their
// meta-flags. Names that changed across kernels come from the profile (see profile.h).
#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

enum SdFlag : uint32_t {
    SD_BALANCE_NEWIDLE = 1u << 0,
    SD_BALANCE_EXEC = 1u << 1,
    SD_BALANCE_FORK = 1u << 2,
    SD_BALANCE_WAKE = 1u << 3,
    SD_WAKE_AFFINE = 1u << 4,
    SD_ASYM_CPUCAPACITY = 1u << 5,
    SD_ASYM_CPUCAPACITY_FULL = 1u << 6,
    SD_SHARE_CPUCAPACITY = 1u << 7,
    SD_CLUSTER = 1u << 8,     // since 6.8
    SD_SHARE_LLC = 1u << 9,   // SD_SHARE_PKG_RESOURCES before 6.9
    SD_SERIALIZE = 1u << 10,
    SD_ASYM_PACKING = 1u << 11,
    SD_PREFER_SIBLING = 1u << 12,
    SD_OVERLAP = 1u << 13,
    SD_NUMA = 1u << 14,
};

enum SdMetaFlag : uint32_t {
    SDF_SHARED_CHILD = 1u << 0,   // if set on a domain, set on all its children
    SDF_SHARED_PARENT = 1u << 1,  // if set on a domain, set on all its parents
    SDF_NEEDS_GROUPS = 1u << 2,   // only meaningful with at least 2 groups
};

struct SdFlagInfo {
    SdFlag flag;
    const char* name;  // the current kernel's name
    uint32_t meta;
};

// In sd_flags.h order, which is also the order the kernel prints them in.
const std::vector<SdFlagInfo>& sdFlagTable();
// Flags that need at least two groups to mean anything (SD_DEGENERATE_GROUPS_MASK).
uint32_t sdDegenerateGroupsMask();

}  // namespace schedscope
