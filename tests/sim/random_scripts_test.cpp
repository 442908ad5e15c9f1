// Random workloads against what their scripts alone decide. Without barriers, whether a task
// gets through its script does not depend on timing: each task's ops run in order, a Wait
// consumes one of the task's own wakes (kept when they come early, as the simulator keeps them),
// a Take one item of the task's own work queue (only it takes from that queue: with several
// takers which one gets an item is timing), a Fork starts a task, and nothing else couples the
// tasks. So a timeless pass over the
// scripts says which tasks finish, whatever the scheduler does; the simulator, on any machine
// and under any kernel profile, must finish exactly those, and do all the work their Run ops
// ask for. A replayed trace stalling at 0.2 s (a nested script's wakeup taking another
// script's CPU) broke this.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>

#include "sim/simulator.h"
#include "workload/workload_json_writer.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

struct Generated {
    workload::Workload wl;
    std::vector<double> runNs;  // per task: the work of all its Run ops
    std::vector<int> bursts;    // per task: how many Run ops it runs
};

// Follows a Loop op as the simulator does: `count` jumps back, then on (and re-armed for the
// next time it is reached). Returns the next pc.
size_t followLoop(const workload::Op& l, size_t pc, std::map<size_t, long long>& left) {
    long long& n = left.try_emplace(pc, -2).first->second;
    if (n == -2) n = l.count;
    if (n > 0) {
        --n;
        return static_cast<size_t>(l.to);
    }
    n = -2;
    return pc + 1;
}

double runWork(const std::vector<workload::Op>& script, int& bursts) {
    std::map<size_t, long long> left;
    double ns = 0;
    bursts = 0;
    for (size_t pc = 0; pc < script.size();) {
        if (script[pc].kind == OpKind::Loop) {
            pc = followLoop(script[pc], pc, left);
            continue;
        }
        if (script[pc].kind == OpKind::Run) {
            ns += script[pc].amountNs;
            ++bursts;
        }
        ++pc;
    }
    return ns;
}

// task i's work queue: only task i takes from it
constexpr int kOwnQueue = 1000;

Generated randomWorkload(std::mt19937_64& rng, int cpus) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Generated g;
    const int n = pick(3, 12);
    g.wl.name = "random scripts";
    g.wl.tasks.resize(static_cast<size_t>(n));
    g.runNs.assign(static_cast<size_t>(n), 0);
    for (int i = 0; i < n; ++i) {
        auto& t = g.wl.tasks[static_cast<size_t>(i)];
        t.name = "t" + std::to_string(i);
        t.nice = pick(0, 3) == 0 ? pick(-20, 19) : 0;
        t.startAtBegin = i < 2 || pick(0, 2) != 0;  // the first two always start
        if (pick(0, 4) == 0) t.affinity = CpuSet::single(pick(0, cpus - 1));
        if (pick(0, 2) == 0) {  // memory-bound: its speed changes with what runs beside it
            t.memFraction = pick(1, 9) / 10.0;
            t.bandwidthGBs = pick(1, 20);
        }
        // reads its waker's data: its bursts after a wakeup are longer, its work is not
        if (pick(0, 2) == 0) t.handoffKB = pick(1, 64);
    }
    for (int i = 0; i < n; ++i) {
        auto& t = g.wl.tasks[static_cast<size_t>(i)];
        const int ops = pick(2, 30);
        int lastLoop = -1;
        for (int k = 0; k < ops; ++k) {
            const int kind = pick(0, 12);
            const int other = pick(0, n - 1);
            if (kind <= 2) {
                t.script.push_back(op(OpKind::Run, pick(1, 2000) * 1000.0));
            } else if (kind == 3) {
                t.script.push_back(op(OpKind::Sleep, pick(1, 2000) * 1000.0));
            } else if (kind == 4) {
                t.script.push_back(op(OpKind::Wait));
            } else if (kind <= 7) {
                workload::Op w = wakeOp(other);
                if (pick(0, 3) == 0) w.targets.push_back(pick(0, n - 1));  // 1:N
                w.sync = pick(0, 1) == 1;
                t.script.push_back(w);
            } else if (kind == 8 && !g.wl.tasks[static_cast<size_t>(other)].startAtBegin) {
                workload::Op f = op(OpKind::Fork);
                f.targets = {other};
                t.script.push_back(f);
            } else if (kind == 9) {
                workload::Op a = op(OpKind::SetAffinity);
                if (pick(0, 1)) a.cpus = CpuSet::range(0, pick(0, cpus - 1));  // else back to all
                t.script.push_back(a);
            } else if (kind == 11 && pick(0, 5) == 0) {  // posts (11 and 12) outnumber takes 11:1
                workload::Op take = op(OpKind::Take);
                take.id = kOwnQueue + i;
                t.script.push_back(take);
            } else if (kind >= 11) {
                workload::Op post = op(OpKind::Post);
                post.id = kOwnQueue + other;
                post.sync = pick(0, 1) == 1;
                t.script.push_back(post);
            } else if (kind == 10 && static_cast<int>(t.script.size()) > lastLoop + 1) {
                // repeat a stretch of the script after the last loop: loops inside loops re-arm on
                // every pass and could ask for minutes of work
                workload::Op l = op(OpKind::Loop);
                l.to = pick(lastLoop + 1, static_cast<int>(t.script.size()) - 1);
                l.count = pick(1, 3);
                lastLoop = static_cast<int>(t.script.size());
                t.script.push_back(l);
            }
        }
    }
    // the work of each task's Run ops as its loops repeat them
    g.bursts.assign(g.runNs.size(), 0);
    for (size_t i = 0; i < g.runNs.size(); ++i) g.runNs[i] = runWork(g.wl.tasks[i].script, g.bursts[i]);
    return g;
}

struct ScriptOutcome {
    std::vector<bool> done;     // reaches the end of its script
    std::vector<bool> started;  // starts at the beginning or is forked
};

// The timeless pass: which tasks reach the end of their script.
ScriptOutcome finishesByScripts(const workload::Workload& wl) {
    const size_t n = wl.tasks.size();
    std::vector<size_t> pc(n, 0);
    std::vector<std::map<size_t, long long>> loops(n);
    std::vector<int> pending(n, 0);
    std::map<int, long long> items;  // by queue id
    std::vector<bool> started(n), done(n, false);
    for (size_t i = 0; i < n; ++i) started[i] = wl.tasks[i].startAtBegin;
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t i = 0; i < n; ++i) {
            if (!started[i] || done[i]) continue;
            const auto& script = wl.tasks[i].script;
            for (; pc[i] < script.size(); ++pc[i], progress = true) {
                const workload::Op& o = script[pc[i]];
                if (o.kind == OpKind::Loop) {
                    pc[i] = followLoop(o, pc[i], loops[i]) - 1;  // the loop's ++pc[i] lands on it
                } else if (o.kind == OpKind::Wait) {
                    if (pending[i] == 0) break;
                    --pending[i];
                } else if (o.kind == OpKind::Wake) {
                    for (int t : o.targets)
                        if (!done[static_cast<size_t>(t)]) ++pending[static_cast<size_t>(t)];
                } else if (o.kind == OpKind::Take) {
                    if (items[o.id] == 0) break;
                    --items[o.id];
                } else if (o.kind == OpKind::Post) {
                    ++items[o.id];
                } else if (o.kind == OpKind::Fork) {
                    for (int t : o.targets) started[static_cast<size_t>(t)] = true;
                }
            }
            if (pc[i] == script.size()) {
                done[i] = true;
                progress = true;
            }
        }
    }
    return {done, started};
}

struct Machine {
    const char* name;
    Topology topo;
};

std::vector<Machine> machines() {
    Shape two;
    two.coresPerCluster = 2;
    Shape smt;
    smt.arch = Arch::X86_64;
    smt.coresPerCluster = 2;
    smt.threads = 2;
    Shape clusters;
    clusters.clustersPerLlc = 2;
    clusters.coresPerCluster = 2;
    Shape numa;
    numa.arch = Arch::X86_64;
    numa.packages = 2;
    numa.nodesPerPackage = 2;
    numa.coresPerCluster = 2;
    return {{"2 cores", makeTopology("2 cores", two)},
            {"2 cores x SMT2", makeTopology("2 cores x SMT2", smt)},
            {"2 clusters of 2", makeTopology("2 clusters of 2", clusters)},
            {"2 packages x 2 nodes x 2 cores", makeTopology("2x2x2", numa)}};
}

TEST(RandomScripts, TheSimulatorFinishesWhatTheScriptsLetFinish) {
    const auto ms = machines();
    const char* profiles[] = {"linux-6.1", "linux-6.6", "linux-6.12", "linux-7.1"};
    std::mt19937_64 rng(20261203);
    int runs = 0, finished = 0, stalled = 0, throttled = 0;
    for (int round = 0; round < 400; ++round) {
        const Machine& m = ms[static_cast<size_t>(round) % ms.size()];
        const int cpus = static_cast<int>(m.topo.cpus.size());
        Generated g = randomWorkload(rng, cpus);
        // every third round in task groups, one nested in the other, each with a CPU limit of a fifth
        // of a CPU to two CPUs: throttling delays tasks but must neither strand one nor finish one early
        // (their own generator, so the workloads are the same with or without)
        if (round % 3 == 1) {
            std::mt19937_64 grouping(static_cast<uint64_t>(round));
            auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(grouping); };
            const long long periodUs = pick(10, 100) * 1000LL, childPeriodUs = pick(10, 100) * 1000LL;
            g.wl.groups = {{"outer", 1024, -1, periodUs * pick(2, 20) / 10, periodUs, 0},
                           {"inner", pick(2, 2048), 0, childPeriodUs * pick(2, 20) / 10, childPeriodUs, pick(0, 1) * 1000LL}};
            for (auto& t : g.wl.tasks) t.group = pick(-1, 1);
        }
        const ScriptOutcome outcome = finishesByScripts(g.wl);
        const std::vector<bool>& expected = outcome.done;
        // the tasks that start and never finish: the run stalls with exactly those waiting
        std::vector<int> stuck;
        for (size_t i = 0; i < expected.size(); ++i)
            if (outcome.started[i] && !expected[i]) stuck.push_back(static_cast<int>(i));
        for (const char* profile : profiles) {
            sim::SimOptions o;
            o.durationS = 10;  // far beyond the work: a task not finished by then never will
            o.seed = static_cast<uint64_t>(round) + 1;
            o.idleExitNs = round % 3 == 0 ? 20000 : 0;
            const DomainTree tree = buildTree(m.topo, profile, true, true);
            auto st = sim::simulate(m.topo, tree, g.wl, o);
            ASSERT_TRUE(st.ok()) << st.error();
            ++runs;
            const sim::SimState& state = **st;
            int64_t taskCpuNs = 0;
            for (size_t i = 0; i < g.wl.tasks.size(); ++i) {
                const sim::Task& t = state.tasks[i];
                taskCpuNs += t.cpuTime.total();
                // a task whose script never changes its affinity runs only where it is allowed
                const auto& spec = g.wl.tasks[i];
                const bool fixedAffinity = std::none_of(spec.script.begin(), spec.script.end(),
                                                        [](const workload::Op& o) { return o.kind == OpKind::SetAffinity; });
                if (fixedAffinity && !spec.affinity.empty()) {
                    for (const auto& [cpu, ns] : t.cpuTime) {
                        EXPECT_TRUE(spec.affinity.test(cpu)) << "round " << round << " under " << profile << ": task " << i
                                                             << " ran " << ns << " ns on CPU " << cpu;
                    }
                }
                const bool exited = t.state == sim::TaskState::Exited;
                EXPECT_EQ(exited, expected[i]) << "round " << round << " on " << m.name << " under " << profile << ": task "
                                               << i << (expected[i] ? " never finished" : " finished a blocked script");
                if (exited) {
                    // a burst ends on the first whole ns its work is done by: up to 1 ns of work over
                    EXPECT_GE(t.workDone, g.runNs[i] * (1 - 1e-12)) << "round " << round << " task " << i;
                    EXPECT_LE(t.workDone, g.runNs[i] + g.bursts[i]) << "round " << round << " task " << i;
                    ++finished;
                } else {
                    ++stalled;
                }
            }
            EXPECT_EQ(state.metrics.stalledTasks, stuck) << "round " << round << " under " << profile;
            EXPECT_EQ(state.metrics.stalledAtNs >= 0, !stuck.empty()) << "round " << round << " under " << profile;
            // no more CPU time than the CPUs had, and each CPU's busy time is its tasks' time
            int64_t busyNs = 0;
            for (const auto& cpu : state.cpus) {
                EXPECT_LE(cpu.busyTotal, state.now) << "round " << round;
                busyNs += cpu.busyTotal;
            }
            EXPECT_EQ(taskCpuNs, busyNs) << "round " << round << " under " << profile;
            for (const auto& group : state.groups) throttled += group.bandwidth.nrThrottled > 0 ? 1 : 0;
            if (::testing::Test::HasFailure()) {  // one failing workload says enough: the workload file
                const std::string file = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/random-scripts-failed.json";
                std::filesystem::create_directories(SCHEDSCOPE_TEST_SCRATCH);
                (void)workload::saveWorkloadFile(g.wl, cpus, file);
                std::printf("the workload: %s (schedscope-cli simulate --workload FILE)\n", file.c_str());
                return;
            }
        }
    }
    std::printf("%d runs: %d tasks finished, %d blocked by their scripts\n", runs, finished, stalled);
    EXPECT_GT(stalled, 0);  // the generator makes both kinds
    EXPECT_GT(throttled, 80) << "the limits held tasks back in many of the grouped runs";
    std::printf("[ random   ] %d runs, %d groups throttled\n", runs, throttled);
    EXPECT_GT(finished, 2 * stalled);
}

}  // namespace
}  // namespace schedscope::test
