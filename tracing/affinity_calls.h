#pragma once
// sched_setaffinity() calls in a trace (syscalls:sys_enter_sched_setaffinity and
// sys_exit_sched_setaffinity, which schedscope's recorder takes when the kernel has syscall
// tracepoints). `taskset -c N CMD` changes its own affinity, its CPU's stopper moves it, and
// then it execs CMD: in the sched events alone that is execve()'s sched_exec() move (rule 3 of
// migration_causes.h). A stopper's move of a task while a setaffinity call on it is open is
// that call's.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace schedscope::tracing {

// One syscall record: `caller` (common_pid) entered sched_setaffinity() for `target` (the
// caller itself when the call names pid 0), or left it (`exit`).
struct AffinityCallRecord {
    uint64_t ts = 0;
    int32_t caller = -1;
    int32_t target = -1;  // enter records only
    bool exit = false;
};

// A call with no exit record (lost, or the trace ended first) counts as open this long: the
// stopper's move comes within microseconds of the call.
constexpr uint64_t kAffinityCallWithoutExitNs = 5'000'000;

// The open intervals of the calls, per target task.
class AffinityCalls {
public:
    // `records` in any order (a trace.dat's CPUs are read one after another)
    explicit AffinityCalls(std::vector<AffinityCallRecord> records);
    // A setaffinity call on `pid` was open at `ts`: entered at or before it, not yet left.
    bool covers(int32_t pid, uint64_t ts) const;
    // When each call on `pid` returned (its mask set and any move done), in time order.
    std::vector<uint64_t> callEnds(int32_t pid) const;

private:
    struct Span {
        uint64_t from, to;
    };
    std::unordered_map<int32_t, std::vector<Span>> byTarget_;  // each in time order
};

}  // namespace schedscope::tracing
