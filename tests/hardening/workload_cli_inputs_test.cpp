// Bad-input catalogue, workload and CLI rows: the library's exact message, and the CLI printing
// it on one line with exit code 2.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "hardening_support.h"
#include "workload/workload_json.h"
#include "workload/workload_spec.h"

using namespace schedscope;
using namespace schedscope::workload;
using namespace schedscope::hardening;

namespace {

void expectCliError(const std::string& args, const std::string& message) {
    CliRun r = runCli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, "schedscope-cli: " + message + "\n") << args;
    EXPECT_TRUE(r.out.empty()) << args;
}

TEST(BadWorkload, UnknownWorkload) {
    const std::string msg =
        "unknown workload 'nosuch' (known: stream, pbzip2, pixz, mcf, kernbench, sysbench-cpu, pgbench, hackbench, or a .json file)";
    auto w = parseWorkloadSpec("nosuch:threads=4", 24);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), msg);
    expectCliError("simulate --preset kunpeng920-24 --workload nosuch:threads=4", msg);

    auto j = parseWorkloadJson(R"({"tasks": [{"name": "a", "script": [{"wake": "nobody"}]}]})", "w.json", 24);
    ASSERT_FALSE(j);
    EXPECT_EQ(j.error(), "w.json: task 'a': unknown task \"nobody\"");
}

TEST(BadWorkload, NegativeCounts) {
    auto w = parseWorkloadSpec("stream:threads=-4", 24);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), "workload stream: threads must be positive, not -4");
    expectCliError("simulate --preset kunpeng920-24 --workload hackbench:groups=-1", "workload hackbench: groups must be positive, not -1");

    auto loop = parseWorkloadJson(R"({"tasks": [{"script": [{"run_ms": 1}, {"loop_to": 0, "count": -5}]}]})", "l.json", 24);
    ASSERT_FALSE(loop);
    EXPECT_EQ(loop.error(), "l.json: task 'task0' op 1: count must be an integer in -1..9223372036854775807");
    auto parties = parseWorkloadJson(R"({"tasks": [{"script": [{"barrier": 1, "parties": -2}]}]})", "b.json", 24);
    ASSERT_FALSE(parties);
    EXPECT_EQ(parties.error(), "b.json: task 'task0' op 0: barrier needs parties >= 1");
    // nice 2^32 used to wrap to 0 and pass.
    auto nice = parseWorkloadJson(R"({"tasks": [{"nice": 4294967296, "script": [{"run_ms": 1}]}]})", "n.json", 24);
    ASSERT_FALSE(nice);
    EXPECT_EQ(nice.error(), "n.json: task 'task0': nice must be an integer in -20..19");
    // Wrong JSON types are errors, not exceptions (json::value() used to throw type_error).
    auto type = parseWorkloadJson(R"({"name": 5, "tasks": [{"script": []}]})", "t.json", 24);
    ASSERT_FALSE(type);
    EXPECT_EQ(type.error(), "t.json: name must be a string");
    auto huge = parseWorkloadJson(R"({"tasks": [{"script": [{"barrier": 1e300, "parties": 1}]}]})", "h.json", 24);
    ASSERT_FALSE(huge);
    EXPECT_EQ(huge.error(), "h.json: task 'task0' op 0: barrier must be an integer in -2147483648..2147483647");
}

TEST(BadWorkload, CpusOutsideTheTopology) {
    auto w = parseWorkloadSpec("stream:threads=4,cpus=0-3,20-31", 24);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), "workload stream: cpus=0-3,20-31 goes beyond the topology's CPUs 0-23");
    expectCliError("simulate --preset kunpeng920-24 --workload mcf:copies=2,cpus=90-99",
                   "workload mcf: cpus=90-99 goes beyond the topology's CPUs 0-95");
    auto j = parseWorkloadJson(R"({"tasks": [{"cpus": "0-99", "script": [{"run_ms": 1}]}]})", "c.json", 24);
    ASSERT_FALSE(j);
    EXPECT_EQ(j.error(), "c.json: task 'task0': cpus 0-99 go beyond the topology's CPUs 0-23");
    auto limit = parseWorkloadSpec("stream:cpus=0-9000", 24);
    ASSERT_FALSE(limit);
    EXPECT_EQ(limit.error(), "workload stream: cpus=0-9000: cpu 9000 exceeds the limit of 8192 CPUs");
}

TEST(BadWorkload, ControlCharactersAreEscapedInErrors) {
    // Found by fuzz_workload_spec: the echoed token broke the one-line rule.
    auto w = parseWorkloadSpec(std::string("pbzip2:\x03\n\x03pt\x03"), 24);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), "workload pbzip2: expected key=value, got '\\x03\\x0a\\x03pt\\x03'");
    auto j = parseWorkloadJson(R"({"tasks": [{"name": "a", "b\nc": 1, "script": [1]}]})", "j.json", 24);
    ASSERT_FALSE(j);
    EXPECT_TRUE(j.error().starts_with("j.json: task 'a': unknown field \"b\\x0ac\" (known here:")) << j.error();
    // a name or unit is printed with the results: one with an escape sequence is refused
    auto named = parseWorkloadJson(R"({"tasks": [{"name": "a\u001b[2Jb", "script": [{"run_ms": 1}]}]})", "j.json", 24);
    ASSERT_FALSE(named);
    EXPECT_EQ(named.error(), "j.json: task 0: name must not contain control characters");
}

TEST(BadWorkload, TooManyTasks) {
    // kernbench's compiler processes grow with the duration: 100000 jobs x 100000 s used to
    // try to build 2.5e11 tasks.
    auto w = parseWorkloadSpec("kernbench:jobs=100000,duration=100000", 24);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), "workload kernbench: jobs=100000,duration=100000 would make 250000300000 tasks (at most 200000)");
    auto ok = parseWorkloadSpec("kernbench:jobs=8,duration=2", 24);
    ASSERT_TRUE(ok) << ok.error();
    // a file has the generators' bound too: 64 MiB of empty tasks were 4.8 M tasks and 4 GB
    std::string tasks = R"({"tasks":[)";
    for (size_t i = 0; i <= kMaxWorkloadTasks; ++i) tasks += i ? R"(,{"script":[]})" : R"({"script":[]})";
    auto file = parseWorkloadJson(tasks + "]}", "many.json", 24);
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error(), "many.json: 200001 tasks, more than the 200000 a workload may have");
}

TEST(BadWorkload, DeeplyNestedTargetsAreAnErrorNotACrash) {
    // 70000 nested arrays as a wake target: copying the value recursed past the stack
    for (const char* op : {"wake", "fork"}) {
        const std::string nested = std::string(70000, '[') + "0" + std::string(70000, ']');
        auto w = parseWorkloadJson(std::string(R"({"tasks":[{"script":[{")") + op + R"(":)" + nested + "}]}]}", "deep.json", 2);
        ASSERT_FALSE(w) << op;
        EXPECT_EQ(w.error(), "deep.json: task 'task0': unknown task an array") << op;
    }
}

TEST(BadWorkload, AmountsBelowANanosecond) {
    // the clock counts nanoseconds: 0.4 ns was a 0 ns sleep (a loop stuck at one instant) and a
    // 1 ns run
    auto w = parseWorkloadJson(R"({"tasks":[{"name":"a","script":[{"sleep_ns":0.4},{"loop_to":0}]}]})", "s.json", 2);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), "s.json: task 'a' op 0: sleep_ns is less than a nanosecond, the simulator's clock step (0, or at least 1 ns)");
    auto r = parseWorkloadJson(R"({"tasks":[{"name":"a","script":[{"run_ms":1e-7}]}]})", "r.json", 2);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "r.json: task 'a' op 0: run_ms is less than a nanosecond, the simulator's clock step (0, or at least 1 ns)");
    expectCliError("simulate --synthetic 'core:2 pu:1' --workload stream:threads=2 --duration 1e-12",
                   "--duration must be from 1e-9 (1 ns) to 100000 seconds");
    expectCliError("simulate --synthetic 'core:2 pu:1' --workload stream:threads=2 --duration 0x10",
                   "option '--duration': '0x10' is not a number");
}

TEST(BadWorkload, AnAffinityOpToOfflineCpusIsRefused) {
    // sched_setaffinity() to CPUs none of which is online fails: the op used to free the task
    const std::string path = scratchPath("workload-files/affinity-offline.json");
    writeFile(path, R"({"tasks":[{"name":"b","cpus":"4","script":[{"affinity":"1"},{"run_ms":1},{"sleep_ms":1},{"loop_to":1}]}]})");
    const CliRun r = runCli("simulate --xml " + std::string(SCHEDSCOPE_TEST_DATA) + "/topologies/xml/offline-cpu0-node0.xml --workload " +
                            path + " --duration 0.01");
    EXPECT_EQ(r.status, 2);
    // (after the export's own warning on its node-less CPUs)
    EXPECT_TRUE(r.err.ends_with("schedscope-cli: workload task 'b': an affinity op names CPUs 1, none of them online\n")) << r.err;
}

TEST(BadWorkload, BenchSimsStandardRunTakesNoOtherMachineOrKernel) {
    expectCliError("bench sim --profile linux-4.14 --duration 0.01",
                   "bench sim: --profile changes the standard run, whose figures compare across builds: give a --workload "
                   "to time another run");
    expectCliError("bench sim --preset kunpeng920-24 --duration 0.01",
                   "bench sim: the standard run has its own machine (128 CPUs): give a --workload to time one on another "
                   "topology");
}

TEST(BadWorkload, FilesThatAreNoRegularFileOrFarTooBigAreNotRead) {
    const std::string missing = scratchPath("workload-files/missing.json");
    auto a = loadWorkloadFile(missing, 4);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error(), missing + ": cannot open workload file (No such file or directory)");
    // a FIFO named like a workload file: refused at once, not waited on for a writer
    const std::string fifo = scratchPath("workload-files/fifo.json");
    std::filesystem::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    auto b = loadWorkloadFile(fifo, 4);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error(), fifo + ": not a regular file");
    // 65 MiB (sparse: no disk used) is past the 64 MiB an input may have
    const std::string big = scratchPath("workload-files/big.json");
    writeFile(big, "{");
    std::filesystem::resize_file(big, 65ull << 20);
    auto c = loadWorkloadFile(big, 4);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error(), big + ": workload file of 65 MiB, more than the 64 MiB an input may have");
    expectCliError("simulate --preset kunpeng920-24 --workload " + big, c.error());
}

}  // namespace
