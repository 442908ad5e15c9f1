// A whole boot log, as users save it (a serial console, dmesg): besides the sched_verbose lines
// it names its kernel in the banner and its arch in the build triple or boot lines, and its group
// capacities change while the CPUs print. On a real 6.12 console capture of a shape no oracle case
// has (2 sockets of 3 NUMA nodes; tests/data/kernel-logs/README.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "domains/domain_builder.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "domains/topology_from_log.h"
#include "support/fixtures.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

const std::string kConsole = "kernel-logs/linux-6.12-x86-2s6n2c2t-boot-console.txt";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

TEST(WholeBootLog, TheBannerNamesTheKernelAndItsBuildTheArch) {
    auto read = readKernelLog(test::dataPath(kConsole));
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->logKernelRelease, "6.12.118+deb12-amd64");
    ASSERT_TRUE(read->logArch);
    EXPECT_EQ(*read->logArch, Arch::X86_64);
    // the kernel's own profile, with its stable backports, not the newest the format allows
    const KernelProfile* own = profileForKernelRelease("6.12.118+deb12-amd64");
    ASSERT_NE(own, nullptr);
    EXPECT_EQ(read->logProfile, own->name);
    EXPECT_EQ(read->notes, std::vector<std::string>{"printed by Linux 6.12.118+deb12-amd64 (its banner)"});
    EXPECT_TRUE(read->warnings.empty()) << read->warnings.front();
    EXPECT_EQ(read->builtFor.toList(), "0-23");
}

// Two boots in one file: a banner whose kernel cannot have printed these domain lines (6.1 printed
// the root domain's capacity) is said, and the lines' own bound is kept.
TEST(WholeBootLog, ABannerTheDomainLinesContradictIsNotTaken) {
    const std::string text = replaced(test::readFile(test::dataPath(kConsole)), "Linux version 6.12.118+deb12-amd64",
                                      "Linux version 6.1.0-57-amd64");
    auto read = parseKernelLog(text, "two-boots.txt");
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->logKernelRelease, "");
    EXPECT_EQ(read->logProfile, "");  // since 6.10, nothing bounds it from above
    ASSERT_EQ(read->warnings.size(), 1u);
    EXPECT_EQ(read->warnings[0], "the banner names Linux 6.1.0-57-amd64, but the domains were printed by a kernel since 6.10 "
                                 "(root domain lines without a capacity): a log of several boots? The domain lines' kernel is taken");
    EXPECT_EQ(read->notes, std::vector<std::string>{"printed by a kernel since 6.10 (root domain lines without a capacity)"});
}

// Each CPU prints the groups' capacities of its own moment: CPU 0 saw node 0 at 4076 (its own
// interrupt time 15, CPU 3's 5), CPU 6 later at 4091. Both are the machine the log rebuilds to.
TEST(WholeBootLog, CapacitiesThatChangeWhileTheCpusPrintAreNoDifference) {
    const std::string text = test::readFile(test::dataPath(kConsole));
    ASSERT_NE(text.find("groups: 0:{ span=0-3 cap=4076 }, 4:{ span=4-7 cap=4096 }"), std::string::npos);
    ASSERT_NE(text.find("groups: 4:{ span=4-7 cap=4096 }, 8:{ span=8-11 cap=4091 }, 0:{ span=0-3 cap=4091 }"), std::string::npos);
    auto read = loadTopologyFromKernelLog(test::dataPath(kConsole));
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->differences, std::vector<std::string>{});
    ASSERT_NE(read->profile, nullptr);
    EXPECT_EQ(read->profile, profileForKernelRelease("6.12.118"));
    const Topology& t = read->topology;
    EXPECT_EQ(t.arch, Arch::X86_64);
    EXPECT_EQ(t.cpus.size(), 24u);
    EXPECT_EQ(t.nodes.size(), 6u);
    EXPECT_EQ(t.cpus[0].threadSiblings.toList(), "0-1");
    // the node distances keep the machine's order: same socket nearer than the other socket
    EXPECT_LT(t.distance[0][1], t.distance[0][3]);
    EXPECT_EQ(t.distance[0][1], t.distance[0][2]);
    EXPECT_EQ(t.distance[0][3], t.distance[0][5]);

    // but a group short by more than its CPUs' interrupt time is a difference
    auto shorter = parseKernelLog(replaced(text, "8:{ span=8-11 cap=4091 }, 0:{ span=0-3 cap=4091 }",
                                           "8:{ span=8-11 cap=4091 }, 0:{ span=0-3 cap=4000 }"),
                                  "shorter.txt");
    ASSERT_TRUE(shorter.ok()) << shorter.error();
    DomainBuildOptions o;
    o.profile = read->profile;
    auto tree = buildDomains(t, o);
    ASSERT_TRUE(tree.ok()) << tree.error();
    const auto diff = diffDomainTrees(*tree, *shorter);
    ASSERT_EQ(diff.size(), 1u);
    EXPECT_EQ(diff[0].rfind("cpu6 domain-2 NUMA groups: ", 0), 0u) << diff[0];
}

// Debian 12's own 6.1 kernel: a native build (no triple in the banner), the arch in the release's
// suffix. Its DIE level alone would only bound it to before 6.7; the banner makes it 6.1.
TEST(WholeBootLog, Debian61sConsoleIsItsOwnKernel) {
    const std::string path = test::dataPath("kernel-logs/linux-6.1-x86-2s2d3c2t-boot-console.txt");
    auto read = readKernelLog(path);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->logKernelRelease, "6.1.0-57-amd64");
    ASSERT_TRUE(read->logArch);
    EXPECT_EQ(*read->logArch, Arch::X86_64);
    EXPECT_EQ(read->logProfile, "linux-6.1");
    const std::string text = test::readFile(path);
    auto withoutBanner = parseKernelLog(replaced(text, "Linux version 6.1.0-57-amd64", "Linux versi0n"), "no-banner");
    ASSERT_TRUE(withoutBanner.ok());
    EXPECT_EQ(withoutBanner->logProfile, "linux-6.6");
    // a log quoted from the command line on (no banner) still names its kernel: the boot image's
    auto fromImage = parseKernelLog(replaced(replaced(text, "Linux version 6.1.0-57-amd64", "Linux versi0n"),
                                             "Command line: console=ttyS0",
                                             "Command line: BOOT_IMAGE=/boot/vmlinuz-6.1.0-57-amd64 console=ttyS0"),
                                    "image");
    ASSERT_TRUE(fromImage.ok()) << fromImage.error();
    EXPECT_EQ(fromImage->logKernelRelease, "6.1.0-57-amd64");
    EXPECT_EQ(fromImage->logProfile, "linux-6.1");
    EXPECT_NE(std::find(fromImage->notes.begin(), fromImage->notes.end(),
                        "printed by Linux 6.1.0-57-amd64 (the boot image on the command line)"),
              fromImage->notes.end());

    auto machine = loadTopologyFromKernelLog(path);
    ASSERT_TRUE(machine.ok()) << machine.error();
    EXPECT_EQ(machine->differences, std::vector<std::string>{});
    EXPECT_EQ(machine->profile, findProfile("linux-6.1"));
    const Topology& t = machine->topology;
    std::set<int> packages;
    for (const CpuTopology& c : t.cpus) packages.insert(c.packageId);
    EXPECT_EQ(packages, (std::set<int>{0, 1}));  // numbered as a sysfs numbers them, not by first CPU
    EXPECT_EQ(t.nodes.size(), 2u);
    EXPECT_EQ(t.llcCpus(0).toList(), "0-5");  // a die's L3
    EXPECT_EQ(t.nodeCpus(0).toList(), "0-11");
    // which every build of it defaults to (the CLI's domains and simulate, the GUI)
    auto loaded = loadTopology({TopologySpec::Kind::KernelLog, path});
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loaded->kernelProfile, "linux-6.1");
}

// Every console kept rebuilds as its own machine, under its banner's kernel, identical to itself.
TEST(WholeBootLog, EveryConsoleRebuildsIdentical) {
    int consoles = 0;
    for (const auto& e : std::filesystem::directory_iterator(test::dataPath("kernel-logs"))) {
        if (e.path().extension() != ".txt") continue;
        auto machine = loadTopologyFromKernelLog(e.path().string());
        ASSERT_TRUE(machine.ok()) << machine.error();
        EXPECT_EQ(machine->differences, std::vector<std::string>{}) << e.path();
        auto log = readKernelLog(e.path().string());
        ASSERT_TRUE(log.ok());
        EXPECT_FALSE(log->logKernelRelease.empty()) << e.path();
        EXPECT_EQ(machine->profile, profileForKernelRelease(log->logKernelRelease)) << e.path();
        ++consoles;
    }
    EXPECT_GE(consoles, 4);
}

// The machine booted is known (2 sockets of 2 dies with an L3 each, 3 cores of 2 threads, a node
// per socket): the builder, given that hardware, makes what Debian's 6.1 and unstable's 7.2
// printed, under each banner's kernel.
TEST(WholeBootLog, TheBuilderMakesWhatTheRealKernelsPrintedForKnownHardware) {
    auto hw = loadTopology({TopologySpec::Kind::Synthetic, "pack:2 numa:1 l3:2 core:3 pu:2"});
    ASSERT_TRUE(hw.ok()) << hw.error();
    for (const char* console : {"linux-6.1-x86-2s2d3c2t-boot-console.txt", "linux-7.2-x86-2s2d3c2t-boot-console.txt"}) {
        auto log = readKernelLog(test::dataPath(std::string("kernel-logs/") + console));
        ASSERT_TRUE(log.ok()) << log.error();
        DomainBuildOptions o;
        o.profile = findProfile(log->logProfile);
        ASSERT_NE(o.profile, nullptr) << log->logProfile;
        auto built = buildDomains(*hw, o);
        ASSERT_TRUE(built.ok()) << built.error();
        EXPECT_EQ(diffDomainTrees(*built, *log), std::vector<std::string>{}) << console;
    }
}

// An arm64 log says so in its boot CPU line: its machine is read with arm64's rules, no --arch.
TEST(WholeBootLog, Arm64sBootLineNamesTheArch) {
    const std::string log = test::readFile(test::dataPath("oracle/arm64-2s2cl2c2t/kernel-log.txt"));
    auto plain = parseKernelLog(log, "plain");
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_FALSE(plain->logArch);
    const std::string console = "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x481fd010]\n" + log;
    auto read = parseKernelLog(console, "console");
    ASSERT_TRUE(read.ok()) << read.error();
    ASSERT_TRUE(read->logArch);
    EXPECT_EQ(*read->logArch, Arch::Arm64);
    auto machine = topologyFromKernelLog(*read, "console");
    ASSERT_TRUE(machine.ok()) << machine.error();
    EXPECT_EQ(machine->topology.arch, Arch::Arm64);
    EXPECT_EQ(machine->differences, std::vector<std::string>{});
    // so does its PSCI firmware's line, all a log of a CPU taken offline may have (Juno's)
    auto hotplug = parseKernelLog("[40150.885383] psci: CPU3 killed (polled 0 ms)\n" + log, "hotplug");
    ASSERT_TRUE(hotplug.ok()) << hotplug.error();
    ASSERT_TRUE(hotplug->logArch);
    EXPECT_EQ(*hotplug->logArch, Arch::Arm64);
}

}  // namespace
}  // namespace schedscope
