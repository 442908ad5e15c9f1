#pragma once
// Script ops for the simulator tests' hand-written workloads.
#include <string>

#include "workload/workload.h"

namespace schedscope::test {

inline workload::Op op(workload::OpKind kind, double amountNs = 0) {
    workload::Op o;
    o.kind = kind;
    o.amountNs = amountNs;
    return o;
}

// A task in `group` (-1: the root group) that runs `runNs`, sleeps `sleepNs`, both jittered by
// `jitter`, and loops for ever.
inline workload::TaskSpec runSleepLoop(const std::string& name, int group, double runNs, double sleepNs, double jitter = 0.5) {
    workload::TaskSpec t;
    t.name = name;
    t.group = group;
    workload::Op run = op(workload::OpKind::Run, runNs), sleep = op(workload::OpKind::Sleep, sleepNs);
    run.jitter = sleep.jitter = jitter;
    workload::Op loop = op(workload::OpKind::Loop);
    loop.to = 0;
    t.script = {run, sleep, loop};
    return t;
}

inline workload::Op wakeOp(int target) {
    workload::Op o = op(workload::OpKind::Wake);
    o.targets = {target};
    return o;
}

}  // namespace schedscope::test
