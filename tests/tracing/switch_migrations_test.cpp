// Migrations inferred from the switches (and wakeups) of a trace recorded without
// sched_migrate_task, checked against the kernel's own sched_migrate_task events of the same run.
// Two ways to the same run: every trace fixture with migrations, filtered to what
// `trace-cmd record -e sched_switch [-e sched_wakeup]` would have kept; and switches-only/,
// one run recorded at once by trace-cmd with those events alone and by schedscope-cli with all.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "migration_causes.h"
#include "support/fixtures.h"
#include "support/sched_events.h"
#include "switch_migrations.h"
#include "trace_reader.h"

namespace schedscope::tracing {
namespace {

EventStore loaded(const std::string& relative, const std::string& buffer = {}) {
    LoadOptions options;
    options.buffer = buffer;
    auto store = readTraceDat(test::dataPath("traces/" + relative), options);
    EXPECT_TRUE(store.ok()) << relative << ": " << (store.ok() ? "" : store.error());
    return store.ok() ? std::move(*store) : EventStore{};
}

// A task's moves between two consecutive switches naming it (it cannot move while it runs).
struct Gap {
    uint64_t opened = 0;  // the switch before the moves
    std::vector<Migration> real, inferred;
};

// Every gap of every task in which the kernel or the inference moved it, keyed by the task and
// the time of the switch that closes the gap. Moves after a task's last switch are left out:
// no switch shows where they led. `otherRecording`: the inferred moves come from another
// buffer, which stamped its own copy of each event microseconds apart from `full`'s; each is
// placed at `full`'s nearest switch in or wakeup of its task (an inferred move is one or the
// other).
std::map<std::pair<int32_t, uint64_t>, Gap> gaps(const EventStore& full, const std::vector<Migration>& inferred,
                                                 bool otherRecording) {
    std::map<int32_t, std::vector<uint64_t>> seen;     // switch times naming the task
    std::map<int32_t, std::vector<uint64_t>> arrived;  // times of its switches in and wakeups
    full.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::Switch) {
            if (e.pid > 0) seen[e.pid].push_back(e.ts);
            if (e.pid2 > 0 && e.pid2 != e.pid) seen[e.pid2].push_back(e.ts);
            if (e.pid2 > 0) arrived[e.pid2].push_back(e.ts);
        } else if (e.kind == EventKind::Wakeup && e.pid > 0) {
            arrived[e.pid].push_back(e.ts);
        }
        return true;
    });
    auto nearestArrival = [&](const Migration& m) {
        const auto& times = arrived[m.pid];
        auto after = std::lower_bound(times.begin(), times.end(), m.ts);
        if (after == times.end()) return times.empty() ? m.ts : times.back();
        if (after == times.begin() || *after - m.ts < m.ts - *(after - 1)) return *after;
        return *(after - 1);
    };
    std::map<std::pair<int32_t, uint64_t>, Gap> out;
    auto place = [&](const Migration& m, bool real) {
        auto it = seen.find(m.pid);
        if (it == seen.end()) return;
        const uint64_t ts = !real && otherRecording ? nearestArrival(m) : m.ts;
        auto next = std::lower_bound(it->second.begin(), it->second.end(), ts);
        if (next == it->second.end() || next == it->second.begin()) return;
        Gap& g = out[{m.pid, *next}];
        g.opened = *(next - 1);
        (real ? g.real : g.inferred).push_back(m);
    };
    for (const Migration& m : inferMigrations(full)) place(m, true);
    for (const Migration& m : inferred) place(m, false);
    return out;
}

struct Agreement {
    size_t realMoves = 0;       // gaps where the kernel's moves took the task elsewhere
    size_t inferredMoves = 0;   // gaps with an inferred move
    size_t inferredNet = 0;     // ... that took the task elsewhere
    size_t sameEnds = 0;        // ... that left and arrived where the kernel's moves did
    size_t causeAgrees = 0;     // ... whose inferred cause is one of the kernel's moves' causes
};

// `inferred` (from a recording of [from, to] of the run `full` recorded) against the kernel's
// moves in the gaps inside that window.
Agreement compare(const EventStore& full, const std::vector<Migration>& inferred, const std::string& what,
                  uint64_t from = 0, uint64_t to = UINT64_MAX) {
    Agreement a;
    const bool otherRecording = from > 0;
    for (const auto& [key, g] : gaps(full, inferred, otherRecording)) {
        if (g.opened < from || key.second > to) continue;  // the other recording saw it begin or end
        const bool realNet = !g.real.empty() && g.real.front().src != g.real.back().dst;
        a.realMoves += realNet;
        if (g.inferred.empty()) {
            EXPECT_FALSE(realNet) << what << ": pid " << key.first << " moved " << g.real.front().src << " -> "
                                  << g.real.back().dst << " before t=" << key.second << ", not inferred";
            continue;
        }
        ++a.inferredMoves;
        a.inferredNet += g.inferred.front().src != g.inferred.back().dst;
        for (const Migration& m : g.inferred) EXPECT_TRUE(m.seenInSwitches);
        if (g.real.empty()) {
            ADD_FAILURE() << what << ": pid " << key.first << " inferred to move " << g.inferred.front().src << " -> "
                          << g.inferred.back().dst << " before t=" << key.second << ", the kernel did not move it";
            continue;
        }
        if (g.inferred.front().src != g.real.front().src || g.inferred.back().dst != g.real.back().dst) continue;
        ++a.sameEnds;
        const MigrationCause cause = g.inferred.back().cause;
        // without sched_process_exec (the filtered recordings here) sched_exec()'s move reads as
        // the affinity change it looks like; with the exec the full trace tells them apart
        auto agrees = [&](const Migration& m) {
            return m.cause == cause || (m.cause == MigrationCause::Exec && cause == MigrationCause::Affinity);
        };
        if (std::any_of(g.real.begin(), g.real.end(), agrees)) ++a.causeAgrees;
    }
    std::printf("%s: %zu gaps with a net move, %zu inferred, %zu with the same ends, %zu with a cause the kernel's "
                "moves had\n", what.c_str(), a.realMoves, a.inferredMoves, a.sameEnds, a.causeAgrees);
    return a;
}

// Shares of the inferred moves whose cause is one the kernel's moves in that gap had, measured
// on the traces below when this test was written (0.66-1.0 with switches alone, 0.89-1.0 with
// wakeups), less a margin. Switches alone cannot tell a wakeup that kept its CPU, then a
// periodic pull, from a wakeup that moved the task; wakeups can.
constexpr double kCausesSwitches = 0.6;
constexpr double kCausesWakeups = 0.85;

void expectAgreement(const Agreement& a, bool wakeups, const std::string& what) {
    ASSERT_GT(a.inferredMoves, 0u) << what;
    EXPECT_EQ(a.inferredNet, a.realMoves) << what;
    EXPECT_EQ(a.sameEnds, a.inferredMoves) << what;
    EXPECT_GE(a.causeAgrees, (wakeups ? kCausesWakeups : kCausesSwitches) * a.inferredMoves) << what;
}

std::set<EventKind> recordedKinds(bool wakeups) {
    if (wakeups) return {EventKind::Switch, EventKind::Wakeup};
    return {EventKind::Switch};
}

class FilteredTrace : public testing::TestWithParam<std::string> {};

// Every net move of the kernel's is inferred, with the CPUs it left and reached, and nothing
// the kernel did not do (a chain K -> X -> C the switches see as K -> C is one move); the cause
// agrees as often as measured.
TEST_P(FilteredTrace, InferredMovesAreTheKernelsMoves) {
    const EventStore full = loaded(GetParam());
    ASSERT_GT(full.count(EventKind::MigrateTask), 0u) << GetParam();
    for (const Migration& m : inferMigrations(full)) EXPECT_FALSE(m.seenInSwitches);
    for (bool wakeups : {false, true}) {
        const EventStore part = test::onlyKinds(full, recordedKinds(wakeups));
        const auto inferred = inferMigrations(part);
        EXPECT_EQ(inferred.size(), migrationsFromSwitches(part).size());
        const std::string what = GetParam() + (wakeups ? " (switches, wakeups)" : " (switches)");
        expectAgreement(compare(full, inferred, what), wakeups, what);
    }
}

// A trace that lost nothing: its recorded migrations explain every CPU its tasks turn up on, so
// the switches add none (they would, where the ring buffer had dropped some).
TEST_P(FilteredTrace, SwitchesAddNothingToALosslessRecording) {
    const EventStore full = loaded(GetParam());
    ASSERT_EQ(full.anomaly(Anomaly::LostEvents) + full.anomaly(Anomaly::LostUnknown), 0u) << GetParam();
    const auto extra = migrationsFromSwitches(full);
    for (const Migration& m : extra)
        ADD_FAILURE() << GetParam() << ": pid " << m.pid << " seen moving " << m.src << " -> " << m.dst << " at " << m.ts
                      << " with no recorded migration";
    EXPECT_EQ(inferMigrations(full).size(), full.count(EventKind::MigrateTask)) << GetParam();
}

std::string describe(const Gap& g) {
    auto moves = [](const std::vector<Migration>& list) {
        std::string d;
        for (const Migration& m : list)
            d += " " + std::to_string(m.ts) + " " + std::to_string(m.src) + "->" + std::to_string(m.dst) + (m.seenInSwitches ? "s" : "");
        return d;
    };
    return "\n  kernel:" + moves(g.real) + "\n  kept and seen (s):" + moves(g.inferred);
}

// `full` with every third sched_migrate_task lost, as a ring buffer overrun loses them (and
// counted as lost, as the overrun is).
EventStore withMigrationsLost(const EventStore& full) {
    EventStore out;
    uint64_t seen = 0, lost = 0;
    full.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::MigrateTask && ++seen % 3 == 0) {
            ++lost;
            return true;
        }
        out.append(e);
        for (int32_t pid : {e.pid, e.pid2})
            if (pid > 0) out.noteComm(pid, e.ts, full.commAt(pid, e.ts));
        return true;
    });
    out.addAnomaly(Anomaly::LostEvents, lost);
    out.finish();
    return out;
}

// A recording that lost some of its migrations: the switches show where the tasks went
// regardless, so in every gap between two switches of a task where the kernel moved it, the
// moves kept and the moves seen in the switches lead, unbroken, from where the kernel's left to
// where they arrived; and nothing is seen where the kernel did not move the task.
TEST_P(FilteredTrace, MovesWhoseEventsWereLostAreSeenInTheSwitches) {
    const EventStore full = loaded(GetParam());
    const EventStore lossy = withMigrationsLost(full);
    const auto moves = inferMigrations(lossy);
    size_t hidden = 0;
    for (const Migration& m : moves) hidden += m.seenInSwitches;
    EXPECT_EQ(moves.size() - hidden, lossy.count(EventKind::MigrateTask)) << GetParam();
    ASSERT_GT(hidden, 0u) << GetParam();
    EXPECT_LE(hidden, full.count(EventKind::MigrateTask) - lossy.count(EventKind::MigrateTask)) << GetParam();
    size_t netGaps = 0, whole = 0, seenMoves = 0, causeAgrees = 0;
    for (const auto& [key, g] : gaps(full, moves, false)) {
        const bool seen = std::any_of(g.inferred.begin(), g.inferred.end(), [](const Migration& m) { return m.seenInSwitches; });
        for (const Migration& m : g.inferred) {
            if (!m.seenInSwitches) continue;
            ++seenMoves;
            causeAgrees += std::any_of(g.real.begin(), g.real.end(), [&](const Migration& r) { return r.cause == m.cause; });
        }
        if (g.real.empty() || g.real.front().src == g.real.back().dst) {
            EXPECT_FALSE(seen && g.real.empty()) << GetParam() << ": pid " << key.first << " seen moving before t="
                                                 << key.second << ", the kernel did not move it";
            continue;
        }
        ++netGaps;
        bool unbroken = !g.inferred.empty() && g.inferred.front().src == g.real.front().src &&
                        g.inferred.back().dst == g.real.back().dst;
        for (size_t i = 1; unbroken && i < g.inferred.size(); ++i) unbroken = g.inferred[i].src == g.inferred[i - 1].dst;
        whole += unbroken;
        EXPECT_TRUE(unbroken) << GetParam() << ": pid " << key.first << " moved " << g.real.front().src << " -> "
                              << g.real.back().dst << " before t=" << key.second << ", its path has a hole"
                              << describe(g);
    }
    std::printf("%s: a third of %llu migrations lost, %zu seen in the switches; %zu of %zu moves whole again; %zu of "
                "%zu seen with a cause the kernel's moves had\n",
                GetParam().c_str(), static_cast<unsigned long long>(full.count(EventKind::MigrateTask)), hidden, whole,
                netGaps, causeAgrees, seenMoves);
    // the causes as good as a trace with only switches and wakeups gives (kCausesWakeups)
    EXPECT_GE(causeAgrees, kCausesWakeups * seenMoves) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(RecordedTraces, FilteredTrace,
                         testing::Values("switches-only/full.dat", "mixed-v7.dat", "replay/hackbench.dat",
                                         "qemu/x86-2s4n4c2t-linux-6.12.dat", "qemu/x86-2s4n4c2t-linux-6.1.dat",
                                         "qemu/x86-numa-ring6-linux-6.1.dat", "replay/forkstorm.dat", "self-affinity.dat"),
                         [](const auto& info) { return test::fileTestName(info.param); });

// The same run recorded by trace-cmd with sched_switch alone (top buffer) and with
// sched_wakeup too (instance ssw), while schedscope-cli recorded every sched event (full.dat):
// one clock, so the moves line up (each buffer stamps its own copy of an event, microseconds
// apart).
TEST(SwitchOnlyRecording, MovesAreTheKernelsMovesOfTheSameRun) {
    const EventStore full = loaded("switches-only/full.dat");
    for (bool wakeups : {false, true}) {
        const EventStore part = loaded("switches-only/switches.dat", wakeups ? "ssw" : "top");
        ASSERT_EQ(part.count(EventKind::MigrateTask), 0u);
        ASSERT_EQ(part.count(EventKind::Wakeup) > 0, wakeups);
        const std::string what = std::string("switches.dat ") + (wakeups ? "ssw" : "top");
        expectAgreement(compare(full, inferMigrations(part), what, part.firstTs(), part.lastTs()), wakeups, what);
    }
}

SchedEvent switchEvent(uint64_t ts, int cpu, int prev, TaskState state, int next) {
    SchedEvent e;
    e.ts = ts;
    e.cpu = cpu;
    e.kind = EventKind::Switch;
    e.pid = prev;
    e.state = state;
    e.pid2 = next;
    return e;
}

// A pid reused after its task exited is a new task, not the old one moving.
TEST(SwitchMoves, AnExitedTasksPidIsANewTask) {
    for (TaskState end : {TaskState::Dead, TaskState::Sleeping}) {
        EventStore store;
        store.append(switchEvent(1000, 0, 0, TaskState::Runnable, 42));
        store.append(switchEvent(2000, 0, 42, end, 0));
        store.append(switchEvent(3000, 1, 0, TaskState::Runnable, 42));
        store.finish();
        const auto moves = migrationsFromSwitches(store);
        if (end == TaskState::Dead) {
            EXPECT_TRUE(moves.empty());
        } else {
            ASSERT_EQ(moves.size(), 1u);
            EXPECT_EQ(moves[0].cause, MigrationCause::Wakeup);
            EXPECT_EQ(moves[0].src, 0);
            EXPECT_EQ(moves[0].dst, 1);
        }
    }
}

std::string statsOutput(const std::string& args) {
    return test::commandOutput(std::string(SCHEDSCOPE_CLI) + " trace stats " + args + " 2>/dev/null");
}

// The events trace stats skipped are listed under their heading, or the heading says none.
TEST(SwitchOnlyRecording, TraceStatsSaysWhenItSkippedNoEvents) {
    const std::string none = statsOutput("'" + test::dataPath("traces/switches-only/switches.dat") + "'");
    EXPECT_NE(none.find("other events (skipped): none\nevents by CPU:"), std::string::npos) << none;
    const std::string some = statsOutput("'" + test::dataPath("traces/mixed-v7.dat") + "'");
    EXPECT_NE(some.find("other events (skipped):\n  sched_prepare_exec"), std::string::npos) << some;
}

// trace stats counts the inferred moves as the trace's migrations and says where they came from.
TEST(SwitchOnlyRecording, TraceStatsSaysTheMigrationsWereInferred) {
    const std::string switches = test::dataPath("traces/switches-only/switches.dat");
    for (const std::string buffer : {"top", "ssw"}) {
        const EventStore store = loaded("switches-only/switches.dat", buffer);
        std::string args = "'" + switches + "' --json --buffer ";
        args += buffer;
        auto j = nlohmann::json::parse(statsOutput(args), nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << buffer;
        EXPECT_EQ(j["migrations_from"], buffer == "top" ? "sched_switch" : "sched_switch, sched_wakeup");
        EXPECT_EQ(j["migrations"].get<size_t>(), migrationsFromSwitches(store).size());
        size_t byCause = 0;
        for (const auto& [cause, n] : j["migrations_by_cause"].items()) byCause += n.get<size_t>();
        EXPECT_EQ(byCause, j["migrations"].get<size_t>());
    }
    const std::string text = statsOutput("'" + switches + "'");
    EXPECT_NE(text.find("migrations inferred from sched_switch (no sched_migrate_task"), std::string::npos) << text;
    auto full = nlohmann::json::parse(statsOutput("'" + test::dataPath("traces/switches-only/full.dat") + "' --json"),
                                      nullptr, false);
    ASSERT_FALSE(full.is_discarded());
    EXPECT_EQ(full["migrations_from"], "sched_migrate_task");
}

// One run recorded at once by trace-cmd with a 4 KiB buffer per CPU, which overran, and by
// schedscope-cli, which lost nothing (lossy/): each move the switches show that the lossy
// recording's migrations do not is one the kernel made, to where the kernel took the task,
// and with them the count comes closer to the kernel's.
TEST(LossyRecording, TheSwitchesShowTheMovesItsLostEventsHid) {
    const EventStore full = loaded("lossy/full.dat");
    const EventStore lossy = loaded("lossy/lossy.dat");
    ASSERT_EQ(full.anomaly(Anomaly::LostEvents), 0u);
    ASSERT_GT(lossy.anomaly(Anomaly::LostEvents), 0u);
    std::vector<Migration> hidden;
    size_t recorded = 0;
    for (const Migration& m : inferMigrations(lossy)) {
        if (m.seenInSwitches) hidden.push_back(m);
        else ++recorded;
    }
    EXPECT_EQ(recorded, lossy.count(EventKind::MigrateTask));
    ASSERT_FALSE(hidden.empty());
    // Where full.dat shows each task at a time: its CPU at its latest switch, wakeup or
    // migration then. A move is seen when the task turns up somewhere (a switch in, a wakeup)
    // or when a recorded migration leaves from where it was taken: the kernel had the task on
    // the move's destination just after the one or just before the other. The two recordings
    // stamp their own copies of an event microseconds apart.
    std::map<int32_t, std::map<uint64_t, int32_t>> placed;
    full.forEach([&](const SchedEvent& e) {
        if (e.kind == EventKind::Switch) {
            if (e.pid > 0) placed[e.pid][e.ts] = e.cpu;
            if (e.pid2 > 0) placed[e.pid2][e.ts] = e.cpu;
        } else if ((e.kind == EventKind::Wakeup || e.kind == EventKind::MigrateTask) && e.pid > 0 && e.dstCpu >= 0) {
            placed[e.pid][e.ts] = e.dstCpu;
        }
        return true;
    });
    auto cpuAt = [&](int32_t pid, uint64_t ts) {
        const auto& times = placed[pid];
        auto it = times.upper_bound(ts);
        return it == times.begin() ? -1 : std::prev(it)->second;
    };
    constexpr uint64_t kStampsApart = 50'000;
    for (const Migration& m : hidden)
        EXPECT_TRUE(cpuAt(m.pid, m.ts + kStampsApart) == m.dst || cpuAt(m.pid, m.ts - kStampsApart) == m.dst)
            << "pid " << m.pid << " seen moving " << m.src << " -> " << m.dst << " at " << m.ts << ": the kernel had it on "
            << cpuAt(m.pid, m.ts - kStampsApart) << " then " << cpuAt(m.pid, m.ts + kStampsApart);
    size_t kernels = 0;
    for (const Migration& m : inferMigrations(full)) kernels += m.ts >= lossy.firstTs() && m.ts <= lossy.lastTs();
    std::printf("lossy.dat: %llu events lost, %zu migrations recorded, %zu seen in the switches; full.dat: %zu in that time\n",
                static_cast<unsigned long long>(lossy.anomaly(Anomaly::LostEvents)), recorded, hidden.size(), kernels);
    EXPECT_LT(kernels - std::min(kernels, recorded + hidden.size()), kernels - recorded);
    EXPECT_LE(recorded + hidden.size(), kernels);
    const std::string file = "'" + test::dataPath("traces/lossy/lossy.dat") + "'";
    auto j = nlohmann::json::parse(statsOutput(file + " --json"), nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["migrations_from"], "sched_migrate_task");
    EXPECT_EQ(j["migrations"], recorded + hidden.size());
    EXPECT_EQ(j["migrations_seen_in_switches"], hidden.size());
    const std::string text = statsOutput(file);
    EXPECT_NE(text.find(std::to_string(hidden.size()) + " of the migrations seen in the switches: the trace lost their "
                                                         "sched_migrate_task"),
              std::string::npos)
        << text;
    // replay counts them among the recorded migrations and says so
    const std::string replay = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " replay " + file + " 2>&1");
    EXPECT_NE(replay.find("recorded migration(s) of the kept tasks are seen in the switches: the trace lost their "
                          "sched_migrate_task"),
              std::string::npos)
        << replay;
}

// A trace that recorded sched_migrate_task with a filter no task matched (`-f 'comm ==
// "no-such-task"'`) holds no migration: none happened to the tasks asked about. Its switches
// show the other tasks moving, which the recording chose to leave out.
TEST(MigrateTaskRecorded, NoneHappeningIsNoMigrationNotASwitchOnlyTrace) {
    const EventStore store = loaded("switches-only/migrate-filtered.dat");
    ASSERT_EQ(store.count(EventKind::MigrateTask), 0u);
    ASSERT_FALSE(migrationsFromSwitches(store).empty()) << "the fixture's tasks moved";
    EXPECT_TRUE(store.recorded(EventKind::MigrateTask));  // its format is in the file
    EXPECT_TRUE(store.recorded(EventKind::Switch));
    EXPECT_FALSE(store.recorded(EventKind::Wakeup));      // not recorded: no format
    EXPECT_EQ(migrationSource(store), "sched_migrate_task");
    EXPECT_TRUE(inferMigrations(store).empty());
    auto j = nlohmann::json::parse(statsOutput("'" + test::dataPath("traces/switches-only/migrate-filtered.dat") + "' --json"),
                                   nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["migrations_from"], "sched_migrate_task");
    EXPECT_EQ(j["migrations"], 0);
    EXPECT_EQ(j["events_by_kind"]["sched_migrate_task"], 0);  // recorded, none happened
    EXPECT_FALSE(j["events_by_kind"].contains("sched_wakeup"));
    // replay's recorded column: no migration, and says so rather than leaving the causes blank
    const std::string replay = test::commandOutput(std::string(SCHEDSCOPE_CLI) + " replay '" +
                                                   test::dataPath("traces/switches-only/migrate-filtered.dat") +
                                                   "' --synthetic 'pack:1 core:2 pu:1' 2>&1");
    EXPECT_NE(replay.find("causes recorded  none\n"), std::string::npos) << replay;
}

// A trace.dat with several buffers holds the formats of them all: a buffer may lack an event
// another recorded, so there only the events themselves say what was recorded.
TEST(MigrateTaskRecorded, OnlyTheEventsTellInAFileOfSeveralBuffers) {
    const EventStore top = loaded("switches-only/switches.dat", "top");
    const EventStore ssw = loaded("switches-only/switches.dat", "ssw");
    EXPECT_FALSE(top.recorded(EventKind::Wakeup));
    EXPECT_TRUE(ssw.recorded(EventKind::Wakeup));
    EXPECT_FALSE(top.recorded(EventKind::MigrateTask));
}

}  // namespace
}  // namespace schedscope::tracing
