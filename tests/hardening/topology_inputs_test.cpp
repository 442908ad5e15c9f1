// Bad-input catalogue, topology rows. Sysfs snapshots are written here, file by file, so each
// test shows exactly which file is missing or odd.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include <hwloc.h>
#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "hardening_support.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/snapshot_archive.h"
#include "topology/sysfs_loader.h"
#include "topology/topology_format.h"
#include "trace_topology.h"

using namespace schedscope;
using namespace schedscope::hardening;
namespace fs = std::filesystem;

namespace {

// A sysfs snapshot of `cpus` single-threaded cores in one package, written file by file.
class SysfsTree {
public:
    SysfsTree(const std::string& name, int cpus) : root_(scratchPath("sysfs/" + name)) {
        fs::remove_all(root_);
        const std::string all = "0-" + std::to_string(cpus - 1);
        for (int c = 0; c < cpus; ++c) {
            const std::string t = cpuDir(c) + "/topology/";
            put(t + "thread_siblings_list", std::to_string(c));
            put(t + "core_siblings_list", all);
            put(t + "package_cpus_list", all);
            put(t + "physical_package_id", "0");
            put(t + "core_id", std::to_string(c));
        }
        put("sys/devices/system/cpu/online", all);
    }
    std::string cpuDir(int c) const { return root_ + "/sys/devices/system/cpu/cpu" + std::to_string(c); }
    void put(const std::string& rel, const std::string& text) const {
        const fs::path p = rel.rfind(root_, 0) == 0 ? fs::path(rel) : fs::path(root_) / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text << "\n";
    }
    void node(int id, const std::string& cpulist, const std::string& distance) const {
        const std::string d = "sys/devices/system/node/node" + std::to_string(id) + "/";
        put(d + "cpulist", cpulist);
        put(d + "distance", distance);
    }
    const std::string& root() const { return root_; }

private:
    std::string root_;
};

void expectValidDomains(const Topology& t, std::vector<std::string> expectedWarnings = {}) {
    ASSERT_TRUE(t.check().ok()) << t.check().error();
    auto tree = buildDomains(t, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_EQ(tree->warnings, expectedWarnings);
    const auto errors = validateDomainTree(*tree);
    EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(BadTopology, MalformedXml) {
    const std::string cut = scratchPath("xml/cut.xml");
    writeFile(cut, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n <object type=\"Machine\" os_index=\"0\"");
    auto a = loadHwlocXml(cut, Arch::X86_64);
    ASSERT_FALSE(a);
    // hwloc's own reason (its parser's first complaint, HWLOC_XML_VERBOSE), not "it failed"
    EXPECT_TRUE(a.error().starts_with(cut + ": malformed hwloc XML (")) << a.error();
    EXPECT_EQ(a.error().find("hwloc failed to load it"), std::string::npos) << a.error();
    EXPECT_EQ(a.error().find('\n'), std::string::npos) << a.error();
    EXPECT_EQ(a.error().find(cut, 1), std::string::npos) << "the file is named once: " << a.error();

    // a distances element where an object was expected (a hand-written export)
    const std::string misplaced = scratchPath("xml/misplaced.xml");
    writeFile(misplaced, R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" allowed_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" allowed_nodeset="0x00000001" gp_index="1">
    <object type="Package" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="2">
      <distances2 type="NUMANode" nbobjs="1" kind="5" indexing="os"><indexes length="2">0 </indexes></distances2>
      <object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="3"/>
    </object>
  </object>
</topology>
)");
    auto m = loadHwlocXml(misplaced, Arch::X86_64);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error(), misplaced + ": malformed hwloc XML (invalid special object child distances2)");

    const std::string notXml = scratchPath("xml/binary.xml");
    writeFile(notXml, std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    auto b = loadHwlocXml(notXml, Arch::X86_64);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error(), notXml + ": not an hwloc XML topology (no <topology> element at the start)");
}

// Two PUs with one os_index in an export (edited by hand): hwloc keeps both when their cpusets
// differ, and drops one when they are the same, leaving its CPU in the cpusets above with no
// PU. Either is refused, naming the file; a CPU was dropped without a word.
TEST(BadTopology, XmlWithAPuListedTwice) {
    std::ifstream in(test::dataPath("topologies/xml/5intel64-hybrid-lakefield.xml"));
    const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string pu1 = R"(type="PU" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002")";
    ASSERT_NE(xml.find(pu1), std::string::npos);
    struct Case {
        const char* name;
        std::string replacement, error;
    };
    const Case cases[] = {
        {"number", R"(type="PU" os_index="0" cpuset="0x00000002" complete_cpuset="0x00000002")",
         ": two PU objects have os_index 0 (each CPU needs its own)"},
        {"number-and-cpuset", R"(type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001")",
         ": CPUs 1 are in the topology's cpuset but no PU object is them (a PU listed twice?)"},
    };
    for (const Case& c : cases) {
        std::string edited = xml;
        edited.replace(edited.find(pu1), pu1.size(), c.replacement);
        const std::string path = scratchPath(std::string("xml/pu-twice-") + c.name + ".xml");
        writeFile(path, edited);
        auto t = loadHwlocXml(path, Arch::X86_64);
        ASSERT_FALSE(t) << c.name;
        EXPECT_EQ(t.error(), path + c.error) << c.name;
    }
    auto whole = loadHwlocXml(test::dataPath("topologies/xml/5intel64-hybrid-lakefield.xml"), Arch::X86_64);
    ASSERT_TRUE(whole) << whole.error();
    EXPECT_EQ(whole->onlineCount(), 5);
}

TEST(BadTopology, XmlThatIsNoRegularFileOrFarTooBigIsNotRead) {
    const std::string fifo = scratchPath("xml/fifo.xml");
    fs::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    auto a = loadHwlocXml(fifo, Arch::X86_64);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error(), fifo + ": not a regular file");
    // 300 MiB (sparse): larger than any machine's export, refused before hwloc parses it
    const std::string big = scratchPath("xml/big.xml");
    writeFile(big, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n");
    fs::resize_file(big, 300ull << 20);
    auto b = loadHwlocXml(big, Arch::X86_64);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error(), big + ": 300 MiB, more than the 256 MiB an hwloc XML topology may have");
}

TEST(BadTopology, SidecarThatIsNoRegularFileIsNotRead) {
    const std::string trace = scratchPath("sidecar/fifo.dat");
    fs::remove(tracing::sidecarPath(trace));
    ASSERT_EQ(mkfifo(tracing::sidecarPath(trace).c_str(), 0600), 0);
    auto t = tracing::readTopologySidecar(trace);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error(), tracing::sidecarPath(trace) + ": not a regular file");
}

TEST(BadTopology, SysfsSnapshotMissingFiles) {
    // No topology directory for an online CPU: refused, naming the directory.
    SysfsTree broken("missing-topology", 4);
    fs::remove_all(broken.cpuDir(2) + "/topology");
    auto a = loadSysfsTopology(broken.root(), Arch::X86_64);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error(), broken.cpuDir(2) + ": online CPU without a topology directory");

    // Optional files missing (no online file, no siblings lists, no node directory): the
    // kernel's defaults, a valid topology.
    SysfsTree sparse("missing-optional", 4);
    fs::remove(sparse.root() + "/sys/devices/system/cpu/online");
    for (int c = 0; c < 4; ++c) fs::remove(sparse.cpuDir(c) + "/topology/thread_siblings_list");
    auto b = loadSysfsTopology(sparse.root(), Arch::X86_64);
    ASSERT_TRUE(b) << b.error();
    EXPECT_EQ(b->onlineCount(), 4);
    expectValidDomains(*b);

    // A snapshot root without sys/devices/system/cpu.
    const std::string empty = scratchPath("sysfs/empty-root");
    fs::create_directories(empty);
    auto c = loadSysfsTopology(empty, Arch::X86_64);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error(), empty + ": not a sysfs root (no sys/devices/system/cpu directory)");

    // A root that is not there is said to be missing, not "not a directory".
    const std::string missing = scratchPath("sysfs/no-such-root");
    fs::remove_all(missing);
    auto d = findSnapshotRoot(missing);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error(), missing + ": does not exist");
    const std::string file = scratchPath("sysfs/a-file");
    std::ofstream(file) << "x";
    auto f = findSnapshotRoot(file);
    ASSERT_FALSE(f);
    EXPECT_EQ(f.error(), file + ": not a directory");
}

TEST(BadTopology, OfflineCpus) {
    SysfsTree t("offline", 8);
    t.put("sys/devices/system/cpu/online", "0-2,4-6");
    fs::remove_all(t.cpuDir(3) + "/topology");  // offline CPUs have no topology directory
    fs::remove_all(t.cpuDir(7) + "/topology");
    auto topo = loadSysfsTopology(t.root(), Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    EXPECT_EQ(topo->onlineCount(), 6);
    EXPECT_EQ(topo->onlineCpus().toList(), "0-2,4-6");
    expectValidDomains(*topo);
    // The real snapshot with CPU 0 offline too.
    auto real = loadSysfsTopology(test::extractFixture("topologies/sysfs/offline-cpu0-node0.tar.bz2") +
                                      "/offline-cpu0-node0",
                                  Arch::X86_64);
    ASSERT_TRUE(real) << real.error();
    EXPECT_FALSE(real->onlineCpus().test(0));
}

TEST(BadTopology, CpuLessNumaNodes) {
    SysfsTree t("cpuless-nodes", 4);
    t.node(0, "0-3", "10 20 20");
    t.node(1, "", "20 10 20");  // memory only (CXL, HBM)
    t.node(2, "", "20 20 10");
    auto topo = loadSysfsTopology(t.root(), Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    EXPECT_EQ(topo->nodes.size(), 3u);
    EXPECT_TRUE(topo->nodeCpus(1).empty());
    expectValidDomains(*topo);
    // sched_init_numa() only looks at nodes with CPUs: no NUMA level.
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree);
    for (const auto& d : tree->domainsOf(0)) EXPECT_NE(d.level, "NUMA");
}

// A snapshot file that is no regular file (a FIFO would block the read for ever; a link to
// /dev/zero never ends) is read as absent; a node without its distance row among nodes with
// theirs is refused, naming the file, rather than given defaults that mix with the real rows.
TEST(BadTopology, SysfsFilesThatAreNoRegularFilesAndARowlessNode) {
    SysfsTree fifo("fifo-online", 4);
    fifo.node(0, "0-1", "10 20");
    fifo.node(1, "2-3", "20 10");
    const std::string online = fifo.root() + "/sys/devices/system/cpu/online";
    fs::remove(online);
    ASSERT_EQ(mkfifo(online.c_str(), 0600), 0);
    auto a = loadSysfsTopology(fifo.root(), Arch::X86_64);  // returns: the CPUs come from their directories
    ASSERT_TRUE(a) << a.error();
    EXPECT_EQ(a->onlineCount(), 4);

    for (const std::string kind : {"empty", "directory", "device"}) {
        SysfsTree t("rowless-" + kind, 4);
        t.node(0, "0-1", "10 20");
        t.node(1, "2-3", "20 10");
        const std::string row = t.root() + "/sys/devices/system/node/node0/distance";
        fs::remove(row);
        if (kind == "empty") t.put(row, "");
        if (kind == "directory") fs::create_directory(row);
        if (kind == "device") fs::create_symlink("/dev/zero", row);
        auto b = loadSysfsTopology(t.root(), Arch::X86_64);
        ASSERT_FALSE(b) << kind;
        EXPECT_EQ(b.error(), row + ": no distances (missing, empty or not a file) while " + t.root() +
                                 "/sys/devices/system/node/node1/distance has them")
            << kind;
    }
}

// A kernel's topology masks always hold the CPU itself: a snapshot whose masks leave it out is
// damaged or hand-made. It is read with the CPU added (the domains need it), and said, once; so
// is a mask that then overlaps another CPU's without being equal to it.
TEST(BadTopology, SysfsMasksWithoutTheirCpuAreSaid) {
    SysfsTree t("masks-without-self", 4);
    t.put(t.cpuDir(1) + "/topology/thread_siblings_list", "0");
    t.put(t.cpuDir(3) + "/topology/core_siblings_list", "0-2");
    auto topo = loadSysfsTopology(t.root(), Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    EXPECT_EQ(topo->cpus[1].threadSiblings.toList(), "0-1");
    EXPECT_EQ(topo->cpus[3].coreSiblings.toList(), "0-3");
    ASSERT_EQ(topo->warnings.size(), 2u);
    EXPECT_EQ(topo->warnings[0], "the topology masks of CPUs 1,3 leave the CPU itself out, which a kernel never does "
                                 "(first: cpu1/topology/thread_siblings (0)): each is read with its CPU added");
    // and then cpu1's siblings are not cpu0's
    EXPECT_EQ(topo->warnings[1], "topology masks that overlap without being equal, which a kernel's never do (cpu1's "
                                 "thread_siblings 0-1 and cpu0's 0): the sched domains built on them fail "
                                 "topology_span_sane() as the kernel's would");
    SysfsTree whole("masks-with-self", 4);
    auto fine = loadSysfsTopology(whole.root(), Arch::X86_64);
    ASSERT_TRUE(fine) << fine.error();
    EXPECT_TRUE(fine->warnings.empty());
}

TEST(BadTopology, AsymmetricDistanceMatrix) {
    // Symmetric but unequal distances (a 4-node ring, as on Magny-Cours): two NUMA levels.
    SysfsTree t("ring", 8);
    t.node(0, "0-1", "10 16 22 16");
    t.node(1, "2-3", "16 10 16 22");
    t.node(2, "4-5", "22 16 10 16");
    t.node(3, "6-7", "16 22 16 10");
    auto topo = loadSysfsTopology(t.root(), Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    expectValidDomains(*topo);
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree);
    int numa = 0;
    for (const auto& d : tree->domainsOf(0)) numa += d.level == "NUMA";
    EXPECT_EQ(numa, 2);
}

TEST(BadTopology, NonSymmetricDistanceMatrix) {
    SysfsTree t("non-symmetric", 4);
    t.node(0, "0-1", "10 20");
    t.node(1, "2-3", "30 10");
    auto topo = loadSysfsTopology(t.root(), Arch::X86_64);
    ASSERT_TRUE(topo) << topo.error();
    ASSERT_TRUE(topo->check().ok()) << topo->check().error();
    // The kernel builds the domains and warns (sched_init_numa: "Node-distance not symmetric");
    // node 1 then sees node 0 only at distance 30, so the NUMA groups of CPUs 2-3 do not cover their
    // span: what sched_domain_debug_one() reports as "groups don't span domain->span". We build
    // the same and say so, rather than crash or invent a symmetric matrix. (Their NUMA level at
    // distance 20 spans only node 1, one group built from its NODE child, and degenerates: the
    // broken level is their second.)
    auto tree = buildDomains(*topo, {});
    ASSERT_TRUE(tree.ok()) << tree.error();
    EXPECT_EQ(tree->warnings, (std::vector<std::string>{"Node-distance not symmetric between nodes 0 and 1",
                                                        "Node-distance not symmetric between nodes 1 and 0"}));
    EXPECT_EQ(validateDomainTree(*tree), (std::vector<std::string>{"cpu2 domain-1: groups do not cover the span",
                                                                   "cpu3 domain-1: groups do not cover the span"}));
    // simulate says what the kernel would have printed too, before its results
    const CliRun sim = runCli("simulate --sysfs-root '" + t.root() + "' --workload stream:threads=2 --duration 0.05");
    EXPECT_EQ(sim.status, 0) << sim.err;
    EXPECT_NE(sim.err.find("schedscope-cli: warning: Node-distance not symmetric between nodes 0 and 1\n"), std::string::npos)
        << sim.err;
}

TEST(BadTopology, FourAndEightThousandCpus) {
    // Synthetic machines at the CPU limit build valid domains (their build time is measured
    // by bench/topology_scale.sh, not asserted here). Under ASan the 8192-CPU build takes
    // minutes, so the sanitizer run keeps 4096 and the release run does both.
    std::vector<const char*> descs = {"pack:8 numa:2 l3:4 core:32 pu:2"};
    if (!kSanitized) descs.push_back("pack:16 numa:2 l3:4 core:32 pu:2");
    for (const char* desc : descs) {
        auto t = loadHwlocSynthetic(desc, Arch::X86_64);
        ASSERT_TRUE(t) << t.error();
        EXPECT_EQ(t->onlineCount(), std::string(desc).starts_with("pack:8") ? 4096 : 8192);
        expectValidDomains(*t);
    }
    auto over = loadHwlocSynthetic("pack:16 numa:2 l3:4 core:32 pu:4", Arch::X86_64);
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error(),
              "synthetic topology 'pack:16 numa:2 l3:4 core:32 pu:4': asks for 16384 CPUs, more than the limit of 8192");
}

TEST(BadTopology, SyntheticAskingForABillionPus) {
    auto t = loadHwlocSynthetic("pack:1000 core:1000 pu:1000", Arch::X86_64);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error(),
              "synthetic topology 'pack:1000 core:1000 pu:1000': asks for 1000000000 CPUs, more than the limit of 8192");
    // Far beyond: the count saturates instead of overflowing.
    auto u = loadHwlocSynthetic("pack:99999999999 core:99999999999 pu:99999999999", Arch::X86_64);
    ASSERT_FALSE(u);
    EXPECT_NE(u.error().find("more than the limit of 8192"), std::string::npos) << u.error();
}

// A description hwloc refuses is an error that says why, as hwloc tells it (on stderr, which
// the loader reads for it and leaves as it was): the user sees which part of the string is wrong.
TEST(BadTopology, SyntheticRejectionSaysWhy) {
    const std::pair<const char*, const char*> cases[] = {
        {"pack:2 foo:3", "unknown object type at 'foo:3'"},
        {"pack:2 core:0 pu:1", "disallow 0 number of objects at '0"},
        {"pack:2 pu:2 core:2", "cannot use non-PU type for last level"},
    };
    for (const auto& [description, reason] : cases) {
        auto t = loadHwlocSynthetic(description, Arch::X86_64);
        ASSERT_FALSE(t) << description;
        EXPECT_NE(t.error().find("': hwloc rejects this description (Synthetic string "), std::string::npos) << t.error();
        EXPECT_NE(t.error().find(reason), std::string::npos) << t.error();
        EXPECT_EQ(t.error().find('\n'), std::string::npos) << "one line: " << t.error();
    }
    // an accepted description's notes (hwloc's "Inserting a NUMA level ...") are no error
    auto ok = loadHwlocSynthetic("pack:2 core:2 pu:2", Arch::X86_64);
    ASSERT_TRUE(ok) << ok.error();
    EXPECT_EQ(ok->onlineCount(), 8);
}

// hwloc reads levels written without a space between them: the size guard counts them as it
// does ("pack:40nu@ma:22" is 40 x 22 NUMA nodes; "pack:52nu@ma:22" once counted as 208).
TEST(BadTopology, SyntheticLevelsRunTogetherAreCounted) {
    EXPECT_EQ(syntheticPuCount("pack:52nu@ma:22 core:4 pu:1"), 4576);
    EXPECT_EQ(syntheticPuCount("pack:40nu@ma:22 core:8 pu:1"), 7040);
    // numbers in braces are no counts: the guard once said "asks for 1920000 CPUs" of a
    // description hwloc rejects for its syntax, which is the error to give
    EXPECT_EQ(syntheticPuCount("pack:2 numa:2 core:2 pu:1 { 10 20 30 40 }"), 8);
    auto braces = loadHwlocSynthetic("pack:2 numa:2 core:2 pu:1 { 10 20 30 40 }", Arch::X86_64);
    ASSERT_FALSE(braces);
    EXPECT_EQ(braces.error(), "synthetic topology 'pack:2 numa:2 core:2 pu:1 { 10 20 30 40 }': hwloc rejects this description "
                              "(Synthetic string with unknown object type at '{ 10 20 30 40 }')");
    auto t = loadHwlocSynthetic("pack:40nu@ma:22 core:8 pu:1", Arch::X86_64);
    ASSERT_TRUE(t) << t.error();
    EXPECT_EQ(t->onlineCount(), 7040);
    auto over = loadHwlocSynthetic("pack:52nu@ma:22 core:8 pu:1", Arch::X86_64);
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error(),
              "synthetic topology 'pack:52nu@ma:22 core:8 pu:1': asks for 9152 CPUs, more than the limit of 8192");
}

// No machine Linux runs on has more than MAX_NUMNODES (1024) nodes: 1144 one-CPU nodes (found by
// fuzzing: 13 s to build sanitized, a group per node for every CPU) are refused in one line
// naming the input, and 1024 load.
TEST(BadTopology, MoreNumaNodesThanTheKernelsLimit) {
    auto over = loadHwlocSynthetic("pack:52nu@ma:22pu:1", Arch::X86_64);
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error(), "synthetic topology 'pack:52nu@ma:22pu:1': 1144 NUMA nodes, more than the kernel's 1024 (MAX_NUMNODES)");
    auto most = loadHwlocSynthetic("numa:1024 pu:1", Arch::X86_64);
    ASSERT_TRUE(most) << most.error();
    EXPECT_EQ(most->nodes.size(), 1024u);
    // a node id past the limit, whatever the count (a hand-edited or broken export)
    Topology odd = *loadHwlocSynthetic("numa:2 pu:1", Arch::X86_64);
    odd.nodes.back().id = 1024;
    odd.cpus.back().node = 1024;
    odd.name = "odd.xml";
    EXPECT_EQ(odd.check().error(), "odd.xml: NUMA node 1024 is outside the kernel's node ids 0..1023");
}

// A trace's topology sidecar is JSON from another machine: a number that is a float or out of
// range is named, never cast (1e224 into an int was undefined behaviour; found by fuzzing).
TEST(BadTopology, SidecarNumbersOutOfRange) {
    auto synth = loadHwlocSynthetic("pack:1 core:2 pu:1", Arch::X86_64);
    ASSERT_TRUE(synth) << synth.error();
    const nlohmann::json good = topologyToJson(*synth);
    const std::string trace = scratchPath("sidecar/odd.dat");
    auto expectSidecarError = [&](const nlohmann::json& j, const std::string& problem) {
        writeFile(tracing::sidecarPath(trace), j.dump());
        auto t = tracing::readTopologySidecar(trace);
        ASSERT_FALSE(t);
        EXPECT_EQ(t.error(), tracing::sidecarPath(trace) + ": malformed topology JSON (" + problem +
                                 "); name the recording machine with --local, --preset, --xml, --synthetic or --sysfs-root instead");
    };
    nlohmann::json j = good;
    j["cpus"][1]["capacity"] = 1e224;
    expectSidecarError(j, "cpu 1: capacity must be an integer in 0..4294967295");
    j = good;
    j["cpus"][0]["node"] = 3000000000ULL;
    expectSidecarError(j, "cpu 0: node must be an integer in -2147483648..2147483647");
    j = good;
    j["cpus"][1]["caches"] = nlohmann::json::parse(R"([{"level": 1.5, "type": "Unified", "shared": "1"}])");
    expectSidecarError(j, "cpu 1: cache level must be an integer in -2147483648..2147483647");
    j = good;
    j["nodes"][0]["distance"] = {10.0e300};
    expectSidecarError(j, "node 0: distance must be an integer in -2147483648..2147483647");
    j = good;
    j["nodes"][0]["distance"] = 10;
    expectSidecarError(j, "node 0: distance must be an array");
    // a key missing, in the file's words, not the JSON library's exception id
    j = good;
    j.erase("cpus");
    expectSidecarError(j, "key 'cpus' not found");
    // text that is no JSON says where it stops
    writeFile(tracing::sidecarPath(trace), "{\"cpus\": [\n");
    auto cut = tracing::readTopologySidecar(trace);
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().rfind(tracing::sidecarPath(trace) + ": not valid JSON (parse error at line 2, column 1: ", 0), 0u) << cut.error();
    EXPECT_NE(cut.error().find("); name the recording machine with --local"), std::string::npos) << cut.error();
    // the untouched sidecar still reads
    writeFile(tracing::sidecarPath(trace), good.dump());
    auto ok = tracing::readTopologySidecar(trace);
    ASSERT_TRUE(ok) << ok.error();
    ASSERT_TRUE(ok->has_value());
    EXPECT_EQ((*ok)->cpus.size(), 2u);
}

}  // namespace
