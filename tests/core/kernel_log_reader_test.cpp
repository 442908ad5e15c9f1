// The sched_verbose log reader, on the real 6.1 logs kept with the oracle cases and a Kunpeng 920
// log quoted on LKML: what it reads is what the builder builds for the same machine.
#include <gtest/gtest.h>

#include <sstream>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

const char* const kLoggedCases[] = {"x86-2s4n4c2t", "x86-2s4n4c2t-root-4-7-12-15", "x86-2s4n4c2t-isolcpus",
                                    "x86-2s4n4c2t-isolcpus-root-8-15",
                                    "x86-2s4n4c2t-v1-overlapping-a-b-and-c-unbalanced"};

std::string logOf(const std::string& oracleCase) {
    return test::readFile(test::dataPath("oracle/" + oracleCase + "/kernel-log.txt"));
}

// what the builder makes of the case's sysfs under the kernel's profile (Debian's 6.1 unless given)
DomainTree builtFor(const std::string& oracleCase, const char* profile = "linux-6.1") {
    auto topo = loadSysfsTopology(test::extractFixture("oracle/" + oracleCase + "/sysfs.tar.xz"), Arch::X86_64);
    EXPECT_TRUE(topo.ok()) << topo.error();
    DomainBuildOptions opt;
    opt.profile = findProfile(profile);
    auto tree = buildDomains(*topo, opt);
    EXPECT_TRUE(tree.ok()) << tree.error();
    return std::move(*tree);
}

std::string withoutCapacity(std::string log) {
    const std::string suffix = " (max cpu_capacity = 1024)";
    for (size_t at; (at = log.find(suffix)) != std::string::npos;) log.erase(at, suffix.size());
    return log;
}

std::string prefixed(const std::string& log, const std::string& prefix) {
    std::istringstream in(log);
    std::string out, line;
    for (int n = 0; std::getline(in, line); ++n) {
        // other messages in between, some with words the domain lines have
        if (n % 7 == 3) out += prefix + "smpboot: a line of something else\n";
        if (n % 11 == 5) out += prefix + "cgroup: groups: none, domain-1: span= reserved\n";
        if (n % 13 == 6) out += prefix + "ACPI BIOS ERROR: not a scheduler message\n";
        out += prefix + line + "\n";
    }
    return out;
}

TEST(KernelLog, TheRealKernelsLogsReadAsTheDomainsItBuilt) {
    for (const char* name : kLoggedCases) {
        const DomainTree built = builtFor(name);
        auto read = parseKernelLog(logOf(name), name);
        ASSERT_TRUE(read.ok()) << read.error();
        EXPECT_TRUE(read->fromKernelLog);
        // Debian's 6.1: its CLS degenerates here (an L2 per core) and two nodes per package
        // leave no DIE, so only the root domain lines' capacity dates it
        EXPECT_EQ(read->notes, std::vector<std::string>{"printed by a kernel before 6.10 (root domain lines with a capacity)"});
        EXPECT_EQ(diffDomainTrees(built, *read), std::vector<std::string>{}) << name;
        EXPECT_EQ(read->builtFor, built.builtFor) << name;
        // (a log names root domains apart only when there are several; the builder also names
        // the one a v1 cpuset made)
        if (built.rootDomains.size() > 1) {
            ASSERT_EQ(read->rootDomains.size(), built.rootDomains.size()) << name;
            for (size_t i = 0; i < built.rootDomains.size(); ++i) EXPECT_EQ(read->rootDomains[i], built.rootDomains[i]) << name;
        } else {
            EXPECT_TRUE(read->rootDomains.empty()) << name;
        }
        // and it prints back as it was read (the newest kernels' root domain line has no capacity)
        EXPECT_EQ(domainTreeToKernelLog(*read), withoutCapacity(logOf(name))) << name;
    }
}

TEST(KernelLog, DmesgTimestampsJournalPrefixesAndOtherLinesDoNotMatter) {
    const DomainTree built = builtFor("x86-2s4n4c2t");
    const std::string log = logOf("x86-2s4n4c2t");
    for (const std::string& prefix : {std::string("[    1.250961] "), std::string("Dec 03 06:00:00 vm kernel: ")}) {
        std::string text = prefixed(log, prefix);
        if (prefix.starts_with("Dec")) {  // and line ends of a capture saved on Windows
            std::string crlf;
            for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
            text = crlf;
        }
        auto read = parseKernelLog(text, "dmesg.txt");
        ASSERT_TRUE(read.ok()) << read.error();
        EXPECT_EQ(diffDomainTrees(built, *read), std::vector<std::string>{}) << prefix;
        EXPECT_EQ(read->builtFor.toList(), "0-15");
        EXPECT_TRUE(read->warnings.empty()) << read->warnings.front();
    }
}

// A cpuset change detaches every CPU of the old root domains and builds the new ones: the last
// block of each CPU wins, and the root domains are those printed after the CPUs' last attach.
TEST(KernelLog, ALaterRebuildReplacesTheBootDomains) {
    std::string detach;
    for (int cpu = 0; cpu < 16; ++cpu) detach += "CPU" + std::to_string(cpu) + " attaching NULL sched-domain.\n";
    const std::string partitioned = logOf("x86-2s4n4c2t-root-4-7-12-15");
    auto read = parseKernelLog(logOf("x86-2s4n4c2t") + detach + partitioned, "dmesg");
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(diffDomainTrees(builtFor("x86-2s4n4c2t-root-4-7-12-15"), *read), std::vector<std::string>{});
    ASSERT_EQ(read->rootDomains.size(), 2u);
    EXPECT_EQ(read->rootDomains[0].toList(), "0-3,8-11");
    EXPECT_EQ(read->rootDomains[1].toList(), "4-7,12-15");

    // cut after the first root domain: the other CPUs were detached and never attached again
    const std::string firstRoot = partitioned.substr(0, partitioned.find('\n', partitioned.find("root domain span:")) + 1);
    auto isolated = parseKernelLog(logOf("x86-2s4n4c2t") + detach + firstRoot, "dmesg");
    ASSERT_TRUE(isolated.ok()) << isolated.error();
    EXPECT_EQ(isolated->isolated.toList(), "4-7,12-15");
    EXPECT_EQ(isolated->builtFor.toList(), "0-3,8-11");
    EXPECT_TRUE(isolated->rootDomains.empty());
}

// Valentin Schneider's Kunpeng 920 (D06) log of 2020: before 5.13's fix for NUMA diameters above
// 2, CPU 0's middle NUMA domain took its second group from CPU 48's child domain, which reaches
// node 3 (22 away). The reader keeps the kernel's ERROR; the builder under 5.6 prints that log
// line for line, ERROR and the overlap group's id (its balance mask's first CPU, 72) included;
// under 5.13 the group is CPU 48's grandchild, 48-71, the one difference.
TEST(KernelLog, AKunpengLogFromBeforeTheDiameterFix) {
    const std::string text = test::readFile(resourcesDir() + "/kernel-logs/kunpeng920-d06-v5.6.txt");
    auto read = parseKernelLog(text, "d06.txt");
    ASSERT_TRUE(read.ok()) << read.error();
    ASSERT_EQ(read->domainsOf(0).size(), 4u);
    ASSERT_EQ(read->warnings.size(), 1u);
    EXPECT_NE(read->warnings[0].find("cpu0 domain-2: the kernel said ERROR: groups don't span domain->span"), std::string::npos);
    EXPECT_EQ(read->domainsOf(0)[3].groups[1].balanceMask.toList(), "72-95");
    EXPECT_EQ(read->domainsOf(0)[3].groups[1].capacity, 49152u);
    EXPECT_TRUE(read->notes.empty()) << "MC and NUMA only, no root domain line: nothing dates it";

    auto topo = loadTopology({TopologySpec::Kind::Preset, "kunpeng920-24"});
    ASSERT_TRUE(topo.ok()) << topo.error();
    auto build = [&](const char* profile) {
        DomainBuildOptions opt;
        opt.arch = Arch::Arm64;
        opt.cls = false;
        opt.profile = findProfile(profile);
        auto built = buildDomains(*topo, opt);
        EXPECT_TRUE(built.ok()) << built.error();
        return std::move(*built);
    };
    const DomainTree then = build("linux-5.6");
    EXPECT_EQ(diffDomainTrees(then, *read), std::vector<std::string>{});
    std::string log;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) log += line.substr(line.find("] ") + 2) + "\n";
    const std::string ours = domainTreeToKernelLog(then);
    EXPECT_EQ(ours.substr(0, log.size()), log);

    EXPECT_EQ(diffDomainTrees(build("linux-5.13"), *read),
              std::vector<std::string>{"cpu0 domain-2 NUMA groups: built {0-47} {48-71}, kernel {0-47} {48-95}"});
}

// A log as a mail quoted it: "> " marks, and a mailer's wrapping of long groups lines, after a
// comma ("... 1:{ span=1 cap=1007 }," / "> 2:{ span=2 ...") and inside a group ("0:{ span=0" /
// "> cap=1008 }"). The wrapped pieces are the groups line's (they were dropped, or misread as
// "span=0cap=1008"): every CPU has its four groups, as the same log unwrapped gives them.
TEST(KernelLog, AMailersWrappedGroupsLinesAreReadWhole) {
    const std::string wrapped = test::readFile(test::dataPath("quoted-kernel-logs/mail-wrapped-arm64-8node-v5.11.txt"));
    ASSERT_NE(wrapped.find("0:{ span=0\n> cap=1008 }"), std::string::npos);
    auto read = parseKernelLog(wrapped, "wrapped.txt");
    ASSERT_TRUE(read.ok()) << read.error();
    std::string unwrapped;
    std::istringstream in(wrapped);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("> ") && !line.starts_with(">  ")) {  // a wrapped piece: back onto its line
            if (!unwrapped.empty() && unwrapped.back() == '\n') unwrapped.pop_back();
            unwrapped += " " + line.substr(2) + "\n";
        } else {
            unwrapped += line + "\n";
        }
    }
    auto whole = parseKernelLog(unwrapped, "unwrapped.txt");
    ASSERT_TRUE(whole.ok()) << whole.error();
    ASSERT_EQ(read->builtFor.toList(), "0-7");
    for (int cpu = 0; cpu < 8; ++cpu) {
        ASSERT_FALSE(read->domainsOf(cpu).empty()) << cpu;
        EXPECT_EQ(read->domainsOf(cpu).front().groups.size(), 4u) << "cpu" << cpu;
    }
    EXPECT_EQ(diffDomainTrees(*read, *whole), std::vector<std::string>{});
    EXPECT_TRUE(read->warnings.empty()) << read->warnings.front();
}

TEST(KernelLog, BadLogsAreRefusedWithTheFileAndLine) {
    auto none = parseKernelLog("Linux version 6.1.0\nsmpboot: Total of 16 processors activated\n", "dmesg.txt");
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().find("dmesg.txt: no sched domain lines"), std::string::npos) << none.error();
    EXPECT_NE(none.error().find("sched_verbose"), std::string::npos);

    // 4.9's format (before "sched/debug: Print the scheduler topology group mask")
    auto old = parseKernelLog("CPU0 attaching sched-domain:\n domain 0: span 0-1 level SMT\n  groups: 0 1\n", "4.9.txt");
    ASSERT_FALSE(old.ok());
    EXPECT_NE(old.error().find("4.9.txt: a log from a kernel before 4.13"), std::string::npos) << old.error();

    const std::string head = "CPU0 attaching sched-domain(s):\n";
    const std::pair<std::string, std::string> bad[] = {
        {head + " domain-0: span=0-x level=SMT\n", "dmesg.txt:2: domain span"},
        {head + " domain-1: span=0-1 level=SMT\n", "dmesg.txt:2: domain-1 of CPU0 follows domain--1"},
        {head + " domain-0: span=0-1\n", "dmesg.txt:2: a domain line without level="},
        {head + " domain-0: span=0-1 level=SMT\n  groups: 0:{ span=0 }, 1:{ sp", "dmesg.txt:3: a group without its closing brace"},
        {head + " domain-0: span=0-1 level=SMT\n  groups: 0:{ span=0 cap=x }", "dmesg.txt:3: group capacity 'x'"},
        {head + "  groups: 0:{ span=0 }\n", "dmesg.txt:2: a groups line without its domain line"},
        {"CPU attaching sched-domain(s):\n", "dmesg.txt:1: a CPU attaching sched domains with no CPU number"},
        {"CPU99999 attaching sched-domain(s):\n", "dmesg.txt:1: CPU99999 attaching sched domains is past the 8192 CPUs the tool reads"},
        {"CPU99999999999 attaching NULL sched-domain.\n", "dmesg.txt:1: CPU99999999999 attaching sched domains is past the 8192"},
        {head + "root domain span: 0-q\n", "dmesg.txt:2: root domain span:"},
    };
    for (const auto& [text, message] : bad) {
        auto r = parseKernelLog(text, "dmesg.txt");
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().find(message), std::string::npos) << r.error();
        EXPECT_EQ(r.error().find('\n'), std::string::npos) << "one line: " << r.error();
    }
    auto missing = readKernelLog(resourcesDir() + "/kernel-logs/no-such-log.txt");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("no-such-log.txt: cannot open kernel log"), std::string::npos) << missing.error();
}

// A ring buffer that wrapped starts in the middle of a CPU's block: those lines belong to no
// CPU the log names, and are left out.
TEST(KernelLog, LinesBeforeTheFirstHeaderAreLeftOut) {
    const std::string log = logOf("x86-2s4n4c2t");
    const std::string wrapped = log.substr(log.find("  domain-1:"));
    auto read = parseKernelLog(wrapped, "dmesg");
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_TRUE(read->domainsOf(0).empty());
    EXPECT_EQ(read->domainsOf(1).size(), 4u);  // SMT, MC and two NUMA levels
    EXPECT_EQ(read->builtFor.toList(), "1-15");
}

std::string replacedAll(std::string text, const std::string& from, const std::string& to) {
    for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
    return text;
}

// Debian's 6.12 booted with isolcpus had CPU 0 busy with interrupts while it built the domains:
// its log shows "0:{ span=0 cap=1011 }" and every group holding CPU 0 13 short. That is no
// topology difference; a deficit the CPU's own group does not explain, or one too large to be
// interrupt time, still is.
TEST(KernelLog, CapacityLostToInterruptsAtBuildTimeIsNotADifference) {
    const std::string name = "linux-6.12-x86-2s4n4c2t-isolcpus";
    // (the sysfs lists the isolcpus CPUs: the build leaves them out as the kernel did)
    const DomainTree built = builtFor(name, "linux-6.12");
    const DomainTree* tree = &built;
    const std::string log = logOf(name);
    ASSERT_NE(log.find("0:{ span=0 cap=1011 }"), std::string::npos);

    auto read = parseKernelLog(log, name);
    ASSERT_TRUE(read.ok()) << read.error();
    std::vector<std::string> notes;
    EXPECT_EQ(diffDomainTrees(*tree, *read, &notes), std::vector<std::string>{});
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("scale_rt_capacity()): CPU 0 at 1011 of 1024;"), std::string::npos) << notes[0];

    // one group short by more than its CPUs' interrupt time: a difference, on the CPUs that print it
    auto oneOff = parseKernelLog(replacedAll(log, "8:{ span=8-9,12-15 cap=6144 }, 0:{ span=0-1,4-7 cap=6131 }",
                                             "8:{ span=8-9,12-15 cap=6144 }, 0:{ span=0-1,4-7 cap=6100 }"),
                                 name);
    ASSERT_TRUE(oneOff.ok()) << oneOff.error();
    const auto diff = diffDomainTrees(*tree, *oneOff);
    ASSERT_EQ(diff.size(), 6u);  // CPUs 8, 9 at NUMA domain-2 and 12-15 at domain-3
    EXPECT_EQ(diff[0], "cpu8 domain-2 NUMA groups: built {8-9,12-15} {0-1,4-7}, kernel {8-9,12-15} {0-1,4-7 cap=6100}");

    // CPU 0 at 900 is not interrupt time but another CPU (a LITTLE core built as a big one)
    std::string little = replacedAll(log, "span=0 cap=1011", "span=0 cap=900");
    little = replacedAll(replacedAll(little, "cap=2035", "cap=1924"), "cap=6131", "cap=6020");
    auto smaller = parseKernelLog(little, name);
    ASSERT_TRUE(smaller.ok()) << smaller.error();
    notes.clear();
    EXPECT_FALSE(diffDomainTrees(*tree, *smaller, &notes).empty());
    EXPECT_TRUE(notes.empty());
}

}  // namespace
}  // namespace schedscope
