// Task groups (group_shares.h): a CPU's time is shared between the groups there by their shares
// first, then among a group's tasks; the balancer sees the groups' entity loads. Checked against
// what the kernel gives for the same set-ups (cgroup v2 cpu.weight, autogroups): 4 hogs in one
// group and 1 in another on one CPU split it 50/50 by group, not 80/20 by task.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <numeric>

#include "sim/fair_rq.h"
#include "sim/group_shares.h"
#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"
#include "workload/workload_json.h"
#include "workload/workload_json_writer.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;
using workload::OpKind;

workload::TaskSpec hog(const std::string& name, int group, const CpuSet& cpus = {}, int nice = 0) {
    workload::TaskSpec t;
    t.name = name;
    t.group = group;
    t.affinity = cpus;
    t.nice = nice;
    t.script = {op(OpKind::Run, 10e9)};  // longer than any run here
    return t;
}

Topology cores(int n) {
    Shape shape;
    shape.coresPerCluster = n;
    return makeTopology(std::to_string(n) + " cores", shape);
}

// each task's CPU time over the run, in seconds
std::vector<double> cpuSeconds(const Topology& topo, const workload::Workload& wl, const std::string& profile,
                               double seconds) {
    const DomainTree tree = buildTree(topo, profile, true, true);
    SimOptions o;
    o.durationS = seconds;
    auto st = simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    std::vector<double> out;
    if (!st.ok()) return out;
    for (const Task& t : (*st)->tasks) out.push_back(static_cast<double>(t.cpuTime.total()) / 1e9);
    return out;
}

// 4 hogs in group "many" and 1 in "one", all on CPU 0: half the CPU to each group (the kernel:
// two entities of 1024 on the CPU's runqueue), an eighth to each of the four. Without groups,
// a fifth each. Both fair classes share so.
TEST(TaskGroups, OneCpuIsSharedByGroupsFirst) {
    const Topology topo = cores(1);
    for (const std::string profile : {"linux-6.1", "linux-6.12"}) {
        workload::Workload wl;
        wl.groups = {{"many", 1024}, {"one", 1024}};
        for (int i = 0; i < 4; ++i) wl.tasks.push_back(hog("many" + std::to_string(i), 0));
        wl.tasks.push_back(hog("one", 1));
        const auto grouped = cpuSeconds(topo, wl, profile, 2.0);
        ASSERT_EQ(grouped.size(), 5u);
        EXPECT_NEAR(grouped[4], 1.0, 0.03) << profile << ": the lone group's task gets half";
        for (int i = 0; i < 4; ++i) EXPECT_NEAR(grouped[static_cast<size_t>(i)], 0.25, 0.03) << profile << " task " << i;

        for (auto& t : wl.tasks) t.group = -1;
        wl.groups.clear();
        const auto flat = cpuSeconds(topo, wl, profile, 2.0);
        for (double s : flat) EXPECT_NEAR(s, 0.4, 0.03) << profile << ": without groups, a fifth each";
    }
}

// shares weigh the groups (cpu.weight 200 vs 100), nice weighs the tasks within one
TEST(TaskGroups, SharesWeighGroupsAndNiceWeighsTasksWithin) {
    const Topology topo = cores(1);
    workload::Workload wl;
    wl.groups = {{"heavy", 2048}, {"light", 1024}};
    wl.tasks = {hog("h", 0), hog("l0", 1), hog("l5", 1, {}, 5)};
    const auto s = cpuSeconds(topo, wl, "linux-6.12", 3.0);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_NEAR(s[0], 2.0, 0.05) << "2048 against 1024: two thirds";
    // the light third split 1024 : 335 (nice 0 : nice 5)
    EXPECT_NEAR(s[1], 1.0 * 1024 / (1024 + 335), 0.05);
    EXPECT_NEAR(s[2], 1.0 * 335 / (1024 + 335), 0.05);
}

// Nested groups share at each level: a slice of two child groups with a hog each beside a group
// with one hog, on one CPU: the slice and the lone group half each, the slice's two a quarter
// each (cgroup v2's /system.slice/a.service and b.service beside /user.slice). Flattened to
// their leaves the three would get a third each.
TEST(TaskGroups, NestedGroupsShareAtEachLevel) {
    const Topology topo = cores(1);
    for (const std::string profile : {"linux-6.1", "linux-6.12"}) {
        workload::Workload wl;
        wl.groups = {{"slice", 1024, -1}, {"a", 1024, 0}, {"b", 1024, 0}, {"user", 1024, -1}};
        wl.tasks = {hog("a", 1), hog("b", 2), hog("u", 3)};
        const auto nested = cpuSeconds(topo, wl, profile, 2.0);
        ASSERT_EQ(nested.size(), 3u);
        EXPECT_NEAR(nested[0], 0.5, 0.03) << profile;
        EXPECT_NEAR(nested[1], 0.5, 0.03) << profile;
        EXPECT_NEAR(nested[2], 1.0, 0.03) << profile;
        wl.groups[1].parent = wl.groups[2].parent = -1;
        const auto leaves = cpuSeconds(topo, wl, profile, 2.0);
        for (double s : leaves) EXPECT_NEAR(s, 2.0 / 3, 0.03) << profile << ": three top groups, a third each";
    }
}

// A group's own tasks and its child groups' entities share its runqueue (cgroup v1 lets a
// group hold both): task x beside child q's entity, whose two tasks split q's half.
TEST(TaskGroups, AGroupsTasksAndChildGroupsShareItsRunqueue) {
    const Topology topo = cores(1);
    workload::Workload wl;
    wl.groups = {{"p", 1024, -1}, {"q", 1024, 0}};
    wl.tasks = {hog("x", 0), hog("y", 1), hog("z", 1), hog("root", -1)};
    const auto s = cpuSeconds(topo, wl, "linux-6.12", 4.0);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_NEAR(s[3], 2.0, 0.05) << "the root task against p's entity: half";
    EXPECT_NEAR(s[0], 1.0, 0.05) << "x against q's entity: half of p's half";
    EXPECT_NEAR(s[1], 0.5, 0.05);
    EXPECT_NEAR(s[2], 0.5, 0.05);
}

// One group for every task changes nothing of how they share: a CPU's tasks weigh in the same
// proportions, whatever the group's entity weighs.
TEST(TaskGroups, OneGroupForAllSharesAsNoGroup) {
    const Topology topo = cores(1);
    workload::Workload wl;
    wl.groups = {{"all", 1024}};
    wl.tasks = {hog("a", 0), hog("b", 0, {}, 3), hog("c", 0)};
    const auto grouped = cpuSeconds(topo, wl, "linux-6.12", 2.0);
    for (auto& t : wl.tasks) t.group = -1;
    wl.groups.clear();
    const auto flat = cpuSeconds(topo, wl, "linux-6.12", 2.0);
    ASSERT_EQ(grouped.size(), flat.size());
    for (size_t i = 0; i < flat.size(); ++i) EXPECT_NEAR(grouped[i], flat[i], 0.03) << "task " << i;
}

// Two CPUs, free to move: the balancer weighs the groups' entities, so the lone group's task
// (an entity of 1024 on its CPU) balances the four others (1024 together on theirs) and keeps
// a CPU to itself, as it does on a kernel with autogroups; without groups, five tasks share two
// CPUs alike.
TEST(TaskGroups, TheBalancerWeighsGroupsNotTasks) {
    const Topology topo = cores(2);
    workload::Workload wl;
    wl.groups = {{"many", 1024}, {"one", 1024}};
    for (int i = 0; i < 4; ++i) wl.tasks.push_back(hog("many" + std::to_string(i), 0));
    wl.tasks.push_back(hog("one", 1));
    const auto grouped = cpuSeconds(topo, wl, "linux-6.12", 2.0);
    ASSERT_EQ(grouped.size(), 5u);
    EXPECT_GT(grouped[4], 1.8) << "the lone group's task runs most of the 2 s";
    const double many = std::accumulate(grouped.begin(), grouped.begin() + 4, 0.0);
    EXPECT_NEAR(many, 4.0 - grouped[4], 0.05) << "the four share the rest";

    for (auto& t : wl.tasks) t.group = -1;
    wl.groups.clear();
    const auto flat = cpuSeconds(topo, wl, "linux-6.12", 2.0);
    EXPECT_LT(flat[4], 1.2) << "without groups it gets about a fifth of 4 CPU-seconds";
}

// The bookkeeping the re-weighting keeps: after every event of a run with groups coming and
// going on four CPUs (bursts, sleeps, wakeups, balancing), each runqueue's weight is the sum of
// its tasks' weights, and each task's weight is its share of its group's entity there.
TEST(TaskGroups, RunqueueWeightsStayTheSumOfTheirTasks) {
    const Topology topo = cores(4);
    workload::Workload wl;
    // "c" below "a", "d" below "c" (three levels), "b" at the top
    wl.groups = {{"a", 1024, -1}, {"b", 512, -1}, {"c", 4096, 0}, {"d", 300, 2}};
    for (int i = 0; i < 12; ++i) {
        const int group = i % 4 == 3 ? -1 : i % 5 == 0 ? 3 : i % 3;  // a quarter in the root group
        wl.tasks.push_back(runSleepLoop("t" + std::to_string(i), group, 0.7e6 + 0.1e6 * i, 0.4e6 + 0.2e6 * (i % 3)));
        wl.tasks.back().nice = (i % 5) - 2;
    }
    TestRun run = startRun(topo, "linux-6.12", wl, 0.5);
    ASSERT_TRUE(run.sim);
    const SimState& s = run.sim->state();
    long long events = 0, checked = 0;
    while (run.sim->stepEvent()) {
        if (++events % 3) continue;
        ++checked;
        for (const Cpu& r : s.cpus) {
            double weight = 0;
            std::vector<double> groupWeight(s.groups.size(), 0.0);
            for (const Task& t : s.tasks) {
                const bool queued = t.cpu == r.id && (t.state == TaskState::Running || t.state == TaskState::Runnable || t.delayed);
                if (!queued) continue;
                weight += t.weight;
                if (t.group < 0) {
                    ASSERT_EQ(t.weight, t.niceWeight) << "a root-group task weighs its nice weight";
                    continue;
                }
                groupWeight[static_cast<size_t>(t.group)] += t.niceWeight;
                // its nice weight times its share of each entity on the way up
                double product = t.niceWeight;
                for (int k = t.group; k >= 0; k = s.groups[static_cast<size_t>(k)].parent) {
                    const GroupOnCpu& g = s.groups[static_cast<size_t>(k)].onCpu[static_cast<size_t>(r.id)];
                    product *= g.shares / g.queuedWeight;
                }
                ASSERT_NEAR(t.weight, std::max(2.0, product), 1e-6 * product) << "task " << t.id << " at " << s.now;
            }
            ASSERT_NEAR(r.loadWeight, weight, 1e-6) << "cpu " << r.id << " at " << s.now;
            // a group's runqueue holds its queued tasks' nice weights and its queued children's entities
            for (size_t g = 0; g < s.groups.size(); ++g)
                for (size_t k = 0; k < s.groups.size(); ++k) {
                    const GroupOnCpu& child = s.groups[k].onCpu[static_cast<size_t>(r.id)];
                    if (s.groups[k].parent != static_cast<int>(g)) continue;
                    ASSERT_EQ(child.inParent, child.queuedWeight > 0 ? child.shares : 0.0) << "group " << k << " at " << s.now;
                    groupWeight[g] += child.inParent;
                }
            for (size_t g = 0; g < s.groups.size(); ++g)
                ASSERT_NEAR(s.groups[g].onCpu[static_cast<size_t>(r.id)].queuedWeight, groupWeight[g], 1e-6)
                    << "group " << g << "'s runqueue on cpu " << r.id << " at " << s.now;
            // every live task of a group is counted where it is, and only there
            for (size_t g = 0; g < s.groups.size(); ++g) {
                std::vector<int> here;
                for (const Task& t : s.tasks)
                    if (t.group == static_cast<int>(g) && t.cpu == r.id && t.state != TaskState::NotStarted &&
                        t.state != TaskState::Exited)
                        here.push_back(t.id);
                std::vector<int> attached = s.groups[g].onCpu[static_cast<size_t>(r.id)].attached;
                std::sort(attached.begin(), attached.end());
                ASSERT_EQ(attached, here) << "group " << g << " on cpu " << r.id << " at " << s.now;
            }
        }
    }
    EXPECT_GT(checked, 1000);
    long long migrations = 0;
    for (const Task& t : s.tasks) migrations += t.migrations;
    EXPECT_GT(migrations, 10) << "the check saw tasks change CPU";
}

// resources/workloads/cgroups.json: 8 web workers (two thirds busy) beside 8 batch hogs whose
// group has a quarter of the web group's shares, on 4 cores. The web group wants 5.3 CPUs, so
// the shares decide: 1024 / (1024 + 256) of the CPU time goes to it, about half without groups.
TEST(TaskGroups, TheExampleWorkloadGivesTheWebGroupItsShare) {
    const Topology topo = cores(4);
    auto wl = workload::loadWorkloadFile(std::string(SCHEDSCOPE_SOURCE_DIR) + "/resources/workloads/cgroups.json", 4);
    ASSERT_TRUE(wl.ok()) << wl.error();
    ASSERT_EQ(wl->groups.size(), 2u);
    auto webShare = [&](const workload::Workload& w) {
        const auto s = cpuSeconds(topo, w, "linux-6.12", 2.0);
        double web = 0, all = 0;
        for (size_t i = 0; i < s.size(); ++i) {
            all += s[i];
            if (w.tasks[i].name.starts_with("web")) web += s[i];
        }
        return web / all;
    };
    EXPECT_NEAR(webShare(*wl), 1024.0 / (1024 + 256), 0.03);
    workload::Workload flat = *wl;
    for (auto& t : flat.tasks) t.group = -1;
    flat.groups.clear();
    EXPECT_LT(webShare(flat), 0.55);
}

// SimOptions::taskGroups off runs the workload's tasks in one group: the same run as a workload
// without groups
TEST(TaskGroups, OptionOffIsOneGroupForAll) {
    const Topology topo = cores(2);
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    wl.groups = {{"many", 1024}, {"one", 1024}};
    for (int i = 0; i < 4; ++i) wl.tasks.push_back(hog("many" + std::to_string(i), 0));
    wl.tasks.push_back(hog("one", 1));
    workload::Workload flat = wl;
    for (auto& t : flat.tasks) t.group = -1;
    flat.groups.clear();
    SimOptions o;
    o.durationS = 0.5;
    o.taskGroups = false;
    auto off = simulate(topo, tree, wl, o);
    o.taskGroups = true;
    auto none = simulate(topo, tree, flat, o);
    auto on = simulate(topo, tree, wl, o);
    ASSERT_TRUE(off.ok() && none.ok() && on.ok());
    for (size_t i = 0; i < wl.tasks.size(); ++i) {
        EXPECT_EQ((*off)->tasks[i].cpuTime.total(), (*none)->tasks[i].cpuTime.total()) << "task " << i;
        EXPECT_EQ((*off)->tasks[i].group, -1);
    }
    EXPECT_GT((*on)->tasks[4].cpuTime.total(), (*off)->tasks[4].cpuTime.total() + 200'000'000) << "the lone group's task";
}

// Each group with tasks keeps a runqueue per CPU: 2,500 one-task groups on 4096 CPUs
// would be 10,240,000 of them, which is refused in one line before anything is allocated; a
// group only listed takes none.
TEST(TaskGroups, TooManyGroupRunqueuesAreRefused) {
    Shape shape;
    shape.packages = 4;
    shape.coresPerCluster = 1024;
    const Topology topo = makeTopology("4096 CPUs", shape);
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    for (int i = 0; i < 2500; ++i) {
        wl.groups.push_back({"g" + std::to_string(i), 1024});
        wl.tasks.push_back(hog("t" + std::to_string(i), i));
    }
    SimOptions o;
    auto st = makeSimState(topo, tree, wl, o);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error(), "simulate: 2500 task groups in use on 4096 CPUs need 10240000 group runqueues, more than the "
                          "10000000 the simulator keeps (put tasks in fewer groups)");
    for (size_t i = 10; i < wl.tasks.size(); ++i) wl.tasks[i].group = 0;  // the rest listed, empty
    auto fits = makeSimState(topo, tree, wl, o);
    ASSERT_TRUE(fits.ok()) << fits.error();
    EXPECT_EQ((*fits)->groups[100].onCpu.size(), 0u);
    EXPECT_EQ((*fits)->groups[5].onCpu.size(), 4096u);
}

// calc_group_shares(): the group's shares split by its CPUs' loads, this CPU's the larger of its
// queued weight and load average; never below MIN_SHARES, never above the group's shares
TEST(TaskGroups, CalcGroupSharesSplitsByLoad) {
    TaskGroupState g;
    g.shares = 1024;
    g.onCpu.resize(2);
    g.onCpu[1].loadContrib = 3072;  // CPU 1 holds three times what CPU 0 will
    g.loadAvg = 3072;
    g.onCpu[0].queuedWeight = 1024;
    EXPECT_DOUBLE_EQ(calcGroupShares(g, 0, 0), 256.0);
    EXPECT_DOUBLE_EQ(calcGroupShares(g, 0, 2048), 1024.0 * 2048 / (3072 + 2048)) << "the load average is larger";
    g.onCpu[0].queuedWeight = 1;
    EXPECT_DOUBLE_EQ(calcGroupShares(g, 0, 0), 2.0) << "MIN_SHARES";
    g.loadAvg = g.onCpu[1].loadContrib = 0;
    EXPECT_DOUBLE_EQ(calcGroupShares(g, 0, 0), 1024.0) << "alone: all of the group's shares";
    EXPECT_DOUBLE_EQ(flattenedWeight(1024, 512, 2048), 256.0);
    EXPECT_DOUBLE_EQ(flattenedWeight(15, 2, 88761), 2.0) << "never below the kernel's smallest entity weight";
}

// reweight_entity() on EEVDF keeps the lag as real time: a queued task's lag in vtime scales by
// old / new weight, and its deadline's distance too
TEST(TaskGroups, ReweightKeepsTheLagInRealTime) {
    const Topology topo = cores(1);
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    wl.tasks = {hog("a", -1), hog("b", -1), hog("c", -1)};
    SimOptions o;
    auto st = makeSimState(topo, tree, wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    SimState& s = **st;
    Cpu& rq = s.cpus[0];
    Task& a = s.tasks[0];
    Task& b = s.tasks[1];
    for (Task* t : {&a, &b}) {
        t->cpu = 0;
        t->state = TaskState::Runnable;
    }
    a.vruntime = 1000;
    a.deadline = 4000;
    b.vruntime = 3000;
    b.deadline = 5000;
    queueEntity(s, rq, a);
    queueEntity(s, rq, b);
    rq.loadWeight = 2048;
    // the average is 2000: b lags -1000 vtime at 1024, -2000 at 512
    reweightEntity(s, rq, b, 512);
    EXPECT_DOUBLE_EQ(b.weight, 512);
    EXPECT_DOUBLE_EQ(b.vlag, -2000);
    EXPECT_DOUBLE_EQ(b.deadline - b.vruntime, 4000) << "2000 of vtime at 1024 is 4000 at 512";
    // placed against a alone (W = 1024) with the lag inflated by (W + w) / W
    EXPECT_NEAR(b.vruntime, 1000 + 2000 * (1024.0 + 512) / 1024, 1e-6);
    EXPECT_EQ(rq.avgVruntime.load(), 1024 + 512);
}

// The JSON format: groups and their shares, a task's group, the writer's round trip, errors
TEST(TaskGroups, WorkloadJsonGroups) {
    auto w = workload::parseWorkloadJson(
        R"({"groups":{"db":{"shares":2048},"batch":{}},"tasks":[)"
        R"({"name":"a","group":"db","script":[{"run_ms":1}]},)"
        R"({"name":"b","group":"web","script":[{"run_ms":1}]},)"
        R"({"name":"c","script":[{"run_ms":1}]}]})",
        "g.json", 4);
    ASSERT_TRUE(w.ok()) << w.error();
    ASSERT_EQ(w->groups.size(), 3u) << "db, batch (listed, unused) and web (named by a task)";
    EXPECT_EQ(w->groups[0].name, "batch");
    EXPECT_EQ(w->groups[0].shares, 1024);
    EXPECT_EQ(w->groups[1].name, "db");
    EXPECT_EQ(w->groups[1].shares, 2048);
    EXPECT_EQ(w->groups[static_cast<size_t>(w->tasks[1].group)].name, "web");
    EXPECT_EQ(w->groups[static_cast<size_t>(w->tasks[1].group)].shares, 1024) << "a group not listed has 1024";
    EXPECT_EQ(w->tasks[2].group, -1);
    const auto back = workload::parseWorkloadJson(workload::workloadToJson(*w, 4).dump(), "back.json", 4);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back->groups.size(), 3u);
    EXPECT_EQ(back->groups[static_cast<size_t>(back->tasks[0].group)].name, "db");
    EXPECT_EQ(back->groups[static_cast<size_t>(back->tasks[0].group)].shares, 2048);
    EXPECT_EQ(back->tasks[2].group, -1);

    auto error = [](const std::string& text) {
        auto r = workload::parseWorkloadJson(text, "x.json", 4);
        return r.ok() ? std::string("(accepted)") : r.error();
    };
    const std::string task = R"("tasks":[{"name":"a","script":[{"run_ms":1}]}])";
    EXPECT_EQ(error(R"({"groups":{"db":{"shares":1}},)" + task + "}"), "x.json: group 'db': shares must be an integer in 2..262144");
    EXPECT_EQ(error(R"({"groups":{"db":{"shares":1.5}},)" + task + "}"), "x.json: group 'db': shares must be an integer in 2..262144");
    EXPECT_EQ(error(R"({"groups":{"db":1024},)" + task + "}"), R"(x.json: group 'db': must be an object, {"shares": N})");
    EXPECT_EQ(error(R"({"groups":{"db":{"weight":100}},)" + task + "}"),
              R"(x.json: group 'db': unknown field "weight" (known here: shares, parent, quota_us, period_us, burst_us))");
    EXPECT_EQ(error(R"({"groups":{"db":{"parent":"sys"}},)" + task + "}"), "x.json: group 'db': its parent 'sys' is not one of the groups listed");
    EXPECT_EQ(error(R"({"groups":{"a":{"parent":"b"},"b":{"parent":"a"}},)" + task + "}"),
              "x.json: group 'a': its parents do not reach the root group within 32 levels (a cycle, or nested too deep)");
    EXPECT_EQ(error(R"({"groups":{"a":{"parent":"a"}},)" + task + "}"),
              "x.json: group 'a': its parents do not reach the root group within 32 levels (a cycle, or nested too deep)");
    auto nested = workload::parseWorkloadJson(R"({"groups":{"sys":{},"db":{"parent":"sys","shares":512}},)" + task + "}", "n.json", 4);
    ASSERT_TRUE(nested.ok()) << nested.error();
    ASSERT_EQ(nested->groups.size(), 2u);
    EXPECT_EQ(nested->groups[0].name, "db");
    EXPECT_EQ(nested->groups[0].parent, 1);
    EXPECT_EQ(nested->groups[1].parent, -1);
    const auto again = workload::parseWorkloadJson(workload::workloadToJson(*nested, 4).dump(), "again.json", 4);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->groups[0].parent, 1) << "the writer keeps the parent";
    EXPECT_EQ(again->groups[0].shares, 512);
    EXPECT_EQ(error(R"({"groups":[],)" + task + "}"), R"(x.json: groups must be an object of {"NAME": {"shares": N}})");
    EXPECT_EQ(error(R"({"tasks":[{"name":"a","group":"","script":[{"run_ms":1}]}]})"),
              "x.json: task 'a': group must name a group (absent: the root group)");
    EXPECT_EQ(error(R"({"tasks":[{"name":"a","group":7,"script":[{"run_ms":1}]}]})"), "x.json: task 'a': group must be a string");
}

}  // namespace
}  // namespace schedscope::test
