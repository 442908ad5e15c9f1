#pragma once
// SchedEvent builders for the tests that feed hand-made event sequences to the event store, the
// trackers and the deriver (header only: the including test links schedscope_tracing).
#include <cstdint>
#include <set>

#include "event_schema.h"
#include "event_store.h"

namespace schedscope::test {

inline tracing::SchedEvent schedEvent(uint64_t ts, int cpu, tracing::EventKind kind, int pid, int pid2 = -1) {
    tracing::SchedEvent e;
    e.ts = ts;
    e.cpu = cpu;
    e.kind = kind;
    e.pid = pid;
    e.pid2 = pid2;
    return e;
}

// sched_switch on `cpu` from `prev` (leaving in `prevState`) to `next`.
inline tracing::SchedEvent switchEvent(uint64_t ts, int cpu, int prev, int next, tracing::TaskState prevState) {
    tracing::SchedEvent e = schedEvent(ts, cpu, tracing::EventKind::Switch, prev, next);
    e.state = prevState;
    return e;
}

// A wake record (Waking, Wakeup, WakeupNew) run by `waker` (common_pid) on `cpu` for `pid`,
// targeting `dstCpu`.
inline tracing::SchedEvent wakeEvent(uint64_t ts, int cpu, tracing::EventKind kind, int pid, int dstCpu, int waker) {
    tracing::SchedEvent e = schedEvent(ts, cpu, kind, pid);
    e.dstCpu = dstCpu;
    e.waker = waker;
    return e;
}

// sched_migrate_task of `pid` from `srcCpu` to `dstCpu`, recorded on `dstCpu`.
inline tracing::SchedEvent migrateEvent(uint64_t ts, int pid, int srcCpu, int dstCpu) {
    tracing::SchedEvent e = schedEvent(ts, dstCpu, tracing::EventKind::MigrateTask, pid);
    e.srcCpu = srcCpu;
    e.dstCpu = dstCpu;
    return e;
}

// The events of `kinds` only, with the comms the switches name: what a recording of those
// events alone would hold.
inline tracing::EventStore onlyKinds(const tracing::EventStore& full, const std::set<tracing::EventKind>& kinds) {
    tracing::EventStore out;
    full.forEach([&](const tracing::SchedEvent& e) {
        if (!kinds.count(e.kind)) return true;
        out.append(e);
        if (e.kind == tracing::EventKind::Switch) {
            out.noteComm(e.pid, e.ts, full.commAt(e.pid, e.ts));
            out.noteComm(e.pid2, e.ts, full.commAt(e.pid2, e.ts));
        }
        return true;
    });
    out.finish();
    return out;
}

}  // namespace schedscope::test
