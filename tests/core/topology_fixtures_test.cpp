// Every real-machine topology fixture loads (or fails with a clear message), builds sched
// domains and passes the domain validator.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <hwloc.h>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/snapshot_archive.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

std::string testName(const ::testing::TestParamInfo<std::string>& info) { return test::fileTestName(info.param); }

void expectValidDomains(const Topology& topo, const std::string& what) {
    ASSERT_TRUE(topo.check().ok()) << what << ": " << topo.check().error();
    for (bool cls : {true, false})
        for (bool node : {true, false}) {
            DomainBuildOptions opt;
            opt.arch = topo.arch;
            opt.cls = cls;
            opt.node = node;
            auto tree = buildDomains(topo, opt);
            ASSERT_TRUE(tree.ok()) << what << ": " << tree.error();
            auto errors = validateDomainTree(*tree);
            EXPECT_TRUE(errors.empty()) << what << " cls=" << cls << " node=" << node << ": " << errors.front();
            // Every online CPU of a multi-CPU machine gets at least one domain unless the kernel
            // would refuse the topology (then it says why).
            if (topo.onlineCount() > 1 && tree->warnings.empty())
                topo.onlineCpus().forEach([&](int c) { EXPECT_FALSE(tree->domainsOf(c).empty()) << what << " cpu" << c; });
        }
}

class XmlFixture : public ::testing::TestWithParam<std::string> {};
TEST_P(XmlFixture, LoadsAndBuildsValidDomains) {
    auto topo = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/" + GetParam()));
    ASSERT_TRUE(topo.ok()) << topo.error();
    EXPECT_GT(topo->onlineCount(), 0);
    expectValidDomains(*topo, GetParam());
}
INSTANTIATE_TEST_SUITE_P(Hwloc, XmlFixture, ::testing::ValuesIn(test::fixtureFiles("topologies/xml", ".xml")), testName);

class SysfsFixture : public ::testing::TestWithParam<std::string> {};
TEST_P(SysfsFixture, LoadsAndBuildsValidDomains) {
    // The snapshot's top directory holds sys/ (or fsroot/sys/ for x86+linux dumps).
    auto found = findSnapshotRoot(test::extractFixture("topologies/sysfs/" + GetParam()));
    ASSERT_TRUE(found.ok()) << found.error();
    const std::string root = *found;
    auto arch = detectSnapshotArch(root);
    auto topo = loadSysfsTopology(root, arch.value_or(Arch::X86_64));
    ASSERT_TRUE(topo.ok()) << topo.error();
    expectValidDomains(*topo, GetParam());
}
INSTANTIATE_TEST_SUITE_P(Hwloc, SysfsFixture, ::testing::ValuesIn(test::fixtureFiles("topologies/sysfs", ".tar.bz2")), testName);

TEST(TopologyFixtures, SysfsSnapshotMatchesHwlocExportOfTheSameMachine) {
    // The sysfs dump and the XML hwloc made from it must give the same domains (x86 machine).
    std::string dir = test::extractFixture("topologies/sysfs/96em64t-4no4pa3ca2co.tar.bz2");
    auto fromSysfs = loadSysfsTopology(dir + "/96em64t-4n4d3ca2co", Arch::X86_64);
    ASSERT_TRUE(fromSysfs.ok()) << fromSysfs.error();
    auto fromXml = loadHwlocXml(test::dataPath("topologies/xml/96em64t-4no4pa3ca2co.xml"), Arch::X86_64);
    ASSERT_TRUE(fromXml.ok()) << fromXml.error();
    EXPECT_EQ(fromSysfs->onlineCpus(), fromXml->onlineCpus());
    auto a = buildDomains(*fromSysfs, {});
    auto b = buildDomains(*fromXml, {});
    ASSERT_TRUE(a.ok() && b.ok());
    for (int cpu : fromSysfs->onlineCpus().toVector()) {
        ASSERT_EQ(a->domainsOf(cpu).size(), b->domainsOf(cpu).size()) << "cpu" << cpu;
        for (size_t i = 0; i < a->domainsOf(cpu).size(); ++i)
            EXPECT_EQ(a->domainsOf(cpu)[i].span, b->domainsOf(cpu)[i].span) << "cpu" << cpu << " level " << i;
    }
}

// AMD family 15h: a compute unit's two cores are SMT siblings to the kernel (match_smt() on their
// cu_id), as the sysfs a real kernel exported of a 4-socket Opteron 62xx says (thread_siblings
// 0-1). hwloc's export of such a machine shows two cores sharing an L2: read as they are, they
// made a CLS level of each pair where the kernel has SMT.
TEST(TopologyFixtures, AmdFamily15hComputeUnitsAreSmtFromXmlAsFromSysfs) {
    auto root = findSnapshotRoot(test::extractFixture("topologies/sysfs/64amd64-4s2n4ca2co.tar.bz2"));
    ASSERT_TRUE(root.ok()) << root.error();
    auto fromSysfs = loadSysfsTopology(*root, Arch::X86_64);
    ASSERT_TRUE(fromSysfs.ok()) << fromSysfs.error();
    for (const char* xml : {"topologies/xml/64amd64-4p2n4ca2co.xml", "topologies/xml/AMD-15h-Bulldozer-4xOpteron-6272.xml"}) {
        auto fromXml = loadHwlocXml(test::dataPath(xml), Arch::X86_64);
        ASSERT_TRUE(fromXml.ok()) << fromXml.error();
        EXPECT_EQ(fromXml->cpuFamily, 0x15) << xml;
        EXPECT_EQ(fromXml->cpus[0].threadSiblings.toList(), "0-1") << xml;
        auto tree = buildDomains(*fromXml, {});
        ASSERT_TRUE(tree.ok()) << tree.error();
        EXPECT_EQ(tree->domainsOf(0).front().level, "SMT") << xml;
        EXPECT_EQ(tree->domainsOf(0).front().span.toList(), "0-1") << xml;
        for (const auto& d : tree->domainsOf(0)) EXPECT_NE(d.level, "CLS") << xml;
    }
    EXPECT_EQ(fromSysfs->cpus[0].threadSiblings.toList(), "0-1");
    auto fromXml = loadHwlocXml(test::dataPath("topologies/xml/64amd64-4p2n4ca2co.xml"), Arch::X86_64);
    ASSERT_TRUE(fromXml.ok());
    for (int cpu : fromSysfs->onlineCpus().toVector())
        EXPECT_EQ(fromXml->cpus[static_cast<size_t>(cpu)].threadSiblings, fromSysfs->cpus[static_cast<size_t>(cpu)].threadSiblings)
            << "cpu" << cpu;
}

TEST(TopologyFixtures, CpusOfAnOfflineNodeGoToTheFirstNodeFromXmlAsFromSysfs) {
    // The R630 with NUMA node 0 offline: its CPUs are on no node. Both inputs put them on the
    // first node, say so, and build the same domains (no NUMA level: there is one node, whose
    // distances nothing gives).
    auto root = findSnapshotRoot(test::extractFixture("topologies/sysfs/offline-cpu0-node0.tar.bz2"));
    ASSERT_TRUE(root.ok()) << root.error();
    auto fromSysfs = loadSysfsTopology(*root, Arch::X86_64);
    auto fromXml = loadHwlocXml(test::dataPath("topologies/xml/offline-cpu0-node0.xml"), Arch::X86_64);
    ASSERT_TRUE(fromSysfs.ok()) << fromSysfs.error();
    ASSERT_TRUE(fromXml.ok()) << fromXml.error();
    for (const Topology* t : {&*fromSysfs, &*fromXml}) {
        ASSERT_EQ(t->nodes.size(), 1u);
        EXPECT_EQ(t->nodes[0].id, 1);
        EXPECT_EQ(t->nodes[0].cpus, t->onlineCpus());
        bool said = false;
        for (const auto& w : t->warnings) said = said || w.find("CPUs 4,6,8,10,12,14,16,18,20 are on no NUMA node") != std::string::npos;
        EXPECT_TRUE(said);
    }
    auto a = buildDomains(*fromSysfs, {});
    auto b = buildDomains(*fromXml, {});
    ASSERT_TRUE(a.ok() && b.ok());
    fromSysfs->onlineCpus().forEach([&](int cpu) {
        ASSERT_EQ(a->domainsOf(cpu).size(), b->domainsOf(cpu).size()) << "cpu" << cpu;
        for (size_t i = 0; i < a->domainsOf(cpu).size(); ++i) {
            EXPECT_EQ(a->domainsOf(cpu)[i].span, b->domainsOf(cpu)[i].span) << "cpu" << cpu << " level " << i;
            EXPECT_EQ(a->domainsOf(cpu)[i].level, b->domainsOf(cpu)[i].level) << "cpu" << cpu << " level " << i;
        }
        EXPECT_EQ(b->domainsOf(cpu).back().level, "PKG");
    });
}

TEST(TopologyFixtures, AMemorySideCacheIsNotTheCpusLastLevelCache) {
    // Knights Landing in SNC4 mode: hwloc 1.x exported the MCDRAM cache as an "L3" of subtype
    // MemorySideCache over each node's 16 CPUs. The CPUs' own last level is the 2-core L2 tile,
    // as the kernel's cpu_coregroup_mask() has it, so no 16-CPU LLC domain is built.
    auto topo = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/64intel64-heteromem.xml"));
    ASSERT_TRUE(topo.ok()) << topo.error();
    ASSERT_NE(topo->llc(0), nullptr);
    EXPECT_EQ(topo->llc(0)->level, 2);
    EXPECT_EQ(topo->llcCpus(0), CpuSet::parseList("0-1,16-17,32-33,48-49").value());
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    for (const auto& d : tree->domainsOf(0))
        if (d.flags & SD_SHARE_LLC) {
            EXPECT_LE(d.span.count(), 8) << d.level;
        }
    EXPECT_EQ(tree->domainsOf(0).back().span.count(), 64);
}

TEST(TopologyErrors, MalformedAndMissingInputsNameTheFile) {
    std::string dir = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/bad-inputs";
    fs::create_directories(dir);
    std::string truncated = dir + "/truncated.xml";
    std::string full = test::readFile(test::dataPath("topologies/xml/16amd64-4distances.xml"));
    std::ofstream(truncated) << full.substr(0, full.size() / 2);
    auto t = loadHwlocXml(truncated, Arch::X86_64);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().find("truncated.xml"), std::string::npos) << t.error();

    std::string notXml = dir + "/not.xml";
    std::ofstream(notXml) << "hello\n";
    EXPECT_FALSE(loadHwlocXml(notXml, Arch::X86_64).ok());
    auto missing = loadHwlocXml(dir + "/does-not-exist.xml", Arch::X86_64);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("does-not-exist.xml"), std::string::npos);

    auto noSysfs = loadSysfsTopology(dir, Arch::X86_64);
    ASSERT_FALSE(noSysfs.ok());
    EXPECT_NE(noSysfs.error().find(dir), std::string::npos);

    auto huge = loadHwlocSynthetic("pack:1000 core:1000 pu:100", Arch::X86_64);
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().find("100000000 CPUs"), std::string::npos) << huge.error();
    EXPECT_FALSE(loadHwlocSynthetic("pack:2 bogus:3", Arch::X86_64).ok());
    // hwloc stops at a NUL byte: the size guard must not read past it (hwloc built 222222 CPUs)
    auto nul = loadHwlocSynthetic(std::string("222222\0:2", 9), Arch::X86_64);
    ASSERT_FALSE(nul.ok());
    EXPECT_NE(nul.error().find("NUL byte"), std::string::npos) << nul.error();
    // a CPU numbered beyond the limit is an error, not a CPU quietly left out
    auto farIndex = loadHwlocSynthetic("pack:1 core:2 pu:1(indexes=0,9000)", Arch::X86_64);
    ASSERT_FALSE(farIndex.ok());
    EXPECT_NE(farIndex.error().find("index 9000 is beyond the limit of 8192 CPUs"), std::string::npos) << farIndex.error();
    // the same machine as XML (hwloc's own export) is refused too
    const std::string farXml = dir + "/cpu-9000.xml";
    {
        hwloc_topology_t ht = nullptr;
        ASSERT_EQ(hwloc_topology_init(&ht), 0);
        ASSERT_EQ(hwloc_topology_set_synthetic(ht, "pack:1 core:2 pu:1(indexes=0,9000)"), 0);
        ASSERT_EQ(hwloc_topology_load(ht), 0);
        ASSERT_EQ(hwloc_topology_export_xml(ht, farXml.c_str(), 0), 0);
        hwloc_topology_destroy(ht);
    }
    auto farFile = loadHwlocXml(farXml, Arch::X86_64);
    ASSERT_FALSE(farFile.ok());
    EXPECT_NE(farFile.error().find("cpu-9000.xml"), std::string::npos) << farFile.error();
    EXPECT_NE(farFile.error().find("last is 9000"), std::string::npos) << farFile.error();

    auto preset = loadTopology({TopologySpec::Kind::Preset, "no-such-machine"});
    ASSERT_FALSE(preset.ok());
    EXPECT_NE(preset.error().find("no-such-machine"), std::string::npos);
    EXPECT_NE(preset.error().find("kunpeng920-24"), std::string::npos) << "lists the known presets";
}

// A snapshot whose online list names a CPU without its directory is broken, not a smaller
// machine: the error names both. And without /proc/cpuinfo the topology files tell the arch:
// die_id is x86's (TOPOLOGY_DIE_SYSFS); a 5.16+ kernel's cluster files without it, arm64's.
TEST(TopologyErrors, ASnapshotMissingAnOnlineCpuAndTheArchOfOneWithoutCpuinfo) {
    const fs::path arm = test::extractFixture("oracle/arm64-kunpeng-1s2n-4cl-dt/sysfs.tar.xz");
    const fs::path x86 = test::extractFixture("oracle/x86-2s8c2t/sysfs.tar.xz");
    ASSERT_FALSE(fs::exists(arm / "proc/cpuinfo"));
    EXPECT_EQ(detectSnapshotArch(arm.string()), std::optional<Arch>(Arch::Arm64));
    EXPECT_EQ(detectSnapshotArch(x86.string()), std::optional<Arch>(Arch::X86_64));
    auto t = loadTopology({TopologySpec::Kind::SysfsRoot, arm.string()});
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->arch, Arch::Arm64);

    const fs::path copy = fs::path(SCHEDSCOPE_TEST_SCRATCH) / ("missing-cpu-" + std::to_string(getpid()));
    fs::remove_all(copy);
    fs::copy(x86, copy, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::remove_all(copy / "sys/devices/system/cpu/cpu5");
    auto broken = loadSysfsTopology(copy.string(), Arch::X86_64);
    ASSERT_FALSE(broken.ok());
    EXPECT_EQ(broken.error(), (copy / "sys/devices/system/cpu/online").string() + " lists cpu5 but " +
                                  (copy / "sys/devices/system/cpu/cpu5").string() + " is missing");
    fs::remove_all(copy);
}

// A CPU its node's CPU list leaves out (a hand-edited sidecar, a mutated snapshot) would get a
// NODE/NUMA span without itself: refused by name, before the builder indexes an empty span.
TEST(TopologyErrors, ACpuMissingFromItsOwnNodeIsRefused) {
    auto t = loadTopology({TopologySpec::Kind::Preset, "epyc7601-2s"});
    ASSERT_TRUE(t.ok()) << t.error();
    ASSERT_TRUE(t->check().ok());
    Topology broken = *t;
    const int cpu = broken.nodes.front().cpus.first();
    broken.nodes.front().cpus.reset(cpu);
    auto st = broken.check();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("cpu" + std::to_string(cpu) + " is on NUMA node " + std::to_string(broken.nodes.front().id) +
                              " whose CPU list"),
              std::string::npos)
        << st.error();
    auto tree = buildDomains(broken, {});
    ASSERT_FALSE(tree.ok());
    EXPECT_EQ(tree.error(), st.error());
}

TEST(TopologyLimits, FourThousandCpusBuildQuickly) {
    auto t = loadHwlocSynthetic("pack:8 numa:2 l3:4 core:32 pu:2", Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->onlineCount(), 4096);
    auto tree = buildDomains(*t, {});
    ASSERT_TRUE(tree.ok());
    EXPECT_TRUE(validateDomainTree(*tree).empty());
}

}  // namespace
}  // namespace schedscope
