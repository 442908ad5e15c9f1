#include "domains/sd_flags.h"

namespace schedscope {

const std::vector<SdFlagInfo>& sdFlagTable() {
    static const std::vector<SdFlagInfo> table = {
        {SD_BALANCE_NEWIDLE, "SD_BALANCE_NEWIDLE", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS},
        {SD_BALANCE_EXEC, "SD_BALANCE_EXEC", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS},
        {SD_BALANCE_FORK, "SD_BALANCE_FORK", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS},
        {SD_BALANCE_WAKE, "SD_BALANCE_WAKE", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS},
        {SD_WAKE_AFFINE, "SD_WAKE_AFFINE", SDF_SHARED_CHILD},
        {SD_ASYM_CPUCAPACITY, "SD_ASYM_CPUCAPACITY", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS},
        {SD_ASYM_CPUCAPACITY_FULL, "SD_ASYM_CPUCAPACITY_FULL", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS},
        {SD_SHARE_CPUCAPACITY, "SD_SHARE_CPUCAPACITY", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS},
        {SD_CLUSTER, "SD_CLUSTER", SDF_NEEDS_GROUPS},
        {SD_SHARE_LLC, "SD_SHARE_LLC", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS},
        {SD_SERIALIZE, "SD_SERIALIZE", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS},
        {SD_ASYM_PACKING, "SD_ASYM_PACKING", SDF_NEEDS_GROUPS},
        {SD_PREFER_SIBLING, "SD_PREFER_SIBLING", SDF_NEEDS_GROUPS},
        {SD_OVERLAP, "SD_OVERLAP", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS},
        {SD_NUMA, "SD_NUMA", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS},
    };
    return table;
}

uint32_t sdDegenerateGroupsMask() {
    static const uint32_t mask = [] {
        uint32_t m = 0;
        for (const auto& f : sdFlagTable())
            if (f.meta & SDF_NEEDS_GROUPS) m |= f.flag;
        return m;
    }();
    return mask;
}

}  // namespace schedscope
