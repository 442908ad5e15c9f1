#pragma once
// The task groups the fair class shared the CPUs between when a trace was recorded: a task's
// cpu-controller cgroup, or, in the root one with autogroup on (CONFIG_SCHED_AUTOGROUP,
// kernel.sched_autogroup_enabled), its session's autogroup. The kernel divides a CPU's time
// between groups first and among a group's tasks second; a sched trace does not show them, so
// `schedscope-cli record` saves each running task's group in the "<trace>.groups.json" sidecar,
// and a replay tells the user when its tasks ran in more than one.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "event_store.h"
#include "util/result.h"

namespace schedscope::tracing {

// The group of one task from its /proc/PID/cgroup and /proc/PID/autogroup texts. A cgroup v1
// "cpu" line names the group directly; under v2 (the "0::" line) the group is the deepest
// cgroup on the task's path whose parent enables the cpu controller, which `cpuEnabledBelow`
// answers for a path ("/a/b": does /a's cgroup.subtree_control list "cpu"?). "/" when none:
// then, with autogroup on, "autogroup-N" from the autogroup text.
using CpuControllerCheck = std::function<bool(const std::string& parentPath)>;
std::string taskGroupFrom(const std::string& cgroupText, const std::string& autogroupText, bool autogroupEnabled,
                          const CpuControllerCheck& cpuEnabledBelow);

// A cgroup's CPU bandwidth limit: `quotaUs` of CPU time per `periodUs` over all CPUs, and the
// unused quota a period may carry into the next (workload::TaskGroupSpec's fields).
struct BandwidthLimit {
    long long quotaUs = -1, periodUs = 100000, burstUs = 0;
    bool operator==(const BandwidthLimit&) const = default;
};
// From cgroup v2's cpu.max text ("50000 100000"; "max 100000": none) and cpu.max.burst text
// (microseconds; empty: 0), or v1's cpu.cfs_quota_us (-1: none), cpu.cfs_period_us and
// cpu.cfs_burst_us texts. std::nullopt for no limit, or for values the kernel would not hold
// (a quota under 1 ms, a period outside 1 ms..1 s, a burst past the quota).
std::optional<BandwidthLimit> limitFromCpuMax(const std::string& cpuMaxText, const std::string& burstText);
std::optional<BandwidthLimit> limitFromCfs(const std::string& quotaText, const std::string& periodText,
                                           const std::string& burstText);

struct TaskGroupSnapshot {
    bool autogroupEnabled = false;
    // taken after the recording (`trace groups --snapshot` for a trace another tool recorded),
    // not as it began: a task that exited meanwhile is known only through its parent, and a pid
    // reused since names another process's group
    bool takenAfter = false;
    std::map<int32_t, std::string> groupOf;  // by pid: every task /proc lists
    // tg->shares by group (cpu.shares, cpu.weight x 1024 / 100, an autogroup's nice weight),
    // the cgroups above a task's group too; a group not here has the default 1024
    std::map<std::string, int> sharesOf;
    int sharesOfGroup(const std::string& group) const {
        auto it = sharesOf.find(group);
        return it == sharesOf.end() ? 1024 : it->second;
    }
    // CPU bandwidth limits by cgroup (v2 cpu.max and cpu.max.burst, v1 cpu.cfs_quota_us,
    // cpu.cfs_period_us and cpu.cfs_burst_us), the cgroups above a task's group too; a group not
    // here has none ("max", -1)
    std::map<std::string, BandwidthLimit> limitOf;
};

// A group's shares from what the kernel shows of it: an autogroup's from its /proc/PID/autogroup
// text ("/autogroup-179 nice 5": the nice weight), a cgroup's from its v2 cpu.weight text
// (1..10000, 100 the default: x 1024 / 100, rounded as sched_weight_from_cgroup() does) or v1
// cpu.shares text. std::nullopt when the text says none.
std::optional<int> sharesFromAutogroup(const std::string& autogroupText);
std::optional<int> sharesFromCpuWeight(const std::string& cpuWeightText);
std::optional<int> sharesFromCpuShares(const std::string& cpuSharesText);

// Every task's group under `procRoot` (/proc), cgroup v2's controllers from `cgroupRoot`
// (/sys/fs/cgroup). Unreadable entries (a task that exited meanwhile) are skipped.
TaskGroupSnapshot snapshotTaskGroups(const std::string& procRoot = "/proc",
                                     const std::string& cgroupRoot = "/sys/fs/cgroup");

// Adds what a snapshot taken when the recording ended knows that `first` (taken as it began)
// does not: the tasks that started meanwhile and were still there, in the group they ended in
// (one a container runtime started and moved into its container's cgroup, which no fork chain
// from a task of `first` leads to), and the shares and limits of the groups they are in.
// Whatever `first` has stays as it was.
void addLaterSnapshot(TaskGroupSnapshot& first, const TaskGroupSnapshot& later);

std::string groupsSidecarPath(const std::string& tracePath);  // "<trace>.groups.json"
Status writeGroupsSidecar(const std::string& tracePath, const TaskGroupSnapshot& snapshot);
// std::nullopt when the trace has none; an Error naming the file when it cannot be read
Result<std::optional<TaskGroupSnapshot>> readGroupsSidecar(const std::string& tracePath);
// its text, `path` naming it in errors
Result<TaskGroupSnapshot> parseGroupsSidecar(const std::string& text, const std::string& path);

// The parent group of `group`: a cgroup's path without its last component, "" for a top group
// ("/system.slice", an autogroup: children of the root group).
std::string parentGroupOf(const std::string& group);

// The group of each of `pids` at the time of the trace: the snapshot's, else its parent's by the
// trace's fork events (a child starts in its parent's group), else "" (not known).
std::map<int32_t, std::string> groupsOfTasks(const TaskGroupSnapshot& snapshot, const EventStore& store,
                                             const std::vector<int32_t>& pids);

}  // namespace schedscope::tracing
