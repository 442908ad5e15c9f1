// Task groups a recording saves (tracing/task_groups.h): a task's group from its /proc texts as
// the kernel decides it (cgroup v1's cpu hierarchy, v2 down to where the cpu controller stops,
// else its autogroup), a /proc tree read whole, the sidecar read back, and a child in its
// parent's group through the trace's forks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "support/fixtures.h"
#include "task_groups.h"

namespace schedscope::tracing {
namespace {

const char* kAutogroup = "/autogroup-179 nice 0\n";

// cgroup.subtree_control lists "cpu" in exactly these cgroups
CpuControllerCheck cpuDownTo(const std::set<std::string>& enabled) {
    return [enabled](const std::string& parent) { return enabled.count(parent) > 0; };
}

TEST(TaskGroups, CgroupV1CpuHierarchyNamesTheGroup) {
    const std::string v1 = "9:name=systemd:/\n4:memory:/x\n2:cpu,cpuacct:/batch/jobs\n1:cpuset:/\n";
    EXPECT_EQ(taskGroupFrom(v1, kAutogroup, true, nullptr), "/batch/jobs");
    // in the root cpu cgroup a task is in its session's autogroup, when autogroup is on
    const std::string root = "2:cpu,cpuacct:/\n1:cpuset:/\n";
    EXPECT_EQ(taskGroupFrom(root, kAutogroup, true, nullptr), "autogroup-179");
    EXPECT_EQ(taskGroupFrom(root, kAutogroup, false, nullptr), "/");
    EXPECT_EQ(taskGroupFrom(root, "", true, nullptr), "/") << "a kernel thread has no autogroup text";
}

TEST(TaskGroups, CgroupV2GroupIsWhereTheCpuControllerStops) {
    const std::string v2 = "0::/user.slice/user-0.slice/session-3.scope\n";
    // the root passes cpu to user.slice, which passes it to user-0.slice, which does not pass it on
    const std::set<std::string> enabled = {"/", "/user.slice"};
    EXPECT_EQ(taskGroupFrom(v2, kAutogroup, true, cpuDownTo(enabled)), "/user.slice/user-0.slice");
    const std::set<std::string> none;
    EXPECT_EQ(taskGroupFrom(v2, kAutogroup, true, cpuDownTo(none)), "autogroup-179")
        << "no cpu controller below the root: the autogroup decides";
    EXPECT_EQ(taskGroupFrom("0::/\n", kAutogroup, true, cpuDownTo(enabled)), "autogroup-179");
}

// A fake file tree under the scratch directory's `name`, emptied first: put(path, text) writes
// one file, making its directories.
struct FakeTree {
    std::filesystem::path root;
    explicit FakeTree(const std::string& name) : root(std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / name) {
        std::filesystem::remove_all(root);
    }
    void put(const std::string& rel, const std::string& text) const {
        std::filesystem::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << text;
    }
};

TEST(TaskGroups, SnapshotReadsAProcTreeAndItsThreads) {
    const FakeTree tree("task-groups-proc");
    const std::filesystem::path& proc = tree.root;
    auto put = [&tree](const std::string& rel, const std::string& text) { tree.put(rel, text); };
    put("sys/kernel/sched_autogroup_enabled", "1\n");
    put("10/cgroup", "1:cpu:/\n");
    put("10/autogroup", "/autogroup-5 nice 0\n");
    put("10/task/10/stat", "");
    put("10/task/11/stat", "");  // a second thread of 10
    put("20/cgroup", "1:cpu:/db\n");
    put("20/autogroup", "/autogroup-6 nice 0\n");
    std::filesystem::create_directories(proc / "30");  // exited while read: no cgroup file
    put("self/cgroup", "1:cpu:/\n");  // not a pid
    const TaskGroupSnapshot snap = snapshotTaskGroups(proc.string(), "/nonexistent");
    EXPECT_TRUE(snap.autogroupEnabled);
    EXPECT_EQ(snap.groupOf.size(), 3u);
    EXPECT_EQ(snap.groupOf.at(10), "autogroup-5");
    EXPECT_EQ(snap.groupOf.at(11), "autogroup-5");
    EXPECT_EQ(snap.groupOf.at(20), "/db");
    EXPECT_EQ(snap.sharesOf.at("autogroup-5"), 1024) << "an autogroup at nice 0";
    EXPECT_FALSE(snap.sharesOf.count("/db")) << "no cpu.shares under /nonexistent: the default, said by its absence";
}

// The shares of the groups a snapshot finds: an autogroup's nice weight, a v2 cgroup's
// cpu.weight scaled to 1024, a v1 cgroup's cpu.shares
TEST(TaskGroups, SnapshotReadsEachGroupsShares) {
    const FakeTree tree("task-groups-shares");
    const std::filesystem::path& root = tree.root;
    auto put = [&tree](const std::string& rel, const std::string& text) { tree.put(rel, text); };
    put("proc/sys/kernel/sched_autogroup_enabled", "1\n");
    put("proc/10/cgroup", "0::/user.slice\n");
    put("proc/10/autogroup", "/autogroup-5 nice 5\n");
    put("proc/20/cgroup", "0::/system.slice/db.service\n");
    put("proc/20/autogroup", "/autogroup-6 nice 0\n");
    put("proc/30/cgroup", "4:cpu,cpuacct:/batch\n");
    put("cgroup/cgroup.subtree_control", "cpu memory\n");
    put("cgroup/system.slice/cgroup.subtree_control", "cpu\n");
    put("cgroup/system.slice/db.service/cpu.weight", "200\n");
    put("cgroup/system.slice/cpu.weight", "50\n");
    put("cgroup/cpu,cpuacct/batch/cpu.shares", "512\n");
    const TaskGroupSnapshot snap = snapshotTaskGroups((root / "proc").string(), (root / "cgroup").string());
    EXPECT_EQ(snap.groupOf.at(10), "/user.slice");
    EXPECT_EQ(snap.groupOf.at(20), "/system.slice/db.service");
    EXPECT_EQ(snap.groupOf.at(30), "/batch");
    EXPECT_EQ(snap.sharesOfGroup("/system.slice/db.service"), 2048) << "cpu.weight 200";
    EXPECT_EQ(snap.sharesOfGroup("/system.slice"), 512) << "the group above it: cpu.weight 50";
    EXPECT_EQ(parentGroupOf("/system.slice/db.service"), "/system.slice");
    EXPECT_EQ(parentGroupOf("/system.slice"), "") << "a top group: the root's child";
    EXPECT_EQ(parentGroupOf("autogroup-5"), "");
    EXPECT_EQ(snap.sharesOfGroup("/batch"), 512) << "v1 cpu.shares";
    EXPECT_EQ(snap.sharesOfGroup("/user.slice"), 1024) << "no cpu.weight file: the default";

    EXPECT_EQ(sharesFromAutogroup("/autogroup-5 nice 5\n"), 335);
    EXPECT_EQ(sharesFromAutogroup("/autogroup-5 nice -20\n"), 88761);
    EXPECT_FALSE(sharesFromAutogroup("/autogroup-5 nice 20\n"));
    EXPECT_FALSE(sharesFromAutogroup(""));
    EXPECT_EQ(sharesFromCpuWeight("100\n"), 1024);
    EXPECT_EQ(sharesFromCpuWeight("1\n"), 10) << "1 x 1024 / 100, rounded";
    EXPECT_EQ(sharesFromCpuWeight("10000\n"), 102400);
    EXPECT_FALSE(sharesFromCpuWeight("0\n"));
    EXPECT_FALSE(sharesFromCpuWeight("max\n"));
    EXPECT_EQ(sharesFromCpuShares("1024\n"), 1024);
    EXPECT_EQ(sharesFromCpuShares("1\n"), 2) << "the kernel clamps cpu.shares to MIN_SHARES";
}

// The CPU bandwidth limits a snapshot finds: a v2 cgroup's cpu.max (and cpu.max.burst), a v1
// cgroup's cpu.cfs_quota_us and cpu.cfs_period_us, for the cgroups above a task's group too; "max"
// and -1 are no limit, and values the kernel would not hold are none either.
TEST(TaskGroups, SnapshotReadsEachGroupsBandwidthLimit) {
    const FakeTree tree("task-groups-limits");
    const std::filesystem::path& root = tree.root;
    auto put = [&tree](const std::string& rel, const std::string& text) { tree.put(rel, text); };
    put("proc/10/cgroup", "0::/kubepods/pod1/c1\n");
    put("proc/20/cgroup", "0::/system.slice/db.service\n");
    put("proc/30/cgroup", "4:cpu,cpuacct:/batch\n");
    put("proc/40/cgroup", "4:cpu,cpuacct:/free\n");
    put("cgroup/cgroup.subtree_control", "cpu memory\n");
    put("cgroup/kubepods/cgroup.subtree_control", "cpu\n");
    put("cgroup/kubepods/pod1/cgroup.subtree_control", "cpu\n");
    put("cgroup/kubepods/cpu.max", "max 100000\n");
    put("cgroup/kubepods/pod1/cpu.max", "200000 100000\n");
    put("cgroup/kubepods/pod1/c1/cpu.max", "50000 100000\n");
    put("cgroup/kubepods/pod1/c1/cpu.max.burst", "10000\n");
    put("cgroup/system.slice/cgroup.subtree_control", "cpu\n");
    put("cgroup/system.slice/db.service/cpu.max", "max 100000\n");
    put("cgroup/cpu,cpuacct/batch/cpu.cfs_quota_us", "25000\n");
    put("cgroup/cpu,cpuacct/batch/cpu.cfs_period_us", "50000\n");
    put("cgroup/cpu,cpuacct/batch/cpu.cfs_burst_us", "0\n");
    put("cgroup/cpu,cpuacct/free/cpu.cfs_quota_us", "-1\n");
    put("cgroup/cpu,cpuacct/free/cpu.cfs_period_us", "100000\n");
    const TaskGroupSnapshot snap = snapshotTaskGroups((root / "proc").string(), (root / "cgroup").string());
    EXPECT_EQ(snap.limitOf.at("/kubepods/pod1/c1"), (BandwidthLimit{50000, 100000, 10000}));
    EXPECT_EQ(snap.limitOf.at("/kubepods/pod1"), (BandwidthLimit{200000, 100000, 0})) << "the pod above the container";
    EXPECT_EQ(snap.limitOf.count("/kubepods"), 0u) << "max: no limit";
    EXPECT_EQ(snap.limitOf.count("/system.slice/db.service"), 0u);
    EXPECT_EQ(snap.limitOf.at("/batch"), (BandwidthLimit{25000, 50000, 0})) << "v1 cfs quota and period";
    EXPECT_EQ(snap.limitOf.count("/free"), 0u) << "v1 quota -1: no limit";

    EXPECT_EQ(limitFromCpuMax("50000 100000\n", ""), (BandwidthLimit{50000, 100000, 0}));
    EXPECT_FALSE(limitFromCpuMax("max 100000\n", ""));
    EXPECT_FALSE(limitFromCpuMax("500 100000\n", "")) << "a quota under 1 ms";
    EXPECT_FALSE(limitFromCpuMax("50000 2000000\n", "")) << "a period over 1 s";
    EXPECT_FALSE(limitFromCpuMax("50000 100000\n", "60000\n")) << "a burst past the quota";
    EXPECT_FALSE(limitFromCpuMax("50000\n", ""));
    EXPECT_EQ(limitFromCfs("100000\n", "100000\n", ""), (BandwidthLimit{100000, 100000, 0}));
    EXPECT_FALSE(limitFromCfs("-1\n", "100000\n", "0\n"));
    EXPECT_FALSE(limitFromCfs("abc\n", "100000\n", "0\n"));
}

TEST(TaskGroups, SidecarRoundTripAndBadInput) {
    const std::filesystem::path dir = std::filesystem::path(SCHEDSCOPE_TEST_SCRATCH) / "task-groups-sidecar";
    std::filesystem::create_directories(dir);
    const std::string trace = (dir / "t.dat").string();
    std::filesystem::remove(groupsSidecarPath(trace));
    auto none = readGroupsSidecar(trace);
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_FALSE(none->has_value()) << "a trace without the sidecar has no groups";

    TaskGroupSnapshot snap;
    snap.autogroupEnabled = true;
    snap.groupOf = {{1, "/"}, {200, "autogroup-7"}};
    snap.sharesOf = {{"autogroup-7", 335}};
    ASSERT_TRUE(writeGroupsSidecar(trace, snap).ok());
    auto back = readGroupsSidecar(trace);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_TRUE(back->has_value());
    EXPECT_EQ((*back)->groupOf, snap.groupOf);
    EXPECT_TRUE((*back)->autogroupEnabled);
    EXPECT_EQ((*back)->sharesOf, snap.sharesOf);
    EXPECT_TRUE((*back)->limitOf.empty()) << "no limits saved: none read";
    EXPECT_FALSE((*back)->takenAfter) << "a recording's own";
    snap.takenAfter = true;
    snap.limitOf = {{"/box", {50000, 100000, 5000}}};
    ASSERT_TRUE(writeGroupsSidecar(trace, snap).ok());
    auto limited = readGroupsSidecar(trace);
    ASSERT_TRUE(limited.ok()) << limited.error();
    EXPECT_EQ((*limited)->limitOf, snap.limitOf);
    EXPECT_TRUE((*limited)->takenAfter) << "a later snapshot says so";
    std::ofstream(groupsSidecarPath(trace)) << "{\"tasks\": {\"1\": \"/a\"}, \"limits\": {\"/a\": {\"quota_us\": 10}}}";
    auto badLimit = readGroupsSidecar(trace);
    ASSERT_FALSE(badLimit.ok());
    EXPECT_EQ(badLimit.error(), groupsSidecarPath(trace) +
                                    ": group \"/a\": a limit must be {quota_us, period_us, burst_us} with a quota of "
                                    "1000..17592186044415 us, a period of 1000..1000000 us and a burst of at most the quota");

    std::ofstream(groupsSidecarPath(trace)) << "{\"tasks\": {\"1\": \"/a\"}, \"shares\": {\"/a\": 1}}";
    auto badShares = readGroupsSidecar(trace);
    ASSERT_FALSE(badShares.ok());
    EXPECT_EQ(badShares.error(), groupsSidecarPath(trace) + ": group \"/a\": shares must be an integer in 2..262144");
    std::ofstream(groupsSidecarPath(trace)) << "{\"tasks\": {\"1\": \"/a\"}}";
    auto old = readGroupsSidecar(trace);
    ASSERT_TRUE(old.ok()) << old.error();
    EXPECT_EQ((*old)->sharesOfGroup("/a"), 1024) << "a sidecar from before shares were saved: the default";

    std::ofstream(groupsSidecarPath(trace)) << "{\"tasks\": {\"x\": \"/\"}}";
    auto badPid = readGroupsSidecar(trace);
    ASSERT_FALSE(badPid.ok());
    EXPECT_EQ(badPid.error(), groupsSidecarPath(trace) + ": task \"x\": a pid must map to a group name");
    std::ofstream(groupsSidecarPath(trace)) << "[1, 2";
    auto truncated = readGroupsSidecar(trace);
    ASSERT_FALSE(truncated.ok());
    EXPECT_TRUE(truncated.error().starts_with(groupsSidecarPath(trace) + ": not valid JSON (")) << truncated.error();
}

// The snapshot taken as the workload ends adds the tasks that started meanwhile (a container's,
// in a cgroup no fork from a first-snapshot task leads to) and their groups' shares and limits;
// what the first snapshot knew stays as the recording began, a limit set since included.
TEST(TaskGroups, ALaterSnapshotAddsWhatStartedDuringTheRecording) {
    TaskGroupSnapshot first;
    first.groupOf = {{10, "/user"}, {20, "/box"}};
    first.sharesOf = {{"/user", 1024}, {"/box", 512}};
    TaskGroupSnapshot later;
    later.groupOf = {{10, "/moved"}, {30, "/pod/c1"}};
    later.sharesOf = {{"/user", 2048}, {"/box", 512}, {"/pod", 1024}, {"/pod/c1", 256}, {"/moved", 1024}};
    later.limitOf = {{"/box", {20000, 100000, 0}}, {"/pod/c1", {50000, 100000, 0}}};
    addLaterSnapshot(first, later);
    EXPECT_EQ(first.groupOf.at(10), "/user") << "a task the first snapshot knew keeps its group";
    EXPECT_EQ(first.groupOf.at(30), "/pod/c1") << "a task that started during the recording";
    EXPECT_EQ(first.sharesOfGroup("/user"), 1024);
    EXPECT_EQ(first.sharesOfGroup("/pod/c1"), 256);
    EXPECT_EQ(first.limitOf.count("/box"), 0u) << "no limit as the recording began";
    EXPECT_EQ(first.limitOf.at("/pod/c1"), (BandwidthLimit{50000, 100000, 0}));
}

TEST(TaskGroups, AChildIsInItsParentsGroupThroughTheTracesForks) {
    EventStore store;
    auto fork = [&](uint64_t ts, int32_t parent, int32_t child) {
        SchedEvent e;
        e.ts = ts;
        e.cpu = 0;
        e.kind = EventKind::ProcessFork;
        e.pid = parent;
        e.pid2 = child;
        store.append(e);
    };
    fork(100, 10, 11);  // 10 is in the snapshot
    fork(200, 11, 12);  // a grandchild
    fork(300, 99, 13);  // a parent nobody knows
    TaskGroupSnapshot snap;
    snap.groupOf = {{10, "autogroup-5"}, {50, "/db"}};
    const auto groups = groupsOfTasks(snap, store, {10, 11, 12, 13, 50});
    EXPECT_EQ(groups.at(10), "autogroup-5");
    EXPECT_EQ(groups.at(11), "autogroup-5");
    EXPECT_EQ(groups.at(12), "autogroup-5");
    EXPECT_EQ(groups.at(13), "");
    EXPECT_EQ(groups.at(50), "/db");
}

}  // namespace
}  // namespace schedscope::tracing
