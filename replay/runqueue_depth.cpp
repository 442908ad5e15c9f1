#include "runqueue_depth.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace schedscope::replay {

using tracing::EventKind;

RunqueueDepth::RunqueueDepth(const tracing::EventStore& store) : steps_(static_cast<size_t>(store.cpuCount())) {
    std::vector<int> depth(steps_.size(), 0);
    std::unordered_map<int32_t, int> where;  // pid -> CPU whose runqueue holds it
    auto note = [&](int cpu, uint64_t ts) {
        auto& s = steps_[static_cast<size_t>(cpu)];
        const int d = depth[static_cast<size_t>(cpu)];
        if (!s.empty() && s.back().first == ts) s.back().second = d;
        else if (s.empty() || s.back().second != d) s.emplace_back(ts, d);
    };
    auto valid = [&](int cpu) { return cpu >= 0 && static_cast<size_t>(cpu) < depth.size(); };
    auto remove = [&](int32_t pid, uint64_t ts) {
        auto it = where.find(pid);
        if (it == where.end()) return;
        --depth[static_cast<size_t>(it->second)];
        note(it->second, ts);
        where.erase(it);
    };
    auto add = [&](int32_t pid, int cpu, uint64_t ts) {
        if (pid <= 0 || !valid(cpu)) return;
        auto it = where.find(pid);
        if (it != where.end()) {
            if (it->second == cpu) return;
            remove(pid, ts);
        }
        where[pid] = cpu;
        ++depth[static_cast<size_t>(cpu)];
        note(cpu, ts);
    };
    std::vector<int32_t> running(steps_.size(), -1);  // per CPU: the task the last switch put on it
    store.forEach([&](const tracing::SchedEvent& e) {
        switch (e.kind) {
            case EventKind::Switch:
                // A switch out of another task than the one switched in last: that one's switch
                // out was lost (some 6.18 kernels drop task -> idle switches with no loss
                // counted). It left this CPU, most likely to sleep: off the runqueue, until a
                // wakeup or a switch shows it again. (Kept, it held the CPU's depth up for the
                // rest of the trace, and an idle CPU beside a queue was never seen.)
                if (valid(e.cpu)) {
                    const int32_t last = running[static_cast<size_t>(e.cpu)];
                    if (last > 0 && last != e.pid)
                        if (auto it = where.find(last); it != where.end() && it->second == e.cpu) remove(last, e.ts);
                    running[static_cast<size_t>(e.cpu)] = e.pid2;
                }
                // prev stays queued when preempted (R) and leaves the runqueue otherwise
                if (e.pid > 0) {
                    if (e.state == tracing::TaskState::Runnable) add(e.pid, e.cpu, e.ts);
                    else remove(e.pid, e.ts);
                }
                add(e.pid2, e.cpu, e.ts);
                break;
            case EventKind::Waking:
            case EventKind::Wakeup:
            case EventKind::WakeupNew:
                if (!where.count(e.pid)) add(e.pid, e.dstCpu, e.ts);
                break;
            case EventKind::MigrateTask:
                if (where.count(e.pid)) add(e.pid, e.dstCpu, e.ts);
                break;
            default: break;
        }
        return true;
    });
}

int RunqueueDepth::at(int cpu, uint64_t ts) const {
    if (cpu < 0 || cpu >= cpuCount()) return 0;
    const auto& s = steps_[static_cast<size_t>(cpu)];
    auto it = std::upper_bound(s.begin(), s.end(), ts, [](uint64_t t, const std::pair<uint64_t, int>& p) { return t < p.first; });
    return it == s.begin() ? 0 : std::prev(it)->second;
}

uint64_t RunqueueDepth::idleWhileQueued(int busy, int other, uint64_t s, uint64_t e) const {
    if (busy < 0 || other < 0 || busy >= cpuCount() || other >= cpuCount() || e <= s) return 0;
    const auto& a = steps_[static_cast<size_t>(busy)];
    const auto& b = steps_[static_cast<size_t>(other)];
    auto first = [s](const std::vector<std::pair<uint64_t, int>>& v) {
        return static_cast<size_t>(std::upper_bound(v.begin(), v.end(), s,
                                                    [](uint64_t t, const std::pair<uint64_t, int>& p) { return t < p.first; }) -
                                   v.begin());
    };
    size_t ia = first(a), ib = first(b);  // next step of each after s
    int da = at(busy, s), db = at(other, s);
    uint64_t t = s, sum = 0;
    while (t < e) {
        uint64_t next = e;
        if (ia < a.size()) next = std::min(next, a[ia].first);
        if (ib < b.size()) next = std::min(next, b[ib].first);
        if (da >= 2 && db == 0) sum += next - t;
        t = next;
        while (ia < a.size() && a[ia].first <= t) da = a[ia++].second;
        while (ib < b.size() && b[ib].first <= t) db = b[ib++].second;
    }
    return sum;
}

}  // namespace schedscope::replay
