#include "derive_workload.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "migration_causes.h"
#include "trace_clock_units.h"
#include "runqueue_depth.h"
#include "sched_tracker.h"
#include "sibling_busy.h"
#include "silent_cpus.h"
#include "switch_migrations.h"
#include "sim/contention.h"

namespace schedscope::replay {
namespace {

using tracing::EventKind;
using tracing::TaskInterval;
using tracing::TaskPhase;
using workload::Op;
using workload::OpKind;

// A task that waited this long (in total) while a CPU it never ran on sat idle was not allowed
// there: newidle balancing pulls a waiting task to a CPU going idle at once, and nohz idle
// balancing within a tick when it was cache hot. (A deeper runqueue next to a busy one is no
// evidence: balancing weighs cgroup load and nice levels, not task counts.)
constexpr uint64_t kPinEvidenceNs = 10'000'000;
// Wakes separated by less CPU time than this form one 1:N Wake op.
constexpr double kMultiWakeGapNs = 1000;
// A Wake followed by the waker blocking within this much CPU time is a WF_SYNC wakeup
// (pipe and socket writers wake their reader, then block reading the answer).
constexpr double kSyncBlockNs = 20'000;
// Memory bandwidth a task draws alone per unit of memory-bound share: about the ratio in the
// generators' own calibrations (stream 0.9 -> 11 GB/s, mcf 0.6 -> 5, pbzip2 0.1 -> 1).
constexpr double kGBsPerShare = 12.0;

struct Action {
    uint64_t ts;
    OpKind kind;  // Wake, Fork, SetAffinity or Exec
    int target = -1;
    CpuSet cpus;  // SetAffinity; empty = every CPU
};

struct TaskBuild {
    int32_t pid = -1;
    std::vector<TaskInterval> iv;  // clipped to the window, time order
    std::vector<Action> actions;
    std::set<size_t> waitAt;       // indices into iv of sleeps that end in a kept wakeup
    bool initialWait = false;      // the first interval is a kept wakeup of a task asleep at the start
    bool forked = false;
    int prio = 120;
    uint64_t lastNs = 0;
};

Result<std::vector<std::regex>> compile(const std::vector<std::string>& patterns, const std::string& what,
                                        const std::string& option) {
    std::vector<std::regex> out;
    for (const auto& p : patterns) {
        try {
            out.emplace_back(p, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return Error{what + ": " + option + " '" + p + "' is not a valid regular expression"};
        }
    }
    return out;
}

std::string num(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

}  // namespace

bool isKernelThreadComm(std::string_view comm) {
    static constexpr std::string_view kPrefixes[] = {"kworker/", "ksoftirqd/", "migration/", "idle_inject/",
                                                    "cpuhp/",   "watchdog/",  "irq/",       "rcu_",
                                                    "rcuc/",    "rcuog/",     "rcuop/",     "kcompactd",
                                                    "kswapd",   "khugepaged", "kthreadd",   "swapper"};
    if (comm.empty() || comm == "<idle>" || comm == "idle") return true;
    for (auto p : kPrefixes)
        if (comm.starts_with(p)) return true;
    return false;
}

int DerivedWorkload::indexOfPid(int32_t pid) const {
    for (size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].pid == pid) return static_cast<int>(i);
    return -1;
}

DeriveOptions onRecordingMachine(DeriveOptions options, const Topology& recordedOn) {
    options.cpuCount = static_cast<int>(recordedOn.cpus.size());
    options.capacity.clear();
    options.smtSiblings.clear();
    for (const auto& c : recordedOn.cpus) {
        options.capacity.push_back(c.capacity);
        options.smtSiblings.push_back(c.threadSiblings);
    }
    options.smtSlowdown = sim::contentionParamsFor(recordedOn).smtSlowdown;
    return options;
}

Result<DerivedWorkload> deriveWorkload(const tracing::EventStore& store, const DeriveOptions& options,
                                       const std::string& what) {
    return deriveWorkload(store, TraceTimelines::of(store), options, what);
}

Result<DerivedWorkload> deriveWorkload(const tracing::EventStore& store, const TraceTimelines& timelines,
                                       const DeriveOptions& opt, const std::string& what) {
    if (store.count(EventKind::Switch) == 0)
        return Error{what + ": the trace has no sched_switch events; replay needs them (record with -e sched)"};
    // run and sleep times come from the timestamps: a clock counting cycles or ticks would make
    // every burst a wrong multiple of its length
    if (!store.clockCountsNs())
        return Error{what + ": its trace clock " + (store.traceClock().empty() ? std::string("(raw counts)") : store.traceClock()) +
                     " does not count nanoseconds, and replay needs run and sleep times (" +
                     tracing::nsClockAdvice(store.traceClock()) + ")"};
    if (const std::string problem = tracing::oneTimestampProblem(store); !problem.empty()) return Error{what + ": " + problem};
    if (!(opt.scale > 0) || opt.scale > 1000) return Error{what + ": scale must be in (0, 1000]"};
    const uint64_t first = store.firstTs(), last = store.lastTs();
    const double spanS = static_cast<double>(last - first) / 1e9;
    const double endS = opt.windowEndS < 0 ? spanS : std::min(opt.windowEndS, spanS);
    if (!(opt.windowStartS >= 0) || !(endS > opt.windowStartS))
        return Error{what + ": the window " + num(opt.windowStartS) + ":" +
                     (opt.windowEndS < 0 ? std::string("end") : num(opt.windowEndS)) + " s is empty (the trace spans 0:" +
                     num(spanS) + " s)"};
    DerivedWorkload out;
    out.traceStartNs = first;
    out.windowStartNs = first + static_cast<uint64_t>(std::llround(opt.windowStartS * 1e9));
    out.windowEndNs = first + static_cast<uint64_t>(std::llround(endS * 1e9));
    const uint64_t ws = out.windowStartNs, we = out.windowEndNs;
    out.cpuCount = opt.cpuCount > 0 ? opt.cpuCount : store.cpuCount();
    const int ncpu = out.cpuCount;
    auto capOf = [&](int cpu) {
        return cpu >= 0 && static_cast<size_t>(cpu) < opt.capacity.size() ? opt.capacity[static_cast<size_t>(cpu)] / 1024.0
                                                                          : 1.0;
    };
    const bool smtCorrected = opt.smtSlowdown > 1.0 && !opt.smtSiblings.empty();
    const SiblingBusy siblingBusy = smtCorrected ? SiblingBusy(timelines.slices, opt.smtSiblings) : SiblingBusy();
    uint64_t ranNs = 0, sharedNs = 0;
    sim::ContentionParams smt;
    smt.smtSlowdown = opt.smtSlowdown;
    std::vector<uint64_t> byBusy;  // of one run: its ns with k siblings busy
    // the work of running on `cpu` over [a, b): its capacity, less while siblings ran too (each
    // of k + 1 busy threads of a core runs smtSlowdownOf(k + 1) times slower than one alone)
    auto workOf = [&](int cpu, uint64_t a, uint64_t b) {
        const double cap = capOf(cpu);
        ranNs += b - a;
        if (!smtCorrected) return static_cast<double>(b - a) * cap;
        byBusy.assign(byBusy.size(), 0);
        siblingBusy.addOverlapByBusy(cpu, a, b, byBusy);
        uint64_t shared = 0;
        double work = 0;
        for (size_t k = 1; k < byBusy.size(); ++k) {
            shared += byBusy[k];
            work += static_cast<double>(byBusy[k]) / sim::smtSlowdownOf(smt, static_cast<int>(k) + 1);
        }
        sharedNs += shared;
        return (static_cast<double>(b - a - shared) + work) * cap;
    };

    auto commRx = compile(opt.commRegex, what, "--comm");
    if (!commRx) return Error{commRx.error()};
    std::vector<std::string> memPatterns, affPatterns;
    for (const auto& m : opt.memory) memPatterns.push_back(m.commRegex);
    for (const auto& a : opt.affinity) affPatterns.push_back(a.commRegex);
    auto memRx = compile(memPatterns, what, "--memory");
    if (!memRx) return Error{memRx.error()};
    auto affRx = compile(affPatterns, what, "--affinity");
    if (!affRx) return Error{affRx.error()};

    // ---- one pass over the events: forks, exits, priorities
    struct Fork {
        uint64_t ts;
        int32_t parent, child;
    };
    std::vector<Fork> forks;
    std::unordered_map<int32_t, uint64_t> exits;
    std::vector<std::pair<uint64_t, int32_t>> execs;  // sched_process_exec: when, which thread
    std::unordered_map<int32_t, int> prio;
    std::unordered_map<int32_t, int> interruptWakes;  // per woken task, in the window (wakerOf() gives none)
    store.forEach([&](const tracing::SchedEvent& e) {
        switch (e.kind) {
            case EventKind::ProcessFork: forks.push_back({e.ts, e.pid, e.pid2}); break;
            case EventKind::ProcessExit: exits[e.pid] = e.ts; break;
            // old_pid: the thread that called execve() (a thread other than the leader takes
            // the leader's pid as it execs)
            case EventKind::ProcessExec: execs.emplace_back(e.ts, e.pid2 >= 0 ? e.pid2 : e.pid); break;
            case EventKind::Waking:
            case EventKind::WakeupNew:
                if (e.byInterrupt && e.ts >= ws && e.ts < we) ++interruptWakes[e.pid];
                [[fallthrough]];
            case EventKind::Switch:
            case EventKind::Wakeup:
                if (e.pid > 0) prio[e.pid] = e.prio;
                break;
            default: break;
        }
        return true;
    });

    // ---- intervals per task, clipped to the window
    std::map<int32_t, TaskBuild> builds;  // ordered by pid: deterministic task order
    const auto& all = timelines.intervals;  // by pid, each task's in time order
    for (size_t i = 0, next = 0; i < all.size(); i = next) {
        next = i;
        while (next < all.size() && all[next].pid == all[i].pid) ++next;
        TaskBuild* b = nullptr;
        for (size_t k = i; k < next; ++k) {
            if (all[k].end <= ws || all[k].start >= we) continue;
            TaskInterval c = all[k];
            c.start = std::max(c.start, ws);
            c.end = std::min(c.end, we);
            if (!b) {
                b = &builds[c.pid];
                b->pid = c.pid;
                b->iv.reserve(next - k);
            }
            b->iv.push_back(c);
            b->lastNs = std::max(b->lastNs, c.end);
        }
    }

    // ---- which tasks to keep
    std::unordered_set<int32_t> byPid(opt.pids.begin(), opt.pids.end());
    for (const Fork& f : forks)  // descendants of the named pids (forks are in time order)
        if (byPid.count(f.parent)) byPid.insert(f.child);
    const bool filtered = !opt.pids.empty() || !opt.commRegex.empty();
    std::vector<int32_t> kept;
    int kernelDropped = 0;
    for (auto& [pid, b] : builds) {
        const std::string comm(store.commAt(pid, b.lastNs));
        bool keep = true;
        if (!opt.keepKernelThreads && isKernelThreadComm(comm)) {
            keep = false;
            ++kernelDropped;
        } else if (filtered) {
            keep = byPid.count(pid) > 0;
            for (const auto& rx : *commRx) keep = keep || std::regex_match(comm, rx);
        }
        if (keep) kept.push_back(pid);
        else ++out.droppedTasks;
    }
    if (kept.empty()) return Error{what + ": no task is left in the window after the filters"};
    std::unordered_map<int32_t, int> index;
    for (size_t i = 0; i < kept.size(); ++i) index[kept[i]] = static_cast<int>(i);
    auto keptIdx = [&](int32_t pid) {
        auto it = index.find(pid);
        return it == index.end() ? -1 : it->second;
    };

    // ---- forks of kept children by kept parents inside the window
    std::unordered_map<int32_t, int32_t> parentOf;
    for (const Fork& f : forks) {
        if (f.ts < ws || f.ts >= we) continue;
        if (keptIdx(f.child) < 0 || keptIdx(f.parent) < 0) continue;
        builds[f.parent].actions.push_back({f.ts, OpKind::Fork, index[f.child], {}});
        builds[f.child].forked = true;
        parentOf[f.child] = f.parent;
    }

    // ---- wake edges: a sleep ended by sched_waking from a kept task becomes Wait + Wake
    // (a forked child's first runnable interval is its sched_wakeup_new: the Fork op covers it)
    std::map<std::pair<int, int>, int> edgeCount;
    for (int32_t pid : kept) {
        TaskBuild& b = builds[pid];
        for (size_t k = 0; k < b.iv.size(); ++k) {
            const TaskInterval& iv = b.iv[k];
            const bool startsAsleep = k == 0 && !b.forked && iv.phase == TaskPhase::Runnable && iv.start > ws;
            const bool sleepThenWake = iv.phase == TaskPhase::Sleeping && k + 1 < b.iv.size() &&
                                       b.iv[k + 1].phase == TaskPhase::Runnable;
            if (!startsAsleep && !sleepThenWake) continue;
            const TaskInterval& wake = startsAsleep ? iv : b.iv[k + 1];
            const int w = keptIdx(wake.waker);
            if (w < 0 || wake.waker == pid || wake.start >= we) continue;
            // The Wake goes where the waker ran sched_waking, which for a wakeup that raced
            // the sleep is before the sleep began (a kept early wake, as in the kernel), not
            // where the wakee became runnable: by then the waker may be asleep itself, and
            // a Wake placed after its own Wait deadlocks the pair.
            builds[wake.waker].actions.push_back({wake.wokenAt, OpKind::Wake, index[pid], {}});
            if (startsAsleep) b.initialWait = true;
            else b.waitAt.insert(k);
            ++edgeCount[{w, index[pid]}];
        }
    }
    for (const auto& [e, n] : edgeCount) out.edges.push_back({e.first, e.second, n});

    // ---- affinity: stretches between affinity and exec migrations; pinned to the CPUs it ran on
    // after an affinity migration, or where it waited while a CPU it never ran on was idle
    const RunqueueDepth depth(store);
    std::unordered_map<int32_t, std::vector<uint64_t>> affinityMoves;
    int seenWhereLost = 0;  // moves a lossy trace's switches show, its sched_migrate_task lost
    const bool switchesOnly = tracing::migrationSource(store).starts_with("sched_switch");
    std::unordered_map<int32_t, std::vector<uint64_t>> execMoves;
    // sched_setaffinity() calls, when the trace has them: each one bounds a stretch, moved or
    // not (taskset -c 0 CMD run on CPU 0 changes the mask without a move); a move inside a call
    // is that call's
    const tracing::AffinityCalls affinityCalls(store.affinityCallRecords());
    for (const auto& m : tracing::inferMigrations(store)) {
        if (m.ts <= ws || m.ts >= we || keptIdx(m.pid) < 0) continue;
        if (m.cause == tracing::MigrationCause::Affinity && !affinityCalls.covers(m.pid, m.ts))
            affinityMoves[m.pid].push_back(m.ts);
        if (m.cause == tracing::MigrationCause::Exec) execMoves[m.pid].push_back(m.ts);
        seenWhereLost += m.seenInSwitches && !switchesOnly;
    }
    for (int32_t pid : kept)
        for (uint64_t end : affinityCalls.callEnds(pid))
            if (end > ws && end < we) affinityMoves[pid].push_back(end);
    for (auto& [pid, moves] : affinityMoves) std::sort(moves.begin(), moves.end());

    // ---- execve() of kept tasks in the window: sched_exec() placed them (and may have moved
    // them) before the new program ran. The decision is where the stopper moved the task, if it
    // did, which is before sched_process_exec (the new image loads in between); else at the event.
    for (const auto& [ts, pid] : execs) {
        if (ts < ws || ts >= we || keptIdx(pid) < 0) continue;
        uint64_t at = ts;
        for (uint64_t moved : execMoves[pid])
            if (moved <= ts && ts - moved <= tracing::kExecAfterStopperNs) at = moved;
        builds[pid].actions.push_back({at, OpKind::Exec, -1, {}});
        ++out.execs;
    }

    // A CPU without a single event was most likely not traced (trace-cmd record -M): its lane
    // looks idle throughout, and a task waiting elsewhere while it "was idle" says nothing of
    // the task's affinity.
    CpuSet untraced;
    for (int c : tracing::silentCpus(store, ncpu)) untraced.set(c);

    int inferredPinned = 0, userPinned = 0, rtTasks = 0;
    out.workload.name = "replay";
    out.workload.spec = what;
    for (int32_t pid : kept) {
        TaskBuild& b = builds[pid];
        DerivedTask dt;
        dt.pid = pid;
        dt.comm = std::string(store.commAt(pid, b.lastNs));
        dt.parent = parentOf.count(pid) ? parentOf[pid] : -1;
        dt.firstNs = static_cast<int64_t>(b.iv.front().start - ws);
        if (auto it = exits.find(pid); it != exits.end() && it->second >= ws && it->second <= we)
            dt.exitNs = static_cast<int64_t>(it->second - ws);

        workload::TaskSpec spec;
        spec.name = dt.comm + ":" + std::to_string(pid);
        const int p = prio.count(pid) ? prio[pid] : 120;
        if (p < 100) ++rtTasks;
        spec.nice = std::clamp(p - 120, -20, 19);
        spec.startAtBegin = !b.forked;
        // where the window found it: the CPU of its first interval that names one (a task asleep
        // at the start wakes onto it as its prev CPU); exec-placing every such task from one CPU
        // piled their initial load there and skewed the first forks and balances
        if (spec.startAtBegin)
            for (const auto& iv : b.iv)
                if (iv.cpu >= 0) {
                    if (iv.cpu < ncpu) spec.startCpu = iv.cpu;
                    break;
                }
        spec.memFraction = opt.defaultMemoryShare;
        for (size_t r = 0; r < memRx->size(); ++r)
            if (std::regex_match(dt.comm, (*memRx)[r])) {
                spec.memFraction = opt.memory[r].share;
                break;
            }
        spec.bandwidthGBs = spec.memFraction * kGBsPerShare;

        // affinity
        bool userRule = false;
        for (size_t r = 0; r < affRx->size(); ++r)
            if (std::regex_match(dt.comm, (*affRx)[r])) {
                dt.initialAffinity = opt.affinity[r].cpus;
                userRule = true;
                ++userPinned;
                break;
            }
        if (!userRule) {
            // Stretches start at the window, at each affinity migration and at each exec
            // migration: without syscall events, `taskset -c N CMD` moving itself just before it
            // execs CMD reads as sched_exec()'s move, so what the task kept to after one is
            // evidence-gated as at the window's start (an affinity move's stretch is not).
            struct Bound {
                uint64_t ts;
                bool affinityMove;
            };
            std::vector<Bound> bounds = {{ws, false}};
            for (uint64_t m : affinityMoves[pid]) bounds.push_back({m, true});
            for (uint64_t m : execMoves[pid]) bounds.push_back({m, false});
            std::stable_sort(bounds.begin() + 1, bounds.end(), [](const Bound& x, const Bound& y) { return x.ts < y.ts; });
            bounds.push_back({we, false});
            CpuSet previous;
            for (size_t s = 0; s + 1 < bounds.size(); ++s) {
                const uint64_t a = bounds[s].ts, z = bounds[s + 1].ts;
                CpuSet ran;
                for (const auto& iv : b.iv)
                    if (iv.phase == TaskPhase::Running && iv.end > a && iv.start < z && iv.cpu >= 0) ran.set(iv.cpu);
                CpuSet pinned;
                if (!ran.empty() && ran.count() < ncpu) {
                    uint64_t evidence = 0;
                    for (const auto& iv : b.iv) {
                        if (iv.phase != TaskPhase::Runnable || iv.end <= a || iv.start >= z) continue;
                        for (int c = 0; c < ncpu; ++c)
                            if (!ran.test(c) && !untraced.test(c))
                                evidence += depth.idleWhileQueued(iv.cpu, c, std::max(a, iv.start), std::min(z, iv.end));
                    }
                    // After an affinity migration (sched_setaffinity moved it) the CPUs it kept
                    // to are its new mask; a widened mask it did not use yet is not seen.
                    if (evidence >= kPinEvidenceNs || bounds[s].affinityMove) pinned = ran;
                    // an exec keeps the mask: a pinned task's exec move stays pinned
                    else if (s > 0 && !previous.empty()) pinned = previous | ran;
                    // where it may have run unseen: the mask cannot leave those out
                    if (!pinned.empty()) pinned |= untraced;
                    if (pinned.count() >= ncpu) pinned = CpuSet{};
                }
                if (s == 0) dt.initialAffinity = pinned;
                else if (!(pinned == previous)) b.actions.push_back({a, OpKind::SetAffinity, -1, pinned});
                if (!pinned.empty()) dt.affinityFromTrace = true;
                previous = pinned;
            }
            if (dt.affinityFromTrace) ++inferredPinned;
        }
        spec.affinity = dt.initialAffinity;

        // ---- the script
        std::stable_sort(b.actions.begin(), b.actions.end(), [](const Action& x, const Action& y) { return x.ts < y.ts; });
        auto& script = spec.script;
        // about one op per interval and per action (a Run and a Sleep per sleep, a Run per
        // wake, Runnable intervals none): growing by doubling copied every op several times
        script.reserve(b.iv.size() + b.actions.size() + 2);
        double runAcc = 0;  // CPU time not yet in a Run op (normalised, unscaled)
        size_t lastWake = SIZE_MAX;  // index of the Wake op that a 1:N wakeup may extend
        auto flushRun = [&] {
            if (runAcc >= 1) {
                Op op;
                op.kind = OpKind::Run;
                op.amountNs = runAcc * opt.scale;
                script.push_back(std::move(op));
            }
            runAcc = 0;
        };
        auto emit = [&](const Action& a) {
            if (a.kind == OpKind::Wake) ++dt.wakes;
            // 1:N: no op and (almost) no CPU time since the last Wake: one Wake, several targets.
            // The little CPU time between them stays pending and runs after the merged Wake.
            if (a.kind == OpKind::Wake && lastWake != SIZE_MAX && lastWake + 1 == script.size() &&
                runAcc < kMultiWakeGapNs) {
                auto& targets = script[lastWake].targets;
                if (std::find(targets.begin(), targets.end(), a.target) == targets.end()) {
                    targets.push_back(a.target);
                    return;
                }
            }
            flushRun();
            Op op;
            op.kind = a.kind;
            if (a.kind == OpKind::SetAffinity) op.cpus = a.cpus;
            else if (a.kind != OpKind::Exec) op.targets = {a.target};
            script.push_back(std::move(op));
            lastWake = a.kind == OpKind::Wake ? script.size() - 1 : SIZE_MAX;
        };
        size_t ai = 0;
        auto emitUpTo = [&](uint64_t ts, bool inclusive) {
            while (ai < b.actions.size() && (b.actions[ai].ts < ts || (inclusive && b.actions[ai].ts == ts))) emit(b.actions[ai++]);
        };
        auto pushWait = [&] {
            flushRun();
            Op op;
            op.kind = OpKind::Wait;
            script.push_back(std::move(op));
            ++dt.waits;
        };
        auto pushSleep = [&](uint64_t ns) {
            flushRun();
            if (ns == 0) return;
            Op op;
            op.kind = OpKind::Sleep;
            op.amountNs = static_cast<double>(ns);
            script.push_back(std::move(op));
            ++dt.sleeps;
        };
        // Before its first interval the task was asleep (or not yet forked by a dropped parent).
        if (b.initialWait) pushWait();
        else if (!b.forked && b.iv.front().start > ws) pushSleep(b.iv.front().start - ws);
        for (size_t k = 0; k < b.iv.size(); ++k) {
            const TaskInterval& iv = b.iv[k];
            if (iv.phase == TaskPhase::Running) {
                emitUpTo(iv.start, false);
                uint64_t cursor = iv.start;
                while (ai < b.actions.size() && b.actions[ai].ts <= iv.end) {
                    runAcc += workOf(iv.cpu, cursor, b.actions[ai].ts);
                    cursor = b.actions[ai].ts;
                    emit(b.actions[ai++]);
                }
                runAcc += workOf(iv.cpu, cursor, iv.end);
                dt.cpuTimeNs += iv.end - iv.start;
            } else if (iv.phase == TaskPhase::Sleeping) {
                emitUpTo(iv.start, true);
                if (b.waitAt.count(k)) pushWait();
                else if (k + 1 < b.iv.size()) pushSleep(iv.end - iv.start);
                // a sleep still going at the window's end: the script ends here
            }
            // Runnable: waiting for a CPU is the simulated scheduler's business
        }
        while (ai < b.actions.size()) emit(b.actions[ai++]);
        flushRun();
        // WF_SYNC: the waker blocks right after the wakeup
        for (size_t i = 0; i < script.size(); ++i) {
            if (script[i].kind != OpKind::Wake) continue;
            size_t j = i + 1;
            double ran = 0;
            while (j < script.size() && script[j].kind == OpKind::Run && ran < kSyncBlockNs) ran += script[j++].amountNs;
            script[i].sync = opt.allWakeupsSync || (ran < kSyncBlockNs && j < script.size() &&
                                                    (script[j].kind == OpKind::Wait || script[j].kind == OpKind::Sleep));
            if (script[i].targets.size() > 1) ++out.multiWakeOps;
        }
        out.workload.tasks.push_back(std::move(spec));
        out.tasks.push_back(std::move(dt));
    }
    // Long enough for a slowed-down replay; the run stops when every task has exited.
    out.workload.durationS = opt.runLimitS > 0 ? opt.runLimitS : defaultRunLimitS(static_cast<double>(we - ws) / 1e9);
    // the simulator runs at most 100000 s: a window that long is most often one corrupt
    // timestamp (a flipped bit makes a 1 s trace span 13 days)
    if (out.workload.durationS > 1e5)
        return Error{what + ": the window spans " + num(static_cast<double>(we - ws) / 1e9) +
                     " s, too long to replay (a run may last 100000 s, " +
                     (opt.runLimitS > 0 ? "which --run-limit asks beyond" : "and a replay 3x its window + 1 s") +
                     "; a corrupt timestamp? --window A:B replays a part)"};
    out.runLimitGiven = opt.runLimitS > 0;

    // ---- what the trace cannot show
    auto& as = out.assumptions;
    {
        std::string rules;
        for (const auto& m : opt.memory) rules += (rules.empty() ? "" : ", ") + m.commRegex + "=" + num(m.share);
        as.push_back("memory-bound share " + num(opt.defaultMemoryShare) +
                     " for tasks no --memory rule matched (a sched trace cannot show it)" +
                     (rules.empty() ? std::string{} : "; rules: " + rules) + "; bandwidth drawn alone = share x " +
                     std::to_string(static_cast<int>(kGBsPerShare)) + " GB/s");
    }
    int keptInterruptWakes = 0;
    for (int32_t pid : kept)
        if (auto it = interruptWakes.find(pid); it != interruptWakes.end()) keptInterruptWakes += it->second;
    const std::string interruptCount =
        store.irqContextKnown()
            ? std::to_string(keptInterruptWakes) + " of the kept tasks here"
            : "unknown here: these text lines have no irq-flags column, so every wakeup counts as the interrupted "
              "task's; the trace.dat, or its `trace-cmd report -l`, tells them apart";
    as.push_back("the waker is the task that ran sched_waking (its common_pid; without it, the task the switches show "
                 "current on that CPU), except for an interrupt's wakeups (" +
                 interruptCount + "): in a hardirq or NMI (a timer's expiry, a device), or in a softirq serving "
                 "timers, block I/O, tasklets, RCU or the scheduler (by the trace's softirq_entry events): no task "
                 "woke those. A network softirq's wakeup, or one in a softirq of a trace without softirq_entry, stays "
                 "with the task it ran in (loopback networking is that task's doing)");
    as.push_back("sleeps ended by a timer, an interrupt from idle, or a dropped task replay as timed sleeps of the "
                 "recorded length; sleeps ended by a kept task wait for that task's simulated wakeup");
    long long wakeOps = 0, syncOps = 0;
    for (const auto& t : out.workload.tasks)
        for (const auto& op : t.script)
            if (op.kind == OpKind::Wake) {
                ++wakeOps;
                syncOps += op.sync;
            }
    if (wakeOps > 0)
        as.push_back(std::to_string(syncOps) + " of " + std::to_string(wakeOps) + " task wakeups are WF_SYNC (" +
                     (opt.allWakeupsSync ? "all, --sync-wakeups all: pipes and sockets wake so, futexes do not"
                                         : "those whose waker blocks right after; the kernel sets it by mechanism, pipes "
                                           "and sockets always, futexes never: --sync-wakeups all for a workload that "
                                           "talks through pipes or sockets") +
                     ")");
    as.push_back("preemptions are not replayed: each task's CPU time between blocking points is one burst, scaled by "
                 "CPU capacity/1024" + std::string(opt.scale != 1.0 ? " and by " + num(opt.scale) : ""));
    if (smtCorrected && ranNs > 0)
        as.push_back("CPU time while an SMT sibling ran too (" + num(100.0 * static_cast<double>(sharedNs) / static_cast<double>(ranNs)) +
                     "% of the kept tasks' time) is replayed as 1/" + num(opt.smtSlowdown) +
                     " of the work (with k threads of a core busy, 1/k^" + num(1.0 - std::log2(2.0 / opt.smtSlowdown)) +
                     "): the thread had part of the core, as the simulator gives it when they run together");
    if (inferredPinned)
        as.push_back("CPU affinity inferred for " + std::to_string(inferredPinned) +
                     " task(s): the CPUs they kept to after an affinity migration or a sched_setaffinity() call, or while "
                     "they waited >= 10 ms with a CPU they never ran on idle");
    if (userPinned) as.push_back("CPU affinity from --affinity for " + std::to_string(userPinned) + " task(s)");
    if (!opt.keepKernelThreads && kernelDropped)
        as.push_back(std::to_string(kernelDropped) + " kernel thread(s) dropped (kworker, ksoftirqd, migration, ...)");
    if (rtTasks) as.push_back(std::to_string(rtTasks) + " real-time task(s) replayed as nice -20 fair tasks");
    if (seenWhereLost)
        as.push_back(std::to_string(seenWhereLost) + " recorded migration(s) of the kept tasks are seen in the switches: "
                     "the trace lost their sched_migrate_task with the events it lost");
    return out;
}

}  // namespace schedscope::replay
