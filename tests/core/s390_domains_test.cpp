// s390's topology table (arch/s390/kernel/topology.c): SMT, MC = the socket, BOOK, DRAWER, PKG.
// The machine is hwloc's 20s390-2g6s4c test system (an LPAR of 20 CPUs on 2 drawers, 4 books,
// 8 sockets; hwloc tests/hwloc/linux/20s390-2g6s4c.console), written out as the sysfs and
// /proc/cpuinfo such a kernel exports, and read back both directly and through hwloc's Linux
// backend (its Book and Drawer groups, exported as XML).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <hwloc.h>
#include <map>

#include "domains/domain_builder.h"
#include "domains/sd_flags.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

// drawer -> book -> socket -> its CPUs (one thread per core), as the hwloc console shows them
const std::vector<std::vector<std::vector<std::vector<int>>>> kMachine = {
    {{{0, 1, 2}, {10, 11, 12}}, {{3, 4, 5, 6}, {7, 8, 9}}},
    {{{13, 14}, {15}}, {{16}, {17, 18, 19}}},
};

void writeS390File(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text << "\n";
}

std::string listOf(const std::vector<int>& cpus) {
    CpuSet s;
    for (int c : cpus) s.set(c);
    return s.toList();
}

// the bitmap form sysfs writes next to each list ("00000007"; 20 CPUs fit in one word)
std::string maskOf(const std::vector<int>& cpus) {
    uint32_t bits = 0;
    for (int c : cpus) bits |= 1u << c;
    char text[9];
    std::snprintf(text, sizeof text, "%08x", bits);
    return text;
}

// NAME_list and NAME, as the kernel exports every sibling mask
void writeMask(const fs::path& dir, const std::string& name, const std::vector<int>& cpus) {
    writeS390File(dir / (name + "_list"), listOf(cpus));
    writeS390File(dir / name, maskOf(cpus));
}

// The sysfs and cpuinfo of the machine under `root`; without cpuinfo when `withCpuinfo` is false.
std::string writeS390Snapshot(const std::string& name, bool withCpuinfo) {
    const fs::path root = fs::path(SCHEDSCOPE_TEST_SCRATCH) / name;
    fs::remove_all(root);
    const fs::path cpuDir = root / "sys/devices/system/cpu";
    std::vector<int> all;
    int socketId = 0, bookId = 0;
    for (size_t d = 0; d < kMachine.size(); ++d) {
        std::vector<int> drawer;
        for (const auto& book : kMachine[d])
            for (const auto& socket : book) drawer.insert(drawer.end(), socket.begin(), socket.end());
        for (const auto& book : kMachine[d]) {
            std::vector<int> bookCpus;
            for (const auto& socket : book) bookCpus.insert(bookCpus.end(), socket.begin(), socket.end());
            for (const auto& socket : book) {
                for (int cpu : socket) {
                    const fs::path t = cpuDir / ("cpu" + std::to_string(cpu)) / "topology";
                    writeMask(t, "thread_siblings", {cpu});
                    writeMask(t, "core_siblings", socket);
                    writeMask(t, "book_siblings", bookCpus);
                    writeMask(t, "drawer_siblings", drawer);
                    writeS390File(t / "physical_package_id", std::to_string(socketId));
                    writeS390File(t / "core_id", std::to_string(cpu));
                    writeS390File(t / "book_id", std::to_string(bookId));
                    writeS390File(t / "drawer_id", std::to_string(d));
                    all.push_back(cpu);
                }
                ++socketId;
            }
            ++bookId;
        }
    }
    writeS390File(cpuDir / "online", "0-19");
    writeS390File(cpuDir / "possible", "0-19");
    writeS390File(root / "sys/devices/system/node/node0/cpulist", "0-19");
    writeS390File(root / "sys/devices/system/node/node0/distance", "10");
    writeS390File(root / "sys/devices/system/node/online", "0");
    // as hwloc-gather-topology records the machine's uname: hwloc's Linux backend reads books
    // and drawers only on s390
    writeS390File(root / "proc/hwloc-nofile-info", "Architecture: s390x");
    if (withCpuinfo) {
        std::string info = "vendor_id       : IBM/S390\n# processors    : 20\n";
        for (int cpu : all) info += "processor " + std::to_string(cpu) + ": version = 00,  identification = 0A2B3C,  machine = 3906\n";
        writeS390File(root / "proc/cpuinfo", info);
    }
    return root.string();
}

DomainTree buildS390(const Topology& t, const char* profile = "linux-6.18") { return test::buildValidDomains(t, t.arch, profile); }

// level name -> span of `cpu`'s domains
std::map<std::string, std::string> levelSpans(const DomainTree& tree, int cpu) {
    std::map<std::string, std::string> out;
    for (const auto& d : tree.domainsOf(cpu)) out[d.level] = d.span.toList();
    return out;
}

void expectS390Domains(const Topology& t) {
    EXPECT_EQ(t.arch, Arch::S390);
    const DomainTree tree = buildS390(t);
    EXPECT_FALSE(tree.clsEnabled) << "s390 has no SCHED_CLUSTER";
    // cpu0: its socket, its book (two sockets), its drawer (two books), the machine
    using Spans = std::map<std::string, std::string>;
    EXPECT_EQ(levelSpans(tree, 0), (Spans{{"MC", "0-2"}, {"BOOK", "0-2,10-12"}, {"DRAWER", "0-12"}, {"PKG", "0-19"}}));
    ASSERT_FALSE(tree.domainsOf(0).empty());
    EXPECT_TRUE(tree.domainsOf(0).front().flags & SD_SHARE_LLC) << "MC: cpu_core_flags()";
    for (size_t i = 1; i < tree.domainsOf(0).size(); ++i)
        EXPECT_FALSE(tree.domainsOf(0)[i].flags & SD_SHARE_LLC) << tree.domainsOf(0)[i].level;
    // cpu15 is alone in its socket (no MC) and its book holds one more socket
    EXPECT_EQ(levelSpans(tree, 15), (Spans{{"BOOK", "13-15"}, {"DRAWER", "13-19"}, {"PKG", "0-19"}}));
    EXPECT_EQ(levelSpans(tree, 17), (Spans{{"MC", "17-19"}, {"BOOK", "16-19"}, {"DRAWER", "13-19"}, {"PKG", "0-19"}}));
    // before 6.7 the last level was DIE
    EXPECT_EQ(levelSpans(buildS390(t, "linux-6.6"), 0).count("DIE"), 1u);
}

}  // namespace

TEST(S390Domains, ASysfsSnapshotBuildsSocketBookAndDrawerLevels) {
    const std::string root = writeS390Snapshot("s390-sysfs", true);
    EXPECT_EQ(detectSnapshotArch(root), std::optional<Arch>(Arch::S390)) << "cpuinfo's vendor_id IBM/S390";
    auto topo = loadSysfsTopology(root, Arch::S390);
    ASSERT_TRUE(topo.ok()) << topo.error();
    EXPECT_EQ(topo->cpus[3].bookCpus.toList(), "3-9");
    EXPECT_EQ(topo->cpus[3].drawerCpus.toList(), "0-12");
    expectS390Domains(*topo);
    // without cpuinfo (and hwloc's note of the arch) the book files tell
    const std::string bare = writeS390Snapshot("s390-sysfs-bare", false);
    fs::remove(fs::path(bare) / "proc/hwloc-nofile-info");
    EXPECT_EQ(detectSnapshotArch(bare), std::optional<Arch>(Arch::S390));
}

TEST(S390Domains, HwlocsBookAndDrawerGroupsGiveTheSameDomains) {
    const std::string root = writeS390Snapshot("s390-hwloc", true);
    // hwloc's Linux backend on the snapshot, exported as XML (what lstopo --of xml would write)
    setenv("HWLOC_FSROOT", root.c_str(), 1);
    setenv("HWLOC_COMPONENTS", "linux,stop", 1);
    hwloc_topology_t ht = nullptr;
    ASSERT_EQ(hwloc_topology_init(&ht), 0);
    hwloc_topology_set_type_filter(ht, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_ALL);
    const int loaded = hwloc_topology_load(ht);
    unsetenv("HWLOC_FSROOT");
    unsetenv("HWLOC_COMPONENTS");
    ASSERT_EQ(loaded, 0);
    const std::string xml = (fs::path(SCHEDSCOPE_TEST_SCRATCH) / "s390-hwloc.xml").string();
    ASSERT_EQ(hwloc_topology_export_xml(ht, xml.c_str(), 0), 0);
    hwloc_topology_destroy(ht);
    auto topo = loadHwlocXmlDetectArch(xml);
    ASSERT_TRUE(topo.ok()) << topo.error();
    EXPECT_EQ(topo->cpus[3].bookCpus.toList(), "3-9") << "hwloc's Book group";
    EXPECT_EQ(topo->cpus[3].drawerCpus.toList(), "0-12") << "hwloc's Drawer group";
    expectS390Domains(*topo);
}

}  // namespace schedscope
