// Migration causes in a trace recorded without sched_waking (trace-cmd record -e sched_switch
// -e sched_wakeup -e sched_migrate_task ...): each fixture recorded with every sched event, read
// again without its sched_waking events, must give every migration the cause the whole trace
// gives it. (Not replay/stress-during-apt.dat: this VM's kernel dropped the sched_wakeup and the
// switch in of one wakee there, uncounted, so nothing but its sched_waking tells that wakeup.)
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "migration_causes.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "trace_reader.h"

namespace schedscope::tracing {
namespace {

class WakingFreeCauses : public testing::TestWithParam<const char*> {};

TEST_P(WakingFreeCauses, AreTheCausesOfTheWholeTrace) {
    auto full = readTraceDat(test::dataPath(std::string("traces/") + GetParam()));
    ASSERT_TRUE(full.ok()) << full.error();
    ASSERT_GT(full->count(EventKind::Waking), 0u);
    std::set<EventKind> kinds;
    for (size_t k = 0; k < static_cast<size_t>(EventKind::Count); ++k)
        if (static_cast<EventKind>(k) != EventKind::Waking) kinds.insert(static_cast<EventKind>(k));
    const EventStore part = test::onlyKinds(*full, kinds);
    ASSERT_FALSE(part.recorded(EventKind::Waking));
    const auto whole = inferMigrations(*full);
    const auto without = inferMigrations(part);
    ASSERT_EQ(whole.size(), without.size());
    std::map<MigrationCause, int> wholeCauses, differ;
    for (size_t i = 0; i < whole.size(); ++i) {
        ASSERT_EQ(whole[i].ts, without[i].ts);
        ++wholeCauses[whole[i].cause];
        if (whole[i].cause != without[i].cause) ++differ[whole[i].cause];
        EXPECT_EQ(migrationCauseName(without[i].cause), migrationCauseName(whole[i].cause))
            << GetParam() << ": pid " << whole[i].pid << " at " << whole[i].ts;
    }
    std::printf("%s: %zu migrations, %d wakeups, %zu causes differ without sched_waking\n", GetParam(), whole.size(),
                wholeCauses[MigrationCause::Wakeup], differ.size());
    EXPECT_GT(wholeCauses[MigrationCause::Wakeup], 0);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, WakingFreeCauses,
                         testing::Values("mixed-v7.dat", "switches-only/full.dat", "lossy/full.dat", "replay/hackbench.dat",
                                         "replay/forkstorm.dat", "replay/tcp-pingpong.dat", "replay/napper-2hogs.dat",
                                         "exec-balance.dat"));

}  // namespace
}  // namespace schedscope::tracing
