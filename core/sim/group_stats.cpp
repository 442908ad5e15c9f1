#include "sim/group_stats.h"

namespace schedscope::sim {

const char* groupTypeName(GroupType t) {
    switch (t) {
    case GroupType::HasSpare: return "has_spare";
    case GroupType::FullyBusy: return "fully_busy";
    case GroupType::MisfitTask: return "misfit_task";
    case GroupType::SmtBalance: return "smt_balance";
    case GroupType::AsymPacking: return "asym_packing";
    case GroupType::Imbalanced: return "imbalanced";
    case GroupType::Overloaded: return "overloaded";
    }
    return "?";
}

bool groupIsOverloaded(unsigned pct, const SgStats& s) {
    if (s.sumNrRunning <= s.groupWeight) return false;
    if (s.groupCapacity * 100 < s.groupUtil * pct) return true;
    if (s.groupCapacity * pct < s.groupRunnable * 100) return true;
    return false;
}

bool groupHasCapacity(unsigned pct, const SgStats& s) {
    if (s.sumNrRunning < s.groupWeight) return true;
    if (s.groupCapacity * pct < s.groupRunnable * 100) return false;
    if (s.groupCapacity * 100 > s.groupUtil * pct) return true;
    return false;
}

GroupType groupClassify(unsigned pct, const SgStats& s, bool imbalanced) {
    if (groupIsOverloaded(pct, s)) return GroupType::Overloaded;
    if (imbalanced) return GroupType::Imbalanced;
    if (s.asymPacking) return GroupType::AsymPacking;
    if (s.smtBalance) return GroupType::SmtBalance;
    if (s.misfitTaskLoad > 0) return GroupType::MisfitTask;
    if (!groupHasCapacity(pct, s)) return GroupType::FullyBusy;
    return GroupType::HasSpare;
}

}  // namespace schedscope::sim
