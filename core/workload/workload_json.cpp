#include "workload/workload_json.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace schedscope::workload {
namespace {

using nlohmann::json;

Result<CpuSet> cpusFrom(const json& v, const std::string& where, int cpuCount) {
    if (!v.is_string()) return Error{where + ": cpus must be a cpulist string such as \"0-3,8\""};
    auto set = CpuSet::parseList(v.get<std::string>());
    if (!set) return Error{where + ": " + set.error()};
    if (set->empty()) return Error{where + ": cpus is empty"};
    if (set->last() >= cpuCount)
        return Error{where + ": cpus " + set->toList() + " go beyond the topology's CPUs 0-" + std::to_string(cpuCount - 1)};
    return *set;
}

Result<double> positive(const json& v, const std::string& where, const std::string& key) {
    if (!v.is_number()) return Error{where + ": " + key + " must be a number"};
    const double d = v.get<double>();
    if (!(d >= 0) || d > 1e12) return Error{where + ": " + key + " must be >= 0"};
    return d;
}

}  // namespace

Result<Workload> parseWorkloadJson(const std::string& text, const std::string& origin, int cpuCount) {
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) return Error{origin + ": not valid JSON"};
    if (!doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array() || doc["tasks"].empty())
        return Error{origin + ": expected an object with a non-empty \"tasks\" array"};
    Workload w;
    w.name = doc.value("name", std::string("custom"));
    w.spec = origin;
    w.unit = doc.value("unit", std::string("work/s"));
    if (doc.contains("duration_s")) {
        auto d = positive(doc["duration_s"], origin, "duration_s");
        if (!d) return Error{d.error()};
        w.durationS = *d;
    }
    std::map<std::string, int> byName;
    for (size_t i = 0; i < doc["tasks"].size(); ++i) {
        const json& t = doc["tasks"][i];
        if (!t.is_object()) return Error{origin + ": task " + std::to_string(i) + " is not an object"};
        const std::string name = t.value("name", "task" + std::to_string(i));
        if (byName.count(name)) return Error{origin + ": two tasks are named '" + name + "'"};
        byName[name] = static_cast<int>(i);
    }
    for (size_t i = 0; i < doc["tasks"].size(); ++i) {
        const json& jt = doc["tasks"][i];
        TaskSpec t;
        t.name = jt.value("name", "task" + std::to_string(i));
        const std::string where = origin + ": task '" + t.name + "'";
        if (jt.contains("nice")) {
            if (!jt["nice"].is_number_integer() || jt["nice"].get<int>() < -20 || jt["nice"].get<int>() > 19)
                return Error{where + ": nice must be an integer in -20..19"};
            t.nice = jt["nice"].get<int>();
        }
        if (jt.contains("cpus")) {
            auto c = cpusFrom(jt["cpus"], where, cpuCount);
            if (!c) return Error{c.error()};
            t.affinity = *c;
        }
        t.startAtBegin = jt.value("start", true);
        if (jt.contains("mem_fraction")) {
            auto m = positive(jt["mem_fraction"], where, "mem_fraction");
            if (!m || *m > 1) return Error{where + ": mem_fraction must be in 0..1"};
            t.memFraction = *m;
        }
        if (jt.contains("bandwidth_gbs")) {
            auto b = positive(jt["bandwidth_gbs"], where, "bandwidth_gbs");
            if (!b) return Error{b.error()};
            t.bandwidthGBs = *b;
        }
        if (!jt.contains("script") || !jt["script"].is_array()) return Error{where + ": needs a \"script\" array"};
        auto targetsOf = [&](const json& v) -> Result<std::vector<int>> {
            std::vector<int> out;
            const json list = v.is_array() ? v : json::array({v});
            for (const auto& x : list) {
                if (x.is_string() && byName.count(x.get<std::string>())) out.push_back(byName[x.get<std::string>()]);
                else if (x.is_number_integer() && x.get<int>() >= 0 && x.get<size_t>() < doc["tasks"].size())
                    out.push_back(x.get<int>());
                else return Error{where + ": unknown task " + x.dump()};
            }
            return out;
        };
        const json& script = jt["script"];
        for (size_t k = 0; k < script.size(); ++k) {
            const json& o = script[k];
            const std::string ow = where + " op " + std::to_string(k);
            Op op;
            if (!o.is_object()) return Error{ow + ": not an object"};
            op.jitter = o.value("jitter", 0.0);
            if (o.contains("run_ms")) {
                auto v = positive(o["run_ms"], ow, "run_ms");
                if (!v) return Error{v.error()};
                op.kind = OpKind::Run;
                op.amountNs = *v * 1e6;
            } else if (o.contains("sleep_ms")) {
                auto v = positive(o["sleep_ms"], ow, "sleep_ms");
                if (!v) return Error{v.error()};
                op.kind = OpKind::Sleep;
                op.amountNs = *v * 1e6;
            } else if (o.contains("wait")) {
                op.kind = OpKind::Wait;
            } else if (o.contains("wake")) {
                auto tg = targetsOf(o["wake"]);
                if (!tg) return Error{tg.error()};
                op.kind = OpKind::Wake;
                op.targets = *tg;
                op.sync = o.value("sync", false);
            } else if (o.contains("fork")) {
                auto tg = targetsOf(o["fork"]);
                if (!tg) return Error{tg.error()};
                op.kind = OpKind::Fork;
                op.targets = *tg;
            } else if (o.contains("barrier")) {
                op.kind = OpKind::Barrier;
                op.id = o.value("barrier", 0);
                op.parties = o.value("parties", 0);
                if (op.parties < 1) return Error{ow + ": barrier needs parties >= 1"};
            } else if (o.contains("affinity")) {
                auto c = cpusFrom(o["affinity"], ow, cpuCount);
                if (!c) return Error{c.error()};
                op.kind = OpKind::SetAffinity;
                op.cpus = *c;
            } else if (o.contains("loop_to")) {
                op.kind = OpKind::Loop;
                op.to = o.value("loop_to", 0);
                op.count = o.value("count", -1LL);
                if (op.to < 0 || static_cast<size_t>(op.to) >= k) return Error{ow + ": loop_to must name an earlier op"};
            } else if (o.contains("exit")) {
                op.kind = OpKind::Exit;
            } else {
                return Error{ow + ": unknown op " + o.dump()};
            }
            if (op.jitter < 0 || op.jitter >= 1) return Error{ow + ": jitter must be in [0, 1)"};
            t.script.push_back(std::move(op));
        }
        w.tasks.push_back(std::move(t));
    }
    return w;
}

Result<Workload> loadWorkloadFile(const std::string& path, int cpuCount) {
    std::ifstream in(path);
    if (!in) return Error{path + ": cannot open workload file"};
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseWorkloadJson(ss.str(), path, cpuCount);
}

}  // namespace schedscope::workload
