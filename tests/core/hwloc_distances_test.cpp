// NUMA distances as hwloc XML carries them: an hwloc 1.x export's relative latencies (the SLIT
// over 10, latency_base 10), which hwloc 2 imports as the SLIT when they are whole and scaled by
// 1000 when they are not, and a matrix that leaves nodes out. The machine is a real 2-socket
// Haswell with Cluster-on-Die (4 nodes at 10/21/31), exported by hwloc 1.x and 2.x.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"

namespace schedscope {
namespace {

std::string scratchFile(const std::string& name, const std::string& text) {
    std::string path = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/hwloc-distances-" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

bool hasText(const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

const std::string kV1 = "topologies/xml-v1/28intel64-2p2g7c-CoDgroups.v1.xml";
const std::string kV2 = "topologies/xml/28intel64-2p2g7c-CoDgroups.xml";

TEST(HwlocDistances, AnHwloc1ExportReadsAsTheSameMachinesHwloc2One) {
    auto v1 = loadHwlocXml(test::dataPath(kV1), Arch::X86_64);
    auto v2 = loadHwlocXml(test::dataPath(kV2), Arch::X86_64);
    ASSERT_TRUE(v1.ok()) << v1.error();
    ASSERT_TRUE(v2.ok()) << v2.error();
    EXPECT_EQ(v1->distance, v2->distance);
    EXPECT_EQ(v1->distance[0], (std::vector<int>{10, 21, 31, 31}));
    EXPECT_TRUE(v1->notes.empty());
    auto a = buildDomains(*v1, {.arch = Arch::X86_64});
    auto b = buildDomains(*v2, {.arch = Arch::X86_64});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(domainTreeToText(*a), domainTreeToText(*b));
}

// Latencies that are not the SLIT over 10 (2.15 and 3.05 here) come back from hwloc 2 scaled by
// 1000, diagonal 10000: put back in the SLIT's units (22 and 31, rounded) and said, instead of
// a table the kernel's SLIT test throws away.
TEST(HwlocDistances, FractionalRelativeLatenciesAreScaledBackToTheSlitsUnits) {
    std::string text = test::readFile(test::dataPath(kV1));
    text = std::regex_replace(text, std::regex("latency value=\"2\\.100000\""), "latency value=\"2.150000\"");
    text = std::regex_replace(text, std::regex("latency value=\"3\\.100000\""), "latency value=\"3.050000\"");
    auto t = loadHwlocXml(scratchFile("fractional.v1.xml", text), Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->distance[0], (std::vector<int>{10, 22, 31, 31}));
    EXPECT_TRUE(hasText(t->notes, "scaled to the SLIT's units")) << (t->notes.empty() ? "" : t->notes.front());
    EXPECT_FALSE(hasText(t->warnings, "not a valid SLIT entry"));
    auto tree = buildDomains(*t, {.arch = Arch::X86_64});
    ASSERT_TRUE(tree.ok());
    int numa = 0;
    for (const auto& d : tree->domainsOf(0)) numa += d.level == "NUMA";
    EXPECT_EQ(numa, 2);  // the package's other node at 22, then all at 31
}

// A distance matrix over 2 of the 4 nodes is not used, and the loader says so.
TEST(HwlocDistances, AMatrixLeavingNodesOutIsSaidAndNotUsed) {
    std::string text = test::readFile(test::dataPath(kV2));
    const std::string whole = "<distances2 type=\"NUMANode\" nbobjs=\"4\" kind=\"5\" indexing=\"os\">\n"
                              "    <indexes length=\"8\">0 1 2 3 </indexes>\n"
                              "    <u64values length=\"30\">10 21 31 31 21 10 31 31 31 31 </u64values>\n"
                              "    <u64values length=\"18\">10 21 31 31 21 10 </u64values>";
    const size_t at = text.find(whole);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, whole.size(),
                 "<distances2 type=\"NUMANode\" nbobjs=\"2\" kind=\"5\" indexing=\"os\">\n"
                 "    <indexes length=\"4\">0 1 </indexes>\n"
                 "    <u64values length=\"12\">10 21 21 10 </u64values>");
    auto t = loadHwlocXml(scratchFile("partial.xml", text), Arch::X86_64);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_TRUE(hasText(t->warnings, "the NUMA distance matrix leaves out node(s) 2,3")) << (t->warnings.empty() ? "" : t->warnings.front());
    EXPECT_EQ(t->distance[0], (std::vector<int>{10, 20, 20, 20}));
}

// A distance written negative (hwloc reads "-5" as 2^64 - 5) or past any latency scale is said
// as the file has it, and the table is not used.
TEST(HwlocDistances, ADistanceNoScaleReachesIsSaidAsWritten) {
    const std::string text = test::readFile(test::dataPath(kV2));
    const std::string row = "<u64values length=\"30\">10 21 31 31 21 10 31 31 31 31 </u64values>";
    ASSERT_NE(text.find(row), std::string::npos);
    for (const auto& [written, said] : {std::pair<std::string, std::string>{"-5", "NUMA distance -5 (18446744073709551611 unsigned) from node 0 to node 2"},
                                        {"18446744073709551615", "NUMA distance -1 (18446744073709551615 unsigned) from node 0 to node 2"},
                                        {"5000000", "NUMA distance 5000000 from node 0 to node 2"}}) {
        std::string changed = text;
        const std::string values = "10 21 " + written + " 31 21 10 31 31 31 31 ";
        const std::string bad = "<u64values length=\"" + std::to_string(values.size()) + "\">" + values + "</u64values>";
        changed.replace(changed.find(row), row.size(), bad);
        auto t = loadHwlocXml(scratchFile("bad-distance.xml", changed), Arch::X86_64);
        ASSERT_TRUE(t.ok()) << t.error();
        EXPECT_TRUE(hasText(t->warnings, said)) << written << ": " << (t->warnings.empty() ? "" : t->warnings.front());
        EXPECT_FALSE(hasText(t->warnings, "100000")) << written;
        EXPECT_EQ(t->distance[0], (std::vector<int>{10, 20, 20, 20})) << written;
    }
}

}  // namespace
}  // namespace schedscope
