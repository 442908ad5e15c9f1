// CPUs the kernel builds no sched domains for: isolcpus= (sys/devices/system/cpu/isolated) and
// cgroup v2 isolated cpuset partitions (cpuset.cpus.isolated). build_sched_domains() covers the
// housekeeping CPUs only; the isolated ones stay attached to NULL and no span holds them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "sim/simulator.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "workload/workload_spec.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

// A real machine's snapshot (4 packages x 2 nodes, 64 CPUs) seen through a root of links, so a
// test can add files to sys/devices/system/cpu without copying (or touching) the fixture.
fs::path machineCopy(const std::string& tag) {
    const std::string dir = test::extractFixture("topologies/sysfs/64amd64-4p2n4ca2co.tar.bz2");
    const fs::path system = fs::path(dir) / "64amd64-4p2n4ca2co/fsroot/sys/devices/system";
    fs::path copy = fs::temp_directory_path() / ("schedscope-isolated-" + tag + "-" + std::to_string(getpid()));
    fs::remove_all(copy);
    fs::create_directories(copy / "sys/devices/system/cpu");
    fs::create_directory_symlink(system / "node", copy / "sys/devices/system/node");
    for (const auto& e : fs::directory_iterator(system / "cpu"))
        fs::create_symlink(e.path(), copy / "sys/devices/system/cpu" / e.path().filename());
    return copy;
}

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    fs::remove(file);  // a link into the fixture: replace it, never write through it
    std::ofstream(file, std::ios::trunc) << text;
}

}  // namespace

TEST(IsolatedCpus, IsolcpusAndIsolatedPartitionsGetNoDomainsAndNoSpanHoldsThem) {
    const fs::path root = machineCopy("spans");
    write(root / "sys/devices/system/cpu/isolated", "4-7\n");
    write(root / "sys/fs/cgroup/cpuset.cpus.isolated", "40\n");
    auto topo = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    EXPECT_EQ(topo->isolated.toList(), "4-7,40");
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_TRUE(validateDomainTree(*tree).empty());
    EXPECT_EQ(tree->isolated.toList(), "4-7,40");
    for (int cpu : topo->onlineCpus().toVector()) {
        const bool isolated = topo->isolated.test(cpu);
        EXPECT_EQ(tree->domainsOf(cpu).empty(), isolated) << "cpu" << cpu;
        for (const auto& d : tree->domainsOf(cpu)) {
            EXPECT_FALSE(d.span.intersects(topo->isolated)) << "cpu" << cpu << " " << d.level << " " << d.span.toList();
            for (size_t g = 0; g < d.groups.size(); ++g) EXPECT_FALSE(d.groups[g].span.intersects(topo->isolated));
        }
    }
    // the housekeeping CPUs' top domain spans all of them, as without isolation minus the five
    const auto& top = tree->domainsOf(0).back();
    EXPECT_EQ(top.span, topo->onlineCpus().minus(topo->isolated));
    EXPECT_NE(domainTreeToText(*tree).find("isolated (no sched domains): 4-7,40"), std::string::npos);
    // boot never attaches an isolated CPU: no line for it, and the root domain leaves it out (the
    // default profile is past 6.10, whose line has no capacity)
    const std::string log = domainTreeToKernelLog(*tree);
    EXPECT_EQ(log.find("CPU4 attaching"), std::string::npos);
    EXPECT_NE(log.find("CPU3 attaching sched-domain(s):"), std::string::npos);
    EXPECT_NE(log.find("\nroot domain span: " + top.span.toList() + "\n"), std::string::npos) << log.substr(log.size() - 200);
    EXPECT_EQ(domainTreeToJson(*tree)["isolated"], "4-7,40");
    fs::remove_all(root);
}

// sd_init()'s balance intervals scale with the level's CPUs: up to 7.0 all the level's mask
// holds, since 7.1 ("sched/topology: Compute sd_weight considering cpuset partitions") only those
// domains are built for, so the isolated CPUs no longer stretch them.
TEST(IsolatedCpus, SinceSevenOneBalanceIntervalsCountOnlyTheDomainsCpus) {
    const fs::path root = machineCopy("weight");
    write(root / "sys/devices/system/cpu/isolated", "8-15\n");
    auto topo = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    for (const char* profile : {"linux-7.0", "linux-7.1"}) {
        SCOPED_TRACE(profile);
        auto tree = buildDomains(*topo, {.profile = findProfile(profile)});
        ASSERT_TRUE(tree.ok()) << tree.error();
        const bool since71 = std::string(profile) == "linux-7.1";
        for (const SchedDomain& d : tree->domainsOf(0)) {
            // before 7.1 the level's mask, the span with the isolated CPUs it would have held
            const auto spanWeight = static_cast<unsigned>(d.span.count());
            if (since71) EXPECT_EQ(d.minInterval, spanWeight) << d.level << " " << d.span.toList();
            else EXPECT_GE(d.minInterval, spanWeight) << d.level << " " << d.span.toList();
            EXPECT_EQ(d.maxInterval, 2 * d.minInterval);
        }
        // CPU 0's top domain spans the 56 housekeeping CPUs of all 64
        EXPECT_EQ(tree->domainsOf(0).back().minInterval, since71 ? 56u : 64u);
    }
    fs::remove_all(root);
}

TEST(IsolatedCpus, ABadIsolatedListIsAnErrorNamingTheFile) {
    const fs::path root = machineCopy("bad");
    write(root / "sys/devices/system/cpu/isolated", "4-x\n");
    auto topo = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_FALSE(topo.ok());
    EXPECT_NE(topo.error().find("sys/devices/system/cpu/isolated"), std::string::npos) << topo.error();
    fs::remove_all(root);
}

// The simulator: the balancer never moves a task onto an isolated CPU (no domain spans it),
// while a task pinned there runs there.
TEST(IsolatedCpus, TasksReachAnIsolatedCpuOnlyWhenPinnedToIt) {
    const fs::path root = machineCopy("sim");
    write(root / "sys/devices/system/cpu/isolated", "2-3\n");
    auto topo = loadSysfsTopology(root.string(), Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    auto cpuTimeOn = [&](const std::string& spec, int cpu) {
        auto wl = workload::parseWorkloadSpec(spec, static_cast<int>(topo->cpus.size()));
        EXPECT_TRUE(wl.ok()) << wl.error();
        sim::SimOptions o;
        o.durationS = 0.2;
        auto st = sim::simulate(*topo, *tree, *wl, o);
        EXPECT_TRUE(st.ok()) << st.error();
        int64_t ns = 0, total = 0;
        for (const auto& t : (*st)->tasks) {
            ns += t.cpuTime.of(cpu);
            total += t.cpuTime.total();
        }
        EXPECT_GT(total, 0);
        return ns;
    };
    // 8 busy threads on CPUs 0-7: six housekeeping CPUs, so two must share, yet 2-3 stay idle
    EXPECT_EQ(cpuTimeOn("sysbench-cpu:threads=8,cpus=0-7", 2), 0);
    EXPECT_EQ(cpuTimeOn("sysbench-cpu:threads=8,cpus=0-7", 3), 0);
    EXPECT_GT(cpuTimeOn("sysbench-cpu:threads=1,cpus=3", 3), 0);
    fs::remove_all(root);
}

}  // namespace schedscope
