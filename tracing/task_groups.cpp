#include "task_groups.h"

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sidecar_file.h"
#include "util/json_error.h"
#include "util/nice_weight.h"
#include "util/sysfs_text.h"
#include "workload/workload.h"

namespace schedscope::tracing {

namespace {

// "/a/b/c" -> {"/a", "/a/b", "/a/b/c"}
std::vector<std::string> prefixesOf(const std::string& path) {
    std::vector<std::string> out;
    for (size_t i = 1; i <= path.size(); ++i)
        if (i == path.size() || path[i] == '/') out.push_back(path.substr(0, i));
    return out;
}

std::string parentOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

bool listsCpu(const std::string& subtreeControl) {
    std::istringstream words(subtreeControl);
    for (std::string w; words >> w;)
        if (w == "cpu") return true;
    return false;
}

// a whole decimal number alone on its line (sysfs and cgroupfs files end in a newline)
std::optional<long> wholeNumber(const std::string& text) {
    std::string t = text;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    if (t.empty() || t.size() > 18) return std::nullopt;
    char* end = nullptr;
    const long v = std::strtol(t.c_str(), &end, 10);
    if (*end != '\0') return std::nullopt;
    return v;
}

std::optional<int> inSharesRange(long v) {
    if (v < workload::kMinGroupShares || v > workload::kMaxGroupShares) return std::nullopt;
    return static_cast<int>(v);
}

// the group's shares from cgroupfs: v2's cpu.weight, else v1's cpu.shares where the cpu
// hierarchy is usually mounted
std::optional<int> cgroupShares(const std::string& cgroupRoot, const std::string& group) {
    if (auto s = sharesFromCpuWeight(readAttributeText(cgroupRoot + group + "/cpu.weight"))) return s;
    for (const char* v1 : {"/cpu", "/cpu,cpuacct"}) {
        std::string file = cgroupRoot;
        file += v1;
        file += group;
        file += "/cpu.shares";
        if (auto s = sharesFromCpuShares(readAttributeText(file))) return s;
    }
    return std::nullopt;
}

// a limit the kernel could hold (tg_set_cfs_bandwidth()'s ranges)
std::optional<BandwidthLimit> validLimit(long long quota, long long period, long long burst) {
    if (!workload::bandwidthLimitInRange(quota, period, burst)) return std::nullopt;
    return BandwidthLimit{quota, period, burst};
}

// the group's bandwidth limit from cgroupfs: v2's cpu.max, else v1's cpu.cfs_quota_us where
// the cpu hierarchy is usually mounted
std::optional<BandwidthLimit> cgroupLimit(const std::string& cgroupRoot, const std::string& group) {
    const std::string v2 = cgroupRoot + group;
    if (const std::string max = readAttributeText(v2 + "/cpu.max"); !max.empty())
        return limitFromCpuMax(max, readAttributeText(v2 + "/cpu.max.burst"));
    for (const char* v1 : {"/cpu", "/cpu,cpuacct"}) {
        std::string dir = cgroupRoot;
        dir += v1;
        dir += group;
        const std::string quota = readAttributeText(dir + "/cpu.cfs_quota_us");
        if (!quota.empty())
            return limitFromCfs(quota, readAttributeText(dir + "/cpu.cfs_period_us"), readAttributeText(dir + "/cpu.cfs_burst_us"));
    }
    return std::nullopt;
}

}  // namespace

std::optional<BandwidthLimit> limitFromCpuMax(const std::string& cpuMaxText, const std::string& burstText) {
    // "$MAX $PERIOD", MAX "max" for none
    std::istringstream words(cpuMaxText);
    std::string quota, period;
    if (!(words >> quota >> period) || quota == "max") return std::nullopt;
    const auto q = wholeNumber(quota), p = wholeNumber(period);
    const auto b = burstText.empty() ? std::optional<long>(0) : wholeNumber(burstText);
    if (!q || !p || !b) return std::nullopt;
    return validLimit(*q, *p, *b);
}

std::optional<BandwidthLimit> limitFromCfs(const std::string& quotaText, const std::string& periodText,
                                           const std::string& burstText) {
    const auto q = wholeNumber(quotaText), p = wholeNumber(periodText);
    const auto b = burstText.empty() ? std::optional<long>(0) : wholeNumber(burstText);
    if (!q || !p || !b || *q < 0) return std::nullopt;  // -1: no limit
    return validLimit(*q, *p, *b);
}

std::optional<int> sharesFromAutogroup(const std::string& autogroupText) {
    // "/autogroup-179 nice 0"
    std::istringstream words(autogroupText);
    std::string name, niceWord;
    long nice = 0;
    if (!(words >> name >> niceWord >> nice) || niceWord != "nice" || nice < -20 || nice > 19) return std::nullopt;
    return niceWeight(static_cast<int>(nice));
}

std::optional<int> sharesFromCpuWeight(const std::string& cpuWeightText) {
    const auto w = wholeNumber(cpuWeightText);
    if (!w || *w < 1 || *w > 10000) return std::nullopt;
    return inSharesRange((*w * 1024 + 50) / 100);  // DIV_ROUND_CLOSEST_ULL(weight * 1024, 100)
}

std::optional<int> sharesFromCpuShares(const std::string& cpuSharesText) {
    const auto s = wholeNumber(cpuSharesText);
    if (!s) return std::nullopt;
    return static_cast<int>(std::clamp<long>(*s, workload::kMinGroupShares, workload::kMaxGroupShares));
}

std::string taskGroupFrom(const std::string& cgroupText, const std::string& autogroupText, bool autogroupEnabled,
                          const CpuControllerCheck& cpuEnabledBelow) {
    std::string v1, v2;
    bool hasV1 = false, hasV2 = false;
    std::istringstream lines(cgroupText);
    for (std::string line; std::getline(lines, line);) {
        // "ID:CONTROLLERS:PATH"; the path may hold ':' itself
        const size_t a = line.find(':');
        const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        if (line.compare(0, a, "0") == 0 && controllers.empty()) {
            v2 = path;
            hasV2 = true;
            continue;
        }
        std::istringstream names(controllers);
        for (std::string c; std::getline(names, c, ',');)
            if (c == "cpu") {
                v1 = path;
                hasV1 = true;
            }
    }
    std::string group = "/";
    if (hasV1) {
        group = v1.empty() ? "/" : v1;
    } else if (hasV2 && v2.size() > 1 && cpuEnabledBelow) {
        for (const std::string& p : prefixesOf(v2))
            if (cpuEnabledBelow(parentOf(p))) group = p;
            else break;  // the controller stops at the first cgroup that does not pass it down
    }
    if (group != "/" || !autogroupEnabled) return group;
    // "/autogroup-179 nice 0"
    std::istringstream words(autogroupText);
    std::string name;
    words >> name;
    if (name.size() > 1 && name[0] == '/') return name.substr(1);
    return group;
}

TaskGroupSnapshot snapshotTaskGroups(const std::string& procRoot, const std::string& cgroupRoot) {
    const auto cpuEnabledUnder = [&cgroupRoot](const std::string& parentPath) {
        return listsCpu(readAttributeText(cgroupRoot + (parentPath == "/" ? "" : parentPath) + "/cgroup.subtree_control"));
    };
    TaskGroupSnapshot snap;
    const std::string enabled = readAttributeText(procRoot + "/sys/kernel/sched_autogroup_enabled");
    snap.autogroupEnabled = !enabled.empty() && enabled[0] == '1';
    DIR* dir = opendir(procRoot.c_str());
    if (!dir) return snap;
    while (const dirent* e = readdir(dir)) {
        const std::string name = e->d_name;
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); }))
            continue;
        if (name.size() > 9) continue;
        std::string base = procRoot;
        base += '/';
        base += name;
        const std::string cgroup = readAttributeText(base + "/cgroup");
        if (cgroup.empty()) continue;  // exited meanwhile
        const std::string autogroup = readAttributeText(base + "/autogroup");
        const std::string group = taskGroupFrom(cgroup, autogroup, snap.autogroupEnabled, cpuEnabledUnder);
        snap.groupOf[static_cast<int32_t>(std::stol(name))] = group;
        if (group != "/" && !snap.sharesOf.count(group)) {
            if (group.starts_with("autogroup-")) {
                if (const auto shares = sharesFromAutogroup(autogroup)) snap.sharesOf[group] = *shares;
            } else {
                // the cgroups above it are task groups too (the cpu controller reached it through them)
                for (const std::string& p : prefixesOf(group)) {
                    if (snap.sharesOf.count(p)) continue;  // this cgroup was read for another task
                    if (const auto shares = cgroupShares(cgroupRoot, p)) snap.sharesOf[p] = *shares;
                    if (const auto limit = cgroupLimit(cgroupRoot, p)) snap.limitOf[p] = *limit;
                }
            }
        }
        // its threads (a trace names threads): in their process's group
        if (DIR* threads = opendir((base + "/task").c_str())) {
            while (const dirent* t = readdir(threads)) {
                const std::string tid = t->d_name;
                if (!tid.empty() && tid.size() <= 9 &&
                    std::all_of(tid.begin(), tid.end(), [](unsigned char c) { return std::isdigit(c); }))
                    snap.groupOf[static_cast<int32_t>(std::stol(tid))] = group;
            }
            closedir(threads);
        }
    }
    closedir(dir);
    return snap;
}

std::string parentGroupOf(const std::string& group) {
    if (group.empty() || group[0] != '/') return "";  // an autogroup, or no group
    const std::string parent = parentOf(group);
    return parent == "/" ? "" : parent;
}

void addLaterSnapshot(TaskGroupSnapshot& first, const TaskGroupSnapshot& later) {
    for (const auto& [pid, group] : later.groupOf) first.groupOf.try_emplace(pid, group);
    // a group the first read (its shares) keeps what it had then, a limit or none
    for (const auto& [group, limit] : later.limitOf)
        if (!first.sharesOf.count(group)) first.limitOf.try_emplace(group, limit);
    for (const auto& [group, shares] : later.sharesOf) first.sharesOf.try_emplace(group, shares);
}

std::string groupsSidecarPath(const std::string& tracePath) { return tracePath + ".groups.json"; }

Status writeGroupsSidecar(const std::string& tracePath, const TaskGroupSnapshot& snapshot) {
    nlohmann::json j;
    j["autogroup"] = snapshot.autogroupEnabled;
    if (snapshot.takenAfter) j["taken"] = "after the recording";
    nlohmann::json tasks = nlohmann::json::object();
    for (const auto& [pid, group] : snapshot.groupOf) tasks[std::to_string(pid)] = group;
    j["tasks"] = std::move(tasks);
    nlohmann::json shares = nlohmann::json::object();
    for (const auto& [group, n] : snapshot.sharesOf) shares[group] = n;
    j["shares"] = std::move(shares);
    if (!snapshot.limitOf.empty()) {
        nlohmann::json limits = nlohmann::json::object();
        for (const auto& [group, l] : snapshot.limitOf)
            limits[group] = {{"quota_us", l.quotaUs}, {"period_us", l.periodUs}, {"burst_us", l.burstUs}};
        j["limits"] = std::move(limits);
    }
    return writeSidecarText(groupsSidecarPath(tracePath), "task groups sidecar",
                            j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

Result<std::optional<TaskGroupSnapshot>> readGroupsSidecar(const std::string& tracePath) {
    const std::string path = groupsSidecarPath(tracePath);
    auto text = readSidecarText(path, "task groups sidecar");
    if (!text) return Error{text.error()};
    if (!*text) return std::optional<TaskGroupSnapshot>{};
    auto snap = parseGroupsSidecar(**text, path);
    if (!snap) return Error{snap.error()};
    return std::optional<TaskGroupSnapshot>{std::move(*snap)};
}

Result<TaskGroupSnapshot> parseGroupsSidecar(const std::string& text, const std::string& path) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return Error{path + ": not valid JSON (" + jsonErrorText(e.what()) + ")"};
    }
    if (!j.is_object() || !j.contains("tasks") || !j["tasks"].is_object())
        return Error{path + ": not a task groups sidecar (it needs a \"tasks\" object of pid: group)"};
    TaskGroupSnapshot snap;
    if (j.contains("autogroup") && j["autogroup"].is_boolean()) snap.autogroupEnabled = j["autogroup"].get<bool>();
    snap.takenAfter = j.contains("taken") && j["taken"] == "after the recording";
    for (const auto& [key, value] : j["tasks"].items()) {
        char* end = nullptr;
        const long pid = std::strtol(key.c_str(), &end, 10);
        if (key.empty() || *end != '\0' || pid < 0 || pid > INT32_MAX || !value.is_string())
            return Error{escapeControl(path + ": task \"" + key.substr(0, 32) + "\": a pid must map to a group name")};
        snap.groupOf[static_cast<int32_t>(pid)] = value.get<std::string>();
    }
    // (a sidecar from before shares were saved has none: every group then has the default)
    if (j.contains("shares")) {
        if (!j["shares"].is_object()) return Error{path + ": \"shares\" must be an object of group: shares"};
        for (const auto& [group, value] : j["shares"].items()) {
            const auto n = value.is_number_integer() ? std::optional<long>(value.get<long>()) : std::nullopt;
            if (!n || *n < workload::kMinGroupShares || *n > workload::kMaxGroupShares)
                return Error{escapeControl(path + ": group \"" + group.substr(0, 64) + "\": shares must be an integer in " +
                                           std::to_string(workload::kMinGroupShares) + ".." +
                                           std::to_string(workload::kMaxGroupShares))};
            snap.sharesOf[group] = static_cast<int>(*n);
        }
    }
    // (a sidecar from before limits were saved has none: every group runs unlimited)
    if (j.contains("limits")) {
        if (!j["limits"].is_object()) return Error{path + ": \"limits\" must be an object of group: {quota_us, period_us, burst_us}"};
        for (const auto& item : j["limits"].items()) {
            const std::string& group = item.key();
            const nlohmann::json& value = item.value();
            auto field = [&value](const char* key, long long fallback) -> std::optional<long long> {
                if (!value.contains(key)) return fallback;
                const auto& v = value[key];
                return v.is_number_integer() ? std::optional<long long>(v.get<long long>()) : std::nullopt;
            };
            const auto q = value.is_object() ? field("quota_us", -1) : std::nullopt;
            const auto p = value.is_object() ? field("period_us", 100000) : std::nullopt;
            const auto b = value.is_object() ? field("burst_us", 0) : std::nullopt;
            const auto limit = q && p && b ? validLimit(*q, *p, *b) : std::nullopt;
            if (!limit)
                return Error{escapeControl(path + ": group \"" + group.substr(0, 64) +
                                           "\": a limit must be {quota_us, period_us, burst_us} with a quota of 1000.." +
                                           std::to_string(workload::kMaxBandwidthQuotaUs) +
                                           " us, a period of 1000..1000000 us and a burst of at most the quota")};
            snap.limitOf[group] = *limit;
        }
    }
    return snap;
}

std::map<int32_t, std::string> groupsOfTasks(const TaskGroupSnapshot& snapshot, const EventStore& store,
                                             const std::vector<int32_t>& pids) {
    std::map<int32_t, int32_t> parent;
    store.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::ProcessFork && !parent.count(e.pid2)) parent[e.pid2] = e.pid;
        return true;
    });
    std::map<int32_t, std::string> out;
    for (int32_t pid : pids) {
        int32_t p = pid;
        std::string group;
        for (int hops = 0; hops < 64 && p >= 0; ++hops) {  // a fork chain; a loop would be bad input
            if (auto it = snapshot.groupOf.find(p); it != snapshot.groupOf.end()) {
                group = it->second;
                break;
            }
            auto up = parent.find(p);
            if (up == parent.end()) break;
            p = up->second;
        }
        out[pid] = group;
    }
    return out;
}

}  // namespace schedscope::tracing
