#pragma once
// A selection asked for by name (--select-cpu N --select-level CLS, a lesson's scenario), to be
// resolved against a session once it has loaded.
#include <QString>

#include "session.h"

namespace schedscope::gui {

struct SelectionRequest {
    int cpu = -1;   // -1: keep the view's CPU
    QString level;  // level name (SMT, CLS, MC, PKG, NODE, NUMA ...); empty: the CPU's lowest domain
    bool empty() const { return cpu < 0 && level.isEmpty(); }
};

struct ResolvedSelection {
    int cpu = -1;
    int topologyLevel = -1;  // SchedDomain::topologyLevel, -1: no domain selected
    QString error;           // one line, when the CPU or level does not exist
};

// `currentCpu` is used when the request names no CPU. The level is the CPU's lowest domain with
// that name (case-insensitive; DIE and PKG name the same level across kernel versions).
ResolvedSelection resolveSelection(const Session& session, const SelectionRequest& request, int currentCpu);

}  // namespace schedscope::gui
