// schedscope-cli trace groups FILE [--snapshot] [--json]: the task groups a trace's tasks ran in
// (its groups sidecar), with their shares and CPU limits; --snapshot writes this machine's groups
// now as the sidecar of a trace another tool (trace-cmd) recorded, which has none.
#include <sys/stat.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.h"
#include "task_groups.h"
#include "trace_cmds.h"
#include "trace_load_options.h"
#include "workload/workload.h"

namespace schedscope::cli {
namespace {

using namespace schedscope::tracing;

// every task the trace shows run, wake, fork or exit (not the idle task)
std::vector<int32_t> tracePids(const EventStore& store) {
    std::set<int32_t> pids;
    store.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::CpuIdle) return true;
        if (e.pid > 0) pids.insert(e.pid);
        if ((e.kind == EventKind::Switch || e.kind == EventKind::ProcessFork) && e.pid2 > 0) pids.insert(e.pid2);
        return true;
    });
    return {pids.begin(), pids.end()};
}

std::string limitText(const BandwidthLimit& l) { return workload::describeBandwidthLimit(l.quotaUs, l.periodUs, l.burstUs); }

struct GroupRow {
    std::string group;
    int tasks = 0;
};

// the groups the trace's tasks are in, and every cgroup above one (nested groups weigh at each
// level), in name order; "/" and unknown tasks counted apart
struct GroupListing {
    std::vector<GroupRow> groups;
    int inRoot = 0, unknown = 0, total = 0;
};
GroupListing listGroups(const TaskGroupSnapshot& snap, const EventStore& store) {
    const std::vector<int32_t> pids = tracePids(store);
    std::map<std::string, int> counts;
    GroupListing out;
    out.total = static_cast<int>(pids.size());
    for (const auto& [pid, group] : groupsOfTasks(snap, store, pids)) {
        if (group.empty()) {
            ++out.unknown;
            continue;
        }
        if (group == "/") {
            ++out.inRoot;
            continue;
        }
        ++counts[group];
        for (std::string up = parentGroupOf(group); !up.empty(); up = parentGroupOf(up)) counts.try_emplace(up, 0);
    }
    for (const auto& [group, n] : counts) out.groups.push_back({group, n});
    return out;
}

int printGroups(const std::string& file, const TaskGroupSnapshot& snap, const EventStore& store, bool json) {
    const GroupListing l = listGroups(snap, store);
    if (json) {
        nlohmann::json groups = nlohmann::json::array();
        for (const GroupRow& r : l.groups) {
            nlohmann::json g = {{"group", r.group}, {"shares", snap.sharesOfGroup(r.group)}, {"tasks", r.tasks}};
            const std::string parent = parentGroupOf(r.group);
            g["parent"] = parent.empty() ? nlohmann::json(nullptr) : nlohmann::json(parent);
            if (auto it = snap.limitOf.find(r.group); it != snap.limitOf.end())
                g["limit"] = {{"quota_us", it->second.quotaUs}, {"period_us", it->second.periodUs}, {"burst_us", it->second.burstUs}};
            groups.push_back(std::move(g));
        }
        std::cout << nlohmann::json{{"file", file},
                                    {"sidecar", groupsSidecarPath(file)},
                                    {"taken_after_recording", snap.takenAfter},
                                    {"autogroup", snap.autogroupEnabled},
                                    {"tasks", l.total},
                                    {"tasks_in_root_group", l.inRoot},
                                    {"tasks_of_no_known_group", l.unknown},
                                    {"groups", groups}}
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
        return 0;
    }
    std::printf("%s: %zu task groups (%s%s)\n", file.c_str(), l.groups.size(), groupsSidecarPath(file).c_str(),
                snap.takenAfter ? ", taken after the recording" : "");
    std::printf("  %-40s %7s  %-32s %s\n", "group", "shares", "CPU limit", "tasks of the trace");
    for (const GroupRow& r : l.groups) {
        const auto limit = snap.limitOf.find(r.group);
        std::printf("  %-40s %7d  %-32s %d\n", r.group.c_str(), snap.sharesOfGroup(r.group),
                    limit == snap.limitOf.end() ? "-" : limitText(limit->second).c_str(), r.tasks);
    }
    std::printf("  %d of the trace's %d tasks in the root group, %d in no group the sidecar knows (they replay in the root group)\n",
                l.inRoot, l.total, l.unknown);
    return 0;
}

}  // namespace

int runTraceGroups(const Args& args) {
    if (args.positional().size() != 1) return fail("trace groups: give exactly one trace FILE");
    const std::string file = args.positional()[0];
    struct stat st {};
    if (stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return fail("trace groups: " + file + ": no such trace file");
    if (args.has("snapshot")) {
        // a sidecar there is the recording's own (or an earlier snapshot): better than one taken now
        auto existing = readGroupsSidecar(file);
        if (!existing || *existing)
            return fail("trace groups: " + groupsSidecarPath(file) +
                        " exists already (the recording's own, or an earlier snapshot): remove it to take a new one");
        TaskGroupSnapshot snap = snapshotTaskGroups();
        snap.takenAfter = true;
        if (auto written = writeGroupsSidecar(file, snap); !written) return failRuntime("trace groups: " + written.error());
        std::fprintf(stderr,
                     "trace groups: wrote %s: this machine's task groups now (%zu tasks), not as the recording began: a "
                     "task that exited since is placed by its parent's group, and a pid reused since names another "
                     "process's group (replay says so)\n",
                     groupsSidecarPath(file).c_str(), snap.groupOf.size());
    }
    auto snap = readGroupsSidecar(file);
    if (!snap) return fail(snap.error());
    if (!*snap)
        return fail("trace groups: " + file + " has no task groups sidecar (" + groupsSidecarPath(file) +
                    "): schedscope-cli record writes one; for a trace another tool recorded, --snapshot takes this "
                    "machine's groups now, or replay --sessions-from-forks guesses them from the trace");
    auto store = readTraceFile(file, loadOptionsFrom(args));
    if (!store) return fail(store.error());
    return printGroups(file, **snap, *store, args.has("json"));
}

}  // namespace schedscope::cli
