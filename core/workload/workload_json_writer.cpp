#include "workload/workload_json_writer.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

namespace schedscope::workload {
namespace {

using nlohmann::json;

json targetsJson(const std::vector<int>& targets) {
    if (targets.size() == 1) return targets.front();
    return targets;
}

json opJson(const Op& op, int cpuCount) {
    json o;
    switch (op.kind) {
    case OpKind::Run: o["run_ns"] = op.amountNs; break;
    case OpKind::Sleep: o["sleep_ns"] = op.amountNs; break;
    case OpKind::Wait: o["wait"] = true; break;
    case OpKind::Wake:
        o["wake"] = targetsJson(op.targets);
        if (op.sync) o["sync"] = true;
        break;
    case OpKind::Fork: o["fork"] = targetsJson(op.targets); break;
    case OpKind::Barrier:
        o["barrier"] = op.id;
        o["parties"] = op.parties;
        break;
    case OpKind::Post:
        o["post"] = op.id;
        if (op.sync) o["sync"] = true;
        break;
    case OpKind::Take: o["take"] = op.id; break;
    case OpKind::SetAffinity:
        o["affinity"] = op.cpus.empty() ? CpuSet::range(0, cpuCount - 1).toList() : op.cpus.toList();
        break;
    case OpKind::Loop:
        o["loop_to"] = op.to;
        if (op.count >= 0) o["count"] = op.count;
        break;
    case OpKind::Exec: o["exec"] = true; break;
    case OpKind::Exit: o["exit"] = true; break;
    }
    if ((op.kind == OpKind::Run || op.kind == OpKind::Sleep) && op.jitter > 0) o["jitter"] = op.jitter;
    return o;
}

}  // namespace

json workloadToJson(const Workload& w, int cpuCount) {
    json doc;
    doc["name"] = w.name;
    doc["unit"] = w.unit;
    if (w.durationS > 0) doc["duration_s"] = w.durationS;
    if (!w.groups.empty()) {
        json groups = json::object();
        for (const TaskGroupSpec& g : w.groups) {
            json jg = {{"shares", g.shares}};
            if (g.quotaUs > 0) {
                jg["quota_us"] = g.quotaUs;
                jg["period_us"] = g.periodUs;
                if (g.burstUs > 0) jg["burst_us"] = g.burstUs;
            }
            if (g.parent >= 0 && static_cast<size_t>(g.parent) < w.groups.size())
                jg["parent"] = w.groups[static_cast<size_t>(g.parent)].name;
            groups[g.name] = std::move(jg);
        }
        doc["groups"] = std::move(groups);
    }
    json tasks = json::array();
    std::set<std::string> names;
    for (size_t i = 0; i < w.tasks.size(); ++i) {
        const TaskSpec& t = w.tasks[i];
        // names must be unique in the format; ops refer to tasks by index, so a clash is renamed
        std::string name = t.name.empty() ? "task" + std::to_string(i) : t.name;
        while (!names.insert(name).second) name += "#" + std::to_string(i);
        json jt;
        jt["name"] = name;
        if (t.nice != 0) jt["nice"] = t.nice;
        if (!t.affinity.empty()) jt["cpus"] = t.affinity.toList();
        if (!t.startAtBegin) jt["start"] = false;
        if (t.startAtBegin && t.startCpu >= 0) jt["start_cpu"] = t.startCpu;
        if (t.group >= 0 && static_cast<size_t>(t.group) < w.groups.size()) jt["group"] = w.groups[static_cast<size_t>(t.group)].name;
        if (t.memFraction > 0) jt["mem_fraction"] = t.memFraction;
        if (t.bandwidthGBs > 0) jt["bandwidth_gbs"] = t.bandwidthGBs;
        if (t.cacheFraction > 0) jt["cache_fraction"] = t.cacheFraction;
        if (t.cacheMB > 0) jt["cache_mb"] = t.cacheMB;
        if (t.handoffKB > 0) jt["handoff_kb"] = t.handoffKB;
        json script = json::array();
        for (const Op& op : t.script) script.push_back(opJson(op, cpuCount));
        jt["script"] = std::move(script);
        tasks.push_back(std::move(jt));
    }
    doc["tasks"] = std::move(tasks);
    return doc;
}

Status saveWorkloadFile(const Workload& w, int cpuCount, const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a directory; name the workload file to write"};
    std::ofstream out(path, std::ios::trunc);
    if (!out) return Error{path + ": cannot write the workload file (" + std::strerror(errno) + ")"};
    out << workloadToJson(w, cpuCount).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    out.close();
    if (!out) return Error{path + ": cannot write the workload file"};
    return {};
}

}  // namespace schedscope::workload
