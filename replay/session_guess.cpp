#include "session_guess.h"

#include <map>
#include <set>
#include <string>

#include "derive_workload.h"

namespace schedscope::replay {

tracing::TaskGroupSnapshot guessSessionsFromForks(const tracing::EventStore& store) {
    using tracing::EventKind;
    std::set<int32_t> forked;
    std::map<int32_t, uint64_t> firstSeen;  // every task an event names, when it first did
    auto see = [&](int32_t pid, uint64_t ts) {
        if (pid > 0) firstSeen.emplace(pid, ts);
    };
    store.forEach([&](const tracing::SchedEvent& e) {
        switch (e.kind) {
        case EventKind::Switch:
            see(e.pid, e.ts);
            see(e.pid2, e.ts);
            break;
        case EventKind::ProcessFork:
            see(e.pid, e.ts);
            if (e.pid2 > 0 && !firstSeen.count(e.pid2)) forked.insert(e.pid2);
            see(e.pid2, e.ts);
            break;
        case EventKind::CpuIdle: break;  // its pid column holds an idle state
        default: see(e.pid, e.ts); break;
        }
        return true;
    });
    tracing::TaskGroupSnapshot snap;
    snap.autogroupEnabled = true;
    for (const auto& [pid, ts] : firstSeen) {
        if (forked.count(pid)) continue;  // in its parent's group
        // init and kthreadd are in the root group, and so is every kernel thread: autogroup is
        // for the tasks of a session only
        const bool root = pid == 1 || pid == 2 || isKernelThreadComm(store.commAt(pid, ts));
        snap.groupOf[pid] = root ? "/" : "session-" + std::to_string(pid);
    }
    return snap;
}

}  // namespace schedscope::replay
