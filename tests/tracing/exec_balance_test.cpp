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

}  // namespace
}  // namespace schedscope::tracing
