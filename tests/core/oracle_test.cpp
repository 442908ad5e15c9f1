// Ground truth: the real kernel's sched domains for QEMU-booted topologies (tests/data/oracle).
// For every case the builder, fed the sysfs the guest saw, must produce the identical tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "domains/kernel_domains_reader.h"
#include "domains/kernel_log_reader.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace {

std::vector<std::string> oracleCases() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(test::dataPath("oracle")))
        if (e.is_directory() && std::filesystem::exists(e.path() / "kernel.json"))  // not recording/
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The oracle's and our domains of one CPU, as comparable text lines.
std::string describe(const nlohmann::json& domains, bool intervals) {
    std::ostringstream out;
    for (const auto& d : domains) {
        out << d["level"].get<std::string>() << " span=" << d["span"].get<std::string>() << " flags=";
        for (const auto& f : d["flags"]) out << f.get<std::string>() << ",";
        out << " groups=";
        for (const auto& g : d["groups"]) {
            out << "{" << g["span"].get<std::string>();
            if (g.contains("mask")) out << " mask=" << g["mask"].get<std::string>();
            out << "}";
        }
        // the balance intervals where the case recorded them (debugfs): sd_init()'s weight
        if (intervals)
            out << " interval=" << d["min_interval"].get<int>() << ".." << d["max_interval"].get<int>();
        out << "\n";
    }
    return out.str();
}

class OracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OracleTest, BuilderMatchesTheRealKernel) {
    const std::string name = GetParam();
    auto oracle = nlohmann::json::parse(test::readFile(test::dataPath("oracle/" + name + "/kernel.json")));
    std::string root = test::extractFixture("oracle/" + name + "/sysfs.tar.xz");

    auto arch = parseArch(oracle["arch"].get<std::string>());
    ASSERT_TRUE(arch.ok()) << arch.error();
    auto topo = loadSysfsTopology(root, *arch);
    ASSERT_TRUE(topo.ok()) << topo.error();

    DomainBuildOptions opt;
    opt.arch = *arch;
    opt.profile = findProfile(oracle["profile"].get<std::string>());
    ASSERT_NE(opt.profile, nullptr) << oracle["profile"];
    // the profile a trace from this kernel gets by its release (replay's default): the branch's,
    // or that of a stable release of it with backports that leave the domains as they are
    // (6.1.192 has 6.1.160's NI_RANDOM)
    const KernelProfile* byRelease = profileForKernelRelease(oracle["kernel"].get<std::string>());
    ASSERT_NE(byRelease, nullptr) << oracle["kernel"];
    EXPECT_TRUE(byRelease == opt.profile || byRelease->name.starts_with(opt.profile->name + "."))
        << oracle["kernel"] << " gets " << byRelease->name;
    const auto& cfg = oracle["config"];
    opt.config.schedSmt = cfg.value("SCHED_SMT", true);
    opt.config.schedMc = cfg.value("SCHED_MC", true);
    opt.config.schedCluster = cfg.value("SCHED_CLUSTER", true);
    opt.config.numa = cfg.value("NUMA", true);

    auto tree = buildDomains(*topo, opt);
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(validateDomainTree(*tree).empty());
    auto ours = domainTreeToJson(*tree);

    int compared = 0;
    for (const auto& [cpu, domains] : oracle["cpus"].items()) {
        const int id = std::stoi(cpu);
        ASSERT_LT(id, static_cast<int>(ours["cpus"].size()));
        const bool intervals = !domains.empty() && domains.front().contains("min_interval");
        EXPECT_EQ(describe(ours["cpus"][static_cast<size_t>(id)]["domains"], intervals), describe(domains, intervals))
            << name << " cpu" << cpu;
        ++compared;
    }
    EXPECT_EQ(compared, topo->onlineCount());

    // Where the case kept the kernel's own sched_verbose log of the build (kernel-log.txt), the
    // kernel log rendering is that log, line for line: attach order by root domain, group order
    // and capacities, the root domain lines, no line for an isolated CPU.
    // Read back, the log is the builder's tree. Four 6.12 boots and five 7.2 ones had CPUs busy with interrupts
    // while they built the domains: their groups print that lower capacity (scale_rt_capacity()),
    // which the diff takes off and notes, and which no rendering from the topology can know.
    const std::map<std::string, std::string> irqTimeInLog = {
        {"linux-6.12-x86-2s4n4c2t-isolcpus", "CPU 0 at 1011 of 1024;"},
        {"linux-6.12-x86-2s2d2c2t-memory-node-maxcpus12", "CPU 0 at 1013 of 1024;"},
        {"linux-6.12-x86-numa-ring6", "CPU 0 at 1012 of 1024;"},  // overlapping groups: the sum over their spans
        {"linux-6.12-x86-snc2-2s4c2t", "CPU 0 at 1010 of 1024;"},
        {"linux-7.2-x86-2s4n4c2t", "CPU 0 at 1003 of 1024;"},
        {"linux-7.2-x86-1s8c-interleaved-nodes", "CPU 0 at 1008 of 1024;"},
        {"linux-7.2-x86-2s2d2c2t-memory-node-maxcpus12", "CPU 0 at 1007 of 1024, CPU 1 at 1023 of 1024, CPU 4 at 1023"},
        {"linux-7.2-x86-snc2-2s4c2t", "CPU 3 at 1023 of 1024, CPU 9 at 1023 of 1024;"},
        {"linux-7.2-x86-2s4n2l2c2t-epyc", "CPU 0 at 1008 of 1024, CPU 21 at 1023 of 1024;"}};
    const std::string logPath = test::dataPath("oracle/" + name + "/kernel-log.txt");
    if (std::filesystem::exists(logPath)) {
        const std::string log = test::readFile(logPath);
        auto read = parseKernelLog(log, logPath);
        ASSERT_TRUE(read.ok()) << read.error();
        std::vector<std::string> notes;
        EXPECT_EQ(diffDomainTrees(*tree, *read, &notes), std::vector<std::string>{}) << name;
        if (auto it = irqTimeInLog.find(name); it != irqTimeInLog.end()) {
            ASSERT_EQ(notes.size(), 1u);
            EXPECT_NE(notes[0].find(it->second), std::string::npos) << notes[0];
        } else {
            EXPECT_EQ(notes, std::vector<std::string>{}) << name;
            EXPECT_EQ(domainTreeToKernelLog(*tree), log) << name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Kernel, OracleTest, ::testing::ValuesIn(oracleCases()),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

}  // namespace
}  // namespace schedscope
