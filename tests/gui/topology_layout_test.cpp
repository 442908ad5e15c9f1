// The nested-box layout of the topology view: boxes per level, nesting, hit-testing.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "gui_test_util.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/sysfs_loader.h"
#include "topology_layout.h"

namespace schedscope::gui {
namespace {

std::map<TopoBox::Kind, int> countKinds(const TopologyLayout& l) {
    std::map<TopoBox::Kind, int> n;
    for (const auto& b : l.boxes()) ++n[b.kind];
    return n;
}

void expectNested(const TopologyLayout& l) {
    for (size_t i = 1; i < l.boxes().size(); ++i) {
        const TopoBox& b = l.boxes()[i];
        const TopoBox& parent = l.boxes()[size_t(b.parent)];
        EXPECT_TRUE(parent.rect.contains(b.rect)) << b.label.toStdString() << " escapes " << parent.label.toStdString();
        EXPECT_TRUE(b.cpus.isSubsetOf(parent.cpus));
        EXPECT_GT(b.rect.width(), 0);
        EXPECT_GT(b.rect.height(), 0);
        for (size_t j = 0; j < parent.children.size(); ++j) {
            const int sib = parent.children[j];
            if (size_t(sib) == i) continue;
            EXPECT_FALSE(b.rect.intersects(l.boxes()[size_t(sib)].rect)) << "siblings overlap";
        }
    }
}

TEST(TopologyLayout, SyntheticMachineHasOneBoxPerObject) {
    auto t = loadHwlocSynthetic(test::kSynthetic, Arch::X86_64);
    ASSERT_TRUE(t) << t.error();
    auto l = TopologyLayout::build(*t);
    auto n = countKinds(l);
    EXPECT_EQ(n[TopoBox::Package], 2);
    EXPECT_EQ(n[TopoBox::Node], 4);
    EXPECT_EQ(n[TopoBox::Cache], 8);
    EXPECT_EQ(n[TopoBox::Core], 32);
    EXPECT_EQ(n[TopoBox::Cluster], 0);  // a cluster that is one core is drawn as the core
    EXPECT_EQ(n[TopoBox::Cpu], 64);
    l.layout(QRectF(0, 0, 1000, 700), 14, 7);
    expectNested(l);
    for (int cpu : {0, 17, 63}) {
        const int box = l.boxOfCpu(cpu);
        ASSERT_GE(box, 0);
        EXPECT_EQ(l.boxAt(l.boxes()[size_t(box)].rect.center()), box);
    }
    EXPECT_EQ(l.boxes()[size_t(l.boxWithCpus(CpuSet::range(0, 7)))].kind, TopoBox::Cache);
    EXPECT_EQ(l.boxAt(QPointF(-5, -5)), -1);
}

TEST(TopologyLayout, SingleNodeLevelsMergeIntoThePackageLabel) {
    auto t = loadHwlocSynthetic("pack:1 l3:1 core:4 pu:1", Arch::X86_64);
    ASSERT_TRUE(t) << t.error();
    auto l = TopologyLayout::build(*t);
    auto n = countKinds(l);
    EXPECT_EQ(n[TopoBox::Package], 1);
    EXPECT_EQ(n[TopoBox::Node], 0);
    EXPECT_EQ(n[TopoBox::Cache], 0);
    EXPECT_EQ(n[TopoBox::Cpu], 4);
    const TopoBox& pkg = l.boxes()[1];
    EXPECT_TRUE(pkg.label.contains(QStringLiteral("NUMA node 0"))) << pkg.label.toStdString();
    EXPECT_TRUE(pkg.label.contains(QStringLiteral("L3"))) << pkg.label.toStdString();
}

TEST(TopologyLayout, ArmClustersFromASysfsSnapshot) {
    const std::string root = schedscope::test::extractFixture("oracle/arm64-kunpeng-1s2n-4cl-dt/sysfs.tar.xz");
    auto t = loadSysfsTopology(root, Arch::Arm64);
    ASSERT_TRUE(t) << t.error();
    auto l = TopologyLayout::build(*t);
    auto n = countKinds(l);
    EXPECT_GE(n[TopoBox::Cluster], 2);
    EXPECT_EQ(n[TopoBox::Cpu], t->onlineCount());
    for (const QSizeF size : {QSizeF(1200, 800), QSizeF(300, 200), QSizeF(120, 900)}) {
        l.layout(QRectF(QPointF(0, 0), size), 14, 7);
        expectNested(l);
    }
}

// Sub-NUMA clustering: a real dual Cascade Lake in SNC2 whose L3, as cacheinfo shows it, spans
// both of a package's nodes. The nodes are drawn inside the L3 (here merged into the package
// box) rather than dropped for not holding it.
TEST(TopologyLayout, SubNumaNodesAreDrawnInsideTheirLlc) {
    const std::string dir = schedscope::test::extractFixture("topologies/sysfs/memorysidecaches.tar.bz2");
    auto t = loadSysfsTopology(dir + "/memorysidecaches", Arch::X86_64);
    ASSERT_TRUE(t) << t.error();
    int cpuNodes = 0;
    for (const auto& node : t->nodes) cpuNodes += node.cpus.empty() ? 0 : 1;
    ASSERT_EQ(cpuNodes, 4);
    auto l = TopologyLayout::build(*t);
    auto n = countKinds(l);
    EXPECT_EQ(n[TopoBox::Package], 2);
    EXPECT_EQ(n[TopoBox::Node], 4);
    EXPECT_EQ(n[TopoBox::Cpu], t->onlineCount());
    for (const auto& b : l.boxes()) {
        if (b.kind != TopoBox::Node) continue;
        const TopoBox& parent = l.boxes()[size_t(b.parent)];
        EXPECT_EQ(parent.kind, TopoBox::Package) << b.label.toStdString();
        // cacheinfo's "28160K", as lstopo would write it
        EXPECT_TRUE(parent.label.endsWith(QStringLiteral("L3 (27.5 MB)"))) << parent.label.toStdString();
    }
    l.layout(QRectF(0, 0, 1000, 700), 14, 7);
    expectNested(l);
}

// A node that holds several whole packages (a POWER7 with each core its own package, 8 per
// node; an Itanium with 2 per node) is drawn around them, not named at the end of each package's
// title where a narrow box cuts it off.
TEST(TopologyLayout, NodesHoldingSeveralPackagesAreDrawnAroundThem) {
    struct Machine {
        const char* file;
        int nodes, packages;
    };
    for (const Machine& m : {Machine{"topologies/xml/256ppc-8n8s4t.xml", 8, 64}, Machine{"topologies/xml/256ia64-64n2s2c.xml", 64, 128}}) {
        auto t = loadHwlocXml(schedscope::test::dataPath(m.file), Arch::Generic);
        ASSERT_TRUE(t) << t.error();
        auto l = TopologyLayout::build(*t);
        auto n = countKinds(l);
        EXPECT_EQ(n[TopoBox::Node], m.nodes) << m.file;
        EXPECT_EQ(n[TopoBox::Package], m.packages) << m.file;
        EXPECT_EQ(n[TopoBox::Cpu], 256) << m.file;
        for (const auto& b : l.boxes()) {
            if (b.kind == TopoBox::Package) {
                EXPECT_EQ(l.boxes()[size_t(b.parent)].kind, TopoBox::Node) << m.file;
                EXPECT_FALSE(b.label.contains(QStringLiteral("NUMA node"))) << b.label.toStdString();
            }
            if (b.kind == TopoBox::Node) {
                EXPECT_EQ(b.parent, 0) << m.file;
            }
        }
        // the packages, numbered by the export or in order, are each named once
        std::set<QString> names;
        for (const auto& b : l.boxes())
            if (b.kind == TopoBox::Package) names.insert(b.label.section(QStringLiteral(" \u00b7 "), 0, 0));
        EXPECT_EQ(int(names.size()), m.packages) << m.file;
        l.layout(QRectF(0, 0, 1400, 1000), 14, 7);
        expectNested(l);
    }
    // a node of one package keeps the package outside, the node in its title
    auto one = loadHwlocSynthetic("pack:2 core:2 pu:2", Arch::X86_64);
    ASSERT_TRUE(one) << one.error();
    const TopologyLayout l = TopologyLayout::build(*one);
    EXPECT_EQ(l.boxes()[size_t(l.boxes()[0].children.front())].kind, TopoBox::Package);
}

}  // namespace
}  // namespace schedscope::gui
