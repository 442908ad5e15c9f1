#pragma once
// Script ops for the simulator tests' hand-written workloads.
#include "workload/workload.h"

namespace schedscope::test {

inline workload::Op op(workload::OpKind kind, double amountNs = 0) {
    workload::Op o;
    o.kind = kind;
    o.amountNs = amountNs;
    return o;
}

inline workload::Op wakeOp(int target) {
    workload::Op o = op(workload::OpKind::Wake);
    o.targets = {target};
    return o;
}

}  // namespace schedscope::test
