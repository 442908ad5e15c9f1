#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "topology/topology_source.h"
#include "workload/workload_json.h"
#include "workload/workload_json_writer.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

TEST(WorkloadSpec, GeneratorsParse) {
    for (const auto& g : workload::generators()) {
        auto w = workload::parseWorkloadSpec(g.name + ":" + g.count + "=3,cpus=0-3,8-9,duration=0.5", 24);
        ASSERT_TRUE(w.ok()) << g.name << ": " << w.error();
        EXPECT_FALSE(w->tasks.empty());
        EXPECT_EQ(w->tasks.front().affinity.toList(), "0-3,8-9");
        EXPECT_DOUBLE_EQ(w->durationS, 0.5);
    }
}

// kernbench forks compiles one after another to fill its run: without duration= the run is
// simulate's --duration (it was 1 s whatever --duration said, so a 5 s run ended at 1.2 s)
TEST(WorkloadSpec, KernbenchFillsTheRunItIsGiven) {
    auto oneSecond = workload::parseWorkloadSpec("kernbench:jobs=4", 4);
    auto fiveSeconds = workload::parseWorkloadSpec("kernbench:jobs=4", 4, 5.0);
    auto named = workload::parseWorkloadSpec("kernbench:jobs=4,duration=5", 4, 1.0);
    ASSERT_TRUE(oneSecond.ok() && fiveSeconds.ok() && named.ok());
    EXPECT_EQ(fiveSeconds->tasks.size(), named->tasks.size());
    EXPECT_GT(fiveSeconds->tasks.size(), 4 * oneSecond->tasks.size());
    EXPECT_EQ(fiveSeconds->durationS, 0.0);  // --duration still sets the run's length
    EXPECT_EQ(named->durationS, 5.0);
}

// A benchmark's unit counts each message or transaction once: hackbench's msgs/s times the run
// is the messages its receivers read (each reads one per 0.01 ms of work), pgbench's tps times
// the run the transactions its backends finished (0.3 ms each), within what is in flight at
// the end. Both had counted one thing twice or part of another: msgs/s was 2x, tps 7% high.
TEST(WorkloadSpec, ThroughputCountsEachMessageAndTransactionOnce) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    struct Case {
        std::string spec, readerPrefix;
        double readerWorkNs;  // per message or transaction
    };
    for (const Case& c : {Case{"hackbench:groups=2,cpus=0-23", "/recv", 0.01e6}, Case{"pgbench:clients=16,cpus=0-23", "postgres/", 0.3e6}}) {
        auto wl = workload::parseWorkloadSpec(c.spec, static_cast<int>(topo.cpus.size()));
        ASSERT_TRUE(wl.ok()) << wl.error();
        sim::SimOptions o;
        o.durationS = 0.2;
        auto st = sim::simulate(topo, tree, *wl, o);
        ASSERT_TRUE(st.ok()) << st.error();
        const nlohmann::json j = sim::simResultToJson(**st, *wl, {topo.name, "linux-6.12", true, true, c.spec});
        const double reported = j["metrics"]["throughput"]["total"].get<double>() * o.durationS;
        double read = 0;
        for (const auto& t : (*st)->tasks)
            if (t.spec->name.find(c.readerPrefix) != std::string::npos) read += t.workDone / c.readerWorkNs;
        ASSERT_GT(read, 100) << c.spec;
        EXPECT_NEAR(reported / read, 1.0, 0.05) << c.spec << ": " << reported << " reported, " << read << " read";
    }
}

// A wait still open when the run ends counts, up to the end: 48 busy threads pinned to one CPU
// for 10 ms get about 14 slices between them, and the 34 threads never picked waited the whole
// run. Left out, the median wait was the picked ones', about 5 ms.
TEST(WaitLatency, WaitsOpenAtTheEndCount) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto wl = workload::parseWorkloadSpec("sysbench-cpu:threads=48,cpus=0", static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(wl.ok()) << wl.error();
    sim::SimOptions o;
    o.durationS = 0.01;
    auto st = sim::simulate(topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const sim::Metrics& m = (*st)->metrics;
    int neverRan = 0;
    for (const auto& t : (*st)->tasks) neverRan += t.startedAt < 0;
    EXPECT_GT(neverRan, 25);
    EXPECT_GE(m.openWaits, neverRan);
    EXPECT_GT(m.waitLatency.percentileNs(50), 9e6) << "most threads waited the whole 10 ms";
    const nlohmann::json j = sim::simResultToJson(**st, *wl, {topo.name, "linux-6.12", true, true, "sysbench-cpu"});
    EXPECT_EQ(j["metrics"]["wait_latency_us"]["open_at_end"].get<long long>(), m.openWaits);
}

TEST(WorkloadSpec, BadInputIsOneLineError) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"nosuch:threads=1", "unknown workload 'nosuch'"},
        {"stream:threads=-2", "must be positive"},
        {"stream:threads=two", "not a whole number"},
        {"stream:threads=4,cpus=0-99", "beyond the topology"},
        {"stream:copies=4", "unknown parameter 'copies'"},
        {"mcf:copies=2,duration=-1", "duration must be"},
        // decimal only, as the command line reads numbers; and a value needs its key
        {"stream:threads=4,duration=0x10", "duration='0x10' is not a number of seconds"},
        {"stream:threads=4,handoff=0x10", "handoff='0x10' must be a number of KB"},
        {"stream:=4", "'=4' names no parameter"},
    };
    for (const auto& [spec, msg] : cases) {
        auto w = workload::parseWorkloadSpec(spec, 24);
        ASSERT_FALSE(w.ok()) << spec;
        EXPECT_NE(w.error().find(msg), std::string::npos) << spec << ": " << w.error();
        EXPECT_EQ(w.error().find('\n'), std::string::npos);
    }
}

TEST(WorkloadJson, ExampleFileParsesAndRuns) {
    auto w = workload::loadWorkloadFile(std::string(SCHEDSCOPE_SOURCE_DIR) + "/resources/workloads/example.json", 96);
    ASSERT_TRUE(w.ok()) << w.error();
    const Topology topo = kunpeng920_24();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.2;
    auto st = sim::simulate(topo, tree, *w, o);
    ASSERT_TRUE(st.ok()) << st.error();
    EXPECT_GT((*st)->metrics.events, 100);
}

// start_cpu: a task the run finds already running starts where it was (a recording's window),
// with no placement decision and no migration; without it, it is exec-placed from CPU 0.
TEST(WorkloadJson, StartCpuPlacesATaskWithoutADecision) {
    const Topology topo = kunpeng920_24();
    auto w = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"a","start_cpu":17,"script":[{"run_ms":50}]},)"
        R"({"name":"b","start_cpu":5,"cpus":"4-7","script":[{"run_ms":50}]},)"
        R"({"name":"c","script":[{"run_ms":50}]}]})",
        "s.json", static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(w.ok()) << w.error();
    EXPECT_EQ(w->tasks[0].startCpu, 17);
    EXPECT_EQ(w->tasks[2].startCpu, -1);
    const auto back = workload::parseWorkloadJson(workload::workloadToJson(*w, 24).dump(), "back.json", 24);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->tasks[1].startCpu, 5) << "the writer keeps it";
    EXPECT_EQ(back->tasks[2].startCpu, -1);

    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.001;  // before the first tick's balancing could move anything
    auto st = sim::simulate(topo, tree, *w, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const auto& tasks = (*st)->tasks;
    EXPECT_EQ(tasks[0].cpu, 17);
    EXPECT_EQ(tasks[1].cpu, 5);
    EXPECT_EQ(tasks[0].migrations + tasks[1].migrations, 0);
    EXPECT_NE(tasks[2].cpu, 17) << "the exec placement of c sees a busy CPU 17";
    EXPECT_NE(tasks[2].cpu, 5);
}

TEST(WorkloadJson, StartCpuErrorsNameTheTaskAndTheProblem) {
    auto error = [](const std::string& task) {
        auto w = workload::parseWorkloadJson(R"({"tasks":[)" + task + "]}", "x.json", 4);
        return w.ok() ? std::string("(accepted)") : w.error();
    };
    EXPECT_EQ(error(R"({"name":"a","start_cpu":4,"script":[{"run_ms":1}]})"),
              "x.json: task 'a': start_cpu must be a CPU of the topology, 0-3");
    EXPECT_EQ(error(R"({"name":"a","start_cpu":1.5,"script":[{"run_ms":1}]})"),
              "x.json: task 'a': start_cpu must be a CPU of the topology, 0-3");
    EXPECT_EQ(error(R"({"name":"a","cpus":"2-3","start_cpu":1,"script":[{"run_ms":1}]})"),
              "x.json: task 'a': start_cpu 1 is not in its cpus 2-3");
    EXPECT_EQ(error(R"({"name":"a","start":false,"start_cpu":1,"script":[{"run_ms":1}]})"),
              "x.json: task 'a': start_cpu is for a task that starts at the beginning, not one a fork starts");
}

TEST(WorkloadJson, Errors) {
    EXPECT_FALSE(workload::parseWorkloadJson("{", "x.json", 4).ok());
    auto bad = workload::parseWorkloadJson(R"({"tasks":[{"name":"a","script":[{"wake":"b"}]}]})", "x.json", 4);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("unknown task"), std::string::npos) << bad.error();
    auto cpus = workload::parseWorkloadJson(R"({"tasks":[{"cpus":"0-9","script":[{"run_ms":1}]}]})", "x.json", 4);
    ASSERT_FALSE(cpus.ok());
    EXPECT_NE(cpus.error().find("beyond"), std::string::npos) << cpus.error();
}

// A field the format does not have is an error naming it, not a default nobody asked for: a
// misspelt task field, an op field another op takes, two ops in one object, "exit": false.
// A fork starts a task with "start": false; a fork that could do nothing, or a task that waits
// for a fork no one makes, is an error naming the task, not a run that quietly lacks it.
TEST(WorkloadJson, ForksThatCouldDoNothingAreRefused) {
    auto started = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"a","script":[{"fork":"b"},{"run_ms":1}]},{"name":"b","script":[{"run_ms":1}]}]})", "f.json", 4);
    ASSERT_FALSE(started.ok());
    EXPECT_EQ(started.error(), "f.json: task 'a': forks task 'b', which starts at the beginning: a forked task needs \"start\": false");
    auto self = workload::parseWorkloadJson(R"({"tasks":[{"name":"a","start":false,"script":[{"fork":"a"},{"run_ms":1}]}]})",
                                            "f.json", 4);
    ASSERT_FALSE(self.ok());
    EXPECT_EQ(self.error(), "f.json: task 'a': forks itself (a fork starts another task)");
    auto orphan = workload::parseWorkloadJson(R"({"tasks":[{"name":"a","script":[{"run_ms":1}]},)"
                                              R"({"name":"b","start":false,"script":[{"run_ms":1}]}]})",
                                              "f.json", 4);
    ASSERT_FALSE(orphan.ok());
    EXPECT_EQ(orphan.error(), "f.json: task 'b' has \"start\": false and no task forks it: it would never run");
    auto fine = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"a","script":[{"fork":[1,2]},{"run_ms":1}]},)"
        R"({"name":"b","start":false,"script":[{"run_ms":1}]},{"name":"c","start":false,"script":[{"fork":"d"},{"run_ms":1}]},)"
        R"({"name":"d","start":false,"script":[{"run_ms":1}]}]})",
        "f.json", 4);
    EXPECT_TRUE(fine.ok()) << fine.error();
}

TEST(WorkloadJson, UnknownFieldsAreRefusedByName) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"tasks":[{"name":"a","script":[{"run_ms":1}]}],"duraton_s":2})",
         R"(x.json: unknown field "duraton_s" (known here: name, unit, duration_s, groups, tasks))"},
        {R"({"tasks":[{"name":"a","mem_fracton":0.5,"script":[{"run_ms":1}]}]})",
         R"(x.json: task 'a': unknown field "mem_fracton" (known here: name, nice, cpus, start, start_cpu, group, )"
         R"(mem_fraction, bandwidth_gbs, cache_fraction, cache_mb, handoff_kb, script))"},
        {R"({"tasks":[{"name":"a","script":[{"run_ms":1,"sync":true}]}]})",
         R"(x.json: task 'a' op 0: a "run_ms" op has no field "sync" (it takes jitter))"},
        {R"({"tasks":[{"name":"a","script":[{"run_ms":1,"sleep_ms":2}]}]})",
         R"(x.json: task 'a' op 0: one op per object, not both "run_ms" and "sleep_ms")"},
        {R"({"tasks":[{"name":"a","script":[{"run_ms":1},{"exit":false}]}]})",
         R"(x.json: task 'a' op 1: "exit" must be true)"},
        {R"({"tasks":[{"name":"a","script":[{"wait":true,"count":3}]}]})",
         R"(x.json: task 'a' op 0: a "wait" op has no field "count")"},
    };
    for (const auto& [text, error] : cases) {
        auto w = workload::parseWorkloadJson(text, "x.json", 4);
        ASSERT_FALSE(w.ok()) << text;
        EXPECT_EQ(w.error(), error);
    }
    // a description and $-keys ($schema) are for readers
    auto fine = workload::parseWorkloadJson(
        R"({"$schema":"schema.json","description":"d","tasks":[{"name":"a","description":"t","script":[{"run_ms":1,"description":"o"}]}]})",
        "x.json", 4);
    EXPECT_TRUE(fine.ok()) << fine.error();
}

// What the JSON parser would let through quietly, or crash on: a key given twice (the last
// won), bytes after a NUL (the lexer stopped there), an op nested 100,000 deep (its echo in the
// error recursed off the stack); and where a syntax error is.
TEST(WorkloadJson, DuplicateKeysNulBytesDeepNestingAndSyntaxErrors) {
    auto twice = workload::parseWorkloadJson(R"({"tasks":[{"name":"a","script":[{"run_ms":1,"run_ms":50}]}]})", "x.json", 4);
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error(), R"(x.json: the key "run_ms" appears twice in one object)");
    auto sameKeyElsewhere = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"a","script":[{"run_ms":1}]},{"name":"b","script":[{"run_ms":2}]}]})", "x.json", 4);
    EXPECT_TRUE(sameKeyElsewhere.ok()) << sameKeyElsewhere.error();

    std::string nul = R"({"tasks":[{"name":"a","script":[{"run_ms":1}]}]})";
    nul += std::string(1, '\0') + "{ garbage";
    auto n = workload::parseWorkloadJson(nul, "x.json", 4);
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error(), "x.json: not valid JSON (a NUL byte)");

    std::string deep = R"({"tasks":[{"name":"a","script":[{"bogus":)";
    deep += std::string(100000, '[') + std::string(100000, ']') + "}]}]}";
    auto d = workload::parseWorkloadJson(deep, "x.json", 4);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error(), R"(x.json: task 'a' op 0: unknown op, an object with "bogus")");

    auto syntax = workload::parseWorkloadJson("{\n  \"tasks\": [,]\n}", "x.json", 4);
    ASSERT_FALSE(syntax.ok());
    EXPECT_NE(syntax.error().find("x.json: not valid JSON (parse error at line 2, column"), std::string::npos) << syntax.error();

    for (const char* duration : {"0", "100001", "-1", "\"1\""}) {
        auto w = workload::parseWorkloadJson(std::string(R"({"duration_s":)") + duration +
                                                 R"(,"tasks":[{"name":"a","script":[{"run_ms":1}]}]})",
                                             "x.json", 4);
        ASSERT_FALSE(w.ok()) << duration;
        EXPECT_EQ(w.error(), "x.json: duration_s must be a number of seconds in (0, 100000]");
    }
}

// run_ns / sleep_ns: what replay --save-workload writes, exact to the double
// cache_fraction and cache_mb: read, range-checked against mem_fraction, written back
TEST(WorkloadJson, CacheFootprints) {
    auto w = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"z","mem_fraction":0.3,"cache_fraction":0.1,"cache_mb":2.5,"script":[{"run_ms":1}]}]})",
        "c.json", 4);
    ASSERT_TRUE(w.ok()) << w.error();
    EXPECT_DOUBLE_EQ(w->tasks[0].cacheFraction, 0.1);
    EXPECT_DOUBLE_EQ(w->tasks[0].cacheMB, 2.5);
    const auto j = workload::workloadToJson(*w, 4);
    EXPECT_DOUBLE_EQ(j["tasks"][0]["cache_fraction"].get<double>(), 0.1);
    EXPECT_DOUBLE_EQ(j["tasks"][0]["cache_mb"].get<double>(), 2.5);
    auto over = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"z","mem_fraction":0.7,"cache_fraction":0.4,"script":[{"run_ms":1}]}]})", "c.json", 4);
    ASSERT_FALSE(over.ok());
    EXPECT_NE(over.error().find("cache_fraction must be in 0..1, and with mem_fraction at most 1"), std::string::npos)
        << over.error();
    auto negative = workload::parseWorkloadJson(R"({"tasks":[{"cache_mb":-1,"script":[{"run_ms":1}]}]})", "c.json", 4);
    ASSERT_FALSE(negative.ok());
    EXPECT_NE(negative.error().find("cache_mb must be a number from 0"), std::string::npos) << negative.error();
}

TEST(WorkloadJson, NanosecondAmounts) {
    auto w = workload::parseWorkloadJson(R"({"tasks":[{"script":[{"run_ns":1500.5},{"sleep_ns":2500},{"run_ms":0.25}]}]})",
                                         "x.json", 4);
    ASSERT_TRUE(w.ok()) << w.error();
    ASSERT_EQ(w->tasks[0].script.size(), 3u);
    EXPECT_EQ(w->tasks[0].script[0].kind, workload::OpKind::Run);
    EXPECT_EQ(w->tasks[0].script[0].amountNs, 1500.5);
    EXPECT_EQ(w->tasks[0].script[1].kind, workload::OpKind::Sleep);
    EXPECT_EQ(w->tasks[0].script[1].amountNs, 2500.0);
    EXPECT_EQ(w->tasks[0].script[2].amountNs, 250000.0);
    auto bad = workload::parseWorkloadJson(R"({"tasks":[{"script":[{"sleep_ns":-1}]}]})", "x.json", 4);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("sleep_ns must be a number from 0 to 1e12"), std::string::npos) << bad.error();
}

// A loop whose body takes no simulated time (zero-length runs or sleeps, no wait) would spin at
// one instant for ever: the file is refused, naming the op. A body with a wait may block, so it
// is allowed; the simulator's own guard ends a run whose clock stops all the same.
TEST(WorkloadJson, ALoopThatTakesNoTimeIsRefused) {
    auto endless = workload::parseWorkloadJson(R"({"tasks":[{"name":"z","script":[{"run_ms":0},{"loop_to":0}]}]})", "z.json", 4);
    ASSERT_FALSE(endless.ok());
    EXPECT_EQ(endless.error(), "z.json: task 'z' op 1: the loop back to op 0 runs no op that takes time (a run or sleep "
                               "above 0) or waits: it would never end");
    // a counted one ends, but a billion times at one instant would not end soon
    auto billion = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"z","script":[{"sleep_ms":0},{"loop_to":0,"count":1000000000}]}]})", "z.json", 4);
    ASSERT_FALSE(billion.ok());
    EXPECT_EQ(billion.error(), "z.json: task 'z' op 1: the loop back to op 0 runs 1000000000 times through ops that take "
                               "no time, at one instant (at most 1000000)");
    EXPECT_TRUE(workload::parseWorkloadJson(R"({"tasks":[{"script":[{"run_ms":0},{"sleep_ms":1},{"loop_to":0}]}]})", "ok.json", 4).ok());
    EXPECT_TRUE(workload::parseWorkloadJson(R"({"tasks":[{"name":"a","script":[{"wait":true},{"loop_to":0}]}]})", "ok.json", 4).ok());

    // the same workload built by hand (as a library user may): the run ends with an error
    workload::Workload spin;
    workload::TaskSpec t;
    t.name = "spin";
    workload::Op run;
    run.kind = workload::OpKind::Run;
    run.amountNs = 0;
    workload::Op loop;
    loop.kind = workload::OpKind::Loop;
    loop.to = 0;
    t.script = {run, loop};
    spin.tasks.push_back(t);
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 1;
    o.stuckEvents = 100000;
    auto st = sim::simulate(topo, tree, spin, o);
    ASSERT_FALSE(st.ok());
    // (each 0 ns burst ends in an event of its own: the events, not one event's loops, run away)
    EXPECT_EQ(st.error(), "simulation stuck at 0.000000 s: a task's script loops through ops that take no time "
                          "(100000 loops in one event, or 100000 events without the clock moving)");

    // a loop whose wait a wake of its own satisfies passes the file's check (it waits), and
    // never takes time: stuck, not credited the CPU it held while running nothing
    auto self = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"s","script":[{"wake":"s"},{"wait":true},{"loop_to":0}]}]})", "self.json", 24);
    ASSERT_TRUE(self.ok()) << self.error();
    auto selfRun = sim::simulate(topo, tree, *self, o);
    ASSERT_FALSE(selfRun.ok());
    EXPECT_TRUE(selfRun.error().starts_with("simulation stuck at 0.000000 s: task 's': its script loops")) << selfRun.error();
    // and one that reaches a burst after many such ops runs
    std::string posts;
    for (int i = 0; i < 99990; ++i) posts += R"({"post":1},)";
    auto many = workload::parseWorkloadJson(R"({"tasks":[{"name":"p","script":[)" + posts +
                                                R"({"run_ms":1},{"sleep_ms":1},{"loop_to":99990}]}]})",
                                            "posts.json", 24);
    ASSERT_TRUE(many.ok()) << many.error();
    o.durationS = 0.02;
    auto manyRun = sim::simulate(topo, tree, *many, o);
    ASSERT_TRUE(manyRun.ok()) << manyRun.error();
    // only loops count: 150,000 posts in a row, no loop, then a burst (a driver handing out
    // work, pgbench:clients=100000,scale=100000) is no script stuck in a loop
    std::string longer;
    for (int i = 0; i < 150000; ++i) longer += R"({"post":1},)";
    auto straight = workload::parseWorkloadJson(R"({"tasks":[{"name":"q","script":[)" + longer + R"({"run_ms":1}]}]})",
                                                "straight.json", 24);
    ASSERT_TRUE(straight.ok()) << straight.error();
    auto straightRun = sim::simulate(topo, tree, *straight, o);
    ASSERT_TRUE(straightRun.ok()) << straightRun.error();
    // a counted loop ends: 150,000 posts from one (pbzip2's reader fills its queue so, 2N posts
    // for N threads) pass the file's check and run, more than the endless loops' 100,000
    auto counted = workload::parseWorkloadJson(
        R"({"tasks":[{"name":"c","script":[{"post":1},{"loop_to":0,"count":149999},{"run_ms":1}]}]})", "counted.json", 24);
    ASSERT_TRUE(counted.ok()) << counted.error();
    auto countedRun = sim::simulate(topo, tree, *counted, o);
    ASSERT_TRUE(countedRun.ok()) << countedRun.error();

    // step mode runs to the end as simulate() does, and says a stuck run so too
    auto stepped = sim::Simulation::create(topo, tree, *self, o);
    ASSERT_TRUE(stepped.ok()) << stepped.error();
    (void)(*stepped)->nextDecision();
    (*stepped)->runToEnd();
    EXPECT_TRUE((*stepped)->stuckError().starts_with("simulation stuck at 0.000000 s: task 's': its script loops"))
        << (*stepped)->stuckError();
}

// work=S ends a run: hackbench's receivers take every message their senders send and pgbench's
// backends serve every round of the driver, then exit, so the run completes instead of ending
// in a stall with throughput averaged over time nobody worked.
TEST(WorkloadSpec, WorkEndsHackbenchAndPgbenchRuns) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    for (const char* spec : {"hackbench:groups=1,work=0.01", "pgbench:clients=4,work=0.01", "pgbench:clients=4,scale=2,work=0.01"}) {
        auto w = workload::parseWorkloadSpec(spec, 96);
        ASSERT_TRUE(w.ok()) << w.error();
        sim::SimOptions o;
        o.durationS = 1;
        auto st = sim::simulate(topo, tree, *w, o);
        ASSERT_TRUE(st.ok()) << st.error();
        EXPECT_LT((*st)->metrics.stalledAtNs, 0) << spec << ": " << sim::describeStall(**st);
        for (const auto& t : (*st)->tasks) EXPECT_EQ(t.state, sim::TaskState::Exited) << spec << " " << t.spec->name;
        EXPECT_LT((*st)->now, 500'000'000) << spec;  // done well before the 1 s limit
    }
}

// work=S is S uncontended seconds per task for the team generators and mcf, however it divides
// into their bursts: stream's 20 ms bursts made work=0.05 three bursts (0.06 s) and work=0.001
// one (0.02 s).
TEST(WorkloadSpec, WorkIsTheWorkGivenNotWholeNominalBursts) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    for (const char* spec : {"stream:threads=4,work=0.05", "stream:threads=4,work=0.001", "sysbench-cpu:threads=2,work=0.025",
                             "mcf:copies=2,work=0.07"}) {
        auto w = workload::parseWorkloadSpec(spec, 96);
        ASSERT_TRUE(w.ok()) << w.error();
        const double workS = std::stod(std::string(spec).substr(std::string(spec).find("work=") + 5));
        sim::SimOptions o;
        o.durationS = 2;
        auto st = sim::simulate(topo, tree, *w, o);
        ASSERT_TRUE(st.ok()) << st.error();
        for (const auto& t : (*st)->tasks) {
            if (t.spec->name == "specinvoke") continue;  // mcf's launcher: its forks, not the work
            EXPECT_EQ(t.state, sim::TaskState::Exited) << spec << " " << t.spec->name;
            EXPECT_NEAR(t.workDone / 1e9, workS, workS * 0.05) << spec << " " << t.spec->name;  // bursts jitter by up to 2-5%
        }
    }
}

// A burst of 10^18 ns slowed by memory contention ends past int64's nanoseconds: its end stays
// in the far future instead of wrapping to the past (negative utilisation, tasks "done" in 2 ns).
TEST(WorkloadJson, ABurstTooLongForTheClockNeverEnds) {
    auto w = workload::parseWorkloadJson(
        R"({"tasks":[{"mem_fraction":0.9,"bandwidth_gbs":200,"script":[{"run_ms":1e12}]},
                     {"mem_fraction":0.9,"bandwidth_gbs":200,"script":[{"run_ms":1e12}]},
                     {"mem_fraction":0.9,"bandwidth_gbs":200,"script":[{"run_ms":1e12}]},
                     {"mem_fraction":0.9,"bandwidth_gbs":200,"script":[{"run_ms":1e12}]}]})",
        "hogs.json", 4);
    ASSERT_TRUE(w.ok()) << w.error();
    auto topo = loadTopology({TopologySpec::Kind::Synthetic, "core:4 pu:1"});
    ASSERT_TRUE(topo.ok()) << topo.error();
    const DomainTree tree = buildTree(*topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 2;
    auto st = sim::simulate(*topo, tree, *w, o);
    ASSERT_TRUE(st.ok()) << st.error();
    EXPECT_EQ((*st)->now, 2'000'000'000);
    for (const auto& c : (*st)->cpus) EXPECT_EQ(c.busyTotal, 2'000'000'000);
    for (const auto& t : (*st)->tasks) EXPECT_NE(t.state, sim::TaskState::Exited);
}

nlohmann::json runJson(const std::string& spec, uint64_t seed, double duration = 0.2) {
    const Topology topo = kunpeng920_24();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto w = workload::parseWorkloadSpec(spec, 96);
    EXPECT_TRUE(w.ok());
    sim::SimOptions o;
    o.seed = seed;
    o.durationS = duration;
    auto st = sim::simulate(topo, tree, *w, o);
    EXPECT_TRUE(st.ok());
    return sim::simResultToJson(**st, *w, {topo.name, "linux-6.12", true, true, spec});
}

// A run points into its topology, domain tree and workload: passing a temporary, which would
// be gone while the run still reads it, does not compile.
template <class T, class D, class W>
constexpr bool simulateAccepts = requires(T&& t, D&& d, W&& w, const sim::SimOptions& o) {
    sim::simulate(std::forward<T>(t), std::forward<D>(d), std::forward<W>(w), o);
};
template <class T, class D, class W>
constexpr bool createAccepts = requires(T&& t, D&& d, W&& w, const sim::SimOptions& o) {
    sim::Simulation::create(std::forward<T>(t), std::forward<D>(d), std::forward<W>(w), o);
};
static_assert(simulateAccepts<const Topology&, const DomainTree&, const workload::Workload&>);
static_assert(!simulateAccepts<const Topology&, const DomainTree&, workload::Workload>);
static_assert(!simulateAccepts<const Topology&, DomainTree, const workload::Workload&>);
static_assert(!simulateAccepts<Topology, const DomainTree&, const workload::Workload&>);
static_assert(createAccepts<const Topology&, const DomainTree&, const workload::Workload&>);
static_assert(!createAccepts<const Topology&, const DomainTree&, workload::Workload>);
static_assert(!createAccepts<const Topology&, DomainTree, const workload::Workload&>);

TEST(Determinism, SameSeedSameJson) {
    for (const std::string spec : {"pgbench:clients=16,cpus=0-23", "hackbench:groups=1", "stream:threads=6"}) {
        const std::string a = runJson(spec, 7, 0.03).dump();
        EXPECT_EQ(a, runJson(spec, 7, 0.03).dump()) << spec;
        EXPECT_NE(a, runJson(spec, 8, 0.03).dump()) << spec << ": the seed should matter for jittered bursts";
    }
}

// Long runs report how far they are and can be stopped; reporting does not change the run.
// (A report comes every 65,536 events: a small machine gets there cheaply, which matters under
// the sanitizers; hackbench on a 96-CPU Kunpeng made this one test 18 s of their stage.)
TEST(Progress, ReportsRisingSharesWithoutChangingTheRunAndCanStopIt) {
    const Topology& topo = twoNodesOfTwoCores();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    const std::string spec = "hackbench:groups=1";
    auto w = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(w.ok());
    sim::SimOptions o;
    o.durationS = 2.0;
    auto plain = sim::simulate(topo, tree, *w, o);
    ASSERT_TRUE(plain.ok()) << plain.error();
    ASSERT_GT((*plain)->metrics.events, 3 * 65536) << "too short a run to be reported on";
    std::vector<double> shares;
    o.progress = [&](double share) {
        shares.push_back(share);
        return true;
    };
    auto reported = sim::simulate(topo, tree, *w, o);
    ASSERT_TRUE(reported.ok()) << reported.error();
    EXPECT_EQ(shares.size(), static_cast<size_t>((*reported)->metrics.events / 65536));
    EXPECT_TRUE(std::is_sorted(shares.begin(), shares.end()));
    EXPECT_GT(shares.front(), 0.0);
    EXPECT_LE(shares.back(), 1.0);
    const sim::RunConfig cfg{topo.name, "linux-6.12", true, true, spec};
    EXPECT_EQ(sim::simResultToJson(**plain, *w, cfg).dump(), sim::simResultToJson(**reported, *w, cfg).dump());

    int calls = 0;
    o.progress = [&](double) { return ++calls < 2; };
    auto stopped = sim::simulate(topo, tree, *w, o);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error(), "simulation cancelled");
    EXPECT_EQ(calls, 2);
}

// SimOptions::unpinnedCpus: tasks that name no CPUs (no affinity, a SetAffinity op without
// CPUs) run where it says, exactly as if each had those CPUs written in.
TEST(UnpinnedCpus, RunAsIfEveryUnpinnedTaskNamedThem) {
    const Topology topo = kunpeng920_24();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto w = workload::parseWorkloadSpec("hackbench:groups=1", 96);
    ASSERT_TRUE(w.ok()) << w.error();
    workload::Op unpin;
    unpin.kind = workload::OpKind::SetAffinity;  // no CPUs
    w->tasks[0].script.insert(w->tasks[0].script.begin(), unpin);
    const CpuSet four = CpuSet::range(4, 7);
    workload::Workload written = *w;
    for (auto& t : written.tasks) {
        ASSERT_TRUE(t.affinity.empty());
        t.affinity = four;
        for (auto& op : t.script)
            if (op.kind == workload::OpKind::SetAffinity) op.cpus = four;
    }
    sim::SimOptions o;
    o.durationS = 0.05;
    auto pinned = sim::simulate(topo, tree, written, o);
    o.unpinnedCpus = four;
    auto unpinned = sim::simulate(topo, tree, *w, o);
    ASSERT_TRUE(pinned.ok()) << pinned.error();
    ASSERT_TRUE(unpinned.ok()) << unpinned.error();
    for (const auto& t : (*unpinned)->tasks)
        for (const sim::CpuTimes::Entry& e : t.cpuTime) {
            EXPECT_TRUE(four.test(e.cpu)) << t.spec->name << " ran on CPU " << e.cpu;
        }
    const sim::RunConfig cfg{topo.name, "linux-6.12", true, true, "hackbench"};
    EXPECT_EQ(sim::simResultToJson(**pinned, written, cfg).dump(), sim::simResultToJson(**unpinned, *w, cfg).dump());

    o.unpinnedCpus = CpuSet::range(200, 201);
    auto none = sim::simulate(topo, tree, *w, o);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error(), "simulate: none of the CPUs 200-201 for unpinned tasks is online");
}

TEST(Metrics, JsonHasTheDocumentedKeys) {
    auto j = runJson("pgbench:clients=8", 1);
    for (const char* k : {"config", "metrics", "tasks", "placement_timeline"}) EXPECT_TRUE(j.contains(k)) << k;
    for (const char* k : {"throughput", "completion_s", "migrations_by_level", "migrations_by_cause", "wait_latency_us",
                          "idle_while_overloaded_s", "cpu_utilisation"})
        EXPECT_TRUE(j["metrics"].contains(k)) << k;
    EXPECT_TRUE(j["tasks"][0].contains("cpu_time_by_cpu"));
    EXPECT_GT(j["metrics"]["wait_latency_us"]["samples"].get<long long>(), 0);
}

}  // namespace
}  // namespace schedscope::test
