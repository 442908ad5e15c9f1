// --numa-distances: a what-if SLIT in place of the input's. The table is read as written or
// refused with what is wrong; the NUMA levels follow it (Kunpeng 920's mesh of four nodes made
// uniform has one NUMA level of four equal groups instead of three levels of unequal,
// overlapping ones); and the topology says the table is not the machine's.
#include <gtest/gtest.h>

#include "domains/domain_builder.h"
#include "support/fixtures.h"
#include "topology/numa_distances.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

constexpr const char* kUniform = "10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10";

TopologySpec kunpeng920(std::optional<DistanceTable> distances) {
    TopologySpec spec{TopologySpec::Kind::Preset, "kunpeng920-32"};
    spec.numaDistances = std::move(distances);
    return spec;
}

DistanceTable table(const std::string& text) {
    auto t = parseNumaDistances(text);
    EXPECT_TRUE(t.ok()) << t.error();
    return t.ok() ? *t : DistanceTable{};
}

// (level, span) of `cpu`'s NUMA domains, bottom-up
std::vector<std::pair<std::string, std::string>> numaLevels(const DomainTree& tree, int cpu) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& d : tree.domainsOf(cpu))
        if (d.level == "NUMA") out.emplace_back(d.level, d.span.toList());
    return out;
}

TEST(NumaDistances, ATableIsReadAsWrittenAndWrittenBackTheSame) {
    EXPECT_EQ(table(" 10, 12 ;12,10;"), (DistanceTable{{10, 12}, {12, 10}})) << "spaces and a last ';' are allowed";
    EXPECT_EQ(numaDistancesText(table(kUniform)), kUniform);
    EXPECT_EQ(table("10"), (DistanceTable{{10}}));
}

TEST(NumaDistances, AMalformedTableSaysWhatIsWrong) {
    auto error = [](const std::string& text) {
        auto t = parseNumaDistances(text);
        return t.ok() ? std::string("(read)") : t.error();
    };
    EXPECT_EQ(error("10,x;12,10"), "row 1: 'x' is not a distance (a whole number)");
    EXPECT_EQ(error("10,12;12"), "row 2 has 1 distances, row 1 2");
    EXPECT_EQ(error("10,12"), "1 rows of 2 distances: the table is node by node, as many rows as columns");
    EXPECT_EQ(error(""), "row 1 is empty");
    EXPECT_EQ(error("10,20;;20,10"), "row 2 is empty");
    EXPECT_EQ(error("10,1e3;20,10"), "row 1: '1e3' is not a distance (a whole number)");
    EXPECT_EQ(error("10,99999999999;20,10"), "row 1: '99999999999' is not a distance (a whole number)");
}

TEST(NumaDistances, KunpengsMeshMadeUniformHasOneNumaLevelOfEqualGroups) {
    auto mesh = loadTopology(kunpeng920(std::nullopt));
    auto uniform = loadTopology(kunpeng920(table(kUniform)));
    ASSERT_TRUE(mesh.ok()) << mesh.error();
    ASSERT_TRUE(uniform.ok()) << uniform.error();
    const DomainTree meshTree = test::buildDomainsUnder(*mesh, Arch::Arm64, "linux-6.12");
    const DomainTree uniformTree = test::buildDomainsUnder(*uniform, Arch::Arm64, "linux-6.12");
    EXPECT_EQ(numaLevels(meshTree, 64), (std::vector<std::pair<std::string, std::string>>{
                                            {"NUMA", "64-127"}, {"NUMA", "0-31,64-127"}, {"NUMA", "0-127"}}));
    ASSERT_EQ(numaLevels(uniformTree, 64), (std::vector<std::pair<std::string, std::string>>{{"NUMA", "0-127"}}));
    const SchedDomain& top = uniformTree.domainsOf(64).back();
    ASSERT_EQ(top.groups.size(), 4u);
    for (const auto& g : top.groups) EXPECT_EQ(g.span.count(), 32) << g.span.toList();
    // everything but the distances is the preset's
    EXPECT_EQ(uniform->cpus.size(), mesh->cpus.size());
    EXPECT_EQ(uniform->nodeDistance(0, 3), 20);
    EXPECT_EQ(mesh->nodeDistance(0, 3), 22);
    ASSERT_EQ(uniform->notes.size(), mesh->notes.size() + 1);
    EXPECT_EQ(uniform->notes.back(),
              "NUMA distances from --numa-distances, in place of the input's 10,12,20,22;12,10,22,24;20,22,10,12;22,24,12,10");
}

TEST(NumaDistances, ATableTheKernelWouldIgnoreOrOfTheWrongSizeIsRefused) {
    auto error = [](const std::string& text) {
        auto t = loadTopology(kunpeng920(table(text)));
        return t.ok() ? std::string("(loaded)") : t.error();
    };
    EXPECT_EQ(error("10,20;20,10"),
              "--preset kunpeng920-32: --numa-distances: 2 rows for 4 NUMA node(s) (0,1,2,3): a row per node, in node-id order");
    EXPECT_EQ(error("10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,12"),
              "--preset kunpeng920-32: --numa-distances: distance 12 from node 3 to node 3 is not a valid SLIT entry (local "
              "must be 10): the kernel would ignore the table");
    EXPECT_EQ(error("10,10,20,20;20,10,20,20;20,20,10,20;20,20,20,10"),
              "--preset kunpeng920-32: --numa-distances: distance 10 from node 0 to node 1 is not a valid SLIT entry (remote "
              "must be 11..255): the kernel would ignore the table");
    EXPECT_EQ(error("10,256,20,20;20,10,20,20;20,20,10,20;20,20,20,10"),
              "--preset kunpeng920-32: --numa-distances: distance 256 from node 0 to node 1 is not a valid SLIT entry (remote "
              "must be 11..255): the kernel would ignore the table")
        << "a SLIT entry is a byte";
}

// The what-if is named with the topology, as --isolate is, so a printed command line redoes it
TEST(NumaDistances, TheSpecNamesTheTable) {
    EXPECT_EQ(kunpeng920(table("10,20,20,20;20,10,20,20;20,20,10,20;20,20,20,10")).describe(),
              std::string("--preset kunpeng920-32 --numa-distances \"") + kUniform + "\"");
}

}  // namespace
}  // namespace schedscope
