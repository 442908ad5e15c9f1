// Replay of the traces recorded on this machine (tests/data/traces/replay/README.md): the derived
// workloads match what the programs did, the baseline replay stays close to the recording, and
// the what-if on another machine runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "replay.h"
#include "replay_json.h"
#include "session_guess.h"
#include "sim/sched_knobs.h"
#include "migration_causes.h"
#include "wakeup_preemptions.h"
#include "support/fixtures.h"
#include "topology/topology_source.h"
#include "trace_reader.h"
#include "trace_topology.h"

using namespace schedscope;
using namespace schedscope::replay;
using workload::OpKind;

namespace {

std::string tracePath(const std::string& name) { return test::dataPath("traces/" + name); }

tracing::EventStore load(const std::string& name) {
    auto s = tracing::readTraceFile(tracePath(name));
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
    return s.ok() ? std::move(*s) : tracing::EventStore{};
}

Topology sidecar(const std::string& name) {
    auto t = tracing::readTopologySidecar(tracePath(name));
    EXPECT_TRUE(t.ok() && t->has_value()) << name;
    return t.ok() && t->has_value() ? **t : Topology{};
}

// the trace's groups sidecar, when the recorder saved one
std::optional<tracing::TaskGroupSnapshot> groupsSidecar(const std::string& name) {
    auto g = tracing::readGroupsSidecar(tracePath(name));
    EXPECT_TRUE(g.ok()) << name << ": " << (g.ok() ? "" : g.error());
    return g.ok() ? *g : std::nullopt;
}

// A recording as the group tests replay it: its events, its machine (the topology sidecar) and
// the task groups its recorder saved
struct GroupedRecording {
    tracing::EventStore store;
    Topology topo;
    std::optional<tracing::TaskGroupSnapshot> groups;
};
GroupedRecording groupedRecording(const std::string& name) { return {load(name), sidecar(name), groupsSidecar(name)}; }

DerivedWorkload deriveComm(const std::string& name, const std::string& comm) {
    tracing::EventStore store = load(name);
    DeriveOptions o;
    o.commRegex = {comm};
    auto d = deriveWorkload(store, o, name);
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error());
    return d.ok() ? std::move(*d) : DerivedWorkload{};
}

int countOps(const workload::TaskSpec& t, OpKind k) {
    int n = 0;
    for (const auto& op : t.script) n += op.kind == k;
    return n;
}

// The affinity a task ends with: its initial one, changed by SetAffinity ops.
std::string finalAffinity(const DerivedWorkload& d, size_t i) {
    CpuSet cpus = d.workload.tasks[i].affinity;
    for (const auto& op : d.workload.tasks[i].script)
        if (op.kind == OpKind::SetAffinity) cpus = op.cpus;
    return cpus.toList();
}

// A replay with a baseline, the recording and the what-if both on the sidecar machine and the
// recording kernel's profile.
ReplayOptions onItsOwnMachine() {
    ReplayOptions o;
    o.baseline = true;
    o.recordedConfig = {"sidecar", findProfile("linux-6.12"), true, true, false};
    o.whatIf = o.recordedConfig;
    return o;
}

// `name` replayed on its own machine under `profile`, its tasks in `groups` (none: one group for all)
Result<ReplayResult> replayInGroups(const tracing::EventStore& store, const std::string& name, const Topology& topo,
                                    const char* profile, const std::optional<tracing::TaskGroupSnapshot>& groups) {
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile(profile);
    o.taskGroups = groups;
    return replayTrace(store, name, topo, topo, o);
}

// `name` replayed under `profile` in `groups` and in one group for all, both with their fidelity
// (nullopt, and the test failed, when either replay failed)
struct GroupedAndFlat {
    ReplayResult grouped, flat;
};
std::optional<GroupedAndFlat> replayBothWays(const tracing::EventStore& store, const std::string& name, const Topology& topo,
                                             const char* profile, const std::optional<tracing::TaskGroupSnapshot>& groups) {
    auto grouped = replayInGroups(store, name, topo, profile, groups);
    auto flat = replayInGroups(store, name, topo, profile, std::nullopt);
    const bool ok = grouped.ok() && flat.ok() && grouped->fidelity && flat->fidelity;
    EXPECT_TRUE(ok) << profile << ": " << (grouped.ok() ? "" : grouped.error()) << (flat.ok() ? "" : flat.error());
    if (!ok) return std::nullopt;
    return GroupedAndFlat{std::move(*grouped), std::move(*flat)};
}

// The 4-CPU QEMU guest the real 6.1 kernel's wakeup traces were recorded in (qemu/README.md).
Result<Topology> qemu4cGuest() {
    return loadTopology({TopologySpec::Kind::SysfsRoot, test::extractFixture("traces/qemu/x86-4c-linux-6.1.sysfs.tar.xz")});
}

// Calls `check` with each of the 6.1 guest's perf sched messaging recordings (one group and four)
// and the guest's topology.
void forEachGuestHackbench(
    const std::function<void(const std::string& name, const tracing::EventStore& store, const Topology& topo)>& check) {
    auto topo = qemu4cGuest();
    ASSERT_TRUE(topo.ok()) << topo.error();
    for (const char* t : {"hackbench", "hackbench4"}) {
        const std::string name = std::string("x86-4c-linux-6.1-") + t;
        check(name, load("qemu/" + name + ".dat"), *topo);
    }
}

// qemu/NAME.dat, recorded on that guest under kernel `release`, replayed on the guest's topology
// under `profile`
Result<ReplayResult> replayGuestRecording(const std::string& name, const char* release, const char* profile) {
    tracing::EventStore store = load("qemu/" + name + ".dat");
    EXPECT_EQ(store.kernelRelease(), release);
    auto topo = qemu4cGuest();
    if (!topo.ok()) return Error{topo.error()};
    EXPECT_EQ(topo->cpus.size(), 4u);
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile(profile);
    return replayTrace(store, name, *topo, *topo, o);
}

void printGuestFidelity(const std::string& name, const Fidelity& f) {
    std::printf("%s: completion error %.1f%%, median wait x%.2f, migrations x%.2f, preempting %.0f%% recorded / %.0f%% replayed "
                "(from the wakee's CPU %.0f%% / %.0f%%, from another %.0f%% / %.0f%%)\n",
                name.c_str(), 100 * f.completionError, f.waitP50Ratio, f.migrationRatio, 100 * f.recordedPreemptShare,
                100 * f.baselinePreemptShare, 100 * f.recordedLocalPreemptShare, 100 * f.baselineLocalPreemptShare,
                100 * f.recordedRemotePreemptShare, 100 * f.baselineRemotePreemptShare);
}

// The ping-pong tasks replayed that way.
ReplayOptions pingPongOnItsOwnMachine() {
    ReplayOptions o = onItsOwnMachine();
    o.derive.commRegex = {"pingpong"};
    return o;
}

}  // namespace

TEST(ReplayTraces, PingPongDerivesTwoTasksWakingEachOther) {
    DerivedWorkload d = deriveComm("replay/pingpong.dat", "pingpong");
    ASSERT_EQ(d.tasks.size(), 2u);
    // the parent forked the child inside the trace
    const size_t child = d.tasks[0].parent >= 0 ? 0 : 1, parent = 1 - child;
    EXPECT_EQ(d.tasks[child].parent, d.tasks[parent].pid);
    EXPECT_FALSE(d.workload.tasks[child].startAtBegin);
    EXPECT_EQ(countOps(d.workload.tasks[parent], OpKind::Fork), 1);
    // 2000 round trips: most of them block and wake the other side (the rest find the byte waiting)
    ASSERT_EQ(d.edges.size(), 2u);
    for (const auto& e : d.edges) {
        EXPECT_NE(e.waker, e.wakee);
        EXPECT_GT(e.count, 1000) << "waker " << e.waker;
        EXPECT_LE(e.count, 2000);
    }
    // a writer that blocks on its read right after waking the reader is a WF_SYNC wakeup; when
    // both ran at once on the two CPUs the answer was already there and the writer did not block
    int sync = 0, wakes = 0;
    for (const auto& t : d.workload.tasks)
        for (const auto& op : t.script)
            if (op.kind == OpKind::Wake) {
                ++wakes;
                sync += op.sync;
            }
    EXPECT_GT(sync, wakes / 10);
    EXPECT_LT(sync, wakes);
}

TEST(ReplayTraces, LostSwitchesDoNotCostAPingPongItsWakers) {
    // Recorded on this VM while the kernel dropped most idle->task sched_switch events on CPU 1
    // (412 switch-ins vs 2001 switch-outs of the child, "0 events lost"): a waker taken from the
    // switches is the stale idle task there. The waking record's common_pid keeps both directions.
    tracing::EventStore store = load("replay/pingpong-lost-switches.dat");
    size_t in1 = 0, out1 = 0;
    store.forEach([&](const tracing::SchedEvent& e) {
        if (e.kind == tracing::EventKind::Switch && e.cpu == 1) {
            in1 += store.commAt(e.pid2, e.ts) == "pp2";
            out1 += store.commAt(e.pid, e.ts) == "pp2";
        }
        return true;
    });
    ASSERT_LT(in1 * 2, out1) << "the fixture no longer shows the lost switches";
    DerivedWorkload d = deriveComm("replay/pingpong-lost-switches.dat", "pp2");
    ASSERT_EQ(d.tasks.size(), 2u);
    ASSERT_EQ(d.edges.size(), 2u);
    for (const auto& e : d.edges) EXPECT_GT(e.count, 1500) << "waker " << e.waker;
}

TEST(ReplayTraces, AWakingThatRacedTheSleepDoesNotStallThePingPong) {
    // Recorded on this VM (pinned ping-pong, README.md): one task's sched_waking is recorded
    // while the wakee is still on its CPU on its way to sleep, before its switch out (S). The
    // kernel wakes it from that sleep; its sched_wakeup and switch in on CPU 1 are lost. Taken
    // as a sleep ended by the partner's next wakeup, the wakee's own wakeup of the partner fell
    // inside that sleep and the derived scripts waited for each other for ever.
    const std::string name = "replay/pingpong-raced-wakeup.dat";
    tracing::EventStore store = load(name);
    std::map<int32_t, bool> asleep, raced;
    int racedSleeps = 0;
    store.forEach([&](const tracing::SchedEvent& e) {
        using tracing::EventKind;
        if (e.kind == EventKind::Waking && store.commAt(e.pid, e.ts) == "pingpong") {
            raced[e.pid] = !asleep[e.pid];  // no sleep since its last wakeup: it was running
            asleep[e.pid] = false;
        } else if (e.kind == EventKind::Wakeup) {
            raced[e.pid] = false;
        } else if (e.kind == EventKind::Switch) {
            const bool sleeps = e.state != tracing::TaskState::Runnable && e.state != tracing::TaskState::Dead;
            racedSleeps += sleeps && raced[e.pid];
            asleep[e.pid] = sleeps;
            raced[e.pid] = raced[e.pid2] = asleep[e.pid2] = false;
        }
        return true;
    });
    ASSERT_GT(racedSleeps, 0) << "the fixture no longer holds a waking that raced the sleep";

    Topology topo = sidecar(name);
    ReplayOptions o = pingPongOnItsOwnMachine();
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r->derived.tasks.size(), 2u);
    for (const auto& e : r->derived.edges) EXPECT_GT(e.count, 1500) << "waker " << e.waker;
    ASSERT_GE(r->baseline->metrics.completionS, 0) << "the baseline stalled: some task never finished its script";
    EXPECT_LT(r->fidelity->cpuTimeError, 0.20);
}

// A task woken onto an idle CPU starts after the idle state's exit (34 us on this VM, where
// the idle CPU's HLT returns through the host): replay measures that on the recording's own
// wakeups and the simulator waits it, so the baseline's median wait is the recording's and not 0.
TEST(ReplayTraces, IdleWakeupLatencyIsMeasuredAndReplayed) {
    const std::string name = "replay/pingpong-raced-wakeup.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = pingPongOnItsOwnMachine();
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();

    // Counted here from the raw events: a sched_wakeup of a kept task onto a CPU that runs its
    // idle task, followed by that CPU switching from idle to the task.
    std::set<int32_t> kept;
    for (const auto& t : r->derived.tasks) kept.insert(t.pid);
    std::map<int, int32_t> curr;
    std::map<int32_t, int> wokenOntoIdle;  // pid -> CPU
    long long idleWakeups = 0;
    store.forEach([&](const tracing::SchedEvent& e) {
        if (e.kind == tracing::EventKind::Wakeup && kept.count(e.pid) && e.dstCpu >= 0 && curr.count(e.dstCpu) &&
            curr[e.dstCpu] == 0)
            wokenOntoIdle[e.pid] = e.dstCpu;
        if (e.kind == tracing::EventKind::Switch) {
            auto it = wokenOntoIdle.find(e.pid2);
            idleWakeups += e.pid == 0 && it != wokenOntoIdle.end() && it->second == e.cpu;
            if (it != wokenOntoIdle.end()) wokenOntoIdle.erase(it);
            curr[e.cpu] = e.pid2;
        }
        return true;
    });
    const auto& measured = r->recorded.idleWakeupLatency;
    std::printf("wakeups onto an idle CPU: %lld measured, %lld in the raw events; median %.1f us\n", measured.count(),
                idleWakeups, measured.percentileNs(50) / 1000.0);
    ASSERT_GT(idleWakeups, 1000);
    EXPECT_NEAR(static_cast<double>(measured.count()), static_cast<double>(idleWakeups), 0.05 * idleWakeups);
    EXPECT_EQ(r->idleExitNs, std::llround(measured.percentileNs(50)));
    EXPECT_GT(r->idleExitNs, 1000);
    EXPECT_EQ(r->baseline->state->opt.idleExitNs, r->idleExitNs);
    EXPECT_NEAR(r->fidelity->waitP50Ratio, 1.0, 0.25);

    // the standalone measurement (the GUI's trace what-if) is the same
    const auto standalone = measureIdleWakeups(TraceTimelines::of(store), r->derived);
    EXPECT_EQ(standalone.count(), measured.count());
    EXPECT_EQ(idleExitFrom(standalone), r->idleExitNs);

    o.idleExitNs = 0;  // what replay did before: the wakee runs at once
    auto atOnce = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(atOnce.ok()) << atOnce.error();
    EXPECT_LT(atOnce->fidelity->waitP50Ratio, 0.5);
    EXPECT_TRUE(std::any_of(atOnce->assumptions.begin(), atOnce->assumptions.end(),
                            [](const std::string& a) { return a.find("(--idle-exit-us)") != std::string::npos; }));
}

// The share of wakeups onto a busy CPU that preempted it, counted here from the raw events: a
// sched_wakeup of a kept task that slept, onto a CPU whose switches show another task current,
// preempting when that CPU's next switch puts that task back (R) and switches to the wakee;
// remote when a kept task ran its sched_waking, not in an interrupt, on another CPU than the
// wakee's.
void countWakeupPreemptionsRaw(const tracing::EventStore& store, const std::set<int32_t>& kept, long long& busy,
                               long long& preempting, long long& remoteBusy, long long& remotePreempting) {
    std::map<int, int32_t> curr;
    std::set<int32_t> sleeping;
    std::map<int32_t, std::pair<int32_t, int>> waking;  // wakee -> (waker, the CPU it ran on)
    struct Pending {
        int32_t wakee, was;
        bool remote;
    };
    std::map<int, std::vector<Pending>> pending;  // per CPU: busy wakeups waiting for its next switch
    busy = preempting = remoteBusy = remotePreempting = 0;
    store.forEach([&](const tracing::SchedEvent& e) {
        // (in an interrupt: no task woke it, whichever ran there)
        if (e.kind == tracing::EventKind::Waking) waking[e.pid] = {e.byInterrupt ? -1 : e.waker, e.cpu};
        if (e.kind == tracing::EventKind::Wakeup && kept.count(e.pid) && sleeping.erase(e.pid) && e.dstCpu >= 0 &&
            curr.count(e.dstCpu) && curr[e.dstCpu] != 0 && curr[e.dstCpu] != e.pid) {
            ++busy;
            const auto w = waking.find(e.pid);
            const bool remote = w != waking.end() && kept.count(w->second.first) && w->second.second != e.dstCpu;
            remoteBusy += remote;
            pending[e.dstCpu].push_back({e.pid, curr[e.dstCpu], remote});
        }
        if (e.kind == tracing::EventKind::Switch) {
            for (const Pending& p : pending[e.cpu]) {
                const bool pre = e.pid == p.was && e.state == tracing::TaskState::Runnable && e.pid2 == p.wakee;
                preempting += pre;
                remotePreempting += pre && p.remote;
            }
            pending[e.cpu].clear();
            if (e.state != tracing::TaskState::Runnable) sleeping.insert(e.pid);
            curr[e.cpu] = e.pid2;
        }
        return true;
    });
}

TEST(ReplayTraces, WakeupPreemptionsAreCountedAsTheSwitchesShow) {
    const std::string name = "replay/pingpong.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    auto r = replayTrace(store, name, topo, topo, pingPongOnItsOwnMachine());
    ASSERT_TRUE(r.ok()) << r.error();
    std::set<int32_t> kept;
    for (const auto& t : r->derived.tasks) kept.insert(t.pid);
    long long busy = 0, preempting = 0, remoteBusy = 0, remotePreempting = 0;
    countWakeupPreemptionsRaw(store, kept, busy, preempting, remoteBusy, remotePreempting);
    std::printf("busy-CPU wakeups: %lld (raw) / %lld (measured), preempting %lld / %lld\n", busy, r->recorded.busyWakeups,
                preempting, r->recorded.wakeupPreemptions);
    ASSERT_GT(busy, 500);
    EXPECT_NEAR(static_cast<double>(r->recorded.busyWakeups), static_cast<double>(busy), 0.05 * static_cast<double>(busy));
    EXPECT_NEAR(static_cast<double>(r->recorded.wakeupPreemptions), static_cast<double>(preempting),
                0.05 * static_cast<double>(preempting));
    // (the simulator's side: NapperFidelity; replayed alone, the two ping-pong tasks never find
    // their CPU busy, as the recording's other tasks made it)
    EXPECT_EQ(r->baseline->metrics.busyWakeups, 0);
    EXPECT_NEAR(r->fidelity->recordedPreemptShare,
                static_cast<double>(r->recorded.wakeupPreemptions) / static_cast<double>(r->recorded.busyWakeups), 1e-12);
}

// hackbench on this VM's 6.18: the wakeups onto a busy CPU split by where the waker ran, counted
// from the raw events as above, and the simulator's split under linux-6.18: a wakee queued on its
// waker's own CPU preempts it 43% of the time on the kernel (53% simulated), one queued by a
// task on the other CPU 18% (23%). The simulation queues far fewer wakees on the other, busy CPU
// (39 against 331): its shares in all differ more (29% recorded, 46% simulated) than either part.
TEST(ReplayTraces, WakeupPreemptionsSplitByWhereTheWakerRan) {
    const std::string name = "replay/hackbench.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    auto r = replayInGroups(store, name, topo, "linux-6.18", std::nullopt);
    ASSERT_TRUE(r.ok()) << r.error();
    std::set<int32_t> kept;
    for (const auto& t : r->derived.tasks) kept.insert(t.pid);
    long long busy = 0, preempting = 0, remoteBusy = 0, remotePreempting = 0;
    countWakeupPreemptionsRaw(store, kept, busy, preempting, remoteBusy, remotePreempting);
    const ReplayMetrics& rec = r->recorded;
    std::printf("remote busy wakeups %lld (raw) / %lld (measured), preempting %lld / %lld; simulated %lld of %lld\n", remoteBusy,
                rec.remoteBusyWakeups, remotePreempting, rec.remoteWakeupPreemptions, r->baseline->metrics.remoteBusyWakeups,
                r->baseline->metrics.busyWakeups);
    ASSERT_GT(remoteBusy, 100);
    EXPECT_NEAR(static_cast<double>(rec.remoteBusyWakeups), static_cast<double>(remoteBusy), 0.05 * static_cast<double>(remoteBusy));
    EXPECT_NEAR(static_cast<double>(rec.remoteWakeupPreemptions), static_cast<double>(remotePreempting),
                0.05 * static_cast<double>(remotePreempting) + 2);
    const Fidelity& f = *r->fidelity;
    std::printf("on the waker's CPU %.0f%% recorded, %.0f%% simulated; from another CPU %.0f%%, %.0f%%; in all %.0f%%, %.0f%%\n",
                100 * f.recordedLocalPreemptShare, 100 * f.baselineLocalPreemptShare, 100 * f.recordedRemotePreemptShare,
                100 * f.baselineRemotePreemptShare, 100 * f.recordedPreemptShare, 100 * f.baselinePreemptShare);
    EXPECT_GT(f.recordedLocalPreemptShare, 2 * f.recordedRemotePreemptShare) << "the kernel: a wakee on its waker's CPU preempts far more";
    EXPECT_GT(f.baselineLocalPreemptShare, f.baselineRemotePreemptShare) << "and so does the simulator's";
    EXPECT_NEAR(f.baselineLocalPreemptShare, f.recordedLocalPreemptShare, 0.15);
    // No closeness asserted for the remote share: it is the model's known gap (a remote resched
    // acts at once here, where the kernel's IPI and its preemption point leave curr time to
    // block first; on most recordings the simulated share is 1.3-10x the kernel's, README's
    // fidelity section), and here it rests on a few dozen simulated wakeups against 331.
    EXPECT_LE(r->baseline->metrics.remoteWakeupPreemptions, r->baseline->metrics.remoteBusyWakeups);
    EXPECT_LE(r->baseline->metrics.remoteBusyWakeups, r->baseline->metrics.busyWakeups);
}

// The remote resched latency both runs use is the recording's own: the median delay from a
// remote wakeup to the switch that preempted for it (hackbench.dat, recorded on this VM's
// 6.18.44: a few us, the preempt=none kernel's IPI and return to user). With it the simulated remote wakeups preempt
// less often, as the kernel's did, where acting at once overstates them.
TEST(ReplayTraces, RemoteReschedLatencyIsTheRecordingsOwn) {
    const std::string name = "replay/hackbench.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    auto measured = replayInGroups(store, name, topo, "linux-6.18.44", std::nullopt);
    ASSERT_TRUE(measured.ok()) << measured.error();
    const sim::LatencyHistogram& delays = measured->recorded.remoteReschedLatency;
    ASSERT_GE(delays.count(), replay::kMinRemoteResched);
    EXPECT_EQ(measured->remoteReschedNs, replay::remoteReschedFrom(delays));
    std::printf("%lld remote wakeup preemptions, median delay %.1f us\n", delays.count(),
                static_cast<double>(measured->remoteReschedNs) / 1e3);
    EXPECT_GT(measured->remoteReschedNs, 1000);
    EXPECT_LT(measured->remoteReschedNs, 100000);
    EXPECT_EQ(measured->baseline->state->opt.remoteReschedNs, measured->remoteReschedNs);
    EXPECT_EQ(measured->whatIf.state->opt.remoteReschedNs, measured->remoteReschedNs);
    bool said = false;
    for (const auto& a : measured->assumptions)
        said = said || (a.find("the recording's median over its") != std::string::npos &&
                        a.find("remote wakeup preemptions") != std::string::npos);
    EXPECT_TRUE(said) << "the assumptions name the measured latency";

    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.18.44");
    o.remoteReschedNs = 0;
    auto atOnce = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(atOnce.ok()) << atOnce.error();
    const Fidelity& f = *measured->fidelity;
    const Fidelity& g = *atOnce->fidelity;
    std::printf("remote preemption share: recorded %.0f%%, simulated %.0f%% with it, %.0f%% at once\n",
                100 * f.recordedRemotePreemptShare, 100 * f.baselineRemotePreemptShare, 100 * g.baselineRemotePreemptShare);
    EXPECT_LT(std::abs(f.baselineRemotePreemptShare - f.recordedRemotePreemptShare),
              std::abs(g.baselineRemotePreemptShare - g.recordedRemotePreemptShare));
}

// `perf bench sched pipe` on this VM's 6.18: while both ends share a CPU, the writer wakes the
// reader, which the kernel finds still queued (it blocked ahead of the writer: DELAY_DEQUEUE)
// and requeues before any update_curr(), so against the writer's vruntime from before its
// latest run; counted, that run puts the writer past the reader and the reader preempts it: 82%
// of the wakeups onto the waker's busy CPU preempted it. The simulator's requeue read the writer
// as it stood and preempted 5% of them; it now reads it as the kernel does. (The simulation
// shares a CPU far less often, 414 wakeups against 3429, and preempts 37% of them: its ends
// part for the idle CPU the kernel here rarely took.)
TEST(ReplayTraces, APipesReaderWokenOnItsWritersCpuPreemptsIt) {
    const std::string name = "replay/pipe.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    auto r = replayInGroups(store, name, topo, "linux-6.18", std::nullopt);
    ASSERT_TRUE(r.ok()) << r.error();
    const Fidelity& f = *r->fidelity;
    const ReplayMetrics& m = r->baseline->metrics;
    const long long local = m.busyWakeups - m.remoteBusyWakeups;
    std::printf("on the waker's busy CPU: recorded %lld wakeups, %.0f%% preempting; simulated %lld, %.0f%%\n",
                r->recorded.busyWakeups - r->recorded.remoteBusyWakeups, 100 * f.recordedLocalPreemptShare, local,
                100 * f.baselineLocalPreemptShare);
    ASSERT_GT(r->recorded.busyWakeups - r->recorded.remoteBusyWakeups, 1000);
    EXPECT_GT(f.recordedLocalPreemptShare, 0.7);
    ASSERT_GT(local, 100);
    EXPECT_GT(f.baselineLocalPreemptShare, 0.3);
    EXPECT_LT(f.completionError, 0.05);
}

TEST(ReplayTraces, ForkStormDerivesFortyForkedChildren) {
    DerivedWorkload d = deriveComm("replay/forkstorm.dat", "forkstorm");
    ASSERT_EQ(d.tasks.size(), 41u);
    int children = 0;
    for (size_t i = 0; i < d.tasks.size(); ++i) {
        if (d.tasks[i].parent < 0) {
            EXPECT_EQ(countOps(d.workload.tasks[i], OpKind::Fork), 40);
            continue;
        }
        ++children;
        EXPECT_FALSE(d.workload.tasks[i].startAtBegin);
        // each child spins ~2 ms of CPU time (forkstorm 40 2000) and exits
        EXPECT_NEAR(static_cast<double>(d.tasks[i].cpuTimeNs), 2e6, 0.5e6) << d.workload.tasks[i].name;
        EXPECT_GE(d.tasks[i].exitNs, 0) << d.workload.tasks[i].name;
    }
    EXPECT_EQ(children, 40);
}

// exec-balance.dat: a shell forks and execs /bin/true 400 times beside a CPU hog; execve()'s
// sched_exec() had the stopper move most children to the other CPU. Each execve() of a kept task
// is an Exec op, placed where the stopper moved the task (before its sched_process_exec: the
// binary loads in between), and the baseline's own exec placements move tasks too.
TEST(ReplayTraces, EachExecveIsAnExecOpWhereSchedExecDecided) {
    const std::string name = "exec-balance.dat";
    tracing::EventStore store = load(name);
    std::map<int32_t, int> execsOf;
    store.forEach([&](const tracing::SchedEvent& e) {
        if (e.kind == tracing::EventKind::ProcessExec) ++execsOf[e.pid2 >= 0 ? e.pid2 : e.pid];
        return true;
    });
    std::map<int32_t, uint64_t> execMoveOf;  // the stopper's move, by task
    for (const auto& m : tracing::inferMigrations(store))
        if (m.cause == tracing::MigrationCause::Exec) execMoveOf[m.pid] = m.ts;
    ASSERT_GT(execMoveOf.size(), 300u) << "the recording moved most children at exec";
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.18");
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    const DerivedWorkload& d = r->derived;
    int ops = 0, checked = 0;
    for (size_t i = 0; i < d.tasks.size(); ++i) {
        const auto& t = d.workload.tasks[i];
        const int n = countOps(t, OpKind::Exec);
        ops += n;
        EXPECT_EQ(n, execsOf.count(d.tasks[i].pid) ? execsOf[d.tasks[i].pid] : 0) << t.name;
        // a forked child moved at its exec: the CPU time before the move, then the Exec
        auto moved = execMoveOf.find(d.tasks[i].pid);
        if (moved == execMoveOf.end() || t.startAtBegin || t.script.size() < 2) continue;
        ASSERT_EQ(t.script[0].kind, OpKind::Run) << t.name;
        EXPECT_EQ(t.script[1].kind, OpKind::Exec) << t.name;
        ++checked;
    }
    EXPECT_EQ(ops, d.execs);
    EXPECT_GT(checked, 300);
    ASSERT_TRUE(r->baseline.has_value());
    EXPECT_GT(r->baseline->metrics.migrationsByCause.count("exec") ? r->baseline->metrics.migrationsByCause.at("exec") : 0, 50)
        << "sched_exec() moves children off the hog's CPU in the simulation too";
}

TEST(ReplayTraces, PinnedLoopsDeriveTheirAffinity) {
    DerivedWorkload d = deriveComm("replay/pinned.dat", "spin");
    ASSERT_EQ(d.tasks.size(), 3u);
    for (size_t i = 0; i < d.tasks.size(); ++i) {
        EXPECT_TRUE(d.tasks[i].affinityFromTrace) << d.workload.tasks[i].name;
        // taskset -c 0, then taskset -pc 1 after 0.25 s: they end pinned to CPU 1
        EXPECT_EQ(finalAffinity(d, i), "1") << d.workload.tasks[i].name;
        // before the move CPU 1 was never idle (this machine was busy), so the first stretch is
        // only pinned to CPU 0 if the trace proved it; the move itself is one SetAffinity op
        const std::string first = d.tasks[i].initialAffinity.toList();
        EXPECT_TRUE(first.empty() || first == "0") << first;
        EXPECT_EQ(countOps(d.workload.tasks[i], OpKind::SetAffinity), 1) << d.workload.tasks[i].name;
    }
}

// The same script recorded with sched_setaffinity()'s syscall events: every spinner's `taskset
// -c 0` call starts a stretch pinned to CPU 0, moved or not (two of the three already ran there),
// and `taskset -pc 1` one pinned to CPU 1; the stopper's move inside the call is no exec's.
TEST(ReplayTraces, SetaffinityCallsPinTasksFromTheCallOn) {
    DerivedWorkload d = deriveComm("replay/pinned-setaffinity.dat", "spin");
    ASSERT_EQ(d.tasks.size(), 3u);
    for (size_t i = 0; i < d.tasks.size(); ++i) {
        const workload::TaskSpec& t = d.workload.tasks[i];
        std::vector<std::string> masks;
        for (const auto& op : t.script)
            if (op.kind == OpKind::SetAffinity) masks.push_back(op.cpus.toList());
        EXPECT_EQ(masks, (std::vector<std::string>{"0", "1"})) << t.name;
        EXPECT_EQ(countOps(t, OpKind::Exec), 2) << t.name << ": sh -> taskset -> spin";
    }
}

// `taskset -c N CMD` recorded without syscall events: taskset's stopper moves it just before it
// execs CMD, which reads as sched_exec()'s move. Its stretch from that move on is judged as the
// window's start is: a program that then keeps to its CPU while another sits idle was pinned.
// The napper's loads on this 6.18 VM (`taskset -c 1`) and two ping-pongs on the real 6.12
// kernel (qemu/README.md: `taskset -c 0`, both tasks on one CPU; `taskset -c 1` beside a busy
// loop) end pinned; while the move only started an exec, the ping-pongs' parent kept the CPU
// taskset ran on before it and replayed on a CPU of its own, 42% and 26% early.
TEST(ReplayTraces, ATasksetBeforeExecPinsTheProgramThatThenWaitsBesideAnIdleCpu) {
    const struct {
        const char* trace;
        const char* comm;
        const char* cpu;
    } cases[] = {{"replay/napper-hog.dat", "napper", "1"},
                 {"replay/napper-2hogs.dat", "napper", "1"},
                 {"qemu/x86-4c-linux-6.12-pingpong-shared.dat", "pingpong", "0"},
                 {"qemu/x86-4c-linux-6.12-pingpong-hog.dat", "pingpong", "1"}};
    for (const auto& c : cases) {
        DerivedWorkload d = deriveComm(c.trace, c.comm);
        ASSERT_FALSE(d.tasks.empty()) << c.trace;
        for (size_t i = 0; i < d.tasks.size(); ++i) {
            EXPECT_TRUE(d.tasks[i].affinityFromTrace) << c.trace << " " << d.workload.tasks[i].name;
            EXPECT_EQ(finalAffinity(d, i), c.cpu) << c.trace << " " << d.workload.tasks[i].name;
        }
    }
}

TEST(ReplayTraces, HackbenchDerivesSendersWakingReceivers) {
    DerivedWorkload d = deriveComm("replay/hackbench.dat", "sched-messaging");
    ASSERT_EQ(d.tasks.size(), 41u);  // perf's main thread + 20 senders + 20 receivers (-g 1)
    int forked = 0;
    for (const auto& t : d.tasks) forked += t.parent >= 0;
    EXPECT_EQ(forked, 40);
    std::set<int> wakers, wakees;
    for (const auto& e : d.edges) {
        wakers.insert(e.waker);
        wakees.insert(e.wakee);
    }
    EXPECT_GE(wakers.size(), 20u);
    EXPECT_GE(wakees.size(), 20u);
}

// A task that naps and runs briefly, pinned with busy loops on one CPU of this 6.18 kernel,
// preempts them at once on nearly every wakeup (napper-hog.dat: 96 of 100 within 30 us). EEVDF
// keeps the lag it slept with: place_entity() inflates it by (W + w) / W against the average's
// shift, and update_curr() at the enqueue renews a deadline the hog ran past. Without these the
// lag halved at every wakeup until the napper waited for the tick: p95 of all waits 2.2 ms
// instead of the recorded 0.11 ms, and the 2-hog p99 8.7 ms instead of 4.0 ms.
class NapperFidelity : public ::testing::TestWithParam<const char*> {};

TEST_P(NapperFidelity, WaitsMatchTheKernelsWakeupPreemption) {
    const std::string name = GetParam();
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    o.derive.commRegex = {"napper"};  // pinned by its taskset -c 1, as the trace shows it
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    const auto& rec = r->recorded.waitLatency;
    const auto& sim = r->baseline->metrics.waitLatency;
    ASSERT_GT(rec.count(), 150);
    // most of the napper's wakeups preempted the hog, recorded and replayed
    const Fidelity& f = *r->fidelity;
    std::printf("%s wakeups preempting a busy CPU: recorded %.2f, replayed %.2f\n", name.c_str(), f.recordedPreemptShare,
                f.baselinePreemptShare);
    EXPECT_GT(f.recordedPreemptShare, 0.8);
    EXPECT_GT(f.baselinePreemptShare, 0.8);
    const auto j = replayResultToJson(*r, name);
    EXPECT_DOUBLE_EQ(j["fidelity"]["wakeup_preemption_share"]["recorded"].get<double>(), f.recordedPreemptShare);
    for (const double p : {95.0, 99.0}) {
        const double want = rec.percentileNs(p), got = sim.percentileNs(p);
        std::printf("%s wait p%.0f: recorded %.0f us, replayed %.0f us\n", name.c_str(), p, want / 1000, got / 1000);
        EXPECT_GT(got, want / 1.5) << "p" << p;
        EXPECT_LT(got, want * 1.5) << "p" << p;
    }
}

INSTANTIATE_TEST_SUITE_P(Traces, NapperFidelity, ::testing::Values("replay/napper-hog.dat", "replay/napper-2hogs.dat"),
                         [](const auto& info) { return schedscope::test::traceTestName(info.param); });

// Replaying each recording under its own topology and profile: per-task CPU time within 20%
// (CPU-time weighted), the same dominant migration level, and completion within the trace's
// bound, 15% by default. Three recordings start with tasks the trace finds running or queued
// and a job that forks and execs: forkstorm.dat (beside a compile in another session),
// job-beside-session.dat and job-in-cgroups.dat. While the derivation had those tasks asleep
// until their first switch and the job got no sched_exec() placement, their baselines ended
// 15%, 13.5% and 7.3% late (`replay --baseline`, seed 1; forkstorm.dat's 32% before its groups
// sidecar); with both, within 2%.
struct FidelityCase {
    const char* trace;
    double maxCompletionError;
};

class ReplayFidelity : public ::testing::TestWithParam<FidelityCase> {};

TEST_P(ReplayFidelity, BaselineReplayIsCloseToTheRecording) {
    const std::string name = GetParam().trace;
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    o.taskGroups = groupsSidecar(name);  // as the CLI reads it: the recorder saved one since it could
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_TRUE(r->fidelity.has_value());
    const auto& f = *r->fidelity;
    std::cout << "[fidelity] " << name << ": tasks " << r->derived.tasks.size() << ", cpu_time_error " << f.cpuTimeError
              << ", level_mix_error " << f.levelMixError << ", dominant " << f.recordedDominantLevel << "/"
              << f.baselineDominantLevel << ", migrations " << r->recorded.migrations() << "/"
              << r->baseline->metrics.migrations() << ", wait p50 x" << f.waitP50Ratio << ", completion "
              << r->recorded.completionS << "/" << r->baseline->metrics.completionS << " s (error "
              << f.completionError << ")\n";
    EXPECT_LT(f.cpuTimeError, 0.20);
    ASSERT_GT(r->recorded.migrations(), 0);
    // a recording whose kernel moved a task once or twice may replay with none: no level then
    if (r->baseline->metrics.migrations() > 0 || r->recorded.migrations() > 2) {
        EXPECT_EQ(f.recordedDominantLevel, f.baselineDominantLevel);
    }
    // every derived task ran its whole script: the coupling of wakers and wakees never deadlocks
    ASSERT_GE(r->baseline->metrics.completionS, 0) << "some task never finished its script";
    // The recorded tasks cannot have run longer than the CPUs had time: a switch out the trace
    // lost left a task Running over the others (pinned.dat counted 1.75 s on 2 CPUs in 0.63 s,
    // and its baseline, replaying that much work, ended 44% late; forkstorm.dat 47%).
    double recordedCpu = 0;
    for (const auto& t : r->recorded.tasks) recordedCpu += t.cpuTimeS;
    EXPECT_LE(recordedCpu, static_cast<double>(topo.cpus.size()) * r->recorded.elapsedS * 1.001);
    EXPECT_LT(f.completionError, GetParam().maxCompletionError);
}

INSTANTIATE_TEST_SUITE_P(Traces, ReplayFidelity,
                         ::testing::Values(FidelityCase{"replay/pingpong.dat", 0.15}, FidelityCase{"replay/forkstorm.dat", 0.05},
                                           FidelityCase{"replay/pinned.dat", 0.15}, FidelityCase{"replay/hackbench.dat", 0.15},
                                           FidelityCase{"replay/pinned-setaffinity.dat", 0.05},
                                           FidelityCase{"replay/pingpong-raced-wakeup.dat", 0.15},
                                           FidelityCase{"replay/pingpong-beside-hogs.dat", 0.05}, FidelityCase{"record-v6.dat", 0.15},
                                           FidelityCase{"replay/job-beside-session.dat", 0.05},
                                           FidelityCase{"replay/job-in-cgroups.dat", 0.05},
                                           FidelityCase{"replay/job-beside-slice.dat", 0.10},
                                           FidelityCase{"replay/threads-under-quota.dat", 0.05}),
                         [](const auto& info) { return schedscope::test::traceTestName(info.param.trace); });

// Two CPU hogs of another session were running when the window opened, one on each CPU, and a
// ping-pong started beside them. Exec-placed from CPU 0, both hogs began there, and the baseline
// ended 14% late; started where the window found them, it ends within 1%.
TEST(ReplayTraces, TasksPresentAtTheStartBeginOnTheirRecordedCpus) {
    const std::string name = "replay/pingpong-beside-hogs.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    auto r = replayTrace(store, name, topo, topo, onItsOwnMachine());
    ASSERT_TRUE(r.ok()) << r.error();
    std::vector<int> hogCpus;
    for (const auto& t : r->derived.workload.tasks)
        if (t.name.starts_with("spin:")) {
            EXPECT_TRUE(t.startAtBegin);
            hogCpus.push_back(t.startCpu);
        }
    std::sort(hogCpus.begin(), hogCpus.end());
    EXPECT_EQ(hogCpus, (std::vector<int>{0, 1}));
    ASSERT_TRUE(r->fidelity.has_value());
    EXPECT_LT(r->fidelity->completionError, 0.05);
    EXPECT_TRUE(std::any_of(r->assumptions.begin(), r->assumptions.end(), [](const std::string& a) {
        return a.find("starts on the CPU the recording first shows it on") != std::string::npos;
    }));
}

// A recording's groups sidecar: the hogs of pingpong-beside-hogs.dat were started with setsid,
// each in its own session and so its own autogroup, the ping-pong in a third; the replay puts
// each task in its group, so the simulations share the CPUs between groups first, and says so.
// Without the sidecar it says nothing of groups.
TEST(ReplayTraces, TaskGroupsOfTheRecordingAreSimulated) {
    const std::string name = "replay/pingpong-beside-hogs.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    auto plain = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_TRUE(plain->taskGroups.empty());
    EXPECT_TRUE(plain->derived.workload.groups.empty());
    EXPECT_FALSE(std::any_of(plain->assumptions.begin(), plain->assumptions.end(),
                             [](const std::string& a) { return a.find("task group") != std::string::npos; }));

    // the groups as the recorder saved them: by pid, the ping-pong's child left to the trace's fork
    tracing::TaskGroupSnapshot groups;
    groups.autogroupEnabled = true;
    int hog = 0;
    for (const auto& t : plain->derived.workload.tasks) {
        const int32_t pid = std::stoi(t.name.substr(t.name.rfind(':') + 1));
        if (t.name.starts_with("pingpong:") && !t.startAtBegin) continue;
        groups.groupOf[pid] = t.name.starts_with("spin:") ? "autogroup-4" + std::to_string(1 + hog++) : "autogroup-7";
    }
    o.taskGroups = groups;
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r->taskGroups.size(), 3u);
    int pingpongGroupTasks = 0;
    for (const auto& g : r->taskGroups)
        if (g.group == "autogroup-7") pingpongGroupTasks = g.tasks;
        else EXPECT_EQ(g.tasks, 1) << g.group << ": one hog";
    EXPECT_GE(pingpongGroupTasks, 2) << "both ping-pong tasks, the forked child by its parent's group";
    EXPECT_TRUE(std::any_of(r->assumptions.begin(), r->assumptions.end(), [](const std::string& a) {
        return a.starts_with("the kept tasks that ran were in 3 task groups") &&
               a.find("autogroup-41 (1)") != std::string::npos &&
               a.find("the replay shares a CPU between the groups") != std::string::npos;
    }));
    // the simulated workload has them: each spin task in its autogroup, every ping-pong task in
    // autogroup-7, the forked child too
    const workload::Workload& w = r->derived.workload;
    ASSERT_EQ(w.groups.size(), 3u);
    for (const auto& t : w.tasks) {
        if (!t.name.starts_with("spin:") && !t.name.starts_with("pingpong:")) continue;
        ASSERT_GE(t.group, 0) << t.name;
        const std::string& group = w.groups[static_cast<size_t>(t.group)].name;
        EXPECT_EQ(group.starts_with("autogroup-4"), t.name.starts_with("spin:")) << t.name << " in " << group;
        EXPECT_EQ(w.groups[static_cast<size_t>(t.group)].shares, 1024);
    }
}

// Nested cgroups become nested groups: the hogs of pingpong-beside-hogs.dat as two services of
// one slice (cpu.weight 50 for the slice), the ping-pong in the user slice; the cgroups above a
// task's group join the workload as its ancestors, with their shares.
TEST(ReplayTraces, NestedCgroupsBecomeNestedGroups) {
    const std::string name = "replay/pingpong-beside-hogs.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    auto plain = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(plain.ok()) << plain.error();
    tracing::TaskGroupSnapshot groups;
    int hog = 0;
    for (const auto& t : plain->derived.workload.tasks) {
        const int32_t pid = std::stoi(t.name.substr(t.name.rfind(':') + 1));
        if (t.name.starts_with("pingpong:") && !t.startAtBegin) continue;
        groups.groupOf[pid] = t.name.starts_with("spin:") ? "/system.slice/hog" + std::to_string(++hog) + ".service"
                                                           : "/user.slice/user-0.slice";
    }
    groups.sharesOf = {{"/system.slice", 512}};
    o.taskGroups = groups;
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    const workload::Workload& w = r->derived.workload;
    auto find = [&w](const std::string& g) {
        for (size_t i = 0; i < w.groups.size(); ++i)
            if (w.groups[i].name == g) return static_cast<int>(i);
        return -1;
    };
    const int slice = find("/system.slice"), hog1 = find("/system.slice/hog1.service"), hog2 = find("/system.slice/hog2.service"),
              user = find("/user.slice"), session = find("/user.slice/user-0.slice");
    ASSERT_TRUE(slice >= 0 && hog1 >= 0 && hog2 >= 0 && user >= 0 && session >= 0);
    EXPECT_EQ(w.groups[static_cast<size_t>(slice)].parent, -1);
    EXPECT_EQ(w.groups[static_cast<size_t>(slice)].shares, 512);
    EXPECT_EQ(w.groups[static_cast<size_t>(hog1)].parent, slice);
    EXPECT_EQ(w.groups[static_cast<size_t>(hog2)].parent, slice);
    EXPECT_EQ(w.groups[static_cast<size_t>(hog2)].shares, 1024);
    EXPECT_EQ(w.groups[static_cast<size_t>(session)].parent, user);
    EXPECT_EQ(w.groups.size(), 5u);
    ASSERT_TRUE(r->fidelity.has_value());
    ASSERT_GE(r->baseline->metrics.completionS, 0) << "every task ran its script in the nested groups";
}

// job-beside-slice.dat: `./spin 600` recorded from a cgroup v1 cpu cgroup /user while two hogs
// ran in each of /slice/a and /slice/b, on 2 CPUs. /user and /slice weigh alike at the top, so
// the kernel gave the job a CPU (0.58 s of CPU in 0.6 s) and the slice's four hogs the other.
// Replayed in the nested groups the baseline ends within 10% under every profile (1.1% under
// 6.12 and 7.1, 8.0% under 6.1); with the two services as top groups of their own (the nesting
// lost) 18-21% late, as equal tasks 29-33%.
TEST(ReplayTraces, NestedCgroupsWeighAtEachLevel) {
    const std::string name = "replay/job-beside-slice.dat";
    const GroupedRecording rec = groupedRecording(name);
    ASSERT_TRUE(rec.groups);
    tracing::TaskGroupSnapshot leaves = *rec.groups;  // the services renamed out of the slice
    for (auto& [pid, group] : leaves.groupOf)
        if (group.starts_with("/slice/")) group = "/slice-" + group.substr(7);
    for (const char* profile : {"linux-6.1", "linux-6.6", "linux-6.12", "linux-7.1"}) {
        auto errorOf = [&](const std::optional<tracing::TaskGroupSnapshot>& groups) {
            auto r = replayInGroups(rec.store, name, rec.topo, profile, groups);
            EXPECT_TRUE(r.ok() && r->fidelity) << (r.ok() ? "no fidelity" : r.error());
            return r.ok() && r->fidelity ? r->fidelity->completionError : 1.0;
        };
        const double inNested = errorOf(rec.groups), asLeaves = errorOf(leaves), flat = errorOf(std::nullopt);
        std::printf("%s: nested %.1f%%, services as top groups %.1f%%, equal tasks %.1f%%\n", profile, 100 * inNested,
                    100 * asLeaves, 100 * flat);
        EXPECT_LT(inNested, 0.10) << profile;
        EXPECT_GT(asLeaves, 0.15) << profile << ": the slice's services as top groups";
        EXPECT_GT(flat, 0.25) << profile;
    }
}

// threads-under-quota.dat: three `./spin 2500` in a cgroup v1 cpu cgroup of cpu.cfs_quota_us
// 100000 per 100000 (one CPU's worth of time per period) on 2 CPUs, recorded for 1 s from the
// root group. The kernel throttled the group in 33 of 40 periods: each spinner ran a third of
// the time and waited up to ~55 ms at each throttle, with a CPU idle. Under the limit the
// recorder saved, the replayed spinners wait as long (p95 within 30% of the recording's) and run
// until the window's end; unlimited, they would take both CPUs, wait a few ms and be done by
// 0.7 s.
TEST(ReplayTraces, ThreadsUnderAQuotaWaitForTheNextPeriod) {
    const std::string name = "replay/threads-under-quota.dat";
    const GroupedRecording rec = groupedRecording(name);
    ASSERT_TRUE(rec.groups);
    ASSERT_EQ(rec.groups->limitOf.count("/lim"), 1u);
    EXPECT_EQ(rec.groups->limitOf.at("/lim"), (tracing::BandwidthLimit{100000, 100000, 0}));
    for (const char* profile : {"linux-6.1", "linux-6.6", "linux-6.12", "linux-7.1"}) {
        auto both = replayBothWays(rec.store, name, rec.topo, profile, rec.groups);
        ASSERT_TRUE(both);
        const double recordedP95 = both->grouped.recorded.waitLatency.percentileNs(95);
        ASSERT_GT(recordedP95, 40e6) << "the recording's throttles";
        EXPECT_NEAR(both->grouped.baseline->metrics.waitLatency.percentileNs(95) / recordedP95, 1.0, 0.3) << profile;
        EXPECT_LT(both->flat.baseline->metrics.waitLatency.percentileNs(95), recordedP95 / 5) << profile;
        // the spinners: the last one ends near the window's end under the limit, early without
        auto lastSpinner = [&](const ReplayResult& r) {
            double last = 0;
            for (size_t i = 0; i < r.derived.tasks.size(); ++i)
                if (r.derived.workload.tasks[i].name.starts_with("spin:"))
                    last = std::max(last, r.baseline->metrics.tasks[i].completionS);
            return last;
        };
        EXPECT_GT(lastSpinner(both->grouped), 0.85) << profile;
        EXPECT_LT(lastSpinner(both->flat), 0.75) << profile;
        const auto& w = both->grouped.derived.workload;
        ASSERT_TRUE(workload::hasBandwidthLimits(w));
        EXPECT_NE(std::find_if(both->grouped.assumptions.begin(), both->grouped.assumptions.end(),
                               [](const std::string& a) { return a.find("/lim (100 ms per 100 ms)") != std::string::npos; }),
                  both->grouped.assumptions.end());
    }
}

// job-beside-session.dat: `./spin 600` recorded while six `./spin 2500` of another session
// (setsid: their own autogroup) kept both CPUs busy. The kernel weighed the two autogroups, not
// the seven tasks: the job had a CPU to itself (0.57 s of CPU in its 0.62 s), the six hogs shared
// the other. In their groups (the recording's sidecar) the simulated job gets most of a CPU too
// and the replay ends within 5% of the recording, under every profile (11-14% late before the
// hogs ran from the trace's start and the job's exec was replayed); as seven equal tasks, a
// seventh of the CPUs each, it ends over 30% late.
TEST(ReplayTraces, AJobBesideAnotherSessionGetsItsGroupsShare) {
    const std::string name = "replay/job-beside-session.dat";
    const GroupedRecording rec = groupedRecording(name);
    ASSERT_TRUE(rec.groups);
    for (const char* profile : {"linux-6.1", "linux-6.6", "linux-6.12", "linux-6.18.33"}) {
        auto both = replayBothWays(rec.store, name, rec.topo, profile, rec.groups);
        ASSERT_TRUE(both);
        const ReplayResult *grouped = &both->grouped, *flat = &both->flat;
        EXPECT_LT(grouped->fidelity->completionError, 0.05) << profile;
        EXPECT_GT(flat->fidelity->completionError, 0.30) << profile;
        // the job: the spin the recorder started, in the recorder's autogroup
        const auto& tasks = grouped->derived.workload.tasks;
        const auto job = std::find_if(tasks.begin(), tasks.end(), [](const auto& t) { return t.name.starts_with("spin:") && !t.startAtBegin; });
        ASSERT_NE(job, tasks.end());
        const size_t j = static_cast<size_t>(job - tasks.begin());
        const auto& jobGroup = grouped->derived.workload.groups.at(static_cast<size_t>(job->group));
        EXPECT_EQ(jobGroup.name, "autogroup-1") << "the recorder's session";
        EXPECT_LT(grouped->baseline->metrics.tasks[j].completionS, flat->baseline->metrics.tasks[j].completionS - 0.1) << profile;
    }
}

// job-in-cgroups.dat: `./spin 600` recorded from a cgroup v1 cpu cgroup of cpu.shares 2048
// (/ssA) while three `./spin 2500` ran in one of 512 (/ssB), on 2 CPUs. The recorder read both
// shares; in their groups the job's entity outweighs the hogs' share of its CPU four times over
// and the replay ends within 5% of the recording under every profile (5-6% late before the trace's
// start and the job's exec were replayed); as equal tasks 25-26% late.
TEST(ReplayTraces, CgroupV1SharesWeighTheGroups) {
    const std::string name = "replay/job-in-cgroups.dat";
    const GroupedRecording rec = groupedRecording(name);
    ASSERT_TRUE(rec.groups);
    EXPECT_EQ(rec.groups->sharesOfGroup("/ssA"), 2048);
    EXPECT_EQ(rec.groups->sharesOfGroup("/ssB"), 512);
    for (const char* profile : {"linux-6.1", "linux-6.6", "linux-6.12", "linux-7.1"}) {
        auto both = replayBothWays(rec.store, name, rec.topo, profile, rec.groups);
        ASSERT_TRUE(both);
        const ReplayResult* grouped = &both->grouped;
        EXPECT_LT(grouped->fidelity->completionError, 0.05) << profile;
        EXPECT_GT(both->flat.fidelity->completionError, 0.20) << profile;
        int hogs = 0;
        const workload::Workload& w = grouped->derived.workload;
        for (const auto& t : w.tasks)
            if (t.name.starts_with("spin:") && t.startAtBegin) {
                ASSERT_GE(t.group, 0) << t.name;
                EXPECT_EQ(w.groups[static_cast<size_t>(t.group)].shares, 512) << t.name;
                ++hogs;
            }
        EXPECT_EQ(hogs, 3);
    }
}

// The real 6.1 and 6.12 kernels on a 16-CPU SMT machine under QEMU (traces/qemu), 24 CPU hogs
// most of the time: a hog mostly ran with its sibling busy, so its recorded CPU time is less
// work than the same time alone. Replayed as the time it took, the baseline ended 58% late on
// the 6.12 trace (12.3 s against 7.8 s): the simulator slowed the siblings a second time.
class QemuSmtReplay : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(QemuSmtReplay, CpuTimeWithABusySiblingIsReplayedAsTheWorkItDid) {
    const auto [trace, oracleCase] = GetParam();
    tracing::EventStore store = load(std::string("qemu/") + trace + ".dat");
    auto topo = loadTopology({TopologySpec::Kind::SysfsRoot,
                              test::extractFixture(std::string("oracle/") + oracleCase + "/sysfs.tar.xz")});
    ASSERT_TRUE(topo.ok()) << topo.error();
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.topologyName = oracleCase;
    o.recordedConfig.profile = findProfile(oracleCase[0] == 'l' ? "linux-6.12" : "linux-6.1");
    o.whatIf = o.recordedConfig;
    auto r = replayTrace(store, trace, *topo, *topo, o);
    ASSERT_TRUE(r.ok()) << r.error();

    double cpuNs = 0, work = 0;
    for (const auto& t : r->derived.tasks) cpuNs += static_cast<double>(t.cpuTimeNs);
    for (const auto& t : r->derived.workload.tasks)
        for (const auto& op : t.script)
            if (op.kind == OpKind::Run) work += op.amountNs;
    // between alone (1) and a sibling busy all along (1/1.6)
    std::printf("%s: work %.2f s of %.2f s CPU time\n", trace, work / 1e9, cpuNs / 1e9);
    EXPECT_LT(work, 0.9 * cpuNs);
    EXPECT_GT(work, cpuNs / 1.6);
    EXPECT_TRUE(std::any_of(r->derived.assumptions.begin(), r->derived.assumptions.end(), [](const std::string& a) {
        return a.starts_with("CPU time while an SMT sibling ran too (");
    }));

    ASSERT_TRUE(r->fidelity.has_value());
    const auto& f = *r->fidelity;
    std::printf("%s: completion %.2f s recorded, %.2f s replayed; cpu_time_error %.3f\n", trace,
                r->recorded.completionS, r->baseline->metrics.completionS, f.cpuTimeError);
    EXPECT_LT(f.completionError, 0.15);
    EXPECT_LT(f.cpuTimeError, 0.10);
    EXPECT_EQ(f.recordedDominantLevel, f.baselineDominantLevel);
}

INSTANTIATE_TEST_SUITE_P(Traces, QemuSmtReplay,
                         ::testing::Values(std::pair{"x86-2s4n4c2t-linux-6.1", "x86-2s4n4c2t"},
                                           std::pair{"x86-2s4n4c2t-linux-6.12", "linux-6.12-x86-2s4n4c2t"}),
                         [](const auto& info) { return info.param.second[0] == 'l' ? std::string("linux_6_12") : std::string("linux_6_1"); });

// Wakeup-heavy traces from the real 6.1 kernel (CFS) on a 4-CPU QEMU guest (qemu/README.md):
// perf's sched messaging with one and four groups of 20 senders and 20 receivers, and a ping-pong
// between two processes. Replayed under linux-6.1 (the release their uname option names) on the
// guest's own topology, every task runs its recorded CPU time, hackbench's runs end within 3%
// of the recordings and the median wait is within a factor 1.25. A wakee queued on its waker's
// busy CPU preempts it nearly always, on the kernel (88-95%) and here (95-98%); one a task on
// another CPU queued there seldom does on the kernel (16-27%: under emulation the IPI often comes
// after that CPU's task blocked, qemu/README.md), while the simulation acts on it at once (56-66%).
class RealCfsWakeups : public ::testing::TestWithParam<const char*> {};

TEST_P(RealCfsWakeups, ReplayedUnderLinux61EachTaskRunsItsTimeAndTheRunEndsOnTime) {
    const std::string name = std::string("x86-4c-linux-6.1-") + GetParam();
    auto r = replayGuestRecording(name, "6.1.0-57-amd64", "linux-6.1");
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_TRUE(r->fidelity.has_value());
    const auto& f = *r->fidelity;
    printGuestFidelity(name, f);
    EXPECT_LT(f.cpuTimeError, 0.01);
    EXPECT_GT(f.waitP50Ratio, 0.8);
    EXPECT_LT(f.waitP50Ratio, 1.25);
    if (std::string(GetParam()) != "pingpong") {
        EXPECT_LT(f.completionError, 0.03);
        EXPECT_GT(r->recorded.migrations(), 1000);
        EXPECT_EQ(f.baselineDominantLevel, "MC");  // one LLC: every move is within it
        // a wakee queued on its waker's busy CPU preempts it nearly always, on the kernel and here
        EXPECT_GT(f.recordedLocalPreemptShare, 0.85);
        EXPECT_GT(f.baselineLocalPreemptShare, 0.85);
        EXPECT_LT(f.recordedRemotePreemptShare, 0.3);
        // (in all: the remote ones preempt more often in the simulation, the gap lesson 16 shows)
        EXPECT_NEAR(f.baselinePreemptShare, f.recordedPreemptShare, 0.12) << "78% recorded in all";
    } else {
        // every wakeup is onto an idle CPU: the replay gives each the recording's median idle
        // exit (57 us), the emulated guest's took up to 163 us (p99), and the run ends 9% early
        EXPECT_LT(f.completionError, 0.10);
    }
}

INSTANTIATE_TEST_SUITE_P(Traces, RealCfsWakeups, ::testing::Values("hackbench", "hackbench4", "pingpong"));

// The same guest under Debian's stock 6.12 kernel (EEVDF with DELAY_DEQUEUE and RUN_TO_PARITY,
// as the kernel ships them; qemu/README.md), whose topology files are the 6.1 guest's: perf's
// sched messaging with one and four groups, and two ping-pongs pinned with taskset, one with both
// tasks on CPU 0, one beside a busy loop on CPU 1. Replayed under linux-6.12 each task runs its
// recorded CPU time and each run ends within 3% of the recording. The simulator, which leaves
// RUN_TO_PARITY off (sim_features.cpp), preempts more of the wakeups onto a busy CPU than this
// kernel did, most where many tasks share the CPUs: hackbench 49% against 35%, four groups 31%
// against 15%, the ping-pong beside a loop 84% against 52%; with it on, 29%, 9% and 44%.
class RealEevdfWakeups : public ::testing::TestWithParam<const char*> {};

TEST_P(RealEevdfWakeups, ReplayedUnderLinux612EachTaskRunsItsTimeAndTheRunEndsOnTime) {
    const std::string name = std::string("x86-4c-linux-6.12-") + GetParam();
    auto r = replayGuestRecording(name, "6.12.107+deb12-amd64", "linux-6.12");
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_TRUE(r->fidelity.has_value());
    const auto& f = *r->fidelity;
    printGuestFidelity(name, f);
    EXPECT_LT(f.cpuTimeError, 0.01);
    EXPECT_LT(f.completionError, 0.03);
    EXPECT_GT(f.waitP50Ratio, 0.5);
    EXPECT_LT(f.waitP50Ratio, 2.5);
    EXPECT_GE(f.baselinePreemptShare, f.recordedPreemptShare - 0.05) << "no fewer preemptions than the kernel's";
    EXPECT_LT(f.baselinePreemptShare, f.recordedPreemptShare + 0.35);
    if (std::string(GetParam()).starts_with("hackbench")) {
        EXPECT_GT(r->recorded.migrations(), 400);
        EXPECT_GT(f.migrationRatio, 0.4);
        EXPECT_LT(f.migrationRatio, 1.5);
    }
}

INSTANTIATE_TEST_SUITE_P(Traces, RealEevdfWakeups,
                         ::testing::Values("hackbench", "hackbench4", "pingpong-shared", "pingpong-hog"));

// RUN_TO_PARITY, a what-if (off by default), is judged where curr's and the wakee's hierarchies
// meet. perf's sched messaging, all in one autogroup (messaging.dat): curr is a task entity of
// the wakee's group and keeps its slice, so fewer wakeups preempt, nearer the recording (3%
// recorded on this VM's kernel, 12% off, 5% on). A job beside another session's hogs (job-beside-session.dat): a wakee of the other
// session meets curr's group entity at the root, whose protection the group's first reweight
// ends (6.12), so the replay waits as it does without it. Judged as in one flat queue it went
// the other way round (measured with every task of the recordings kept): each enqueue of a group's
// task reweighed curr and cancelled its protection, so messaging preempted as often as without
// it (38% against 37%), and protection at every level kept the job waiting x202 the recorded
// median (x0.24 without it).
TEST(ReplayTraces, RunToParityHoldsWithinAGroupAndNotForAWakeeOfAnother) {
    auto replayBoth = [](const std::string& name, const char* profile, const std::vector<std::string>& comm) {
        const GroupedRecording rec = groupedRecording(name);
        EXPECT_TRUE(rec.groups) << name;
        std::optional<Fidelity> fidelity[2];
        for (int on = 0; on < 2; ++on) {
            ReplayOptions o = onItsOwnMachine();
            o.recordedConfig.profile = o.whatIf.profile = findProfile(profile);
            sim::SchedKnobs knobs;
            knobs.runToParity = on == 1;
            auto f = sim::featuresWithKnobs(*o.recordedConfig.profile, knobs);
            EXPECT_TRUE(f.ok()) << f.error();
            if (!f.ok()) return std::array<Fidelity, 2>{};
            o.recordedConfig.features = *f;
            o.derive.commRegex = comm;
            o.taskGroups = rec.groups;
            auto r = replayTrace(rec.store, name, rec.topo, rec.topo, o);
            EXPECT_TRUE(r.ok() && r->fidelity) << (r.ok() ? "no fidelity" : r.error());
            if (!r.ok() || !r->fidelity) return std::array<Fidelity, 2>{};
            fidelity[on] = *r->fidelity;
        }
        std::printf("%s under %s: busy-CPU wakeups preempting %.0f%% recorded, %.0f%% RUN_TO_PARITY off, %.0f%% on; "
                    "median wait x%.2f and x%.2f\n",
                    name.c_str(), profile, 100 * fidelity[0]->recordedPreemptShare, 100 * fidelity[0]->baselinePreemptShare,
                    100 * fidelity[1]->baselinePreemptShare, fidelity[0]->waitP50Ratio, fidelity[1]->waitP50Ratio);
        return std::array<Fidelity, 2>{*fidelity[0], *fidelity[1]};
    };
    const auto messaging = replayBoth("replay/messaging.dat", "linux-6.18.33", {"sched-messaging"});
    EXPECT_LT(messaging[1].baselinePreemptShare, messaging[0].baselinePreemptShare * 0.6) << "protected within the session";
    EXPECT_LT(std::abs(messaging[1].baselinePreemptShare - messaging[1].recordedPreemptShare),
              std::abs(messaging[0].baselinePreemptShare - messaging[0].recordedPreemptShare));
    EXPECT_LT(messaging[1].completionError, 0.05);
    const auto job = replayBoth("replay/job-beside-session.dat", "linux-6.12", {});
    EXPECT_NEAR(job[1].baselinePreemptShare, job[0].baselinePreemptShare, 0.1) << "a wakee of another session";
    EXPECT_GT(job[1].waitP50Ratio, job[0].waitP50Ratio / 2);
    EXPECT_LT(job[1].waitP50Ratio, job[0].waitP50Ratio * 2);
    EXPECT_LT(job[1].completionError, 0.05);
}

// A group's tasks wake and preempt among themselves as the root group's do: under CFS the kernel
// gives a woken task half a latency of sleeper credit in its own runqueue's vtime, which the
// flattened queue scales by nice weight over flattened weight. perf's sched messaging on the
// real 6.1 kernel, all in one (guessed) session, preempts within 15 points of the same tasks in
// the root group and waits alike; with the credit unscaled it woke with almost none and
// preempted 3% of the busy CPUs it woke onto (57% in the root group), waiting x66 the recorded
// median.
TEST(ReplayTraces, UnderCfsAGroupsTasksWakeAndPreemptAsTheRootGroupsDo) {
    forEachGuestHackbench([](const std::string& name, const tracing::EventStore& store, const Topology& topo) {
        auto run = [&](std::optional<tracing::TaskGroupSnapshot> groups) {
            ReplayOptions o = onItsOwnMachine();
            o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.1");
            o.derive.commRegex = {"sched-messaging"};
            o.taskGroups = std::move(groups);
            return replayTrace(store, name, topo, topo, o);
        };
        auto grouped = run(guessSessionsFromForks(store)), root = run(std::nullopt);
        ASSERT_TRUE(grouped.ok() && root.ok()) << (grouped.ok() ? root.error() : grouped.error());
        ASSERT_EQ(grouped->taskGroups.size(), 1u) << name << ": perf's children in perf's session";
        const Fidelity &g = *grouped->fidelity, &r = *root->fidelity;
        std::printf("%s: preempting %.0f%% in one group, %.0f%% in the root group (%.0f%% recorded); median wait x%.2f "
                    "and x%.2f\n",
                    name.c_str(), 100 * g.baselinePreemptShare, 100 * r.baselinePreemptShare, 100 * r.recordedPreemptShare,
                    g.waitP50Ratio, r.waitP50Ratio);
        EXPECT_NEAR(g.baselinePreemptShare, r.baselinePreemptShare, 0.15) << name;
        EXPECT_GT(g.waitP50Ratio, 0.7 * r.waitP50Ratio) << name;
        EXPECT_LT(g.waitP50Ratio, 1.4 * r.waitP50Ratio) << name;
    });
}

// WF_SYNC follows the wakeup's mechanism, which a sched trace does not show: pipes and sockets
// set it, futexes never. perf's sched messaging on the real 6.1 kernel talks through sockets:
// taking all its wakeups as sync (--sync-wakeups all) brings the replay's wakeup migrations to
// the recorded count (x1.12 and x1.06, from x0.67 and x0.62 with the waker-blocks guess). A
// thread pool (replay/threadpool.dat: a condition variable) goes the other way, x1.50 -> x8.33.
double wakeupMigrationRatio(const tracing::EventStore& store, const std::string& name, const Topology& topo,
                            const char* profile, bool allSync, const std::vector<std::string>& comm) {
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile(profile);
    o.derive.allWakeupsSync = allSync;
    o.derive.commRegex = comm;
    auto r = replayTrace(store, name, topo, topo, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
    if (!r.ok()) return 0;
    const auto wakeups = [](const ReplayMetrics& m) {
        const auto it = m.migrationsByCause.find("wakeup");
        return it == m.migrationsByCause.end() ? 0.0 : static_cast<double>(it->second);
    };
    const bool said = std::any_of(r->assumptions.begin(), r->assumptions.end(), [&](const std::string& a) {
        return a.find(allSync ? "(all, --sync-wakeups all" : "(those whose waker blocks right after") != std::string::npos;
    });
    EXPECT_TRUE(said) << name << ": the assumptions name the rule";
    return wakeups(r->baseline->metrics) / std::max(1.0, wakeups(r->recorded));
}

TEST(ReplayTraces, SyncWakeupsFollowTheMechanismThatSocketsAndFutexesUse) {
    forEachGuestHackbench([](const std::string& name, const tracing::EventStore& store, const Topology& topo) {
        const double guess = wakeupMigrationRatio(store, name, topo, "linux-6.1", false, {});
        const double sync = wakeupMigrationRatio(store, name, topo, "linux-6.1", true, {});
        std::printf("%s (sockets): wakeup migrations x%.2f with the waker-blocks guess, x%.2f all sync\n", name.c_str(),
                    guess, sync);
        EXPECT_LT(guess, 0.8);
        EXPECT_GT(sync, 0.85);
        EXPECT_LT(sync, 1.2);
    });
    const std::string pool = "replay/threadpool.dat";
    tracing::EventStore store = load(pool);
    const double guess = wakeupMigrationRatio(store, pool, sidecar(pool), "linux-6.18", false, {"threadpool"});
    const double sync = wakeupMigrationRatio(store, pool, sidecar(pool), "linux-6.18", true, {"threadpool"});
    std::printf("threadpool (futexes): wakeup migrations x%.2f with the waker-blocks guess, x%.2f all sync\n", guess, sync);
    EXPECT_GT(sync, 1.5 * guess) << "futex wakeups are not sync: taking them so moves more tasks";
}

TEST(ReplayTraces, WhatIfOnKunpengMapsTheTwoCpusAndTogglesCls) {
    tracing::EventStore store = load("replay/hackbench.dat");
    Topology own = sidecar("replay/hackbench.dat");
    auto kunpeng = loadTopology({TopologySpec::Kind::Preset, "kunpeng920-24"});
    ASSERT_TRUE(kunpeng.ok()) << kunpeng.error();
    ReplayOptions o;
    o.derive.commRegex = {"sched-messaging"};
    o.recordedConfig = {"sidecar", findProfile("linux-6.12"), true, true, false};
    for (bool cls : {true, false}) {
        o.whatIf = {"kunpeng920-24", findProfile("linux-6.12"), cls, true, false};
        auto r = replayTrace(store, "hackbench.dat", own, *kunpeng, o);
        ASSERT_TRUE(r.ok()) << r.error();
        // trace CPUs 0-1 are kunpeng CPUs 0-1: nothing ran elsewhere
        const auto& util = r->whatIf.metrics.cpuUtilisation;
        ASSERT_EQ(util.size(), 96u);
        EXPECT_GT(util[0] + util[1], 0.0);
        for (size_t c = 2; c < util.size(); ++c) EXPECT_EQ(util[c], 0.0) << "cpu " << c;
        EXPECT_EQ(r->whatIf.metrics.migrationsByLevel.count("CLS") > 0, cls) << "CPUs 0-1 share a cluster";
    }
    o.whatIf.spread = true;
    auto spread = replayTrace(store, "hackbench.dat", own, *kunpeng, o);
    ASSERT_TRUE(spread.ok()) << spread.error();
    int used = 0;
    for (double u : spread->whatIf.metrics.cpuUtilisation) used += u > 0;
    EXPECT_GT(used, 2) << "--spread lets the tasks use the whole machine";
}

TEST(ReplayTraces, SmallerWhatIfMachineIsAnError) {
    tracing::EventStore store = load("replay/pingpong.dat");
    Topology own = sidecar("replay/pingpong.dat");
    auto one = loadTopology({TopologySpec::Kind::Synthetic, "pack:1 core:1 pu:1"});
    ASSERT_TRUE(one.ok()) << one.error();
    ReplayOptions o;
    o.whatIf = {"one", nullptr, true, true, false};
    auto r = replayTrace(store, "pingpong.dat", own, *one, o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("the recording has 2 CPUs but topology"), std::string::npos) << r.error();
    r = replayTrace(store, "pingpong.dat", *one, *one, o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("has only 1 CPUs"), std::string::npos) << r.error();
}

// `taskset -c 1 stress-ng --cpu 2`: its two workers shared CPU 1 for 1.07 s beside an idle
// CPU 0. A tokio worker's switch out to idle on CPU 0 was lost (this 6.18 VM drops some): held
// on CPU 0's runqueue for the rest of the trace, it hid the idle CPU beside the workers' queue,
// no pin was inferred, and the baseline ran them on both CPUs and ended at 0.57 s.
TEST(ReplayTraces, ATasksetPinIsSeenPastALostSwitchOut) {
    const std::string name = "replay/taskset-lost-switch.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.18");
    o.derive.commRegex = {"stress-ng.*"};
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    int pinned = 0;
    for (size_t i = 0; i < r->derived.workload.tasks.size(); ++i)
        if (r->derived.tasks[i].comm == "stress-ng-cpu") {
            EXPECT_EQ(finalAffinity(r->derived, i), "1") << r->derived.workload.tasks[i].name;
            ++pinned;
        }
    EXPECT_EQ(pinned, 2);
    ASSERT_TRUE(r->fidelity);
    std::printf("completion recorded %.3f s, baseline %.3f s\n", r->recorded.completionS, r->baseline->metrics.completionS);
    EXPECT_GT(r->recorded.completionS, 1.0);
    EXPECT_LT(r->fidelity->completionError, 0.05);
}

// A ratio needs something recorded to divide by: a 30 ms recording with no migration, whose
// baseline migrated twice, read "migrations x0.00", as if the baseline had not.
TEST(ReplayTraces, AFidelityRatioWithNothingRecordedIsNoRatio) {
    const std::string name = "replay/short-window.dat";
    tracing::EventStore store = load(name);
    Topology topo = sidecar(name);
    ReplayOptions o = onItsOwnMachine();
    o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.18");
    auto r = replayTrace(store, name, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_TRUE(r->fidelity);
    ASSERT_EQ(r->recorded.migrations(), 0);
    const nlohmann::json j = replayResultToJson(*r, name)["fidelity"];
    if (r->baseline->metrics.migrations() > 0) {
        EXPECT_LT(r->fidelity->migrationRatio, 0);
        EXPECT_TRUE(j["migration_ratio"].is_null()) << j.dump();
    } else {
        EXPECT_EQ(r->fidelity->migrationRatio, 1.0);  // neither migrated: the same
        EXPECT_EQ(j["migration_ratio"], 1.0) << j.dump();
    }
    // a recording with migrations gives a ratio
    const std::string other = "replay/pingpong-beside-hogs.dat";
    tracing::EventStore store2 = load(other);
    Topology topo2 = sidecar(other);
    auto r2 = replayTrace(store2, other, topo2, topo2, o);
    ASSERT_TRUE(r2.ok() && r2->fidelity) << (r2.ok() ? "" : r2.error());
    ASSERT_GT(r2->recorded.migrations(), 0);
    EXPECT_DOUBLE_EQ(r2->fidelity->migrationRatio, static_cast<double>(r2->baseline->metrics.migrations()) /
                                                       static_cast<double>(r2->recorded.migrations()));
    EXPECT_TRUE(replayResultToJson(*r2, other)["fidelity"]["migration_ratio"].is_number());
}

TEST(ReplayTraces, RecordedTimelineAndJsonBlocks) {
    tracing::EventStore store = load("replay/pingpong.dat");
    Topology topo = sidecar("replay/pingpong.dat");
    ReplayOptions o = pingPongOnItsOwnMachine();
    o.whatIf.cls = false;
    auto r = replayTrace(store, "pingpong.dat", topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_FALSE(r->recorded.timeline.empty());
    bool sawTask = false;
    for (const auto& s : r->recorded.timeline)
        for (int t : s.running) {
            EXPECT_LT(t, 2);
            sawTask = sawTask || t >= 0;
        }
    EXPECT_TRUE(sawTask);
    EXPECT_FALSE(r->whatIf.metrics.timeline.empty());
    auto j = replayResultToJson(*r, "pingpong.dat");
    for (const char* block : {"recorded", "baseline", "whatif"}) {
        ASSERT_TRUE(j.contains(block)) << block;
        for (const char* key : {"migrations_by_level", "migrations_by_cause", "wait_latency_us", "cpu_utilisation",
                                "completion_s"})
            EXPECT_TRUE(j[block]["metrics"].contains(key)) << block << "." << key;
        ASSERT_EQ(j[block]["tasks"].size(), 2u);
        EXPECT_TRUE(j[block]["tasks"][0].contains("cpu_time_s"));
    }
    EXPECT_EQ(j["delta"]["against"], "baseline");
    EXPECT_TRUE(j["fidelity"].contains("cpu_time_error"));
    EXPECT_TRUE(j["fidelity"].contains("level_mix_error"));
    EXPECT_FALSE(j["assumptions"].empty());
}

// Whatever window of a recording is replayed, the derived scripts are consistent: each Wake
// sits where its waker ran sched_waking and each Wait where its wakee slept, so in recorded
// order every Wait has its Wake. The baseline and the what-if (another profile's scheduler)
// then finish every task; a stall means the deriver or the simulator broke that order.
TEST(ReplayTraces, EveryWindowOfEveryRecordingReplaysToItsEnd) {
    const char* traces[] = {"forkstorm.dat", "hackbench.dat", "napper-2hogs.dat", "napper-hog.dat",
                            "pingpong-lost-switches.dat", "pingpong-raced-wakeup.dat", "pingpong.dat",
                            "pinned.dat", "stress-during-apt.dat", "tcp-pingpong.dat", "busy-io.dat"};
    const std::pair<double, double> windows[] = {{0, 1}, {0, 0.25}, {0.25, 0.75}, {0.6, 1}};
    int runs = 0;
    for (const char* file : traces) {
        const std::string name = std::string("replay/") + file;
        tracing::EventStore store = load(name);
        const Topology topo = sidecar(name);
        const double spanS = static_cast<double>(store.lastTs() - store.firstTs()) / 1e9;
        for (const auto& [from, to] : windows) {
            ReplayOptions o = onItsOwnMachine();
            o.whatIf.profile = findProfile("linux-6.1");  // CFS: another order of the same scripts
            o.derive.windowStartS = from * spanS;
            o.derive.windowEndS = to * spanS;
            auto r = replayTrace(store, name, topo, topo, o);
            ASSERT_TRUE(r.ok()) << name << " " << from << ":" << to << ": " << r.error();
            for (const ReplayMetrics* m : {&r->baseline->metrics, &r->whatIf.metrics}) {
                int unfinished = 0;
                for (const auto& t : m->tasks) unfinished += t.completionS < 0;
                EXPECT_LT(m->stalledAtS, 0) << name << " window " << from << ":" << to << " stalled with "
                                            << m->stalledTasks.size() << " tasks waiting";
                EXPECT_EQ(unfinished, 0) << name << " window " << from << ":" << to << " ("
                                         << (m == &r->whatIf.metrics ? "what-if" : "baseline") << ")";
                ++runs;
            }
        }
    }
    std::printf("%d replays finished every task\n", runs);
}

namespace {
// lb_periodic moves of a run, of the recording or a simulated one
long long periodicMoves(const ReplayMetrics& m) {
    const auto it = m.migrationsByCause.find("lb_periodic");
    return it == m.migrationsByCause.end() ? 0 : it->second;
}
}  // namespace

// messaging.dat: perf bench sched messaging -g 4 -l 60 (160 tasks on 2 CPUs), recorded with its
// groups sidecar: every task in the recorder's autogroup. The balancer weighs a task by its share
// of its group's load (task_h_load()): 160 tasks of one session weigh together what one task of
// the root group weighs, so a periodic balance between two overloaded CPUs moves many at once.
// The kernel moved 104 tasks in periodic balances. Replayed in the group (4 seeds) the simulator
// moves about three quarters as many (78), and its total migrations are within 20% of the
// recording's; in the root group, where each task weighs a whole task, a few per pass: a fifth.
TEST(ReplayTraces, AMessagingSessionsTasksWeighTogetherAsItsGroup) {
    const std::string name = "replay/messaging.dat";
    const GroupedRecording rec = groupedRecording(name);
    ASSERT_TRUE(rec.groups);
    double groupedPeriodic = 0, flatPeriodic = 0, groupedMigrations = 0, flatMigrations = 0, recordedPeriodic = 0,
           recordedMigrations = 0;
    const int seeds = 4;
    for (int seed = 1; seed <= seeds; ++seed) {
        auto run = [&](const std::optional<tracing::TaskGroupSnapshot>& g) {
            ReplayOptions o = onItsOwnMachine();
            o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.18.33");
            o.derive.commRegex = {"sched-messaging"};
            o.seed = static_cast<uint64_t>(seed);
            o.taskGroups = g;
            return replayTrace(rec.store, name, rec.topo, rec.topo, o);
        };
        auto grouped = run(rec.groups), flat = run(std::nullopt);
        ASSERT_TRUE(grouped.ok() && flat.ok()) << (grouped.ok() ? flat.error() : grouped.error());
        ASSERT_EQ(grouped->taskGroups.size(), 1u);
        EXPECT_EQ(grouped->taskGroups[0].tasks, 161);
        recordedPeriodic = static_cast<double>(periodicMoves(grouped->recorded));
        recordedMigrations = static_cast<double>(grouped->recorded.migrations());
        groupedPeriodic += static_cast<double>(periodicMoves(grouped->baseline->metrics)) / seeds;
        flatPeriodic += static_cast<double>(periodicMoves(flat->baseline->metrics)) / seeds;
        groupedMigrations += static_cast<double>(grouped->baseline->metrics.migrations()) / seeds;
        flatMigrations += static_cast<double>(flat->baseline->metrics.migrations()) / seeds;
    }
    std::printf("periodic balance moves: recorded %.0f, in the session's group %.1f, in the root group %.1f; "
                "migrations x%.2f and x%.2f of the recorded %.0f\n",
                recordedPeriodic, groupedPeriodic, flatPeriodic, groupedMigrations / recordedMigrations,
                flatMigrations / recordedMigrations, recordedMigrations);
    EXPECT_GT(recordedPeriodic, 80);
    EXPECT_GT(groupedPeriodic, 0.45 * recordedPeriodic);
    EXPECT_GT(groupedPeriodic, 3 * flatPeriodic);
    EXPECT_NEAR(groupedMigrations / recordedMigrations, 1.0, 0.2);
    EXPECT_LT(flatMigrations, groupedMigrations);
}

// The same recording without its sidecar: the sessions guessed from its forks put perf's 160
// children in the session of the recorder that forked perf, the group the sidecar names for
// them, so the replay of the workload's tasks is the sidecar's to the last migration.
TEST(ReplayTraces, SessionsGuessedFromForksAreTheRecordersForAForkedWorkload) {
    const std::string name = "replay/messaging.dat";
    const GroupedRecording rec = groupedRecording(name);
    ASSERT_TRUE(rec.groups);
    const tracing::TaskGroupSnapshot guessed = guessSessionsFromForks(rec.store);
    auto run = [&](const tracing::TaskGroupSnapshot& g, bool isGuess) {
        ReplayOptions o = onItsOwnMachine();
        o.recordedConfig.profile = o.whatIf.profile = findProfile("linux-6.18.33");
        o.derive.commRegex = {"sched-messaging"};
        o.taskGroups = g;
        o.taskGroupsGuessed = isGuess;
        return replayTrace(rec.store, name, rec.topo, rec.topo, o);
    };
    auto bySidecar = run(*rec.groups, false), byGuess = run(guessed, true);
    ASSERT_TRUE(bySidecar.ok() && byGuess.ok()) << (bySidecar.ok() ? byGuess.error() : bySidecar.error());
    std::vector<int32_t> pids;
    for (const auto& t : byGuess->derived.tasks) pids.push_back(t.pid);
    const auto truth = tracing::groupsOfTasks(*rec.groups, rec.store, pids);
    const auto guess = tracing::groupsOfTasks(guessed, rec.store, pids);
    std::set<std::string> guessedGroups;
    for (int32_t pid : pids) {
        EXPECT_EQ(truth.at(pid), "autogroup-68") << pid;
        guessedGroups.insert(guess.at(pid));
    }
    ASSERT_EQ(guessedGroups.size(), 1u);
    EXPECT_TRUE(guessedGroups.begin()->starts_with("session-")) << *guessedGroups.begin();
    EXPECT_EQ(byGuess->baseline->metrics.migrationsByCause, bySidecar->baseline->metrics.migrationsByCause);
    EXPECT_EQ(byGuess->baseline->metrics.waitLatency.percentileNs(50), bySidecar->baseline->metrics.waitLatency.percentileNs(50));
    EXPECT_TRUE(std::any_of(byGuess->assumptions.begin(), byGuess->assumptions.end(), [](const std::string& a) {
        return a.find("sessions guessed from the trace's forks") != std::string::npos;
    }));
}
