#include "workload/workload_json.h"

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <nlohmann/json.hpp>

#include "util/input_file.h"
#include "util/json_error.h"
#include "workload/workload_spec.h"

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
    if (!(d >= 0) || d > 1e12) return Error{where + ": " + key + " must be a number from 0 to 1e12"};
    return d;
}

// The simulator's clock counts nanoseconds: an amount between 0 and 1 ns was truncated to
// nothing for a sleep and rounded up to 1 ns for a run; neither is what was written.
Status wholeNanoseconds(double ns, const std::string& where, const std::string& key) {
    if (ns > 0 && ns < 1) return Error{where + ": " + key + " is less than a nanosecond, the simulator's clock step (0, or at least 1 ns)"};
    return {};
}

// Typed optional fields: absent gives the fallback, a value of the wrong type or range a
// one-line error. (json::value() would throw a type_error, and converting an out-of-range
// double to int is undefined behaviour.)
Result<std::string> stringField(const json& o, const char* key, std::string fallback, const std::string& where) {
    if (!o.contains(key)) return fallback;
    if (!o[key].is_string()) return Error{where + ": " + key + " must be a string"};
    std::string value = o[key].get<std::string>();
    // names and units are printed: an escape sequence in one would rewrite the terminal
    if (std::any_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        return Error{where + ": " + key + " must not contain control characters"};
    return value;
}

Result<bool> boolField(const json& o, const char* key, bool fallback, const std::string& where) {
    if (!o.contains(key)) return fallback;
    if (!o[key].is_boolean()) return Error{where + ": " + key + " must be true or false"};
    return o[key].get<bool>();
}

Result<double> numberField(const json& o, const char* key, double fallback, const std::string& where) {
    if (!o.contains(key)) return fallback;
    if (!o[key].is_number()) return Error{where + ": " + key + " must be a number"};
    return o[key].get<double>();
}

std::optional<long long> asInteger(const json& v) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<unsigned long long>();
        if (u > static_cast<unsigned long long>(LLONG_MAX)) return std::nullopt;
        return static_cast<long long>(u);
    }
    if (v.is_number_integer()) return v.get<long long>();
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!(d >= -9e15 && d <= 9e15) || d != std::floor(d)) return std::nullopt;
        return static_cast<long long>(d);
    }
    return std::nullopt;
}

Result<long long> intField(const json& o, const char* key, long long fallback, long long min, long long max,
                           const std::string& where) {
    if (!o.contains(key)) return fallback;
    auto v = asInteger(o[key]);
    if (!v || *v < min || *v > max)
        return Error{where + ": " + key + " must be an integer in " + std::to_string(min) + ".." + std::to_string(max)};
    return *v;
}

// a group's "quota_us", "period_us" and "burst_us" (CFS bandwidth control): the kernel's ranges;
// a burst or period without a quota limits nothing and is refused, as a typo would be
Status bandwidthFields(const json& o, const std::string& where, TaskGroupSpec& group) {
    const bool quota = o.contains("quota_us");
    if (!quota && (o.contains("period_us") || o.contains("burst_us")))
        return Error{where + ": period_us and burst_us go with a quota_us (the group's CPU time per period)"};
    if (!quota) return {};
    auto q = intField(o, "quota_us", -1, kMinBandwidthQuotaUs, kMaxBandwidthQuotaUs, where);
    if (!q) return Error{q.error()};
    auto period = intField(o, "period_us", 100000, kMinBandwidthPeriodUs, kMaxBandwidthPeriodUs, where);
    if (!period) return Error{period.error()};
    auto burst = intField(o, "burst_us", 0, 0, *q, where);
    if (!burst) return Error{burst.error()};
    group.quotaUs = *q;
    group.periodUs = *period;
    group.burstUs = *burst;
    return {};
}

Result<Workload> parse(const std::string& text, const std::string& origin, int cpuCount);

}  // namespace

Result<Workload> parseWorkloadJson(const std::string& text, const std::string& origin, int cpuCount) {
    // Backstop: every access below is type-checked, but no nlohmann exception may escape.
    try {
        auto w = parse(text, origin, cpuCount);
        if (!w) return Error{escapeControl(w.error())};
        return w;
    } catch (const json::exception& e) {
        return Error{escapeControl(origin + ": unexpected JSON structure (" + jsonErrorText(e.what()) + ")")};
    }
}

namespace {

// A field this format does not have is refused, naming it: a misspelt "mem_fracton" or
// "sleep_sm" would otherwise leave the task with a default nobody asked for. "description" and
// "$..." keys ($schema) are for readers and are let through.
bool forReaders(const std::string& key) { return key == "description" || key.starts_with("$"); }
bool listed(std::initializer_list<const char*> names, const std::string& key) {
    return std::any_of(names.begin(), names.end(), [&key](const char* name) { return key == name; });
}
std::string joined(std::initializer_list<const char*> names) {
    std::string out;
    for (const char* name : names) {
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

// a JSON value in an error: a string or number as it is, anything else by its type and first
// fields only (dump() of a value nested 100,000 deep overflows the stack)
std::string shortDescription(const json& v) {
    if (v.is_string() || v.is_number() || v.is_boolean() || v.is_null()) {
        std::string text = v.dump();
        if (text.size() > 60) text = text.substr(0, 57) + "...";
        return text;
    }
    if (!v.is_object()) return std::string("an ") + v.type_name();
    std::string keys;
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (keys.size() > 60) {
            keys += ", ...";
            break;
        }
        if (!keys.empty()) keys += ", ";
        keys += "\"" + it.key() + "\"";
    }
    return "an object with " + (keys.empty() ? std::string("no fields") : keys);
}

Status onlyKnownFields(const json& o, std::initializer_list<const char*> known, const std::string& where) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string& key = it.key();
        if (forReaders(key) || listed(known, key)) continue;
        std::string error = where;
        error += ": unknown field \"" + key + "\" (known here: ";
        error += joined(known) + ")";
        return Error{error};
    }
    return {};
}

// an op's kinds, each with the fields it may carry besides its own key
struct OpFields {
    const char* key;
    std::initializer_list<const char*> with;
};
const OpFields kOpFields[] = {
    {"run_ms", {"jitter"}}, {"run_ns", {"jitter"}},   {"sleep_ms", {"jitter"}}, {"sleep_ns", {"jitter"}},
    {"wait", {}},           {"wake", {"sync"}},       {"fork", {}},             {"barrier", {"parties"}},
    {"post", {"sync"}},     {"take", {}},             {"affinity", {}},         {"loop_to", {"count"}},
    {"exec", {}},           {"exit", {}},
};

// the op an object is (one of kOpFields' keys, and only one), or an error naming what is wrong
Result<const OpFields*> opKindOf(const json& o, const std::string& where) {
    const OpFields* kind = nullptr;
    for (const OpFields& f : kOpFields) {
        if (!o.contains(f.key)) continue;
        if (kind) return Error{where + ": one op per object, not both \"" + kind->key + "\" and \"" + f.key + "\""};
        kind = &f;
    }
    if (!kind) return Error{where + ": unknown op, " + shortDescription(o)};
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string& key = it.key();
        if (key == kind->key || forReaders(key) || listed(kind->with, key)) continue;
        std::string error = where;
        const bool vowel = std::string_view("aeiou").find(kind->key[0]) != std::string_view::npos;
        error += std::string(vowel ? ": an \"" : ": a \"") + kind->key + "\" op has no field \"";
        error += key + "\"";
        if (kind->with.size() > 0) error += " (it takes " + joined(kind->with) + ")";
        return Error{error};
    }
    // "wait": true and "exit": true say the op; false would say the opposite of what it does
    for (const char* flag : {"wait", "exec", "exit"})
        if (kind->key == std::string(flag) && o[flag] != true) return Error{where + ": \"" + flag + "\" must be true"};
    return kind;
}

// The first key given twice in one object, by a SAX pass that builds nothing.
struct DuplicateKeyFinder : nlohmann::json_sax<json> {
    std::vector<std::set<std::string>> objects;  // the keys of each object open
    std::string duplicate;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
        objects.emplace_back();
        return true;
    }
    bool key(string_t& name) override {
        if (!objects.empty() && !objects.back().insert(name).second) {
            duplicate = name;
            return false;  // found: stop
        }
        return true;
    }
    bool end_object() override {
        if (!objects.empty()) objects.pop_back();
        return true;
    }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

// A fork starts a task that has "start": false, once: a fork of a task already running (one
// that starts at the beginning, or the forker itself) would do nothing, and a task that waits
// for a fork nobody makes would never run. Both are mistakes in the file, said here rather
// than left to a run that quietly lacks the task.
Status checkForks(const Workload& w, const std::string& origin) {
    std::vector<char> forked(w.tasks.size(), 0);
    for (size_t i = 0; i < w.tasks.size(); ++i)
        for (const Op& op : w.tasks[i].script) {
            if (op.kind != OpKind::Fork) continue;
            const std::string where = origin + ": task '" + w.tasks[i].name + "'";
            for (int target : op.targets) {
                const TaskSpec& child = w.tasks[static_cast<size_t>(target)];
                if (static_cast<size_t>(target) == i) return Error{where + ": forks itself (a fork starts another task)"};
                if (child.startAtBegin)
                    return Error{where + ": forks task '" + child.name +
                                 "', which starts at the beginning: a forked task needs \"start\": false"};
                forked[static_cast<size_t>(target)] = 1;
            }
        }
    for (size_t i = 0; i < w.tasks.size(); ++i)
        if (!w.tasks[i].startAtBegin && !forked[i])
            return Error{origin + ": task '" + w.tasks[i].name +
                         "' has \"start\": false and no task forks it: it would never run"};
    return {};
}

Result<Workload> parse(const std::string& text, const std::string& origin, int cpuCount) {
    // (nlohmann's lexer ends the input at a NUL byte: what follows one would be ignored)
    if (text.find('\0') != std::string::npos) return Error{origin + ": not valid JSON (a NUL byte)"};
    // A key given twice in one object: nlohmann keeps the last, so {"run_ms": 1, "run_ms": 50}
    // would run 50 ms without a word. A SAX pass finds it (the DOM parser's callback form is
    // quadratic in an array's length: a saved replay workload's scripts took minutes).
    DuplicateKeyFinder finder;
    json::sax_parse(text, &finder, json::input_format_t::json, false);
    const std::string& duplicate = finder.duplicate;
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        // "parse error at line 3, column 5: syntax error ..."
        return Error{origin + ": not valid JSON (" + jsonErrorText(e.what()) + ")"};
    }
    if (!duplicate.empty()) return Error{origin + ": the key \"" + duplicate + "\" appears twice in one object"};
    if (!doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array() || doc["tasks"].empty())
        return Error{origin + ": expected an object with a non-empty \"tasks\" array"};
    if (auto known = onlyKnownFields(doc, {"name", "unit", "duration_s", "groups", "tasks"}, origin); !known)
        return Error{known.error()};
    // the spec generators' bound: a 64 MiB file of empty tasks is millions, gigabytes once built
    if (doc["tasks"].size() > kMaxWorkloadTasks)
        return Error{origin + ": " + std::to_string(doc["tasks"].size()) + " tasks, more than the " +
                     std::to_string(kMaxWorkloadTasks) + " a workload may have"};
    Workload w;
    auto wname = stringField(doc, "name", "custom", origin);
    if (!wname) return Error{wname.error()};
    w.name = *wname;
    w.spec = origin;
    auto unit = stringField(doc, "unit", "work/s", origin);
    if (!unit) return Error{unit.error()};
    w.unit = *unit;
    if (doc.contains("duration_s")) {
        // the simulator's range (0 would silently mean --duration's), one message for anything
        // outside it (a negative one was told "from 0 to 1e12")
        const json& d = doc["duration_s"];
        if (!d.is_number() || !(d.get<double>() > 0) || d.get<double>() > 1e5)
            return Error{origin + ": duration_s must be a number of seconds in (0, 100000]"};
        w.durationS = d.get<double>();
    }
    // "groups": {"NAME": {"shares": N, "parent": "NAME"}}: the groups' shares and parents; a
    // task's group not listed there has the default 1024 (cpu.weight 100, an autogroup at nice
    // 0) and the root group for its parent
    std::map<std::string, int> groupIndex;
    auto groupOf = [&](const std::string& name) {
        auto [it, added] = groupIndex.emplace(name, static_cast<int>(w.groups.size()));
        if (added) w.groups.push_back({name, 1024});
        return it->second;
    };
    if (doc.contains("groups")) {
        const json& groups = doc["groups"];
        if (!groups.is_object()) return Error{origin + ": groups must be an object of {\"NAME\": {\"shares\": N}}"};
        for (auto it = groups.begin(); it != groups.end(); ++it) {
            const std::string gw = origin + ": group '" + it.key() + "'";
            if (it.key().empty() || std::any_of(it.key().begin(), it.key().end(), [](char c) {
                    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
                }))
                return Error{origin + ": a group name must be a non-empty string without control characters"};
            if (!it.value().is_object()) return Error{gw + ": must be an object, {\"shares\": N}"};
            if (auto known = onlyKnownFields(it.value(), {"shares", "parent", "quota_us", "period_us", "burst_us"}, gw); !known)
                return Error{known.error()};
            auto shares = intField(it.value(), "shares", 1024, kMinGroupShares, kMaxGroupShares, gw);
            if (!shares) return Error{shares.error()};
            TaskGroupSpec& group = w.groups[static_cast<size_t>(groupOf(it.key()))];
            group.shares = static_cast<int>(*shares);
            if (auto limit = bandwidthFields(it.value(), gw, group); !limit) return Error{limit.error()};
        }
        // parents once every listed group has its index: a parent must be one of them
        for (auto it = groups.begin(); it != groups.end(); ++it) {
            if (!it.value().contains("parent")) continue;
            const std::string gw = origin + ": group '" + it.key() + "'";
            auto parent = stringField(it.value(), "parent", "", gw);
            if (!parent) return Error{parent.error()};
            if (!groups.contains(*parent)) return Error{gw + ": its parent '" + *parent + "' is not one of the groups listed"};
            w.groups[static_cast<size_t>(groupIndex.at(it.key()))].parent = groupIndex.at(*parent);
        }
        // a parent chain must reach the root group
        for (size_t g = 0; g < w.groups.size(); ++g) {
            int depth = 0;
            for (int p = w.groups[g].parent; p >= 0; p = w.groups[static_cast<size_t>(p)].parent)
                if (++depth > kMaxGroupDepth)
                    return Error{origin + ": group '" + w.groups[g].name + "': its parents do not reach the root group within " +
                                 std::to_string(kMaxGroupDepth) + " levels (a cycle, or nested too deep)"};
        }
    }
    std::map<std::string, int> byName;
    for (size_t i = 0; i < doc["tasks"].size(); ++i) {
        const json& t = doc["tasks"][i];
        if (!t.is_object()) return Error{origin + ": task " + std::to_string(i) + " is not an object"};
        auto tname = stringField(t, "name", "task" + std::to_string(i), origin + ": task " + std::to_string(i));
        if (!tname) return Error{tname.error()};
        const std::string name = *tname;
        if (byName.count(name)) return Error{origin + ": two tasks are named '" + name + "'"};
        byName[name] = static_cast<int>(i);
    }
    for (size_t i = 0; i < doc["tasks"].size(); ++i) {
        const json& jt = doc["tasks"][i];
        TaskSpec t;
        t.name = *stringField(jt, "name", "task" + std::to_string(i), origin);  // checked above
        const std::string where = origin + ": task '" + t.name + "'";
        if (auto known = onlyKnownFields(jt,
                                         {"name", "nice", "cpus", "start", "start_cpu", "group", "mem_fraction", "bandwidth_gbs",
                                          "cache_fraction", "cache_mb", "handoff_kb", "script"},
                                         where);
            !known)
            return Error{known.error()};
        if (jt.contains("nice")) {
            auto v = asInteger(jt["nice"]);
            if (!jt["nice"].is_number_integer() || !v || *v < -20 || *v > 19)
                return Error{where + ": nice must be an integer in -20..19"};
            t.nice = static_cast<int>(*v);
        }
        if (jt.contains("cpus")) {
            auto c = cpusFrom(jt["cpus"], where, cpuCount);
            if (!c) return Error{c.error()};
            t.affinity = *c;
        }
        auto start = boolField(jt, "start", true, where);
        if (!start) return Error{start.error()};
        t.startAtBegin = *start;
        if (jt.contains("start_cpu")) {
            auto c = asInteger(jt["start_cpu"]);
            if (!jt["start_cpu"].is_number_integer() || !c || *c < 0 || *c >= cpuCount)
                return Error{where + ": start_cpu must be a CPU of the topology, 0-" + std::to_string(cpuCount - 1)};
            if (!t.startAtBegin) return Error{where + ": start_cpu is for a task that starts at the beginning, not one a fork starts"};
            if (!t.affinity.empty() && !t.affinity.test(static_cast<int>(*c)))
                return Error{where + ": start_cpu " + std::to_string(*c) + " is not in its cpus " + t.affinity.toList()};
            t.startCpu = static_cast<int>(*c);
        }
        if (jt.contains("group")) {
            auto g = stringField(jt, "group", "", where);
            if (!g) return Error{g.error()};
            if (g->empty()) return Error{where + ": group must name a group (absent: the root group)"};
            t.group = groupOf(*g);
        }
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
        if (jt.contains("cache_fraction")) {
            auto f = positive(jt["cache_fraction"], where, "cache_fraction");
            if (!f) return Error{f.error()};
            if (*f > 1 || *f + t.memFraction > 1)
                return Error{where + ": cache_fraction must be in 0..1, and with mem_fraction at most 1"};
            t.cacheFraction = *f;
        }
        if (jt.contains("cache_mb")) {
            auto m = positive(jt["cache_mb"], where, "cache_mb");
            if (!m) return Error{m.error()};
            t.cacheMB = *m;
        }
        if (jt.contains("handoff_kb")) {
            auto kb = positive(jt["handoff_kb"], where, "handoff_kb");
            if (!kb) return Error{kb.error()};
            if (*kb > kMaxHandoffKB) return Error{where + ": handoff_kb must be at most 1048576 (1 GB)"};
            t.handoffKB = *kb;
        }
        if (!jt.contains("script") || !jt["script"].is_array()) return Error{where + ": needs a \"script\" array"};
        // a task, or a list of them; walked in place (a copy of a deeply nested value recursed
        // past the stack before the error could be said)
        auto targetsOf = [&](const json& v) -> Result<std::vector<int>> {
            std::vector<int> out;
            auto one = [&](const json& x) -> Status {
                if (x.is_string() && byName.count(x.get<std::string>())) out.push_back(byName[x.get<std::string>()]);
                else if (auto n = asInteger(x); x.is_number_integer() && n && *n >= 0 &&
                                                  static_cast<size_t>(*n) < doc["tasks"].size())
                    out.push_back(static_cast<int>(*n));
                else return Error{where + ": unknown task " + shortDescription(x)};
                return {};
            };
            if (!v.is_array()) {
                if (auto st = one(v); !st) return Error{st.error()};
                return out;
            }
            for (const auto& x : v)
                if (auto st = one(x); !st) return Error{st.error()};
            return out;
        };
        const json& script = jt["script"];
        for (size_t k = 0; k < script.size(); ++k) {
            const json& o = script[k];
            const std::string ow = where + " op " + std::to_string(k);
            Op op;
            if (!o.is_object()) return Error{ow + ": not an object"};
            if (auto kind = opKindOf(o, ow); !kind) return Error{kind.error()};
            auto jitter = numberField(o, "jitter", 0.0, ow);
            if (!jitter) return Error{jitter.error()};
            op.jitter = *jitter;
            if (o.contains("run_ms") || o.contains("run_ns")) {
                const bool ns = !o.contains("run_ms");
                auto v = positive(o[ns ? "run_ns" : "run_ms"], ow, ns ? "run_ns" : "run_ms");
                if (!v) return Error{v.error()};
                if (auto st = wholeNanoseconds(ns ? *v : *v * 1e6, ow, ns ? "run_ns" : "run_ms"); !st) return Error{st.error()};
                op.kind = OpKind::Run;
                op.amountNs = ns ? *v : *v * 1e6;
            } else if (o.contains("sleep_ms") || o.contains("sleep_ns")) {
                const bool ns = !o.contains("sleep_ms");
                auto v = positive(o[ns ? "sleep_ns" : "sleep_ms"], ow, ns ? "sleep_ns" : "sleep_ms");
                if (!v) return Error{v.error()};
                if (auto st = wholeNanoseconds(ns ? *v : *v * 1e6, ow, ns ? "sleep_ns" : "sleep_ms"); !st) return Error{st.error()};
                op.kind = OpKind::Sleep;
                op.amountNs = ns ? *v : *v * 1e6;
            } else if (o.contains("wait")) {
                op.kind = OpKind::Wait;
            } else if (o.contains("wake")) {
                auto tg = targetsOf(o["wake"]);
                if (!tg) return Error{tg.error()};
                op.kind = OpKind::Wake;
                op.targets = *tg;
                auto sync = boolField(o, "sync", false, ow);
                if (!sync) return Error{sync.error()};
                op.sync = *sync;
            } else if (o.contains("fork")) {
                auto tg = targetsOf(o["fork"]);
                if (!tg) return Error{tg.error()};
                op.kind = OpKind::Fork;
                op.targets = *tg;
            } else if (o.contains("barrier")) {
                op.kind = OpKind::Barrier;
                auto id = intField(o, "barrier", 0, INT_MIN, INT_MAX, ow);
                if (!id) return Error{id.error()};
                auto parties = intField(o, "parties", 0, INT_MIN, INT_MAX, ow);
                if (!parties) return Error{parties.error()};
                op.id = static_cast<int>(*id);
                op.parties = static_cast<int>(*parties);
                if (op.parties < 1) return Error{ow + ": barrier needs parties >= 1"};
            } else if (o.contains("post") || o.contains("take")) {
                const bool post = o.contains("post");
                op.kind = post ? OpKind::Post : OpKind::Take;
                auto id = intField(o, post ? "post" : "take", 0, INT_MIN, INT_MAX, ow);
                if (!id) return Error{id.error()};
                op.id = static_cast<int>(*id);
                auto sync = boolField(o, "sync", false, ow);
                if (!sync) return Error{sync.error()};
                op.sync = post && *sync;
            } else if (o.contains("affinity")) {
                auto c = cpusFrom(o["affinity"], ow, cpuCount);
                if (!c) return Error{c.error()};
                op.kind = OpKind::SetAffinity;
                op.cpus = *c;
            } else if (o.contains("loop_to")) {
                op.kind = OpKind::Loop;
                auto to = asInteger(o["loop_to"]);
                if (!to || *to < 0 || static_cast<unsigned long long>(*to) >= k)
                    return Error{ow + ": loop_to must name an earlier op"};
                op.to = static_cast<int>(*to);
                auto count = intField(o, "count", -1, -1, LLONG_MAX, ow);
                if (!count) return Error{count.error()};
                op.count = *count;
                // a body that neither takes time nor can block would spin at one instant
                const bool passesTime = std::any_of(t.script.begin() + op.to, t.script.end(), [](const Op& b) {
                    return ((b.kind == OpKind::Run || b.kind == OpKind::Sleep) && b.amountNs > 0) ||
                           b.kind == OpKind::Wait || b.kind == OpKind::Take ||
                           (b.kind == OpKind::Barrier && b.parties > 1) || b.kind == OpKind::Exit;
                });
                // (a counted one ends: `post, loop_to 0 count N` fills a queue, as pbzip2's reader
                // does, all at one instant, which a count of a billion would not leave soon)
                constexpr long long kMaxInstantLoops = 1000000;
                if (!passesTime && op.count < 0)
                    return Error{ow + ": the loop back to op " + std::to_string(op.to) +
                                 " runs no op that takes time (a run or sleep above 0) or waits: it would never end"};
                if (!passesTime && op.count > kMaxInstantLoops)
                    return Error{ow + ": the loop back to op " + std::to_string(op.to) + " runs " + std::to_string(op.count) +
                                 " times through ops that take no time, at one instant (at most " +
                                 std::to_string(kMaxInstantLoops) + ")"};
            } else if (o.contains("exec")) {
                op.kind = OpKind::Exec;
            } else if (o.contains("exit")) {
                op.kind = OpKind::Exit;
            } else {
                return Error{ow + ": unknown op, " + shortDescription(o)};
            }
            if (op.jitter < 0 || op.jitter >= 1) return Error{ow + ": jitter must be in [0, 1)"};
            t.script.push_back(std::move(op));
        }
        w.tasks.push_back(std::move(t));
    }
    if (auto st = checkForks(w, origin); !st) return Error{st.error()};
    return w;
}

}  // namespace

Result<Workload> loadWorkloadFile(const std::string& path, int cpuCount) {
    auto text = readInputFile(path, "workload file");
    if (!text) return Error{text.error()};
    return parseWorkloadJson(*text, path, cpuCount);
}

}  // namespace schedscope::workload
