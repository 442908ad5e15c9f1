// A derived workload saved as a workload .json file (replay --save-workload) and read back is the
// same workload: same ops, and simulated on the same machine with the same options the same run.
#include <gtest/gtest.h>

#include "replay.h"
#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "support/fixtures.h"
#include "trace_reader.h"
#include "trace_topology.h"
#include "workload/workload_json.h"
#include "workload/workload_json_writer.h"

using namespace schedscope;

namespace {

class SavedWorkload : public ::testing::TestWithParam<const char*> {};

TEST_P(SavedWorkload, ReadsBackAsTheSameWorkloadAndTheSameRun) {
    const std::string path = test::dataPath(std::string("traces/") + GetParam());
    auto store = tracing::readTraceFile(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto sidecar = tracing::readTopologySidecar(path);
    ASSERT_TRUE(sidecar.ok() && sidecar->has_value());
    const Topology& topo = **sidecar;
    replay::ReplayOptions o;
    o.recordedConfig = {"sidecar", findProfile("linux-6.12"), true, true, false};
    o.whatIf = o.recordedConfig;
    auto groups = tracing::readGroupsSidecar(path);  // a recording that has one runs in its groups
    ASSERT_TRUE(groups.ok()) << groups.error();
    o.taskGroups = *groups;
    auto r = replay::replayTrace(*store, path, topo, topo, o);
    ASSERT_TRUE(r.ok()) << r.error();
    const workload::Workload& original = r->derived.workload;  // what both runs ran
    const int cpus = static_cast<int>(topo.cpus.size());

    auto back = workload::parseWorkloadJson(workload::workloadToJson(original, cpus).dump(), "saved", cpus);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back->tasks.size(), original.tasks.size());
    EXPECT_DOUBLE_EQ(back->durationS, original.durationS);
    for (size_t i = 0; i < original.tasks.size(); ++i) {
        const auto& a = original.tasks[i];
        const auto& b = back->tasks[i];
        EXPECT_EQ(b.affinity.toList(), a.affinity.toList()) << a.name;
        EXPECT_EQ(b.startAtBegin, a.startAtBegin) << a.name;
        EXPECT_EQ(b.nice, a.nice) << a.name;
        ASSERT_EQ(b.group < 0, a.group < 0) << a.name;
        if (a.group >= 0) {
            EXPECT_EQ(back->groups[static_cast<size_t>(b.group)].name, original.groups[static_cast<size_t>(a.group)].name);
            EXPECT_EQ(back->groups[static_cast<size_t>(b.group)].shares, original.groups[static_cast<size_t>(a.group)].shares);
        }
        ASSERT_EQ(b.script.size(), a.script.size()) << a.name;
        for (size_t k = 0; k < a.script.size(); ++k) {
            EXPECT_EQ(b.script[k].kind, a.script[k].kind) << a.name << " op " << k;
            EXPECT_EQ(b.script[k].amountNs, a.script[k].amountNs) << a.name << " op " << k;
            EXPECT_EQ(b.script[k].targets, a.script[k].targets) << a.name << " op " << k;
            EXPECT_EQ(b.script[k].sync, a.script[k].sync) << a.name << " op " << k;
        }
    }

    // the same run: simulated with the options replay used
    const sim::SimOptions& used = r->whatIf.state->opt;
    sim::SimOptions so;
    so.seed = used.seed;
    so.hz = used.hz;
    so.idleExitNs = used.idleExitNs;
    so.remoteReschedNs = used.remoteReschedNs;
    so.samplePeriodS = used.samplePeriodS;
    so.durationS = used.durationS;
    auto again = sim::simulate(topo, *r->whatIf.tree, *back, so);
    ASSERT_TRUE(again.ok()) << again.error();
    const auto& m0 = r->whatIf.state->metrics;
    const auto& m1 = (*again)->metrics;
    EXPECT_EQ(m1.events, m0.events);
    EXPECT_EQ(m1.migrationsByLevel, m0.migrationsByLevel);
    EXPECT_EQ((*again)->now, r->whatIf.state->now);
}

INSTANTIATE_TEST_SUITE_P(Traces, SavedWorkload,
                         ::testing::Values("replay/pingpong.dat", "replay/hackbench.dat", "replay/forkstorm.dat",
                                           "record-v6.dat", "replay/job-beside-session.dat"),
                         [](const auto& info) { return schedscope::test::traceTestName(info.param); });

}  // namespace
