#include "sched_tracker.h"

#include <algorithm>
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
    if ((e.kind == EventKind::Waking || e.kind == EventKind::WakeupNew) && e.waker >= 0) return e.waker;
    return current;
}

std::vector<std::vector<RunSlice>> computeRunSlices(const EventStore& store) {
    std::vector<std::vector<RunSlice>> out(static_cast<size_t>(store.cpuCount()));
    for (int c = 0; c < store.cpuCount(); ++c) {
        auto& slices = out[static_cast<size_t>(c)];
        const size_t n = store.cpuSize(c);
        if (n == 0) continue;
        uint64_t start = store.tsAt(c, 0);
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
    struct Open {
        TaskInterval iv;
        bool open = false;
    };
    std::unordered_map<int32_t, Open> open;
    std::vector<TaskInterval> out;
    CpuTracker tracker(store.cpuCount());
    auto close = [&](int32_t pid, uint64_t ts) {
        auto it = open.find(pid);
        if (it == open.end() || !it->second.open) return;
        it->second.iv.end = ts;
        out.push_back(it->second.iv);
        it->second.open = false;
    };
    auto transition = [&](int32_t pid, TaskPhase phase, uint64_t ts, int32_t cpu, int32_t waker) {
        if (pid <= 0) return;
        Open& o = open[pid];
        if (o.open) {
            if (o.iv.phase == phase) return;  // e.g. sched_wakeup after sched_waking
            o.iv.end = ts;
            out.push_back(o.iv);
        }
        o.iv = TaskInterval{pid, phase, ts, ts, cpu, waker};
        o.open = true;
    };
    store.forEach([&](const SchedEvent& e) {
        const int32_t cur = tracker.observe(e);
        switch (e.kind) {
            case EventKind::Switch:
                if (e.state == TaskState::Dead) close(e.pid, e.ts);  // the final switch of an exiting task
                else transition(e.pid, e.state == TaskState::Runnable ? TaskPhase::Runnable : TaskPhase::Sleeping,
                                e.ts, e.cpu, -1);
                transition(e.pid2, TaskPhase::Running, e.ts, e.cpu, -1);
                break;
            case EventKind::Waking:
            case EventKind::WakeupNew:
            case EventKind::Wakeup:  // kernels without sched_waking: the wakeup starts runnable
                transition(e.pid, TaskPhase::Runnable, e.ts, e.dstCpu, wakerOf(e, cur));
                break;
            case EventKind::ProcessExit:
                break;  // the task still runs until its final switch (prev_state X/Z)
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
    std::sort(out.begin(), out.end(),
              [](const TaskInterval& a, const TaskInterval& b) { return a.pid != b.pid ? a.pid < b.pid : a.start < b.start; });
    return out;
}

}  // namespace schedscope::tracing
