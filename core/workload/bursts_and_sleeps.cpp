#include "workload/bursts_and_sleeps.h"

#include <string>

namespace schedscope::workload {

Workload burstsAndSleeps(int tasks, int memoryEvery, double memFraction, double bandwidthGBs) {
    Workload wl;
    wl.name = "bursts and sleeps";
    Op run;
    run.kind = OpKind::Run;
    run.amountNs = 1e6;
    run.jitter = 0.5;
    Op sleep = run;
    sleep.kind = OpKind::Sleep;
    Op loop;
    loop.kind = OpKind::Loop;
    loop.to = 0;
    wl.tasks.reserve(static_cast<size_t>(tasks > 0 ? tasks : 0));
    for (int i = 0; i < tasks; ++i) {
        TaskSpec t;
        t.name = "t" + std::to_string(i);
        const bool memoryBound = memoryEvery > 0 && i % memoryEvery == 0;
        t.memFraction = memoryBound ? memFraction : 0.0;
        t.bandwidthGBs = memoryBound ? bandwidthGBs : 0.0;
        t.script = {run, sleep, loop};
        wl.tasks.push_back(std::move(t));
    }
    return wl;
}

}  // namespace schedscope::workload
