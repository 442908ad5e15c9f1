// sched_exec() on a real trace: execve() has its CPU's stopper move the task before it loads the
// binary, which trace.dat shows as an affinity-like stopper run followed by the task's own
// sched_process_exec. tests/data/traces/exec-balance.dat: 400 /bin/true next to a CPU hog.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "migration_causes.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "trace_reader.h"

namespace schedscope::tracing {
namespace {

std::map<MigrationCause, int> causesOf(const EventStore& store) {
    std::map<MigrationCause, int> n;
    for (const auto& m : inferMigrations(store)) ++n[m.cause];
    return n;
}

TEST(ExecBalance, TheStoppersMovesBeforeAnExecAreExecsNotAffinityChanges) {
    auto trace = readTraceDat(test::dataPath("traces/exec-balance.dat"));
    ASSERT_TRUE(trace.ok()) << trace.error();
    auto causes = causesOf(*trace);
    // the 324 moves by migration/0 in `trace-cmd report`, each followed by its task's exec
    EXPECT_EQ(causes[MigrationCause::Exec], 324);
    EXPECT_EQ(causes[MigrationCause::Affinity], 0) << "no task changed its affinity";
    // without sched_process_exec nothing tells them from a task that moved itself with
    // sched_setaffinity(): they are affinity changes
    std::set<EventKind> kinds;
    for (size_t k = 0; k < static_cast<size_t>(EventKind::Count); ++k)
        if (static_cast<EventKind>(k) != EventKind::ProcessExec) kinds.insert(static_cast<EventKind>(k));
    causes = causesOf(test::onlyKinds(*trace, kinds));
    EXPECT_EQ(causes[MigrationCause::Exec], 0);
    EXPECT_EQ(causes[MigrationCause::Affinity], 324);
}

// tests/data/traces/self-affinity.dat: a task moving itself between the CPUs 40 times with
// sched_setaffinity(0, ...). trace-cmd report shows each move inside the wakeup its CPU's
// stopper gives it (it blocked before the stopper ran), and two pulls by an idle CPU in the
// scheduler's softirq (flags "d.s2."), which is periodic balancing, not newidle.
TEST(ExecBalance, ATaskMovingItselfIsAnAffinityChangeNotAWakeup) {
    auto trace = readTraceDat(test::dataPath("traces/self-affinity.dat"));
    ASSERT_TRUE(trace.ok()) << trace.error();
    std::map<MigrationCause, int> ofMover;
    std::map<uint64_t, MigrationCause> softirqPulls;
    for (const auto& m : inferMigrations(*trace)) {
        const std::string_view comm = trace->commAt(m.pid, m.ts);  // (recorded from a binary named selfpin)
        if (comm == "selfpin" || comm == "self-affinity") ++ofMover[m.cause];
        for (const uint64_t reportUs : {43846323163ull, 43846343151ull})  // trace-cmd report's microseconds
            if (m.ts + 500 >= reportUs * 1000 && m.ts < reportUs * 1000 + 500) softirqPulls[m.ts] = m.cause;  // (rounded)
    }
    EXPECT_EQ(ofMover[MigrationCause::Affinity], 40);
    EXPECT_EQ(ofMover.size(), 1u) << "every move of the mover is its own affinity change";
    ASSERT_EQ(softirqPulls.size(), 2u);
    for (const auto& [ts, cause] : softirqPulls) EXPECT_EQ(cause, MigrationCause::LoadBalancePeriodic) << ts;
}

}  // namespace
}  // namespace schedscope::tracing
