#include "sched_tracker.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace schedscope::tracing {

int32_t CpuTracker::observe(const SchedEvent& e) {
    if (e.cpu < 0) return -1;
    if (static_cast<size_t>(e.cpu) >= current_.size()) current_.resize(static_cast<size_t>(e.cpu) + 1, -1);
    int32_t& cur = current_[static_cast<size_t>(e.cpu)];
    // Before the first switch on a CPU the running task is the one the switch names as prev.
    const int32_t before = e.kind == EventKind::Switch ? e.pid : cur;
    if (e.kind == EventKind::Switch) cur = e.pid2;
    return before;
}

int32_t wakerOf(const SchedEvent& e, int32_t current) {
    // an interrupt's (a timer's expiry, a device, a disk's completion), or (sched_wakeup in a
    // hardirq) the wake list's IPI on the target CPU for a waker elsewhere: not the interrupted
    // task's doing either way
    if (e.byInterrupt) return -1;
    if ((e.kind == EventKind::Waking || e.kind == EventKind::WakeupNew) && e.waker >= 0) return e.waker;
    return current;
}

uint64_t cpuKnownFrom(const EventStore& store, int cpu) {
    const bool lossy = store.anomaly(Anomaly::LostEvents) > 0 || store.anomaly(Anomaly::LostUnknown) > 0;
    if (!lossy || cpu < 0 || cpu >= store.cpuCount() || store.cpuSize(cpu) == 0) return store.firstTs();
    return store.tsAt(cpu, 0);
}

std::vector<std::vector<RunSlice>> computeRunSlices(const EventStore& store) {
    std::vector<std::vector<RunSlice>> out(static_cast<size_t>(store.cpuCount()));
    for (int c = 0; c < store.cpuCount(); ++c) {
        auto& slices = out[static_cast<size_t>(c)];
        const size_t n = store.cpuSize(c);
        if (n == 0) continue;
        uint64_t start = cpuKnownFrom(store, c);
        int32_t cur = -1;
        for (size_t i = 0; i < n; ++i) {
            if (store.kindAt(c, i) != EventKind::Switch) continue;
            SchedEvent e = store.at(c, i);
            slices.push_back({start, e.ts, e.pid, e.state});
            start = e.ts;
            cur = e.pid2;
        }
        if (cur >= 0) slices.push_back({start, store.lastTs(), cur, TaskState::Unknown});
    }
    return out;
}

std::vector<TaskInterval> computeTaskIntervals(const EventStore& store) {
    // A sched_waking recorded before the wakee blocked (see the header): kept for its next
    // switch out, then for the end of the sleep that switch begins.
    struct RacedWaking {
        int32_t waker = -1;
        int32_t cpu = -1;
        uint64_t ts = 0;
    };
    struct Open {
        TaskInterval iv;
        bool open = false;
        bool exiting = false;  // its sched_process_exit was seen: the final switch is coming
        std::optional<RacedWaking> raced;
    };
    std::unordered_map<int32_t, Open> open;
    std::vector<TaskInterval> out;
    // at most two per switch (prev's and next's) and one per wake event, plus one open per task
    // at the end: growing by doubling instead moved and page-faulted 60 MB on a 1M-event trace
    out.reserve(2 * store.count(EventKind::Switch) + store.count(EventKind::Waking) + store.count(EventKind::Wakeup) +
                store.count(EventKind::WakeupNew) + 64);
    CpuTracker tracker(store.cpuCount());
    auto close = [&](int32_t pid, uint64_t ts) {
        auto it = open.find(pid);
        if (it == open.end() || !it->second.open) return;
        it->second.iv.end = ts;
        out.push_back(it->second.iv);
        it->second.open = false;
        it->second.exiting = false;
    };
    auto transition = [&](int32_t pid, TaskPhase phase, uint64_t ts, int32_t cpu, int32_t waker, uint64_t wokenAt) {
        if (pid <= 0) return;
        Open& o = open[pid];
        if (o.open) {
            if (o.iv.phase == phase) return;  // e.g. sched_wakeup after sched_waking
            o.iv.end = ts;
            out.push_back(o.iv);
        }
        o.iv = TaskInterval{pid, phase, ts, ts, cpu, waker, wokenAt};
        o.open = true;
    };
    // The end of a sleep that a raced waking ended: at its sched_wakeup, or, when that was lost,
    // at the next sign that the task ran. Nothing for other tasks.
    auto endRacedSleep = [&](int32_t pid, uint64_t ts, int32_t cpu) {
        auto it = open.find(pid);
        if (it == open.end() || !it->second.open || it->second.iv.phase != TaskPhase::Sleeping || !it->second.raced)
            return;
        const RacedWaking r = *it->second.raced;
        it->second.raced.reset();
        transition(pid, TaskPhase::Runnable, ts, cpu >= 0 ? cpu : r.cpu, r.waker, r.ts);
    };
    // `context` is shown running on `cpu` (a switch's prev, a waking's common_pid) while the
    // switches left another task current there: the switch that took that one off was lost.
    // It ran no later than now; left Running it would hold the CPU until its own next event,
    // over the tasks that did run (a replay then counted more CPU time than the CPUs had).
    auto endStaleRunning = [&](int32_t cpu, int32_t context, uint64_t ts) {
        const int32_t tracked = tracker.current(cpu);
        if (tracked <= 0 || tracked == context) return;
        auto it = open.find(tracked);
        if (it == open.end() || !it->second.open) return;
        const TaskInterval& iv = it->second.iv;
        if (iv.phase == TaskPhase::Running && iv.cpu == cpu) transition(tracked, TaskPhase::Sleeping, ts, cpu, -1, 0);
    };
    // `context` ran `e` on `cpu` while the switches left it runnable: its switch in was lost.
    // It runs from here at the latest (startUnseen: how long it had waited is not known).
    auto runningUnseen = [&](int32_t cpu, int32_t context, uint64_t ts) {
        if (context <= 0) return;
        auto it = open.find(context);
        if (it == open.end() || !it->second.open || it->second.iv.phase != TaskPhase::Runnable) return;
        transition(context, TaskPhase::Running, ts, cpu, -1, 0);
        it->second.iv.startUnseen = true;
    };
    // A task's first event is a switch (`o` is its entry): it was on the CPU before it (see the
    // header). Checked on the entries the switch's handling looks up anyway.
    std::vector<char> switched(static_cast<size_t>(store.cpuCount()), 0);  // a switch seen on the CPU
    auto thereBefore = [&](int32_t pid, Open& o, TaskPhase phase, const SchedEvent& e) {
        if (o.open || o.iv.pid >= 0 || e.cpu < 0 || static_cast<size_t>(e.cpu) >= switched.size()) return;
        // (a prev the CPU's earlier switches did not put there: its switch in was lost, and
        // when it began is anyone's guess)
        if (phase == TaskPhase::Running && switched[static_cast<size_t>(e.cpu)]) return;
        const uint64_t from = cpuKnownFrom(store, e.cpu);
        if (from >= e.ts) return;
        TaskInterval iv{pid, phase, from, e.ts, e.cpu, -1, 0};
        iv.startUnseen = true;
        out.push_back(iv);
        o.iv.pid = pid;  // seen now
    };
    store.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::Switch) {
            endStaleRunning(e.cpu, e.pid, e.ts);
            runningUnseen(e.cpu, e.pid, e.ts);
        } else if ((e.kind == EventKind::Waking || e.kind == EventKind::WakeupNew) && e.waker >= 0) {
            endStaleRunning(e.cpu, e.waker, e.ts);
            runningUnseen(e.cpu, e.waker, e.ts);
        }
        const int32_t cur = tracker.observe(e);
        switch (e.kind) {
            case EventKind::Switch:
                if (e.pid > 0) {
                    endRacedSleep(e.pid, e.ts, -1);  // switched out again: it did run (switch in lost)
                    Open& prev = open[e.pid];
                    thereBefore(e.pid, prev, TaskPhase::Running, e);
                    // The final switch of an exiting task: X or Z, or after its sched_process_exit
                    // any state but a sleep, a stop or a preemption (exit_mm() and exit_files()
                    // may still sleep): a state the text could not tell, or TASK_DEAD read from
                    // a renderer with the wrong kernel's letters (the sched plugin's x)
                    const bool finalSwitch =
                        e.state == TaskState::Dead ||
                        (prev.exiting && e.state != TaskState::Sleeping && e.state != TaskState::DiskSleep &&
                         e.state != TaskState::Stopped && e.state != TaskState::Runnable);
                    if (finalSwitch) {
                        close(e.pid, e.ts);
                        prev.raced.reset();
                    } else if (e.state == TaskState::Runnable) {  // preempted: a raced wake won, no sleep
                        transition(e.pid, TaskPhase::Runnable, e.ts, e.cpu, -1, 0);
                        prev.raced.reset();
                    } else {  // a raced waking, if any, now ends this sleep
                        transition(e.pid, TaskPhase::Sleeping, e.ts, e.cpu, -1, 0);
                    }
                }
                if (e.pid2 > 0) {
                    endRacedSleep(e.pid2, e.ts, e.cpu);
                    Open& next = open[e.pid2];  // (entries stay where they are as the map grows)
                    thereBefore(e.pid2, next, TaskPhase::Runnable, e);
                    transition(e.pid2, TaskPhase::Running, e.ts, e.cpu, -1, 0);
                    next.raced.reset();
                }
                if (e.cpu >= 0 && static_cast<size_t>(e.cpu) < switched.size()) switched[static_cast<size_t>(e.cpu)] = 1;
                break;
            case EventKind::Waking:
            case EventKind::WakeupNew:
            case EventKind::Wakeup: {  // kernels without sched_waking: the wakeup starts runnable
                if (e.pid <= 0) break;
                // Its sched_wakeup, or (that lost) a later sched_waking: a task is traced waking
                // again only once it has run since (TASK_WAKING, then running), so the raced
                // sleep is over and this waking raced the next one.
                endRacedSleep(e.pid, e.ts, e.dstCpu);
                Open& o = open[e.pid];
                if (!o.open || o.iv.phase == TaskPhase::Sleeping) {
                    transition(e.pid, TaskPhase::Runnable, e.ts, e.dstCpu, wakerOf(e, cur), e.ts);
                } else if (e.kind == EventKind::Waking) {
                    o.raced = RacedWaking{wakerOf(e, cur), e.dstCpu, e.ts};  // not asleep yet
                } else {
                    o.raced.reset();  // woken before it blocked (ttwu_runnable()): no sleep
                }
                break;
            }
            case EventKind::ProcessExit:  // the task still runs until its final switch
                if (e.pid > 0) open[e.pid].exiting = true;
                break;
            case EventKind::ProcessFork:  // a new task under a pid whose final switch was lost
                if (e.pid2 > 0) open[e.pid2].exiting = false;
                break;
            default:
                break;
        }
        return true;
    });
    for (auto& [pid, o] : open)
        if (o.open) {
            o.iv.end = store.lastTs();
            out.push_back(o.iv);
        }
    // Stable: a task's intervals are pushed in time order, and a zero-length one must stay
    // before the interval that starts at the same instant.
    std::stable_sort(out.begin(), out.end(), [](const TaskInterval& a, const TaskInterval& b) {
        return a.pid != b.pid ? a.pid < b.pid : a.start < b.start;
    });
    return out;
}

}  // namespace schedscope::tracing
