// A topology read back from a real kernel's sched_verbose log (tests/data/oracle/*/kernel-log.txt:
// QEMU-booted Debian kernels, 6.1 and 6.12, x86 and arm64) must rebuild that log exactly, and
// agree with the hardware the guest's sysfs showed as far as a log can tell it: SMT siblings,
// nodes and the order of NUMA distances.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "domains/sd_flags.h"
#include "domains/topology_from_log.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

std::vector<std::string> casesWithLogs() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(test::dataPath("oracle")))
        if (std::filesystem::exists(e.path() / "kernel-log.txt")) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The nodes with online CPUs, as CPU sets, in the order of their first CPU.
std::vector<CpuSet> cpuNodes(const Topology& t, const CpuSet& within) {
    std::vector<CpuSet> out;
    for (const NumaNode& n : t.nodes)
        if (CpuSet c = n.cpus & within; !c.empty()) out.push_back(c);
    std::sort(out.begin(), out.end(), [](const CpuSet& a, const CpuSet& b) { return a.first() < b.first(); });
    return out;
}

int distanceBetween(const Topology& t, const CpuSet& a, const CpuSet& b) {
    return t.nodeDistance(t.cpus[static_cast<size_t>(a.first())].node, t.cpus[static_cast<size_t>(b.first())].node);
}

class TopologyFromLogTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TopologyFromLogTest, RebuildsTheLogAndAgreesWithTheGuestsHardware) {
    const std::string name = GetParam();
    const std::string logPath = test::dataPath("oracle/" + name + "/kernel-log.txt");
    auto read = loadTopologyFromKernelLog(logPath);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->differences, std::vector<std::string>{}) << name;
    ASSERT_FALSE(read->notes.empty());
    EXPECT_EQ(read->notes.front().rfind("rebuilt identical to the log with ", 0), 0u) << read->notes.front();
    const Topology& fromLog = read->topology;

    auto oracle = nlohmann::json::parse(test::readFile(test::dataPath("oracle/" + name + "/kernel.json")));
    auto arch = parseArch(oracle["arch"].get<std::string>());
    ASSERT_TRUE(arch.ok());
    auto hw = loadSysfsTopology(test::extractFixture("oracle/" + name + "/sysfs.tar.xz"), *arch);
    ASSERT_TRUE(hw.ok()) << hw.error();

    // the CPUs the kernel built domains for are the online ones the log shows
    CpuSet built;
    for (const CpuTopology& c : fromLog.cpus)
        if (c.online && !fromLog.isolated.test(c.id)) built.set(c.id);
    ASSERT_TRUE(built.isSubsetOf(hw->onlineCpus())) << built.toList();
    const bool partitioned = !hw->rootPartitions.empty() || !hw->isolated.empty() || built != hw->onlineCpus();
    built.forEach([&](int cpu) {
        const auto& mine = fromLog.cpus[static_cast<size_t>(cpu)];
        const auto& real = hw->cpus[static_cast<size_t>(cpu)];
        // SMT siblings show only when the kernel built SMT (arm64 6.12's QEMU guests have it)
        if (mine.threadSiblings.count() > 1) {
            EXPECT_EQ(mine.threadSiblings, real.threadSiblings & built) << name << " cpu" << cpu;
        }
    });
    if (partitioned) return;  // root domains hide how nodes relate across them
    const std::vector<CpuSet> mineNodes = cpuNodes(fromLog, built), realNodes = cpuNodes(*hw, built);
    ASSERT_EQ(mineNodes, realNodes) << name;
    for (const CpuSet& a : realNodes)
        for (const CpuSet& b : realNodes)
            for (const CpuSet& c : realNodes) {
                const int real = distanceBetween(*hw, a, b) - distanceBetween(*hw, a, c);
                const int mine = distanceBetween(fromLog, a, b) - distanceBetween(fromLog, a, c);
                EXPECT_EQ(real < 0, mine < 0) << name << ": node " << a.toList() << " to " << b.toList() << " vs " << c.toList();
                EXPECT_EQ(real == 0, mine == 0) << name << ": node " << a.toList() << " to " << b.toList() << " vs " << c.toList();
            }
}

// A big machine's sched_verbose outgrows the kernel's ring buffer, whose start is then
// overwritten: the same logs cut two lines before the second CPU's block (CPU0's gone, and a
// stray tail of its block first). CPU0 is read off the others' spans and groups, and the
// topology rebuilds the whole log, CPU0's block included.
TEST_P(TopologyFromLogTest, ALogWhoseStartWasOverwrittenStillRebuildsWhole) {
    const std::string name = GetParam();
    const std::string logPath = test::dataPath("oracle/" + name + "/kernel-log.txt");
    const std::string whole = test::readFile(logPath);
    const size_t second = whole.find("attaching sched-domain(s):", whole.find("attaching sched-domain(s):") + 1);
    ASSERT_NE(second, std::string::npos);
    size_t cut = whole.rfind('\n', whole.rfind('\n', whole.rfind('\n', second) - 1) - 1) + 1;
    auto full = parseKernelLog(whole, logPath);
    auto tail = parseKernelLog(whole.substr(cut), logPath);
    ASSERT_TRUE(full.ok() && tail.ok()) << tail.error();
    const int firstPrinted = full->builtFor.first();
    ASSERT_FALSE(tail->builtFor.test(firstPrinted)) << "the cut keeps the first block";
    auto read = topologyFromKernelLog(*tail, name);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->differences, std::vector<std::string>{}) << name;
    DomainBuildOptions options;
    options.arch = read->topology.arch;
    options.profile = read->profile;
    auto rebuilt = buildDomains(read->topology, options);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error();
    EXPECT_EQ(diffDomainTrees(*rebuilt, *full), std::vector<std::string>{}) << name << ": cpu" << firstPrinted << " read wrong";
}

INSTANTIATE_TEST_SUITE_P(Kernel, TopologyFromLogTest, ::testing::ValuesIn(casesWithLogs()), [](const auto& info) {
    std::string n = info.param;
    for (char& c : n)
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
});

// The real machines of tests/data/topologies/xml, through the log their kernel prints (the
// builder's rendering of it, which the oracle cases check line for line): Naples' NODE level,
// hybrid and asymmetric capacities, sparse and CPU-less nodes, offline CPUs. The topology read
// from that log must rebuild it exactly.
// Rebuilds `hw`'s domains from the log its kernel would print. Empty when none is printed.
void expectTheLogRebuildsExactly(const Topology& hw, const std::string& what) {
    DomainBuildOptions options;
    options.arch = hw.arch;
    auto tree = buildDomains(hw, options);
    ASSERT_TRUE(tree.ok()) << tree.error();
    auto log = parseKernelLog(domainTreeToKernelLog(*tree), what);
    if (!log.ok()) GTEST_SKIP() << what << " builds no domains to print: " << log.error();
    TopologyFromLogOptions given;
    if (hw.arch != Arch::X86_64 && hw.arch != Arch::Arm64) {
        auto read = topologyFromKernelLog(*log, what, given);
        if (!read.ok()) {
            EXPECT_NE(read.error().find("a topology is read only from x86 and arm64 levels"), std::string::npos) << read.error();
            return;
        }
    }
    given.arch = hw.arch;
    auto read = topologyFromKernelLog(*log, what, given);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->differences, std::vector<std::string>{}) << what;
    // isolated CPUs are online but printed only when they are detached later (attaching NULL)
    const CpuSet online = read->topology.onlineCpus();
    EXPECT_TRUE(tree->builtFor.isSubsetOf(online)) << what << ": " << online.toList();
    EXPECT_TRUE(online.isSubsetOf(tree->builtFor | tree->isolated)) << what << ": " << online.toList();
    EXPECT_EQ(read->topology.nodes.size() > 1, hw.nodes.size() > 1 && tree->levelNames().back() == "NUMA") << what;
}

// The real machines of tests/data/topologies/xml and the presets, through the log their kernel
// prints (the builder's rendering of it, which the oracle cases check line for line): Naples'
// NODE level, hybrid and asymmetric capacities, sparse and CPU-less nodes, offline CPUs. The
// topology read from that log must rebuild it exactly.
class MachineLogTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MachineLogTest, TheLogOfARealMachineRebuildsExactly) {
    auto hw = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/" + GetParam()));
    ASSERT_TRUE(hw.ok()) << hw.error();
    expectTheLogRebuildsExactly(*hw, GetParam());
}
INSTANTIATE_TEST_SUITE_P(Hwloc, MachineLogTest, ::testing::ValuesIn(test::fixtureFiles("topologies/xml", ".xml")),
                         [](const auto& info) { return test::fileTestName(info.param); });

TEST(MachineLog, ThePresetsLogsRebuildExactly) {
    for (const PresetInfo& p : listPresets()) {
        auto hw = loadTopology({TopologySpec::Kind::Preset, p.name});
        ASSERT_TRUE(hw.ok()) << hw.error();
        expectTheLogRebuildsExactly(*hw, p.name);
    }
}

// A Juno board's log (resources/kernel-logs/juno-cpusets-v5.6.txt): its LITTLE CPUs printed 443
// to 446 (interrupt time), and the kernel said "rd 4-5: CPUs do not have asymmetric
// capacities". Rebuilt, they are one kind of CPU, 446: the cpuset 4-5 and the LITTLE pair's MC
// level carry no SD_ASYM_CPUCAPACITY (they did, from 444 against 446), the big/LITTLE DIE
// level does, and the diff against the log is clean (the group {1-2} printed 2042 and 2044).
TEST(MachineLog, AJunoLogsLittleCpusAreOneKindOfCpu) {
    const std::string path = resourcesDir() + "/kernel-logs/juno-cpusets-v5.6.txt";
    auto read = loadTopologyFromKernelLog(path);
    ASSERT_TRUE(read.ok()) << read.error();
    const Topology& t = read->topology;
    for (int cpu : {0, 3, 4, 5}) EXPECT_EQ(t.cpus[static_cast<size_t>(cpu)].capacity, 446u) << cpu;
    for (int cpu : {1, 2}) EXPECT_EQ(t.cpus[static_cast<size_t>(cpu)].capacity, 1024u) << cpu;
    DomainBuildOptions o;
    o.arch = Arch::Arm64;
    o.profile = findProfile("linux-5.6");
    auto tree = buildDomains(t, o);
    ASSERT_TRUE(tree.ok()) << tree.error();
    for (int cpu : {0, 4, 5})
        EXPECT_EQ(tree->domainsOf(cpu).front().flags & SD_ASYM_CPUCAPACITY, 0u) << "cpu" << cpu << "'s LITTLE-only level";
    EXPECT_EQ(tree->domainsOf(0).back().level, "DIE");
    EXPECT_NE(tree->domainsOf(0).back().flags & SD_ASYM_CPUCAPACITY, 0u) << "big and LITTLE together";
    auto log = readKernelLog(path);
    ASSERT_TRUE(log.ok()) << log.error();
    EXPECT_EQ(diffDomainTrees(*tree, *log), std::vector<std::string>{});
}

// Alder Lake after CPU 1 went offline: CPU 0 lost its SMT level, so no printed CPU has one, but
// CPU 0's MC groups {2-3} ... {14-15} are the other P-cores' SMT pairs (a group of the lowest
// domain is a span one level down). They were rebuilt as single-thread cores, and the rebuilt
// machine's MC groups no longer matched the log's.
TEST(MachineLog, AnOfflineSiblingsLogKeepsTheOtherCoresSmtPairs) {
    const std::string path = test::dataPath("quoted-kernel-logs/alderlake-cpu1-offline-v6.0.txt");
    auto read = loadTopologyFromKernelLog(path);
    ASSERT_TRUE(read.ok()) << read.error();
    const Topology& t = read->topology;
    for (int cpu : {2, 3, 14, 15}) EXPECT_EQ(t.cpus[static_cast<size_t>(cpu)].threadSiblings.count(), 2) << "cpu" << cpu;
    EXPECT_EQ(t.cpus[3].threadSiblings.toList(), "2-3");
    for (int cpu : {16, 20}) EXPECT_EQ(t.cpus[static_cast<size_t>(cpu)].threadSiblings.count(), 1) << "E-core cpu" << cpu;
    EXPECT_EQ(read->differences, std::vector<std::string>{});
}

// The oracle cases without a kept log (Naples' dies, cgroup v1 partitions...): the builder's
// rendering is their log, as the oracle test shows for the others.
TEST(MachineLog, TheOracleMachinesLogsRebuildExactly) {
    int cases = 0;
    for (const auto& e : std::filesystem::directory_iterator(test::dataPath("oracle"))) {
        if (!std::filesystem::exists(e.path() / "kernel.json")) continue;
        const std::string name = e.path().filename().string();
        auto oracle = nlohmann::json::parse(test::readFile((e.path() / "kernel.json").string()));
        auto arch = parseArch(oracle["arch"].get<std::string>());
        ASSERT_TRUE(arch.ok());
        auto hw = loadSysfsTopology(test::extractFixture("oracle/" + name + "/sysfs.tar.xz"), *arch);
        ASSERT_TRUE(hw.ok()) << hw.error();
        expectTheLogRebuildsExactly(*hw, name);
        ++cases;
    }
    EXPECT_GE(cases, 30);
}

}  // namespace
}  // namespace schedscope
