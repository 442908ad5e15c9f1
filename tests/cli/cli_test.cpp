// schedscope-cli end to end: outputs, exit codes and one-line errors.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "domains/profile.h"
#include "support/fixtures.h"

namespace {

struct CliRun {
    int status = -1;
    std::string out;
    std::string err;
};

CliRun cli(const std::string& args) {
    std::string errFile = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/cli-stderr-" + std::to_string(::getpid());
    std::string cmd = std::string(SCHEDSCOPE_CLI) + " " + args + " 2>" + errFile;
    CliRun r;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 65536> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.err = schedscope::test::readFile(errFile);
    return r;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// Runs the CLI with `args` and parses its JSON; a failed run or output that is not JSON fails
// the test with what the command said, and gives a discarded value.
nlohmann::json cliJson(const std::string& args) {
    const CliRun r = cli(args);
    if (r.status != 0) {
        ADD_FAILURE() << args << ": exit " << r.status << ": " << r.err;
        return nlohmann::json(nlohmann::json::value_t::discarded);
    }
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    if (j.is_discarded()) ADD_FAILURE() << args << ": not JSON: " << r.out;
    return j;
}

TEST(Cli, DomainsKernelFormatForKunpeng) {
    CliRun r = cli("domains --preset kunpeng920-24 --format kernel");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("CPU0 attaching sched-domain(s):\n domain-0: span=0-3 level=CLS\n  groups: 0:{ span=0 }, 1:{ span=1 }, 2:{ span=2 }, 3:{ span=3 }\n  domain-1: span=0-23 level=MC\n"),
              std::string::npos)
        << r.out.substr(0, 400);
    EXPECT_NE(r.out.find("CPU95 attaching sched-domain(s):"), std::string::npos);
}

// Another machine's real domains from its saved dmesg: the builder's for its sysfs snapshot
// match the 6.1 kernel's log of a cpuset partition (exit 0), and not its boot log (exit 1, the
// levels that differ named); the log alone prints as the domains it holds.
// --cpu narrows what a kernel log shows and what a diff compares; a log cut short is compared
// on the CPUs it printed, and says which it did not; a diff has no kernel-log format.
TEST(Cli, DomainsKernelLogCpusAndCutLogs) {
    const std::string oracle = schedscope::test::dataPath("oracle/x86-2s4n4c2t/");
    const std::string build = "domains --sysfs-root " + oracle + "sysfs.tar.xz --profile linux-6.1 --diff --kernel-log ";
    CliRun shown = cli("domains --kernel-log " + oracle + "kernel-log.txt --cpu 3");
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_NE(shown.out.find("cpu3:"), std::string::npos) << shown.out;
    EXPECT_EQ(shown.out.find("cpu4:"), std::string::npos) << shown.out;
    CliRun garbage = cli("domains --kernel-log " + oracle + "kernel-log.txt --cpu xyz");
    EXPECT_EQ(garbage.status, 2) << garbage.out;
    EXPECT_NE(garbage.err.find("--cpu"), std::string::npos) << garbage.err;
    CliRun kernelFormat = cli(build + oracle + "kernel-log.txt --format kernel");
    EXPECT_EQ(kernelFormat.status, 2) << kernelFormat.out;
    CliRun withTopology = cli("domains --kernel-log " + oracle + "kernel-log.txt --sysfs-root " + oracle + "sysfs.tar.xz");
    EXPECT_EQ(withTopology.status, 2) << withTopology.out;

    const std::string log = schedscope::test::readFile(oracle + "kernel-log.txt");
    const size_t cut = log.find("CPU8 attaching");
    ASSERT_NE(cut, std::string::npos);
    const std::string path = (std::filesystem::temp_directory_path() / "schedscope-cli-cut-log.txt").string();
    std::ofstream(path) << log.substr(0, log.rfind('\n', cut) + 1);
    CliRun cutShort = cli(build + path);
    EXPECT_EQ(cutShort.status, 0) << cutShort.out << cutShort.err;
    EXPECT_EQ(cutShort.out, "identical on the CPUs the log printed: cpus 8-15 were not compared\n");
    CliRun some = cli(build + path + " --cpu 0-3");
    EXPECT_EQ(some.out, "identical: the builder matches the kernel's log on the CPUs of --cpu\n") << some.err;
    std::filesystem::remove(path);
}

// A kernel without the CLS and NODE levels (4.14) runs without them, and its header says so.
TEST(Cli, SimulateSaysTheLevelsItsKernelBuilds) {
    CliRun old = cli("simulate --preset kunpeng920-24 --workload stream:threads=4 --profile linux-4.14 --duration 0.01");
    ASSERT_EQ(old.status, 0) << old.err;
    EXPECT_NE(old.out.find("profile linux-4.14, CLS off, NODE off"), std::string::npos) << old.out;
    CliRun now = cli("simulate --preset kunpeng920-24 --workload stream:threads=4 --profile linux-6.6 --duration 0.01");
    EXPECT_NE(now.out.find("profile linux-6.6, CLS on, NODE on"), std::string::npos) << now.out;
}

TEST(Cli, DomainsDiffWithAKernelLog) {
    const std::string oracle = schedscope::test::dataPath("oracle/x86-2s4n4c2t-root-4-7-12-15/");
    const std::string boot = schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt");
    const std::string build = "domains --sysfs-root " + oracle + "sysfs.tar.xz --profile linux-6.1 --diff --kernel-log ";
    CliRun same = cli(build + oracle + "kernel-log.txt");
    EXPECT_EQ(same.status, 0) << same.out << same.err;
    EXPECT_EQ(same.out, "identical: the builder matches the kernel's log on every CPU\n");
    CliRun other = cli(build + boot);
    EXPECT_EQ(other.status, 1) << other.err;
    EXPECT_NE(other.out.find("cpu4: levels differ: built SMT MC NUMA, kernel SMT MC NUMA NUMA"), std::string::npos) << other.out;
    CliRun shown = cli("domains --kernel-log " + boot + " --cpu 3");
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_NE(shown.out.find("cpu3:\n  SMT span=2-3 groups=2 [{3} {2}]\n  MC span=0-3"), std::string::npos) << shown.out;
    CliRun piped = cli("domains --sysfs-root " + oracle + "sysfs.tar.xz --profile linux-6.1 --diff --kernel-log - < " + oracle +
                       "kernel-log.txt");
    EXPECT_EQ(piped.status, 0) << piped.out << piped.err;
    CliRun empty = cli("domains --kernel-log - < /dev/null");
    EXPECT_EQ(empty.err.rfind("schedscope-cli: standard input: no sched domain lines", 0), 0u) << empty.err;
    // without --profile the newest kernel that can have printed the log is built, and said
    CliRun unprofiled = cli("domains --sysfs-root " + oracle + "sysfs.tar.xz --diff --kernel-log " + oracle + "kernel-log.txt");
    EXPECT_EQ(unprofiled.status, 0) << unprofiled.out << unprofiled.err;
    EXPECT_NE(unprofiled.err.find("note: the log was printed by a kernel before 6.10 (root domain lines with a capacity); "
                                  "the domains were built for linux-6.9, the newest such kernel (give --profile)"),
              std::string::npos)
        << unprofiled.err;
    // a 6.1 arm64 log names DIE: built for 6.6, its levels are the log's; for the newest, PKG and MC
    // (Debian's arm64 kernels have no SCHED_CLUSTER: --no-cls)
    const std::string arm = schedscope::test::dataPath("oracle/arm64-2s2cl2c2t/");
    const std::string armBuild = "domains --sysfs-root " + arm + "sysfs.tar.xz --arch arm64 --no-cls --diff --kernel-log " + arm +
                                 "kernel-log.txt";
    CliRun armLog = cli(armBuild);
    EXPECT_EQ(armLog.status, 0) << armLog.out << armLog.err;
    EXPECT_NE(armLog.err.find("before 6.7 (DIE); the domains were built for linux-6.6, the newest such kernel"), std::string::npos)
        << armLog.err;
    CliRun armNewest = cli(armBuild + " --profile linux-7.1");
    EXPECT_EQ(armNewest.status, 1) << armNewest.out << armNewest.err;
    EXPECT_NE(armNewest.out.find("cpu0 domain-1 level: built PKG, kernel DIE"), std::string::npos) << armNewest.out;
    CliRun both = cli("domains --kernel --kernel-log " + boot);
    EXPECT_EQ(both.status, 2);
    EXPECT_NE(both.err.find("name two kernels"), std::string::npos) << both.err;
    CliRun missing = cli("domains --kernel-log /nonexistent/dmesg.txt --diff --preset kunpeng920-24");
    EXPECT_EQ(missing.status, 2) << "not 1, which says the domains differ";
    EXPECT_EQ(missing.err, "schedscope-cli: /nonexistent/dmesg.txt: cannot open kernel log (No such file or directory)\n");
}

// The machine of a saved dmesg: its topology as the log's domains show it, under the kernel
// that printed it (a 6.1 log: linux-6.9, the newest with its format), rebuilt identical to the
// log; what the log cannot tell is a note on stderr. A log cut to one CPU's block, which says
// nothing of the other nodes, is refused.
TEST(Cli, TheMachineOfAKernelLog) {
    const std::string log = schedscope::test::dataPath("oracle/x86-2s4n4c2t/kernel-log.txt");
    CliRun shown = cli("topology --from-kernel-log " + log);
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_NE(shown.out.find("rebuilt identical to the log with x86_64 rules for linux-6.9, x86_64): 16 CPUs, 4 package(s), 4 NUMA node(s)"),
              std::string::npos)
        << shown.out.substr(0, 300);
    EXPECT_EQ(shown.err, "schedscope-cli: note: --from-kernel-log " + log +
                             ": NUMA distances are ranks (20, 30, ...) in the order the NUMA spans nest: a log has no distances\n");
    CliRun diff = cli("domains --from-kernel-log " + log + " --diff --kernel-log " + log);
    EXPECT_EQ(diff.status, 0) << diff.out << diff.err;
    EXPECT_EQ(diff.out, "identical: the builder matches the kernel's log on every CPU\n");
    // its domains by default are the log's kernel's: DIE, not PKG, for a 6.1 arm64 log
    const std::string arm = schedscope::test::dataPath("oracle/arm64-2s2cl2c2t/kernel-log.txt");
    CliRun armDomains = cli("domains --from-kernel-log " + arm + " --arch arm64 --cpu 0");
    ASSERT_EQ(armDomains.status, 0) << armDomains.err;
    EXPECT_NE(armDomains.out.find("profile linux-6.6, arch arm64"), std::string::npos) << armDomains.out;
    EXPECT_NE(armDomains.out.find("  DIE span=0-7"), std::string::npos) << armDomains.out;
    CliRun sim = cli("simulate --from-kernel-log " + log + " --workload stream:threads=4 --duration 0.5 --json");
    ASSERT_EQ(sim.status, 0) << sim.err;
    EXPECT_EQ(nlohmann::json::parse(sim.out)["config"]["profile"], "linux-6.9");
    const std::string cut = schedscope::test::dataPath("../../resources/kernel-logs/kunpeng920-d06-v5.6.txt");
    CliRun partial = cli("topology --from-kernel-log " + cut);
    EXPECT_EQ(partial.status, 2);
    EXPECT_EQ(partial.err, "schedscope-cli: " + cut + ": its domains span cpus 0-95 but it prints the domains of cpus 0 only, "
                           "none on cpu24's node: a topology needs a block of each node (is the log cut short?)\n");
    // `dmesg | schedscope-cli ... --from-kernel-log -`: the same machine, named "standard input"
    CliRun piped = cli("domains --from-kernel-log - --diff --kernel-log " + log + " < " + log);
    EXPECT_EQ(piped.status, 0) << piped.out << piped.err;
    EXPECT_EQ(piped.out, "identical: the builder matches the kernel's log on every CPU\n");
    CliRun pipedTopology = cli("topology --from-kernel-log - < " + log);
    ASSERT_EQ(pipedTopology.status, 0) << pipedTopology.err;
    EXPECT_EQ(pipedTopology.err.rfind("schedscope-cli: note: --from-kernel-log -: NUMA distances are ranks", 0), 0u)
        << pipedTopology.err;
    CliRun pipedEmpty = cli("topology --from-kernel-log - < /dev/null");
    EXPECT_EQ(pipedEmpty.status, 2);
    EXPECT_EQ(pipedEmpty.err.rfind("schedscope-cli: standard input: no sched domain lines", 0), 0u) << pipedEmpty.err;
    CliRun twice = cli("domains --from-kernel-log - --diff --kernel-log - < " + log);
    EXPECT_EQ(twice.status, 2);
    EXPECT_NE(twice.err.find("standard input is read once"), std::string::npos) << twice.err;
    CliRun two = cli("topology --from-kernel-log " + log + " --preset kunpeng920-24");
    EXPECT_EQ(two.status, 2);
    EXPECT_NE(two.err.find("give only one of"), std::string::npos) << two.err;
}

// A whole boot console names its kernel: Debian 12's 6.1 is simulated under 6.1 (CFS), not under
// 6.6, the newest kernel its DIE level allows.
TEST(Cli, AWholeBootConsoleRunsUnderItsOwnKernel) {
    const std::string console = schedscope::test::dataPath("kernel-logs/linux-6.1-x86-2s2d3c2t-boot-console.txt");
    CliRun sim = cli("simulate --from-kernel-log " + console + " --workload stream:threads=4 --duration 0.2 --json");
    ASSERT_EQ(sim.status, 0) << sim.err;
    EXPECT_EQ(nlohmann::json::parse(sim.out)["config"]["profile"], "linux-6.1");
    CliRun diff = cli("domains --from-kernel-log " + console + " --diff --kernel-log " + console);
    EXPECT_EQ(diff.status, 0) << diff.out << diff.err;
    EXPECT_NE(diff.err.find("schedscope-cli: note: the log was printed by Linux 6.1.0-57-amd64 (its banner); the domains "
                            "were built for linux-6.1 (give --profile)\n"),
              std::string::npos)
        << diff.err;
}

// What loading set aside is said on stderr, one line each, naming the input; stdout is the
// same domains output as for any snapshot (hwloc's Altix XE320 dump: eight nodes list CPUs 0-7).
TEST(Cli, TopologyWarningsGoToStderrAndTheDomainsStillPrint) {
    const std::string dir = schedscope::test::extractFixture("topologies/sysfs/8em64t-2s2ca2c-buggynuma.tar.bz2");
    const std::string root = dir + "/8em64t-2s2ca2c-buggynuma";
    CliRun r = cli("domains --sysfs-root " + root);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(lines(r.err), 2) << r.err;
    EXPECT_NE(r.err.find("schedscope-cli: warning: --sysfs-root " + root + ": node1, node2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not a valid SLIT entry"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("warning"), std::string::npos);
    // both packages in node 0, the one node with CPUs: PKG spans it
    EXPECT_NE(r.out.find("PKG span=0-7"), std::string::npos) << r.out.substr(0, 400);
    CliRun t = cli("topology --sysfs-root " + root);
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_NE(t.out.find(": 8 CPUs, 2 package(s), 8 NUMA node(s) (7 without CPUs), Intel(R) Xeon(R) CPU"), std::string::npos)
        << t.out.substr(0, 300);
}

// hwloc-gather-topology's tarball straight in, as hwloc's own tools take it (2 x Opteron
// 6272 dump, <machine>/fsroot/sys inside)
TEST(Cli, ASysfsSnapshotArchiveIsReadDirectly) {
    const std::string archive = schedscope::test::dataPath("topologies/sysfs/64amd64-4p2n4ca2co.tar.bz2");
    CliRun r = cli("topology --sysfs-root " + archive);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("64amd64-4p2n4ca2co (sysfs snapshot " + archive + ", x86_64): 64 CPUs", 0), 0u) << r.out.substr(0, 200);
    CliRun bad = cli("domains --sysfs-root " + schedscope::test::dataPath("traces/mixed-v7.dat") + ".tar");
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(lines(bad.err), 1) << bad.err;
    EXPECT_NE(bad.err.find("mixed-v7.dat.tar: no such file"), std::string::npos) << bad.err;
}

TEST(Cli, DomainsJsonSchema) {
    CliRun r = cli("domains --preset kunpeng920-24 --json --profile linux-6.1");
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["profile"], "linux-6.1");
    ASSERT_EQ(j["cpus"].size(), 96u);
    const auto& d0 = j["cpus"][0]["domains"][0];
    EXPECT_EQ(j["cpus"][0]["cpu"], 0);
    EXPECT_EQ(d0["level"], "CLS");
    EXPECT_EQ(d0["span"], "0-3");
    EXPECT_EQ(d0["groups"].size(), 4u);
    EXPECT_NE(std::find(d0["flags"].begin(), d0["flags"].end(), "SD_SHARE_PKG_RESOURCES"), d0["flags"].end());
}

// A Granite Rapids with SNC-3 (the SLIT "sched/topology: Fix sched domain build error for GNR,
// CWF in SNC-3 mode" quotes, on a small constructed layout): up to 6.18 the build is broken and
// the output says so as sched_verbose would, since 7.0 the remote package is one group.
TEST(Cli, DomainsSayWhereTheKernelsOwnBuildIsBroken) {
    const std::string xml = schedscope::test::dataPath("topologies/constructed/gnr-snc3-2s.xml");
    CliRun old = cli("domains --xml " + xml + " --profile linux-6.18 --cpu 0");
    ASSERT_EQ(old.status, 0) << old.err;
    EXPECT_NE(old.out.find("error: cpu0 domain-6: groups do not cover the span\n"), std::string::npos) << old.out;
    EXPECT_NE(old.out.find("NUMA span=0-47 groups=1 [{0-31,40-47}]"), std::string::npos) << old.out;
    CliRun fixed = cli("domains --xml " + xml + " --profile linux-7.0 --cpu 0");
    ASSERT_EQ(fixed.status, 0) << fixed.err;
    EXPECT_EQ(fixed.out.find("error:"), std::string::npos) << fixed.out;
    EXPECT_NE(fixed.out.find("note: Fixing up SNC SLIT table"), std::string::npos) << fixed.out;
    EXPECT_EQ(fixed.out.find("warning:"), std::string::npos) << fixed.out;
    EXPECT_NE(fixed.out.find("NUMA span=0-47 groups=2 [{0-23} {24-47}]"), std::string::npos) << fixed.out;
    CliRun log = cli("domains --xml " + xml + " --profile linux-6.18 --format kernel");
    ASSERT_EQ(log.status, 0) << log.err;
    EXPECT_NE(log.out.find("level=NUMA\n        groups: 0:{ span=0-31,40-47 mask=0-7 cap=40960 }\nERROR: groups don't span domain->span\n"),
              std::string::npos)
        << log.out.substr(0, 1500);
    CliRun json = cli("domains --xml " + xml + " --profile linux-6.18 --json");
    ASSERT_EQ(json.status, 0) << json.err;
    EXPECT_FALSE(nlohmann::json::parse(json.out)["problems"].empty());
}

// A real SNC2 Cascade Lake, whose L3 spans both of a package's nodes: the text nests the nodes
// in the LLC, not the package-wide LLC under each node.
TEST(Cli, TopologyTextNestsSubNumaNodesInTheirLlc) {
    CliRun r = cli("topology --sysfs-root " + schedscope::test::dataPath("topologies/sysfs/memorysidecaches.tar.bz2"));
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line, previous;
    int llcs = 0, nodes = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("    LLC (cpus ", 0) == 0) ++llcs;
        if (line.rfind("      NUMANode ", 0) == 0) ++nodes;
        EXPECT_EQ(line.rfind("    NUMANode ", 0), std::string::npos) << line;
    }
    EXPECT_EQ(llcs, 2) << r.out.substr(0, 600);
    EXPECT_EQ(nodes, 4) << r.out.substr(0, 600);
}

// This machine's domains are its own kernel's (a 6.1 kernel builds DIE, no CLS on a hybrid CPU);
// a file's domains follow the newest profile; --profile overrides both.
TEST(Cli, ThisMachinesDomainsFollowItsRunningKernelUnlessAProfileIsGiven) {
    struct utsname u {};
    ASSERT_EQ(uname(&u), 0);
    const schedscope::KernelProfile* running = schedscope::profileForKernelRelease(u.release);
    const std::string expected = running ? running->name : schedscope::defaultProfile().name;
    auto profileOf = [](const std::string& args) {
        CliRun r = cli(args);
        EXPECT_EQ(r.status, 0) << args << ": " << r.err;
        return r.status == 0 ? nlohmann::json::parse(r.out)["profile"].get<std::string>() : std::string();
    };
    EXPECT_EQ(profileOf("domains --local --json"), expected) << u.release;
    EXPECT_EQ(profileOf("domains --local --json --profile linux-5.15"), "linux-5.15");
    EXPECT_EQ(profileOf("domains --preset kunpeng920-24 --json"), schedscope::defaultProfile().name);
    // and a simulation of this machine runs under the kernel whose domains `domains` shows
    auto simulatedUnder = [](const std::string& args) {
        CliRun r = cli("simulate --workload sysbench-cpu:threads=2 --duration 0.01 --json " + args);
        EXPECT_EQ(r.status, 0) << args << ": " << r.err;
        return r.status == 0 ? nlohmann::json::parse(r.out)["config"]["profile"].get<std::string>() : std::string();
    };
    EXPECT_EQ(simulatedUnder("--local"), expected) << u.release;
    EXPECT_EQ(simulatedUnder("--local --profile linux-5.15"), "linux-5.15");
    EXPECT_EQ(simulatedUnder("--preset kunpeng920-24"), schedscope::defaultProfile().name);
}

// A trace that does not name its kernel (ftrace text has no uname), read against this machine,
// is classified with the running kernel's domains, as `domains --local` and the window build
// them; against any other machine with the newest, and a trace that names its kernel with its own.
TEST(Cli, ATraceWithoutItsKernelReadWithLocalFollowsTheRunningKernel) {
    struct utsname u {};
    ASSERT_EQ(uname(&u), 0);
    const schedscope::KernelProfile* running = schedscope::profileForKernelRelease(u.release);
    const std::string expected = running ? running->name : schedscope::defaultProfile().name;
    const std::string text = schedscope::test::dataPath("traces/tracefs-trace.txt");
    auto profileOf = [](const std::string& args) {
        CliRun r = cli(args);
        EXPECT_EQ(r.status, 0) << args << ": " << r.err;
        return r.status == 0 ? nlohmann::json::parse(r.out)["profile"].get<std::string>() : std::string();
    };
    EXPECT_EQ(profileOf("trace stats '" + text + "' --local --json"), expected) << u.release;
    EXPECT_EQ(profileOf("trace stats '" + text + "' --synthetic 'core:2 pu:1' --json"), schedscope::defaultProfile().name);
    EXPECT_EQ(profileOf("trace stats '" + text + "' --local --profile linux-5.15 --json"), "linux-5.15");
    // the 6.12 QEMU trace names its kernel: that wins over the running one
    const std::string named = schedscope::test::dataPath("traces/qemu/x86-2s4n4c2t-linux-6.12.dat");
    EXPECT_TRUE(profileOf("trace stats '" + named + "' --synthetic 'pack:2 core:8 pu:1' --json").starts_with("linux-6.12"));
    // replay says which it took
    if (running) {
        CliRun r = cli("replay '" + text + "' --local");
        EXPECT_NE(r.out.find("recorded kernel profile: " + expected + ", this machine's running kernel's"), std::string::npos)
            << r.status << " " << r.err << r.out.substr(0, 2000);
    }
}

TEST(Cli, NoClsAndNoNodeToggles) {
    CliRun on = cli("domains --preset epyc7601-2s --json");
    CliRun off = cli("domains --preset epyc7601-2s --json --no-node");
    ASSERT_EQ(on.status, 0);
    ASSERT_EQ(off.status, 0);
    auto levels = [](const std::string& out) {
        std::vector<std::string> v;
        auto j = nlohmann::json::parse(out);
        for (const auto& d : j["cpus"][0]["domains"]) v.push_back(d["level"]);
        return v;
    };
    EXPECT_EQ(levels(on.out), (std::vector<std::string>{"SMT", "MC", "NODE", "NUMA", "NUMA"}));
    EXPECT_EQ(levels(off.out), (std::vector<std::string>{"SMT", "MC", "NUMA", "NUMA"}));
}

TEST(Cli, TopologyListAndJson) {
    CliRun list = cli("topology --list");
    ASSERT_EQ(list.status, 0);
    EXPECT_NE(list.out.find("kunpeng920-24"), std::string::npos);
    EXPECT_NE(list.out.find("epyc7601-2s"), std::string::npos);
    CliRun t = cli("topology --synthetic 'pack:2 numa:2 l3:2 core:4 pu:2' --json");
    ASSERT_EQ(t.status, 0) << t.err;
    auto j = nlohmann::json::parse(t.out);
    EXPECT_EQ(j["online_cpus"], "0-63");
    EXPECT_EQ(j["nodes"].size(), 4u);
}

// The header says what the kernel builds: a 5.15 kernel has no CLS level, whatever --cls says.
TEST(Cli, TheHeaderSaysWhichLevelsTheProfileBuilds) {
    CliRun old = cli("domains --preset kunpeng920-24 --profile linux-5.15 --cpu 0");
    ASSERT_EQ(old.status, 0) << old.err;
    EXPECT_EQ(old.out.substr(0, old.out.find('\n')), "profile linux-5.15, arch arm64, CLS off, NODE on");
    CliRun now = cli("domains --preset kunpeng920-24 --cpu 0");
    ASSERT_EQ(now.status, 0) << now.err;
    EXPECT_EQ(now.out.substr(0, now.out.find('\n')), "profile linux-7.1, arch arm64, CLS on, NODE on");
    // powerpc kernels have no SCHED_CLUSTER: the same clusters build no CLS level
    CliRun ppc = cli("domains --preset kunpeng920-24 --arch ppc64 --cpu 0");
    ASSERT_EQ(ppc.status, 0) << ppc.err;
    EXPECT_EQ(ppc.out.substr(0, ppc.out.find('\n')), "profile linux-7.1, arch ppc64, CLS off, NODE on");
}

TEST(Cli, BadInputsGiveOneLineErrorsAndExitTwo) {
    struct Case {
        std::string args, mustMention;
    };
    std::string scratch = SCHEDSCOPE_TEST_SCRATCH;
    ASSERT_EQ(0, std::system(("mkdir -p " + scratch + " && printf '<topology version=\"2.0\"><object' > " + scratch + "/broken.xml").c_str()));
    for (const Case& c : std::vector<Case>{
             {"domains --preset nope", "unknown preset 'nope'"},
             {"domains --xml /nonexistent/file.xml", "/nonexistent/file.xml"},
             {"domains --xml " + scratch + "/broken.xml", "broken.xml"},
             {"topology --synthetic 'pack:100 core:1000 pu:1'", "100000 CPUs"},
             {"domains --sysfs-root /nonexistent", "/nonexistent"},
             {"domains --preset kunpeng920-24 --profile linux-9.9", "unknown kernel profile"},
             {"domains --preset kunpeng920-24 --format yaml", "--format"},
             {"domains --preset kunpeng920-24 --json --format text", "--json and --format text ask for two formats"},
             {"domains --preset kunpeng920-24 --cpu ''", "--cpu '' names no CPU"},
             {"domains --bogus", "unknown option '--bogus'"},
             {"domains --preset", "needs a value"},
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --idle-exit-us -1", "--idle-exit-us"},
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --profile linux-6.1 --delay-dequeue on",
              "needs an EEVDF profile"},
             {"frobnicate", "unknown command"},
             // a word that is not an option is not ignored; a directory or .xml gets a hint
             {"topology " + scratch + "/broken.xml", "unexpected argument '" + scratch + "/broken.xml' (a topology? --xml"},
             {"domains --preset kunpeng920-24 " + scratch, "(a sysfs snapshot? --sysfs-root " + scratch + ")"},
             {"trace frobnicate", "trace: unknown subcommand 'frobnicate' (trace stats, trace groups)"},
             {"bench", "bench: a subcommand is missing (bench load, bench sim)"},
             // two workloads run together: the second's count would silently win
             {"simulate --preset kunpeng920-24 --workload stream:threads=4:threads=2", "threads= is given twice"},
             // a comparison of a level the profile's kernel never builds
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --profile linux-5.15 --compare cls",
              "linux-5.15 has no CLS level (5.16+): both runs would be the same"},
             {"simulate --preset kunpeng920-24 --arch ppc64 --workload stream:threads=4 --compare cls",
              "ppc64 kernels build no CLS level"},
             // ... or one this machine's domains never hold: no cluster on a Skylake Xeon, no node of several LLCs on a Kunpeng
             {"simulate --preset xeon6140-2s --workload stream:threads=4 --compare cls",
              "--compare cls: xeon6140-2s has no CLS domain of its own (no cluster wider than a core and narrower than its "
              "LLC): both runs would be the same"},
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --compare node", "kunpeng920-24 has no NODE domain of its own"},
             // a POWER8 export with 16 of 106 CPU ids: the error names the CPUs there are
             {"simulate --xml " + schedscope::test::dataPath("topologies/xml/power8gpudistances.xml") +
                  " --workload sysbench-cpu:threads=2,cpus=2-3",
              "its CPUs 2-3 are not online (the online CPUs are 0-1,8-9,16-17,24-25,80-81,88-89,96-97,104-105)"},
             {"simulate --synthetic \"core:4 pu:2\" --workload stream:threads=4 --compare numa-balancing",
              "--compare numa-balancing: the machine has one NUMA node: both runs would be the same"},
             // no task runs a scan delay in 0.5 s: with NUMA balancing or without, the same run
             {"simulate --preset kunpeng920-32 --workload mcf:copies=32 --duration 0.5 --compare numa-balancing",
              "--compare numa-balancing: a run of 0.5 s ends before any task has run NUMA balancing's scan delay (1 s "
              "of CPU time, when a task gets its preferred node and its memory may follow it): both runs would be the "
              "same (--duration)"},
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --compare numa",
              "--compare must be cls, node, delay-dequeue, ni-random, wake-wide, util-est, run-to-parity, numa-balancing, task-groups or bandwidth, "
              "not 'numa'"},
             {"domains --preset kunpeng920-24 --arch sparc", "unknown architecture 'sparc' (expected x86_64, arm64, ppc64, s390x or generic)"},
             {"trace stats x.dat --bin 1e11", "--bin"},
             {"record -o " + scratch + "/never.dat --duration -1", "--duration"},
             // the one-letter option is spelled as it is typed, not "--o"
             {"record -o", "record: option '-o' needs a value"},
             {"live --duration 0", "--duration"},
             // a ring buffer smaller than a page, or for a capture that has none
             {"record -o " + scratch + "/never.dat --buffer-kb 2", "record: option '--buffer-kb': 2 is outside 4..1048576"},
             {"live --buffer-kb lots", "live: option '--buffer-kb': 'lots' is not an integer"},
             {"live --source bpf --buffer-kb 64", "live: --buffer-kb sizes the ring buffers of the tracefs capture: it needs --source tracefs"},
             {"bench sim --duration 0", "bench sim: --duration"},
             {"domains --sysfs-root /nonexistent", "/nonexistent: does not exist"},
             // --seeds and --jobs belong to --compare: one run would quietly ignore them
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --seeds 3",
              "--seeds is for --compare (its runs per side); one run takes --seed N"},
             {"simulate --preset kunpeng920-24 --workload stream:threads=4 --jobs 2", "--jobs is for --compare"},
             // from_chars reads nan and inf: neither is a window edge or a pid
             {"replay " + schedscope::test::dataPath("traces/replay/pingpong.dat") + " --window nan:1",
              "--window: 'nan' is not a number"},
             {"replay " + schedscope::test::dataPath("traces/replay/pingpong.dat") + " --pid inf", "--pid: 'inf' is not a pid"},
             {"replay " + schedscope::test::dataPath("traces/replay/pingpong.dat") + " --pid 1e20", "--pid: '1e20' is not a pid"},
         }) {
        CliRun r = cli(c.args);
        EXPECT_EQ(r.status, 2) << c.args;
        EXPECT_NE(r.err.find(c.mustMention), std::string::npos) << c.args << " -> " << r.err;
        EXPECT_GE(lines(r.err), 1) << c.args;
        EXPECT_TRUE(r.out.empty()) << c.args;
        if (c.args != "frobnicate") {
            EXPECT_EQ(lines(r.err), 1) << c.args << " -> " << r.err;
        }
    }
}

// --diff exits 1 when the domains differ, so a kernel whose domains cannot be read is 2 (as
// diff(1) says trouble), not a difference a script would report.
TEST(Cli, DiffWithTheKernelsDomainsUnreadableExitsTwo) {
    CliRun r = cli("domains --local --diff");
    if (r.err.find("not readable") == std::string::npos) {
        std::printf("[  SKIPPED ] the running kernel's domains are readable here (status %d)\n", r.status);
        GTEST_SKIP() << "the running kernel's domains are readable here";
    }
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(cli("domains --kernel").status, 1) << "without --diff it stays a runtime failure";
}

// A lesson is named by its id, the name after its number, or its number alone.
TEST(Cli, ALessonIsFoundByItsNumberToo) {
    const std::string whole = cli("lesson 06-reading-a-trace --json").out;
    ASSERT_FALSE(whole.empty());
    for (const char* name : {"06", "6", "reading-a-trace"}) {
        CliRun r = cli(std::string("lesson ") + name + " --json");
        EXPECT_EQ(r.status, 0) << name << ": " << r.err;
        EXPECT_EQ(r.out, whole) << name;
    }
    CliRun none = cli("lesson 99 --json");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("unknown lesson '99'"), std::string::npos) << none.err;
}

TEST(Cli, LessonsListShowAndRun) {
    CliRun list = cli("lesson --list");
    ASSERT_EQ(list.status, 0) << list.err;
    for (const char* id : {"01-what-is-a-sched-domain", "02-cluster-scheduling", "03-cluster-first-wakeup",
                           "04-node-level-on-naples", "05-wake-wide", "06-reading-a-trace",
                           "07-what-if-on-a-recorded-trace", "08-delayed-dequeue", "09-newidle-balance", "12-cache-hungry-work"})
        EXPECT_NE(list.out.find(id), std::string::npos) << id;
    // Every lesson parses, and every step names a real command with valid options.
    auto ids = nlohmann::json::parse(schedscope::test::readFile(std::string(SCHEDSCOPE_RESOURCES) + "/lessons/index.json"));
    // --list --json gives them as JSON (it printed the text list); the text list's summaries
    // start in one column, past the longest id
    const auto listed = nlohmann::json::parse(cli("lesson --list --json").out, nullptr, false);
    ASSERT_TRUE(listed.is_array());
    ASSERT_EQ(listed.size(), ids.size());
    for (const auto& l : listed) EXPECT_FALSE(l.value("summary", "").empty()) << l.dump();
    EXPECT_NE(list.out.find("07-what-if-on-a-recorded-trace  The bundled"), std::string::npos) << list.out;
    for (const auto& id : ids) {
        CliRun j = cli("lesson " + id.get<std::string>() + " --json");
        ASSERT_EQ(j.status, 0) << id << ": " << j.err;
        auto lesson = nlohmann::json::parse(j.out);
        EXPECT_FALSE(lesson["title"].get<std::string>().empty());
        EXPECT_GE(lesson["steps"].size(), 1u) << id;
        for (const auto& step : lesson["steps"]) {
            std::string words;
            for (const auto& w : step["run"]) words += " '" + w.get<std::string>() + "'";
            CliRun help = cli(words + " --help");
            EXPECT_EQ(help.status, 0) << id << ": step names no command:" << words;
        }
    }
    // Lesson 1 runs headless end to end and shows the kernel's own view of CPU 0.
    CliRun run = cli("lesson what-is-a-sched-domain");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("# What a sched domain is"), std::string::npos);
    EXPECT_NE(run.out.find("CPU0 attaching sched-domain(s):"), std::string::npos);
    EXPECT_NE(run.out.find("NODE span=0-7,64-71"), std::string::npos);
    CliRun bad = cli("lesson no-such-lesson");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("unknown lesson 'no-such-lesson'"), std::string::npos);
}

// Lesson 11 end to end: the bundled kernel log, the 5.6 build identical to it, and a last step
// whose diff exits 1 on purpose, which the lesson says in its JSON and does not count as failed.
TEST(Cli, TheKernelLogLessonRunsWithItsMeantDifference) {
    CliRun run = cli("lesson a-real-kernels-log");
    EXPECT_EQ(run.status, 0) << run.err;
    // the log as posted holds CPU 0 alone: both diffs say the other CPUs were not compared
    const std::string notCompared = "schedscope-cli: note: not compared: cpus 1-95, which the log printed no domains for "
                                    "(a log cut short, or cut to some CPUs)\n";
    EXPECT_EQ(run.err, notCompared + notCompared);
    EXPECT_NE(run.out.find("warning: cpu0 domain-2: the kernel said ERROR: groups don't span domain->span"), std::string::npos);
    EXPECT_NE(run.out.find("identical on the CPUs the log printed: cpus 1-95 were not compared"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("cpu0 domain-2 NUMA groups: built {0-47} {48-71}, kernel {0-47} {48-95}"), std::string::npos);
    auto lesson = nlohmann::json::parse(cli("lesson a-real-kernels-log --json").out);
    EXPECT_EQ(lesson["steps"][3]["exit"], 1);
    EXPECT_FALSE(lesson["steps"][2].contains("exit"));
}

TEST(Cli, ReadingATraceLessonUsesTheBundledSample) {
    CliRun run = cli("lesson reading-a-trace");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("sched_switch"), std::string::npos) << run.out.substr(0, 2000);
}

// --compare: runs whose tasks had not finished have no completion time; they are counted, not
// averaged in as a number. The placement spread (busy clusters) shows what CLS changes.
TEST(Cli, CompareLeavesUnfinishedRunsOutAndShowsTheSpread) {
    const std::string spec = "simulate --preset kunpeng920-24 --workload stream:threads=4,cpus=0-23 --compare cls --seeds 2 --duration 0.3";
    CliRun text = cli(spec);
    ASSERT_EQ(text.status, 0) << text.err;
    const auto line = text.out.find("completion_s");
    ASSERT_NE(line, std::string::npos) << text.out;
    const std::string completion = text.out.substr(line, text.out.find('\n', line) - line);
    EXPECT_NE(completion.find("not finished"), std::string::npos) << completion;
    EXPECT_NE(completion.find("(finished: off 0 of 2, on 0 of 2)"), std::string::npos) << completion;
    EXPECT_EQ(completion.find("-1.0"), std::string::npos) << completion;

    const auto j = cliJson(spec + " --json");
    ASSERT_FALSE(j.is_discarded());
    EXPECT_TRUE(j["metrics"]["completion_s"]["off"]["mean"].is_null());
    EXPECT_EQ(j["metrics"]["completion_s"]["on"]["n"].get<int>(), 0);
    EXPECT_GT(j["metrics"]["busy_clusters"]["on"]["mean"].get<double>(), j["metrics"]["busy_clusters"]["off"]["mean"].get<double>() + 2);

    const auto d = cliJson("simulate --preset kunpeng920-24 --workload kernbench:jobs=8,cpus=0-23,work=0.05 --compare cls --seeds 2 --json");
    ASSERT_FALSE(d.is_discarded());
    EXPECT_EQ(d["metrics"]["completion_s"]["off"]["n"].get<int>(), 2);
    EXPECT_GT(d["metrics"]["completion_s"]["off"]["mean"].get<double>(), 0.04);
}

// --compare runs its seeds on several threads; each run keeps its slot, so the figures are the
// same with one worker or several (and as the runs one after another gave them).
TEST(Cli, CompareGivesTheSameFiguresWhateverTheWorkers) {
    const std::string spec = "simulate --preset epyc7601-2s --workload hackbench:groups=2 --duration 0.02 --compare node --seeds 3 --json";
    CliRun one = cli(spec + " --jobs 1");
    CliRun three = cli(spec + " --jobs 3");
    ASSERT_EQ(one.status, 0) << one.err;
    ASSERT_EQ(three.status, 0) << three.err;
    EXPECT_EQ(one.out, three.out);
    const auto j = nlohmann::json::parse(one.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << one.out;
    EXPECT_EQ(j["metrics"]["throughput"]["off"]["n"].get<int>(), 3);
    EXPECT_GT(j["metrics"]["throughput"]["off"]["sd"].get<double>(), 0) << "three seeds, three different runs";
    CliRun bad = cli(spec + " --jobs -1");
    EXPECT_EQ(bad.status, 2) << bad.out;
    EXPECT_NE(bad.err.find("--jobs"), std::string::npos) << bad.err;
}

// bench sim prints its figures; --jobs N adds N runs at once (the machine's scaling). The
// figures are timings and not asserted; the run itself is: same events as the simulation gives.
TEST(Cli, BenchSimPrintsEventsPerSecondAndTheParallelFigure) {
    const auto j = cliJson("bench sim --duration 0.2 --jobs 2 --json");
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["cpus"].get<int>(), 128);
    EXPECT_EQ(j["tasks"].get<int>(), 256);
    EXPECT_GT(j["events"].get<long long>(), 10000);
    EXPECT_GT(j["events_per_s"].get<double>(), 0);
    EXPECT_EQ(j["parallel"]["runs"].get<int>(), 2);
    EXPECT_GT(j["parallel"]["events_per_s"].get<double>(), 0);
    CliRun text = cli("bench sim --duration 0.1");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("events/s"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("at once"), std::string::npos) << "one run unless --jobs asks for more";
}

// bench sim --workload times the run `simulate` makes with the same options: the same events,
// and the machine and workload named; a bad option is simulate's one-line error
TEST(Cli, BenchSimTimesTheRunSimulateMakes) {
    const std::string opts = " --preset kunpeng920-24 --workload pgbench:clients=8,cpus=0-23 --profile linux-6.1 --duration 0.2";
    const auto b = cliJson("bench sim" + opts + " --json");
    ASSERT_FALSE(b.is_discarded());
    const auto s = cliJson("simulate" + opts + " --json");
    ASSERT_FALSE(s.is_discarded());
    EXPECT_EQ(b["events"].get<long long>(), s["metrics"]["events"].get<long long>());
    EXPECT_GT(b["events"].get<long long>(), 1000);
    EXPECT_EQ(b["cpus"].get<int>(), 96);
    EXPECT_EQ(b["tasks"].get<int>(), 9);  // the driver and 8 backends
    EXPECT_EQ(b["topology"].get<std::string>(), "kunpeng920-24");
    EXPECT_EQ(b["workload"].get<std::string>(), "pgbench:clients=8,cpus=0-23");
    EXPECT_DOUBLE_EQ(b["simulated_s"].get<double>(), 0.2);
    CliRun text = cli("bench sim" + opts);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("pgbench:clients=8,cpus=0-23 on kunpeng920-24"), std::string::npos) << text.out;
    CliRun bad = cli("bench sim --preset kunpeng920-24 --workload nope:x=1");
    EXPECT_EQ(bad.status, 2) << bad.out;
    EXPECT_NE(bad.err.find("unknown workload 'nope'"), std::string::npos) << bad.err;
}

// --runs N times the same run N times: every run simulates the same events, and the best,
// median and worst rates come from the N wall times (best >= median >= worst).
TEST(Cli, BenchSimRunsRepeatsTheRunAndGivesBestMedianWorst) {
    const auto b = cliJson("bench sim --duration 0.05 --runs 3 --json");
    ASSERT_FALSE(b.is_discarded());
    const auto& r = b["repeats"];
    ASSERT_TRUE(r.is_object()) << b.dump();
    EXPECT_EQ(r["runs"].get<int>(), 3);
    ASSERT_EQ(r["wall_s"].size(), 3u);
    double fastest = 1e300;
    for (const auto& w : r["wall_s"]) fastest = std::min(fastest, w.get<double>());
    const double events = b["events"].get<double>();
    EXPECT_DOUBLE_EQ(r["events_per_s_best"].get<double>(), events / fastest);
    EXPECT_GE(r["events_per_s_best"].get<double>(), r["events_per_s_median"].get<double>());
    EXPECT_GE(r["events_per_s_median"].get<double>(), r["events_per_s_worst"].get<double>());
    EXPECT_TRUE(cliJson("bench sim --duration 0.05 --json")["repeats"].is_null());
    CliRun text = cli("bench sim --duration 0.05 --runs 2");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("2 runs   events/s best"), std::string::npos) << text.out;
    CliRun bad = cli("bench sim --runs 0");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--runs"), std::string::npos) << bad.err;
}

// 4.20-5.6 put SD_BALANCE_WAKE on an asymmetric-capacity machine's domains; a timer's wakeup
// still takes the fast path (want_affine holds where it fires, and the first SD_WAKE_AFFINE
// domain ends the walk): select_idle_sibling(), not find_idlest_group() over the whole DIE.
TEST(Cli, ATimerWakeupTakesTheFastPathUnderBalanceWake) {
    const std::string file = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/napper.json";
    ASSERT_EQ(0, std::system(("mkdir -p " + std::string(SCHEDSCOPE_TEST_SCRATCH) + " && printf '%s' '" +
                              R"({"tasks": [{"name": "napper", "script": [{"run_ms": 1}, {"sleep_ms": 1}, {"loop_to": 0}]}]})" +
                              "' > " + file)
                                 .c_str()));
    CliRun r = cli("simulate --sysfs-root " + schedscope::test::dataPath("topologies/sysfs/nvidia-dgx-gb10.tar.bz2") +
                   " --profile linux-5.6 --workload " + file + " --duration 0.01 --explain 5");
    ASSERT_EQ(r.status, 0) << r.err;
    int wakeups = 0;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        if (line.find(" wakeup ") == std::string::npos) continue;
        ++wakeups;
        EXPECT_NE(line.find("select_idle_sibling"), std::string::npos) << line;
    }
    EXPECT_GE(wakeups, 3) << r.out;
}

// A workload file whose two tasks each wait for the other's wakeup: the run says it stalled,
// when and who waits, where the metrics alone only showed "not finished".
// A task that wakes itself and waits loops at one instant: the run cannot go on, and the error
// names the workload file, as a load error does.
TEST(Cli, AScriptLoopingAtOneInstantNamesItsWorkloadFile) {
    const std::string file = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/self-wake.json";
    ASSERT_EQ(0, std::system(("mkdir -p " + std::string(SCHEDSCOPE_TEST_SCRATCH) + " && printf '%s' '" +
                              R"({"tasks": [{"name": "a", "script": [{"wake": "a"}, {"wait": true}, {"loop_to": 0}]}]})" +
                              "' > " + file)
                                 .c_str()));
    CliRun r = cli("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.05");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("workload " + file + ": simulation stuck at 0.000000 s: task 'a'"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Cli, AWorkloadWhoseTasksWaitForEachOtherSaysItStalled) {
    const std::string file = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/deadlock.json";
    ASSERT_EQ(0, std::system(("mkdir -p " + std::string(SCHEDSCOPE_TEST_SCRATCH) + " && printf '%s' '" +
                              R"({"name": "deadlock", "tasks": [{"name": "a", "script": [{"run_ns": 1e6}, {"wait": true}, {"wake": 1}]},)"
                              R"( {"name": "b", "script": [{"run_ns": 3e6}, {"wait": true}, {"wake": 0}]}]})" + "' > " + file)
                                 .c_str()));
    CliRun text = cli("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.05");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("not finished"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("stalled at 0.003000 s: 2 task(s) blocked in a Wait, a Barrier or a Take that no task left could end "
                            "(a, b)"),
              std::string::npos)
        << text.out;
    CliRun json = cli("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.05 --json");
    ASSERT_EQ(json.status, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_DOUBLE_EQ(j["metrics"]["stalled"]["at_s"].get<double>(), 0.003);
    // --compare says so too, per side (its table alone read as two slow runs)
    CliRun compare = cli("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.05 --compare cls --seeds 2");
    ASSERT_EQ(compare.status, 0) << compare.err;
    for (const char* side : {"off", "on"})
        EXPECT_NE(compare.out.find(std::string(side) + ": 2 of 2 runs stalled; seed 1: stalled at 0.003000 s: 2 task(s)"),
                  std::string::npos)
            << compare.out;
    const auto cj = nlohmann::json::parse(
        cli("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.05 --compare cls --seeds 2 --json").out);
    EXPECT_EQ(cj["stalled"]["on"]["runs"].get<int>(), 2);
    // a generator workload that runs for its duration did not stall
    CliRun hackbench = cli("simulate --preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.1 --json");
    ASSERT_EQ(hackbench.status, 0) << hackbench.err;
    EXPECT_TRUE(nlohmann::json::parse(hackbench.out)["metrics"]["stalled"].is_null());
    const auto hj = nlohmann::json::parse(
        cli("simulate --preset kunpeng920-24 --workload hackbench:groups=1 --duration 0.05 --compare cls --seeds 2 --json").out);
    EXPECT_EQ(hj["stalled"]["off"]["runs"].get<int>(), 0);
    EXPECT_TRUE(hj["stalled"]["off"]["first"].is_null());
}

// simulate's JSON for hackbench:groups=2 on a Kunpeng 920 for 0.1 s, with `extra` options
nlohmann::json hackbench01sJson(const std::string& extra) {
    return cliJson("simulate --preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.1 --json" + extra);
}

// DELAY_DEQUEUE is the 6.12 profile's and can be turned off (or on for 6.6), as the kernel's
// sched_features knob does: hackbench's wakers find many wakees still queued where they slept.
// The shared caches a run models, from the preset's hwloc cache sizes: the text says them, the
// JSON config has them, and `topology` shows the LLC's size
TEST(Cli, TheCachesARunModelsAreShown) {
    CliRun text = cli("simulate --preset kunpeng920-24 --workload pbzip2:threads=6,cpus=0-23 --duration 0.05");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("  contention: node 56 GB/s, cluster 46 GB/s; caches: cluster 4 MB, LLC 24 MB; SMT x1.6; "
                            "hand-off 120/240/480 ns/KB (Kunpeng 920"),
              std::string::npos)
        << text.out;
    CliRun json = cli("simulate --preset epyc7601-2s --workload pbzip2:threads=6 --duration 0.05 --json");
    ASSERT_EQ(json.status, 0) << json.err;
    const auto config = nlohmann::json::parse(json.out)["config"]["contention"];
    EXPECT_DOUBLE_EQ(config["llc_cache_mb"].get<double>(), 8.0) << config.dump();
    EXPECT_DOUBLE_EQ(config["cluster_cache_mb"].get<double>(), 0.0) << config.dump();
    CliRun topo = cli("topology --preset kunpeng920-24");
    ASSERT_EQ(topo.status, 0) << topo.err;
    EXPECT_NE(topo.out.find("      LLC (cpus 0-23, L3 24 MB)\n"), std::string::npos) << topo.out;
}

TEST(Cli, DelayDequeueIsAWhatIf) {
    const auto run = hackbench01sJson;
    const auto deflt = run(""), off = run(" --delay-dequeue off"), on66 = run(" --profile linux-6.6 --delay-dequeue on");
    ASSERT_FALSE(deflt.is_discarded() || off.is_discarded() || on66.is_discarded());
    EXPECT_TRUE(deflt["config"]["delay_dequeue"].get<bool>());
    EXPECT_FALSE(off["config"]["delay_dequeue"].get<bool>());
    EXPECT_TRUE(on66["config"]["delay_dequeue"].get<bool>());
    const auto wakeups = [](const nlohmann::json& j) { return j["metrics"]["migrations_by_cause"]["wakeup"].get<long long>(); };
    EXPECT_LT(wakeups(deflt), wakeups(off) * 9 / 10) << "woken in place: fewer wakeup migrations";
    EXPECT_NE(deflt["metrics"]["throughput"], off["metrics"]["throughput"]);

    const auto c = cliJson("simulate --preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.1 --compare delay-dequeue "
                           "--seeds 2 --json");
    ASSERT_FALSE(c.is_discarded());
    EXPECT_EQ(c["compare"], "delay-dequeue");
    EXPECT_LT(c["metrics"]["migrations"]["on"]["mean"].get<double>(), c["metrics"]["migrations"]["off"]["mean"].get<double>());
    CliRun cfs = cli("simulate --preset kunpeng920-24 --workload hackbench:groups=2 --profile linux-6.1 --compare delay-dequeue");
    EXPECT_EQ(cfs.status, 2);
    EXPECT_NE(cfs.err.find("needs an EEVDF profile"), std::string::npos) << cfs.err;
}

// NI_RANDOM is the 6.19 profile's knob: off, every newidle visit of a domain runs a pass; on (also
// under linux-6.12, as 6.12.65 has it), passes at domains that rarely pull are skipped.
TEST(Cli, NiRandomIsAWhatIf) {
    const auto run = hackbench01sJson;
    const auto deflt = run(""), off = run(" --ni-random off"), on612 = run(" --profile linux-6.12 --ni-random on");
    ASSERT_FALSE(deflt.is_discarded() || off.is_discarded() || on612.is_discarded());
    EXPECT_TRUE(deflt["config"]["newidle_random"].get<bool>());
    EXPECT_FALSE(off["config"]["newidle_random"].get<bool>());
    EXPECT_TRUE(on612["config"]["newidle_random"].get<bool>());
    EXPECT_TRUE(on612["config"]["delay_dequeue"].get<bool>()) << "the profile's other knobs stay";
    EXPECT_EQ(off["metrics"]["newidle_balance"]["skipped"], 0);
    EXPECT_GT(deflt["metrics"]["newidle_balance"]["skipped"].get<long long>(), 0);
    EXPECT_GT(on612["metrics"]["newidle_balance"]["skipped"].get<long long>(), 0);

    const auto c = cliJson("simulate --preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.1 --compare ni-random "
                           "--seeds 2 --json");
    ASSERT_FALSE(c.is_discarded());
    EXPECT_EQ(c["compare"], "ni-random");
    EXPECT_LT(c["metrics"]["newidle_passes"]["on"]["mean"].get<double>(),
              c["metrics"]["newidle_passes"]["off"]["mean"].get<double>() * 0.75);
    CliRun bad = cli("simulate --preset kunpeng920-24 --workload hackbench:groups=2 --ni-random maybe");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("ni-random"), std::string::npos) << bad.err;
}

// A sched_features knob modelled but off unless a what-if sets it, as every such option is
// plumbed: `simulate ... --OPTION on` names it in its header and JSON config, --compare OPTION
// runs both sides, replay's what-if takes it while the baseline runs as the recording's kernel
// would, and a profile without the feature refuses it in one line. Returns --compare's JSON.
struct KnobWhatIf {
    std::string option;          // "util-est"
    std::string configKey;       // "util_est"
    std::string header;          // what simulate's header says with it on: "NODE on, UTIL_EST on, seed 1"
    std::string simulate;        // a short run's machine, profile and workload
    std::string compare;         // the run --compare OPTION is given
    std::string replay;          // a recording under traces/ and the what-if's machine
    std::string refusedProfile;  // a profile without the feature
    std::string refusal;         // what its error says
};
nlohmann::json expectKnobIsAWhatIf(const KnobWhatIf& k) {
    const CliRun text = cli("simulate " + k.simulate + " --" + k.option + " on");
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find(k.header), std::string::npos) << text.out;
    auto c = cliJson("simulate " + k.compare + " --compare " + k.option + " --seeds 2 --json");
    EXPECT_FALSE(c.is_discarded());
    if (c.is_discarded()) return c;
    EXPECT_EQ(c["compare"], k.option);
    const auto r = cliJson("replay " + schedscope::test::dataPath("traces/" + k.replay) + " --baseline --" + k.option + " on --json");
    EXPECT_FALSE(r.is_discarded());
    if (!r.is_discarded()) {
        EXPECT_TRUE(r["whatif"]["config"][k.configKey].get<bool>());
        EXPECT_FALSE(r["baseline"]["config"][k.configKey].get<bool>());
    }
    const CliRun refused = cli("simulate " + k.simulate + " --profile " + k.refusedProfile + " --" + k.option + " on");
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("--" + k.option + " on: " + k.refusal), std::string::npos) << refused.err;
    return c;
}

// UTIL_EST: on, hackbench's CPUs read as busy as their tasks' last bursts, the LLC's SIS_UTIL
// scan gets shorter and fewer wakeups move a task.
TEST(Cli, UtilEstIsAWhatIf) {
    const auto run = hackbench01sJson;
    const auto deflt = run(""), on = run(" --util-est on");
    ASSERT_FALSE(deflt.is_discarded() || on.is_discarded());
    EXPECT_FALSE(deflt["config"]["util_est"].get<bool>());
    EXPECT_TRUE(on["config"]["util_est"].get<bool>());
    EXPECT_NE(deflt["metrics"]["migrations_by_cause"]["wakeup"], on["metrics"]["migrations_by_cause"]["wakeup"]);
    const auto c = expectKnobIsAWhatIf({"util-est", "util_est", "NODE on, UTIL_EST on, seed 1",
                                        "--preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.1",
                                        "--preset kunpeng920-24 --workload hackbench:groups=4 --duration 0.2",
                                        "replay/hackbench.dat --preset kunpeng920-24", "linux-4.14",
                                        "UTIL_EST needs linux-4.17 or later, not linux-4.14"});
    ASSERT_FALSE(c.is_discarded());
    EXPECT_LT(c["metrics"]["migrations"]["on"]["mean"].get<double>(), c["metrics"]["migrations"]["off"]["mean"].get<double>() * 0.8);
}

// RUN_TO_PARITY (EEVDF profiles only): on, a wakee lets curr finish the slice it was picked
// with, so fewer of hackbench's wakeups preempt and fewer runqueue waits begin (each preempted
// task waits once more).
TEST(Cli, RunToParityIsAWhatIf) {
    const std::string hackbench = "--synthetic \"pu:4\" --profile linux-6.12 --workload hackbench:groups=1 --duration 0.2";
    const auto deflt = cliJson("simulate " + hackbench + " --json"), on = cliJson("simulate " + hackbench + " --run-to-parity on --json");
    ASSERT_FALSE(deflt.is_discarded() || on.is_discarded());
    EXPECT_FALSE(deflt["config"]["run_to_parity"].get<bool>());
    EXPECT_TRUE(on["config"]["run_to_parity"].get<bool>());
    EXPECT_LT(on["metrics"]["wait_latency_us"]["samples"].get<double>(), deflt["metrics"]["wait_latency_us"]["samples"].get<double>());
    expectKnobIsAWhatIf({"run-to-parity", "run_to_parity", "NODE on, RUN_TO_PARITY on, seed 1",
                         "--synthetic \"pu:4\" --workload hackbench:groups=1 --duration 0.1",
                         "--synthetic \"pu:4\" --profile linux-6.12 --workload hackbench:groups=1 --duration 0.1",
                         "replay/pingpong.dat", "linux-6.1",
                         "RUN_TO_PARITY needs an EEVDF profile (linux-6.6 or later), not linux-6.1"});
}

// wake_wide()'s factor is a what-if (seed 001): pgbench with TPC-B's row lock at 48 clients on
// one Kunpeng 920 node goes wide with the LLC's factor, far more often with the cluster's, never
// off; off, more wakeups are affine and move the wakee to its waker's side.
TEST(Cli, WakeWideFactorIsAWhatIf) {
    const std::string pg = "simulate --preset kunpeng920-24 --workload pgbench:clients=48,scale=1,cpus=0-23,handoff=16 "
                           "--duration 0.5 --json";
    const auto llc = cliJson(pg), cluster = cliJson(pg + " --wake-wide cluster"), off = cliJson(pg + " --wake-wide off");
    ASSERT_FALSE(llc.is_discarded() || cluster.is_discarded() || off.is_discarded());
    EXPECT_EQ(llc["config"]["wake_wide"], "llc");
    EXPECT_EQ(cluster["config"]["wake_wide"], "cluster");
    EXPECT_EQ(off["config"]["wake_wide"], "off");
    auto wakeupMigrations = [](const nlohmann::json& j) { return j["metrics"]["migrations_by_cause"]["wakeup"].get<long long>(); };
    EXPECT_LT(wakeupMigrations(cluster), wakeupMigrations(llc));
    EXPECT_LT(wakeupMigrations(llc), wakeupMigrations(off));
    EXPECT_GT(llc["metrics"]["handoff"]["count"].get<long long>(), 1000);

    const auto c = cliJson("simulate --preset kunpeng920-24 --workload pgbench:clients=48,scale=1,cpus=0-23,handoff=16 "
                           "--duration 0.3 --compare wake-wide --wake-wide cluster --seeds 2 --json");
    ASSERT_FALSE(c.is_discarded());
    EXPECT_EQ(c["compare"], "wake-wide");
    EXPECT_GT(c["metrics"]["migrations"]["off"]["mean"].get<double>(), c["metrics"]["migrations"]["on"]["mean"].get<double>() * 2)
        << "on is the cluster factor here";
    EXPECT_TRUE(c["metrics"].contains("handoff_ms"));
    // the text names the factor the "on" side ran with: the kernel's LLC size unless given
    for (const auto& [given, header] : {std::pair<std::string, std::string>{"", "wake-wide off vs llc, 1 seed"},
                                        {" --wake-wide cluster", "wake-wide off vs cluster, 1 seed"}}) {
        const CliRun text = cli("simulate --preset kunpeng920-24 --workload pgbench:clients=4 --duration 0.05 --compare wake-wide "
                                "--seeds 1" + given);
        EXPECT_EQ(text.status, 0) << text.err;
        EXPECT_NE(text.out.find("pgbench:clients=4: " + header), std::string::npos) << text.out;
    }
    CliRun bad = cli("simulate --preset kunpeng920-24 --workload pgbench:clients=4 --wake-wide node");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--wake-wide must be llc, cluster or off, not 'node'"), std::string::npos) << bad.err;
}

// --compare numa-balancing: numa_balancing=0 against 1 on a NUMA machine. mcf's copies the
// balancer moves off their memory's node come back (numa migrations, none without it) and do
// more work; a change from no migrations has no relative figure.
TEST(Cli, CompareNumaBalancingOffAndOn) {
    const auto c = cliJson("simulate --preset kunpeng920-32 --profile linux-6.1 --workload mcf:copies=32 --duration 5 "
                           "--compare numa-balancing --seeds 1 --json");
    ASSERT_FALSE(c.is_discarded());
    EXPECT_EQ(c["compare"], "numa-balancing");
    const auto& numa = c["metrics"]["numa_migrations"];
    EXPECT_EQ(numa["off"]["mean"].get<double>(), 0);
    EXPECT_GT(numa["on"]["mean"].get<double>(), 0);
    EXPECT_TRUE(numa["relative_pct"].is_null());
    EXPECT_GT(c["metrics"]["throughput"]["relative_pct"].get<double>(), 5.0);
}

// --compare task-groups: every task in one group against the workload's groups. cgroups.json's
// web workers get four fifths of CPUs 0-3 in their group of 1024 shares beside the batch jobs'
// 256, about half as sixteen equal tasks; each group's share is a metric. A workload without
// groups has nothing to compare.
TEST(Cli, CompareTaskGroupsOneForAllAndTheWorkloads) {
    const std::string file = std::string(SCHEDSCOPE_SOURCE_DIR) + "/resources/workloads/cgroups.json";
    const auto c = cliJson("simulate --preset kunpeng920-24 --workload " + file + " --duration 1 --compare task-groups --seeds 2 --json");
    ASSERT_FALSE(c.is_discarded());
    EXPECT_EQ(c["compare"], "task-groups");
    const auto& web = c["metrics"]["cpu_share_web"];
    EXPECT_NEAR(web["on"]["mean"].get<double>(), 0.8, 0.05);
    EXPECT_LT(web["off"]["mean"].get<double>(), 0.56);
    EXPECT_NEAR(c["metrics"]["cpu_share_batch"]["on"]["mean"].get<double>() + web["on"]["mean"].get<double>(), 1.0, 1e-9);
    // one run: each group with its shares, tasks and CPU time, and each task's group
    const auto one = cliJson("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.5 --json");
    ASSERT_FALSE(one.is_discarded());
    EXPECT_EQ(one["config"]["task_groups"], true);
    ASSERT_EQ(one["metrics"]["task_groups"].size(), 2u);
    const auto& batch = one["metrics"]["task_groups"][0];
    EXPECT_EQ(batch["name"], "batch");
    EXPECT_EQ(batch["shares"], 256);
    EXPECT_EQ(batch["tasks"], 8);
    EXPECT_NEAR(batch["cpu_share"].get<double>(), 0.2, 0.03);
    EXPECT_EQ(one["tasks"][0]["group"], "web");
    EXPECT_TRUE(cliJson("simulate --preset kunpeng920-24 --workload stream:threads=2 --duration 0.1 --json")["tasks"][0]["group"].is_null());
    CliRun none = cli("simulate --preset kunpeng920-24 --workload stream:threads=4 --compare task-groups");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("--compare task-groups: the workload has no task groups"), std::string::npos) << none.err;
}

// --compare bandwidth: the groups unlimited against their CPU bandwidth limits. cpu-limit.json's
// batch group, held to one CPU's worth per period on CPUs 0-3, gets a quarter of the machine's
// four CPUs with the limit and about half of what is used without; only the limited side is
// throttled, and it says how long. A workload without limits has nothing to compare.
TEST(Cli, CompareBandwidthLimitsOffAndOn) {
    const std::string file = std::string(SCHEDSCOPE_SOURCE_DIR) + "/resources/workloads/cpu-limit.json";
    const auto c = cliJson("simulate --preset kunpeng920-24 --workload " + file + " --duration 1 --compare bandwidth --seeds 2 --json");
    ASSERT_FALSE(c.is_discarded());
    EXPECT_EQ(c["compare"], "bandwidth");
    const auto& batch = c["metrics"]["cpu_share_batch"];
    EXPECT_GT(batch["off"]["mean"].get<double>(), 0.5);
    const double busy = c["metrics"]["busy_cores"]["on"]["mean"].get<double>();
    EXPECT_NEAR(batch["on"]["mean"].get<double>() * busy, 1.0, 0.03) << "one CPU's worth";
    EXPECT_EQ(c["metrics"]["throttled_s_batch"]["off"]["mean"].get<double>(), 0);
    EXPECT_GT(c["metrics"]["throttled_s_batch"]["on"]["mean"].get<double>(), 1.0);
    // one run: the limited group's quota, period and throttling
    const auto one = cliJson("simulate --preset kunpeng920-24 --workload " + file + " --duration 0.5 --json");
    ASSERT_FALSE(one.is_discarded());
    EXPECT_EQ(one["config"]["bandwidth_limits"], true);
    const auto& limited = one["metrics"]["task_groups"][0];  // (the groups in name order)
    ASSERT_EQ(limited["name"], "batch");
    EXPECT_EQ(limited["quota_us"], 100000);
    EXPECT_EQ(limited["period_us"], 100000);
    EXPECT_GE(limited["nr_throttled"].get<long long>(), 4) << "throttled in each of the 5 periods";
    EXPECT_FALSE(one["metrics"]["task_groups"][1].contains("quota_us")) << "the web group has no limit";
    CliRun none = cli("simulate --preset kunpeng920-24 --workload " + std::string(SCHEDSCOPE_SOURCE_DIR) +
                      "/resources/workloads/cgroups.json --compare bandwidth");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("--compare bandwidth: no group of the workload has a CPU bandwidth limit"), std::string::npos)
        << none.err;
}

// replay of a recording whose groups sidecar holds a CPU limit (threads-under-quota.dat: three
// spinners in a cgroup of one CPU's worth per period): the replay says it holds the group to it
// and the spinners wait ~50 ms at the throttles; --no-cpu-limits keeps the group but not its
// limit, and they wait a few ms.
TEST(Cli, ReplayHoldsARecordedGroupToItsCpuLimitUnlessTold) {
    const std::string trace = schedscope::test::dataPath("traces/replay/threads-under-quota.dat");
    auto says = [](const nlohmann::json& r, const std::string& text) {
        for (const auto& a : r["assumptions"])
            if (a.get<std::string>().find(text) != std::string::npos) return true;
        return false;
    };
    const auto limited = cliJson("replay " + trace + " --json");
    ASSERT_FALSE(limited.is_discarded());
    EXPECT_TRUE(says(limited, "to the CPU bandwidth limit recorded with it (cgroup cpu.max): /lim (100 ms per 100 ms)"));
    EXPECT_GT(limited["whatif"]["metrics"]["wait_latency_us"]["p95"].get<double>(), 40000);
    const auto unlimited = cliJson("replay " + trace + " --no-cpu-limits --json");
    ASSERT_FALSE(unlimited.is_discarded());
    EXPECT_FALSE(says(unlimited, "CPU bandwidth limit"));
    EXPECT_TRUE(says(unlimited, "task groups")) << "the groups stay";
    EXPECT_LT(unlimited["whatif"]["metrics"]["wait_latency_us"]["p95"].get<double>(), 10000);
}

// trace groups: a recording's groups with their shares, limits and the trace's tasks in each;
// --snapshot gives a trace without a sidecar (another tool's) this machine's groups now, marked
// as taken after the recording, and never replaces a sidecar that is there.
TEST(Cli, TraceGroupsListsAndSnapshotsTheTaskGroups) {
    const auto quota = cliJson("trace groups " + schedscope::test::dataPath("traces/replay/threads-under-quota.dat") + " --json");
    ASSERT_FALSE(quota.is_discarded());
    EXPECT_EQ(quota["taken_after_recording"], false);
    const auto lim = std::find_if(quota["groups"].begin(), quota["groups"].end(), [](const auto& g) { return g["group"] == "/lim"; });
    ASSERT_NE(lim, quota["groups"].end());
    EXPECT_EQ((*lim)["tasks"], 3) << "the three spinners";
    EXPECT_EQ((*lim)["limit"]["quota_us"], 100000);
    EXPECT_EQ((*lim)["limit"]["period_us"], 100000);
    const auto nested = cliJson("trace groups " + schedscope::test::dataPath("traces/replay/job-beside-slice.dat") + " --json");
    ASSERT_FALSE(nested.is_discarded());
    std::vector<std::string> names;
    for (const auto& g : nested["groups"]) names.push_back(g["group"]);
    EXPECT_EQ(names, (std::vector<std::string>{"/slice", "/slice/a", "/slice/b", "/user"})) << "the slice above its services too";
    EXPECT_EQ(nested["groups"][1]["parent"], "/slice");

    const std::string scratch = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/trace-groups";
    ASSERT_EQ(0, std::system(("rm -rf " + scratch + " && mkdir -p " + scratch + " && cp " +
                              schedscope::test::dataPath("traces/replay/pingpong.dat") + " " + scratch + "/t.dat").c_str()));
    CliRun none = cli("trace groups " + scratch + "/t.dat");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("t.dat has no task groups sidecar"), std::string::npos) << none.err;
    EXPECT_NE(none.err.find("replay --sessions-from-forks guesses them"), std::string::npos) << none.err;
    CliRun snap = cli("trace groups " + scratch + "/t.dat --snapshot --json");
    ASSERT_EQ(snap.status, 0) << snap.err;
    EXPECT_NE(snap.err.find("not as the recording began"), std::string::npos) << snap.err;
    const auto taken = nlohmann::json::parse(snap.out, nullptr, false);
    ASSERT_FALSE(taken.is_discarded());
    EXPECT_EQ(taken["taken_after_recording"], true);
    EXPECT_GT(taken["tasks"].get<int>(), 2);
    CliRun again = cli("trace groups " + scratch + "/t.dat --snapshot");
    EXPECT_EQ(again.status, 2);
    EXPECT_NE(again.err.find("exists already"), std::string::npos) << again.err;
    CliRun missing = cli("trace groups " + scratch + "/none.dat");
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("none.dat: no such trace file"), std::string::npos) << missing.err;
}

// Each change comes with its 95% interval over the seeds: stream's 4 threads gain ~13% from CLS
// well outside the seeds' spread; kernbench's CPU-bound jobs change by nothing the spread cannot
// explain (seed 000's "kernbench ~0%"). The table has the column and says what it means.
TEST(Cli, CompareGivesEachChangeItsIntervalAndSaysWhenItIsNoise) {
    const auto s = cliJson("simulate --preset kunpeng920-24 --workload stream:threads=4,cpus=0-23 --compare cls --seeds 3 "
                           "--duration 0.5 --json");
    ASSERT_FALSE(s.is_discarded());
    const auto& gain = s["metrics"]["throughput"];
    ASSERT_TRUE(gain["ci95_pct"].is_array()) << gain.dump();
    EXPECT_TRUE(gain["significant"].get<bool>());
    EXPECT_GT(gain["ci95_pct"][0].get<double>(), 5.0);
    EXPECT_LT(gain["ci95_pct"][0].get<double>(), gain["relative_pct"].get<double>());
    EXPECT_GT(gain["ci95_pct"][1].get<double>(), gain["relative_pct"].get<double>());
    // migrations: the same on every seed, so no interval and no verdict
    EXPECT_TRUE(s["metrics"]["migrations"]["ci95_pct"].is_null());
    EXPECT_TRUE(s["metrics"]["migrations"]["significant"].is_null());

    CliRun kern = cli("simulate --preset kunpeng920-24 --workload kernbench:jobs=24,cpus=0-23 --compare cls --seeds 3 "
                      "--duration 0.5");
    ASSERT_EQ(kern.status, 0) << kern.err;
    EXPECT_NE(kern.out.find("95% interval"), std::string::npos) << kern.out;
    const size_t row = kern.out.find("\nthroughput ");
    ASSERT_NE(row, std::string::npos) << kern.out;
    const std::string line = kern.out.substr(row + 1, kern.out.find('\n', row + 1) - row - 1);
    EXPECT_NE(line.find("within noise"), std::string::npos) << line;
    EXPECT_NE(kern.out.find("Welch's t"), std::string::npos) << kern.out;
}

// --compare says when every seed gave the same run (mcf's copies never sleep: forked onto an
// idle machine they are placed alike whatever the seed), and not when the seeds differ.
TEST(Cli, CompareSaysWhenTheSeedsGaveOneRun) {
    CliRun alike = cli("simulate --preset kunpeng920-32 --workload mcf:copies=8,cpus=0-31 --profile linux-6.1 "
                       "--compare cls --seeds 2 --duration 0.5");
    ASSERT_EQ(alike.status, 0) << alike.err;
    EXPECT_NE(alike.out.find("every seed gave the same run"), std::string::npos) << alike.out;
    const auto d = cliJson("simulate --preset kunpeng920-24 --workload hackbench:groups=1 --compare cls --seeds 2 "
                           "--duration 0.1 --json");
    ASSERT_FALSE(d.is_discarded());
    EXPECT_FALSE(d["seeds_gave_one_run"].get<bool>());
    // one seed is one run a side: no spread to show ("-", null), and "1 seed"
    CliRun one = cli("simulate --preset kunpeng920-24 --workload stream:threads=8 --compare cls --seeds 1 --duration 0.05");
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.out.find("cls off vs on, 1 seed from 1\n"), std::string::npos) << one.out;
    const size_t at = one.out.find("\nthroughput ");
    ASSERT_NE(at, std::string::npos) << one.out;
    std::istringstream row(one.out.substr(at + 1, one.out.find('\n', at + 1) - at - 1));
    std::vector<std::string> cells{std::istream_iterator<std::string>(row), std::istream_iterator<std::string>()};
    ASSERT_GE(cells.size(), 5u) << one.out;
    EXPECT_EQ(cells[2], "-") << one.out;  // off sd
    EXPECT_EQ(cells[4], "-") << one.out;  // on sd
    const auto oneJson = cliJson("simulate --preset kunpeng920-24 --workload stream:threads=8 --compare cls --seeds 1 --duration 0.05 --json");
    ASSERT_FALSE(oneJson.is_discarded());
    EXPECT_TRUE(oneJson["metrics"]["throughput"]["off"]["sd"].is_null()) << oneJson["metrics"]["throughput"].dump();
}

// A long simulation shows how far it is on a terminal, and nothing of that reaches a pipe.
TEST(Cli, SimulationProgressOnlyOnATerminal) {
    const std::string args = "simulate --preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.6";
    CliRun piped = cli(args);
    ASSERT_EQ(piped.status, 0) << piped.err;
    EXPECT_EQ(piped.err, "");
    EXPECT_EQ(piped.out.find("simulating:"), std::string::npos);
    if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no 'script' (util-linux) to give the CLI a terminal";
    // script(1) runs it on a pseudo-terminal and copies what it wrote there to our pipe
    const std::string cmd = "script -qec '" + std::string(SCHEDSCOPE_CLI) + " " + args + "' /dev/null";
    std::string tty;
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) tty.append(buf.data(), n);
    ASSERT_EQ(pclose(p), 0) << tty;
    EXPECT_NE(tty.find("simulating: "), std::string::npos) << tty;
    EXPECT_NE(tty.find("% of 0.6 s simulated"), std::string::npos) << tty;
    EXPECT_NE(tty.find("\r\033[K"), std::string::npos) << "the line is cleared before the results";
    EXPECT_NE(tty.find("throughput"), std::string::npos) << tty;

    // --compare's runs share one line, whichever worker reports
    // (each run reports its end, so short runs draw the line too)
    const std::string compare = "script -qec '" + std::string(SCHEDSCOPE_CLI) +
                                " simulate --preset kunpeng920-24 --workload hackbench:groups=2 --duration 0.02 --compare cls "
                                "--seeds 2 --jobs 2' /dev/null";
    std::string both;
    p = popen(compare.c_str(), "r");
    ASSERT_NE(p, nullptr);
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) both.append(buf.data(), n);
    ASSERT_EQ(pclose(p), 0) << both;
    EXPECT_NE(both.find("4 runs, 2 at once: "), std::string::npos) << both;
    EXPECT_NE(both.find("on/off"), std::string::npos) << both;
}

TEST(Cli, VersionAndHelp) {
    CliRun v = cli("--version");
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out.rfind("schedscope-cli ", 0), 0u);
    CliRun h = cli("domains --help");
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("--no-cls"), std::string::npos);
    // replay's machine is the trace's sidecar by default, not this one
    CliRun replay = cli("replay --help");
    EXPECT_EQ(replay.status, 0);
    EXPECT_NE(replay.out.find("--local                   use this machine's topology [what-if machine"), std::string::npos) << replay.out;
    EXPECT_EQ(replay.out.find("topology (default)"), std::string::npos);
    CliRun record = cli("record --help");
    EXPECT_NE(record.out.find("\n  -o FILE                   same as --output\n"), std::string::npos) << record.out;
    // a group of two-word commands lists them
    for (const std::string group : {"trace", "bench"}) {
        CliRun g = cli(group + " --help");
        EXPECT_EQ(g.status, 0) << g.err;
        EXPECT_NE(g.out.find("usage: schedscope-cli " + group + " SUBCOMMAND"), std::string::npos) << g.out;
        EXPECT_NE(g.out.find("  " + group + (group == "trace" ? " stats" : " sim")), std::string::npos) << g.out;
    }
    CliRun usage = cli("--help");
    EXPECT_NE(usage.out.find("\n  completion bash  "), std::string::npos) << usage.out;
}

// The bash completion: options as they are typed (-o, not --o), and the values of the options
// that take one of a few words.
TEST(Cli, CompletionOffersOptionsAsTypedAndTheirValues) {
    CliRun c = cli("completion bash");
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(c.out.find("--o "), std::string::npos);
    EXPECT_NE(c.out.find("\"record \"*) opts=\"--output -o "), std::string::npos) << c.out;
    for (const char* values : {"--source) COMPREPLY=($(compgen -W \"tracefs bpf bpf-aggregate\"",
                               "--profile) COMPREPLY=($(compgen -W \"linux-4.14 ", "--clock) COMPREPLY",
                               "--compare) COMPREPLY=($(compgen -W \"cls node "})
        EXPECT_NE(c.out.find(values), std::string::npos) << values;
    // every mode --compare takes, and the sched_features knobs' on|off
    const auto compare = c.out.find("--compare) COMPREPLY");
    ASSERT_NE(compare, std::string::npos);
    const std::string offered = c.out.substr(compare, c.out.find('\n', compare) - compare);
    for (const char* mode : {" delay-dequeue ", " ni-random ", " wake-wide ", " util-est ", " run-to-parity ", " numa-balancing ", " task-groups ",
                             " bandwidth "})
        EXPECT_NE(offered.find(mode), std::string::npos) << mode << " in " << offered;
    EXPECT_NE(c.out.find("|--util-est|--run-to-parity) COMPREPLY=($(compgen -W \"on off\""), std::string::npos);
}

}  // namespace

namespace {

// The guest's sysfs of an oracle case: a 16-CPU, 4-node x86 (tests/data/oracle/x86-2s4n4c2t).
// (extracted once: the CLI unpacking the archive on every call made this test the CLI suite's slowest)
std::string partitionGuest() { return schedscope::test::extractFixture("oracle/x86-2s4n4c2t/sysfs.tar.xz"); }

}  // namespace

// What-if cpusets: --partition builds a root partition's domains apart, --isolate leaves CPUs
// without domains; the real kernel built the same for these partitions (the oracle cases).
TEST(Cli, PartitionsAndIsolatedCpusAreWhatIfOptions) {
    CliRun r = cli("domains --sysfs-root " + partitionGuest() + " --profile linux-6.1 --partition 8-15 --partition 0-1 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["root_domains"], (std::vector<std::string>{"2-7", "8-15", "0-1"}));
    // CPU 4: MC 4-7 and the distance-12 NUMA level cut to 2-7 by the partitions
    ASSERT_EQ(j["cpus"][4]["domains"].size(), 3u);
    EXPECT_EQ(j["cpus"][4]["domains"][2]["span"], "2-7");
    EXPECT_EQ(j["cpus"][0]["domains"].size(), 1u);  // SMT 0-1, all its partition has

    CliRun iso = cli("domains --sysfs-root " + partitionGuest() + " --isolate 2-3,10-11");
    ASSERT_EQ(iso.status, 0) << iso.err;
    EXPECT_NE(iso.out.find("isolated (no sched domains): 2-3,10-11"), std::string::npos);
    EXPECT_NE(iso.out.find("NUMA span=0-1,4-9,12-15"), std::string::npos) << iso.out.substr(0, 600);

    // isolating every CPU: the kernel keeps its boot CPU for housekeeping, and says so; with a
    // partition on top it crashed (no root domain left to build)
    for (const std::string extra : {"", " --partition 0-1"}) {
        CliRun all = cli("domains --sysfs-root " + partitionGuest() + " --isolate 0-15" + extra);
        ASSERT_EQ(all.status, 0) << extra << ": " << all.err;
        EXPECT_NE(all.err.find("--isolate 0-15 leaves no CPU for housekeeping: cpu0 stays"), std::string::npos) << all.err;
        EXPECT_NE(all.out.find("isolated (no sched domains): 1-15"), std::string::npos) << all.out.substr(0, 400);
    }

    CliRun overlap = cli("domains --sysfs-root " + partitionGuest() + " --partition 0-7 --partition 4-11");
    EXPECT_EQ(overlap.status, 2);
    EXPECT_EQ(lines(overlap.err), 1) << overlap.err;
    EXPECT_NE(overlap.err.find("--partition 4-11 overlaps another partition"), std::string::npos) << overlap.err;
    CliRun offline = cli("domains --sysfs-root " + partitionGuest() + " --isolate 12-31");
    EXPECT_EQ(offline.status, 2);
    EXPECT_NE(offline.err.find("--isolate 12-31: CPUs 16-31 are not online there"), std::string::npos) << offline.err;
    // an archive with sys/ at its top is named after the archive (a generic sysfs.tar.xz after
    // its folder), not the temporary directory it was unpacked in
    CliRun topo = cli("topology --sysfs-root " + schedscope::test::dataPath("oracle/x86-2s4n4c2t/sysfs.tar.xz"));
    ASSERT_EQ(topo.status, 0) << topo.err;
    EXPECT_EQ(topo.out.rfind("x86-2s4n4c2t (sysfs snapshot ", 0), 0u) << topo.out.substr(0, 200);
    // (with no machine named they change the trace's sidecar's: TopologyWhatIfsChangeTheSidecarsMachine)
    CliRun bare = cli("replay missing.dat --partition 0-1");
    EXPECT_EQ(bare.status, 2);
    EXPECT_EQ(bare.err, "schedscope-cli: missing.dat: No such file or directory\n");
}

// What-if NUMA distances: the guest of two sockets of two nodes (distances 10/12/20) made one
// distance everywhere has one NUMA level over the machine; the note says the table is not the
// snapshot's; a table of the wrong size is a one-line error naming the input; and a trace
// command needs the topology named with it
TEST(Cli, NumaDistancesAreAWhatIfOption) {
    const std::string guest = "--sysfs-root " + partitionGuest();
    CliRun asIs = cli("domains " + guest + " --profile linux-6.1 --cpu 4 --format kernel");
    ASSERT_EQ(asIs.status, 0) << asIs.err;
    EXPECT_NE(asIs.out.find("level=NUMA"), asIs.out.rfind("level=NUMA")) << "two NUMA levels as it is:\n" << asIs.out;
    CliRun flat = cli("domains " + guest + " --profile linux-6.1 --cpu 4 --format kernel --numa-distances '10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10'");
    ASSERT_EQ(flat.status, 0) << flat.err;
    EXPECT_EQ(flat.out.find("level=NUMA"), flat.out.rfind("level=NUMA")) << "one NUMA level:\n" << flat.out;
    EXPECT_NE(flat.out.find("span=0-15 level=NUMA"), std::string::npos) << flat.out;
    EXPECT_NE(flat.err.find("NUMA distances from --numa-distances, in place of the input's 10,12,20,20;"), std::string::npos) << flat.err;

    CliRun small = cli("simulate " + guest + " --workload stream:threads=2 --numa-distances '10,20;20,10'");
    EXPECT_EQ(small.status, 2);
    EXPECT_EQ(lines(small.err), 1) << small.err;
    EXPECT_NE(small.err.find("--numa-distances: 2 rows for 4 NUMA node(s) (0,1,2,3)"), std::string::npos) << small.err;
    CliRun junk = cli("topology " + guest + " --numa-distances '10,twenty'");
    EXPECT_EQ(junk.status, 2);
    EXPECT_EQ(junk.err, "schedscope-cli: --numa-distances 10,twenty: row 1: 'twenty' is not a distance (a whole number)\n");
    CliRun bare = cli("trace stats missing.dat --numa-distances '10'");
    EXPECT_EQ(bare.status, 2);
    EXPECT_EQ(bare.err, "schedscope-cli: missing.dat: No such file or directory\n");
}

// trace stats counts the sched_setaffinity() calls a trace recorded with their syscall events
// (pinned.sh: three taskset -c 0 and three taskset -pc 1), and their moves as affinity changes;
// the same script recorded without them has none and reads taskset's own move as exec's
TEST(Cli, TraceStatsCountsTheSetaffinityCalls) {
    for (const auto& [name, calls, affinity] : {std::tuple{"pinned-setaffinity.dat", 6, 4}, std::tuple{"pinned.dat", 0, 3}}) {
        CliRun r = cli("trace stats '" + schedscope::test::dataPath(std::string("traces/replay/") + name) + "' --json");
        ASSERT_EQ(r.status, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["setaffinity_calls"].get<int>(), calls) << name;
        EXPECT_EQ(j["migrations_by_cause"]["affinity"].get<int>(), affinity) << name;
    }
    CliRun text = cli("trace stats '" + schedscope::test::dataPath("traces/replay/pinned-setaffinity.dat") + "'");
    EXPECT_NE(text.out.find("sched_setaffinity() calls (a stopper's move inside one is an affinity change, not exec "
                            "balancing): 6\n"),
              std::string::npos)
        << text.out;
}

// trace stats on the real 6.12 kernel's trace of the 2-socket, 4-node QEMU machine
// (traces/qemu): the domains are built with the trace's kernel's profile, and the NUMA
// migrations are split by node distance, which the reference migrations (trace-cmd report)
// give on that machine's table: nodes 0-1 and 2-3 share a socket at 12, the others are at 20.
// --isolate (and --partition, --numa-distances) with no machine named change the one the trace's
// sidecar gives, as they change a named one: trace stats classifies the 6.1 guest's migrations
// as on that machine named with --synthetic (those to or from the isolated CPU 3 have no level),
// and replay's what-if runs on it while the recording keeps its machine. A trace without a
// sidecar has no machine for them to change.
TEST(Cli, TopologyWhatIfsChangeTheSidecarsMachine) {
    const std::string trace = schedscope::test::dataPath("traces/qemu/x86-4c-linux-6.1-hackbench.dat");
    CliRun named = cli("trace stats '" + trace + "' --synthetic 'pack:1 l3:1 core:4 pu:1' --isolate 3 --json");
    ASSERT_EQ(named.status, 0) << named.err;
    CliRun side = cli("trace stats '" + trace + "' --isolate 3 --json");
    ASSERT_EQ(side.status, 0) << side.err;
    const auto n = nlohmann::json::parse(named.out), s = nlohmann::json::parse(side.out);
    EXPECT_EQ(s["topology"], trace + ".topology.json --isolate 3");
    EXPECT_EQ(s["migrations_by_level"], n["migrations_by_level"]);
    ASSERT_TRUE(s["migrations_by_level"].contains("unknown")) << s["migrations_by_level"];
    EXPECT_GT(s["migrations_by_level"]["unknown"].get<int>(), 0);

    CliRun whole = cli("replay '" + trace + "' --json");
    CliRun isolated = cli("replay '" + trace + "' --isolate 3 --json");
    ASSERT_EQ(whole.status, 0) << whole.err;
    ASSERT_EQ(isolated.status, 0) << isolated.err;
    const auto w = nlohmann::json::parse(whole.out), i = nlohmann::json::parse(isolated.out);
    EXPECT_EQ(i["whatif"]["config"]["topology"], trace + ".topology.json --isolate 3");
    EXPECT_EQ(i["recorded"], w["recorded"]);
    EXPECT_NE(i["whatif"]["metrics"]["migrations"], w["whatif"]["metrics"]["migrations"]);

    const std::string bare = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/no-sidecar-" + std::to_string(::getpid()) + ".dat";
    std::filesystem::copy_file(trace, bare, std::filesystem::copy_options::overwrite_existing);
    for (const char* command : {"trace stats", "replay"}) {
        CliRun r = cli(std::string(command) + " '" + bare + "' --isolate 3");
        EXPECT_EQ(r.status, 2) << command;
        EXPECT_NE(r.err.find(bare + ": no topology sidecar: --isolate, --partition and --numa-distances change a topology: name it too"),
                  std::string::npos)
            << r.err;
    }
    std::filesystem::remove(bare);
}

TEST(Cli, TraceStatsSplitsNumaMigrationsByNodeDistance) {
    const std::string trace = schedscope::test::dataPath("traces/qemu/x86-2s4n4c2t-linux-6.12.dat");
    const std::string sysfs = schedscope::test::extractFixture("oracle/linux-6.12-x86-2s4n4c2t/sysfs.tar.xz");
    CliRun r = cli("trace stats '" + trace + "' --sysfs-root '" + sysfs + "' --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["profile"].get<std::string>().starts_with("linux-6.12")) << j["profile"];
    EXPECT_EQ(j["levels"], (nlohmann::json{"SMT", "MC", "NUMA"}));

    std::map<std::string, unsigned> want;  // node distance -> migrations
    std::istringstream ref(schedscope::test::readFile(schedscope::test::dataPath("traces/qemu/x86-2s4n4c2t-linux-6.12.migrations.txt")));
    for (std::string line; std::getline(ref, line);) {
        const auto o = line.find("orig_cpu="), d = line.find("dest_cpu=");
        if (o == std::string::npos || d == std::string::npos) continue;
        const int src = std::stoi(line.substr(o + 9)), dst = std::stoi(line.substr(d + 9));
        const int a = src / 4, b = dst / 4;
        if (a != b) ++want[a / 2 == b / 2 ? "12" : "20"];
    }
    ASSERT_EQ(want.size(), 2u);
    EXPECT_EQ(j["numa_migrations_by_distance"], nlohmann::json(want));
    EXPECT_EQ(j["migrations_by_level"]["NUMA"].get<unsigned>(), want["12"] + want["20"]);

    CliRun text = cli("trace stats '" + trace + "' --sysfs-root '" + sysfs + "' --profile linux-5.15");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("; profile linux-5.15)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(node distance 12: " + std::to_string(want["12"]) + ", 20: " + std::to_string(want["20"]) + ")"),
              std::string::npos)
        << text.out;
    CliRun bad = cli("trace stats '" + trace + "' --sysfs-root '" + sysfs + "' --profile linux-2.4");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("trace stats: --profile: unknown kernel profile 'linux-2.4'"), std::string::npos) << bad.err;
}
