// The running-kernel reader and the diff, on a debugfs/schedstat tree written in the kernel's
// layout from a known topology.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "domains/sd_flags.h"
#include "domains/kernel_domains_reader.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

std::string hexMask(const CpuSet& s) {
    // Kernel %*pb: 32-bit words, most significant first, comma separated.
    int words = std::max(1, (s.last() + 32) / 32);
    std::string out;
    char buf[16];
    for (int w = words - 1; w >= 0; --w) {
        uint32_t v = 0;
        for (int b = 0; b < 32; ++b)
            if (s.test(w * 32 + b)) v |= 1u << b;
        snprintf(buf, sizeof buf, "%08x", v);
        out += buf;
        if (w) out += ',';
    }
    return out;
}

// Writes what a 6.1 kernel exposes: debugfs name/flags and /proc/schedstat domain masks.
std::string writeKernelView(const DomainTree& tree, const std::string& name) {
    fs::path root = fs::path(SCHEDSCOPE_TEST_SCRATCH) / name;
    fs::remove_all(root);
    std::ofstream schedstat((fs::create_directories(root / "proc"), root / "proc/schedstat"));
    schedstat << "version 15\ntimestamp 4294892296\n";
    for (const auto& c : tree.cpus) {
        schedstat << "cpu" << c.cpu << " 0 0 0 0 0 0 0 0 0\n";
        for (size_t i = 0; i < c.domains.size(); ++i) {
            fs::path d = root / "sys/kernel/debug/sched/domains" / ("cpu" + std::to_string(c.cpu)) /
                         ("domain" + std::to_string(i));
            fs::create_directories(d);
            std::ofstream(d / "name") << c.domains[i].level << "\n";
            std::ofstream flags(d / "flags");
            for (const auto& f : flagNames(*tree.profile, c.domains[i].flags)) flags << f << " ";
            flags << "\n";
            schedstat << "domain" << i << " " << hexMask(c.domains[i].span) << " 0 0 0 0\n";
        }
    }
    return root.string();
}

TEST(KernelDomainsReader, RoundTripsAndDiffsAgainstTheBuilder) {
    std::string root = test::extractFixture("oracle/x86-naples-ccx-dies8/sysfs.tar.xz");
    auto topo = loadSysfsTopology(root, Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    auto built = buildDomains(*topo, {});
    ASSERT_TRUE(built.ok());

    auto kernel = readKernelDomains(writeKernelView(*built, "kernel-view-same"));
    ASSERT_TRUE(kernel.ok()) << kernel.error();
    EXPECT_EQ(kernel->domainsOf(0).size(), 5u);
    EXPECT_EQ(kernel->domainsOf(0)[2].level, "NODE");
    EXPECT_EQ(kernel->domainsOf(0)[2].span.toList(), "0-15");
    EXPECT_TRUE(diffDomainTrees(*built, *kernel).empty());

    // A kernel without the NODE level differs exactly there.
    DomainBuildOptions noNode;
    noNode.node = false;
    auto other = buildDomains(*topo, noNode);
    ASSERT_TRUE(other.ok());
    auto kernel2 = readKernelDomains(writeKernelView(*other, "kernel-view-nonode"));
    ASSERT_TRUE(kernel2.ok());
    auto diff = diffDomainTrees(*built, *kernel2);
    ASSERT_FALSE(diff.empty());
    EXPECT_NE(diff.front().find("levels differ: built SMT MC NODE NUMA NUMA, kernel SMT MC NUMA NUMA"), std::string::npos)
        << diff.front();
}

// 6.17 dropped SD_OVERLAP (overlapping NUMA groups are keyed on SD_NUMA): a 6.18 kernel's view
// matches the linux-6.18 build, while a 6.12 build differs from it by that flag on the NUMA
// levels only.
TEST(KernelDomainsReader, SdOverlapIsGoneSince617) {
    std::string root = test::extractFixture("oracle/x86-naples-ccx-dies8/sysfs.tar.xz");
    auto topo = loadSysfsTopology(root, Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    DomainBuildOptions o618, o612;
    o618.profile = findProfile("linux-6.18");
    o612.profile = findProfile("linux-6.12");
    auto built618 = buildDomains(*topo, o618);
    auto built612 = buildDomains(*topo, o612);
    ASSERT_TRUE(built618.ok() && built612.ok());
    EXPECT_TRUE(validateDomainTree(*built618).empty()) << "NUMA groups still overlap";
    auto kernel = readKernelDomains(writeKernelView(*built618, "kernel-view-618"));
    ASSERT_TRUE(kernel.ok()) << kernel.error();
    for (const auto& d : kernel->domainsOf(0)) EXPECT_FALSE(d.flags & SD_OVERLAP) << d.level;
    EXPECT_TRUE(diffDomainTrees(*built618, *kernel).empty());
    const auto diff = diffDomainTrees(*built612, *kernel);
    ASSERT_FALSE(diff.empty());
    for (const auto& line : diff) {
        EXPECT_NE(line.find("NUMA flags differ (built vs kernel): +SD_OVERLAP"), std::string::npos) << line;
    }
    EXPECT_NE(domainTreeToText(*built612).find("SD_OVERLAP"), std::string::npos);
    EXPECT_EQ(domainTreeToText(*built618).find("SD_OVERLAP"), std::string::npos);
    // the sched_verbose log prints the overlapping groups' balance masks all the same
    EXPECT_EQ(domainTreeToKernelLog(*built612), domainTreeToKernelLog(*built618));
}

TEST(KernelDomainsReader, MissingDebugfsIsAClearError) {
    auto r = readKernelDomains(SCHEDSCOPE_TEST_SCRATCH);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("sched_verbose"), std::string::npos) << r.error();
}

}  // namespace
}  // namespace schedscope
