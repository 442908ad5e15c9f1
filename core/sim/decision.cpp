#include "sim/decision.h"

#include <cstdio>

namespace schedscope::sim {

const char* decisionKindName(DecisionKind k) {
    switch (k) {
    case DecisionKind::WakeupPlacement: return "wakeup";
    case DecisionKind::ForkPlacement: return "fork";
    case DecisionKind::ExecPlacement: return "exec";
    case DecisionKind::LoadBalance: return "load_balance";
    case DecisionKind::NewidleBalance: return "newidle";
    case DecisionKind::ActiveBalance: return "active";
    case DecisionKind::NumaMigrate: return "numa";
    }
    return "?";
}

nlohmann::json decisionToJson(const Decision& d) {
    using nlohmann::json;
    json groups = json::array();
    for (const auto& g : d.groups)
        groups.push_back({{"span", g.span.toList()},
                          {"load", g.load},
                          {"util", g.util},
                          {"nr_running", g.nrRunning},
                          {"idle_cpus", g.idleCpus},
                          {"type", g.type},
                          {"local", g.local}});
    return {{"time_s", static_cast<double>(d.timeNs) / 1e9},
            {"kind", decisionKindName(d.kind)},
            {"task", d.task >= 0 ? json(d.task) : json(nullptr)},
            {"cpu", d.cpu},
            {"prev_cpu", d.prevCpu >= 0 ? json(d.prevCpu) : json(nullptr)},
            {"level", d.level},
            {"span", d.span.toList()},
            {"groups", groups},
            {"chosen_cpu", d.chosenCpu},
            {"moved", d.moved},
            {"rule", d.rule}};
}

std::string decisionToText(const Decision& d) {
    char head[256];
    const bool placement = d.kind == DecisionKind::WakeupPlacement || d.kind == DecisionKind::ForkPlacement ||
                           d.kind == DecisionKind::ExecPlacement;
    std::string who;
    if (placement)
        who = "task " + std::to_string(d.task) + " prev " + std::to_string(d.prevCpu) + " from cpu " + std::to_string(d.cpu);
    else
        who = "cpu " + std::to_string(d.cpu);
    std::snprintf(head, sizeof head, "%12.6f ms %-12s %s @%s[%s] -> cpu %d", static_cast<double>(d.timeNs) / 1e6,
                  decisionKindName(d.kind), who.c_str(), d.level.c_str(), d.span.toList().c_str(), d.chosenCpu);
    std::string out = head;
    if (!d.moved.empty()) {
        out += " moved";
        for (int t : d.moved) out += " t" + std::to_string(t);
    }
    out += "  (" + d.rule + ")";
    for (const auto& g : d.groups) {
        char line[200];
        std::snprintf(line, sizeof line, "\n      %s group %-10s load %7.1f util %6.1f nr %2d idle %2d %s",
                      g.local ? "*" : " ", g.span.toList().c_str(), g.load, g.util, g.nrRunning, g.idleCpus,
                      g.type.c_str());
        out += line;
    }
    return out;
}

}  // namespace schedscope::sim
