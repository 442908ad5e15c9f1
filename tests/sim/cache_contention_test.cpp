// The shared-cache part of the contention model: the cache sizes a topology's source gives, the
// cluster and LLC caches the model takes from them, and the speed of tasks whose footprints
// share one.
#include <gtest/gtest.h>

#include <string>

#include "sim/contention.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "support/fixtures.h"
#include "topology/topology_format.h"
#include "topology/topology_source.h"

namespace schedscope::test {
namespace {

TEST(CacheMissShare, NothingMissesWhileTheFootprintsFit) {
    EXPECT_EQ(sim::cacheMissShare(0, 4), 0.0);
    EXPECT_EQ(sim::cacheMissShare(4, 4), 0.0);
    EXPECT_DOUBLE_EQ(sim::cacheMissShare(8, 4), 0.5);
    EXPECT_DOUBLE_EQ(sim::cacheMissShare(16, 4), 0.75);
    EXPECT_EQ(sim::cacheMissShare(16, 0), 0.0);  // no size: not modelled
}

Topology snapshot(const std::string& name) {
    // the arch from the snapshot's own files, as for a machine of that kind
    auto t = loadTopology({TopologySpec::Kind::SysfsRoot, dataPath("topologies/sysfs/" + name + ".tar.bz2")});
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error());
    return t.ok() ? *t : Topology{};
}

// 128-core Kunpeng 920 sysfs: a 32 MB L3 per 32-core node, clusters of 4 cores with private L2s
TEST(CacheSizes, KunpengClusterHoldsItsShareOfTheL3) {
    const Topology t = snapshot("128arm-2pa2n8cluster4co");
    ASSERT_FALSE(t.cpus.empty());
    const auto& caches = t.cpus[0].caches;
    ASSERT_EQ(caches.size(), 4u);
    EXPECT_EQ(caches[2].level, 2);
    EXPECT_EQ(caches[2].sizeKB, 512);    // "512K"
    EXPECT_EQ(caches[3].sizeKB, 32768);  // "32768K"
    const sim::ContentionParams p = sim::contentionParamsFor(t);
    EXPECT_DOUBLE_EQ(p.llcCacheMB, 32.0);
    EXPECT_DOUBLE_EQ(p.clusterCacheMB, 4.0);  // 32 MB * 4 / 32 CPUs
}

// Alder Lake-like hybrid: P-cores with their own L2, Atom modules of 4 E-cores sharing a 2 MB L2
TEST(CacheSizes, HybridAtomModuleSharesItsL2) {
    const Topology t = snapshot("20em64t-hybrid-1p6c2t+2ca4co1t");
    ASSERT_GT(t.cpus.size(), 12u);
    const sim::ContentionParams p = sim::contentionParamsFor(t);
    EXPECT_DOUBLE_EQ(p.llcCacheMB, 24.0);
    EXPECT_DOUBLE_EQ(p.clusterCacheMB, 2.0);
}

// hwloc XML (the preset): sizes from hwloc's cache attributes, kept by the topology JSON
TEST(CacheSizes, FromHwlocAndThroughTheTopologyJson) {
    const Topology t = preset("kunpeng920-24");
    const sim::ContentionParams p = sim::contentionParamsFor(t);
    EXPECT_DOUBLE_EQ(p.llcCacheMB, 24.0);
    EXPECT_DOUBLE_EQ(p.clusterCacheMB, 4.0);
    auto back = topologyFromJson(topologyToJson(t), "round trip");
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back->cpus[0].caches.size(), t.cpus[0].caches.size());
    for (size_t i = 0; i < t.cpus[0].caches.size(); ++i) EXPECT_EQ(back->cpus[0].caches[i].sizeKB, t.cpus[0].caches[i].sizeKB);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(*back).clusterCacheMB, 4.0);
}

Topology xml(const std::string& name) {
    auto t = loadTopology({TopologySpec::Kind::HwlocXml, dataPath("topologies/xml/" + name + ".xml")});
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error());
    return t.ok() ? *t : Topology{};
}

// The Naples calibration is for a node of two 4-core CCXs. A CPUID-only export of a 2-socket
// Skylake-SP shows one node of two 36-CPU LLCs: half a node too, but no Naples.
TEST(NodeBandwidth, NaplesFigureOnlyForANodeOfTwoSmallCcxs) {
    const sim::ContentionParams naples = sim::contentionParamsFor(epyc7601_2s());
    EXPECT_DOUBLE_EQ(naples.nodeGBs, 30.0);
    EXPECT_NE(naples.origin.find("EPYC 7601"), std::string::npos) << naples.origin;
    const Topology skylake = xml("Intel-Skylake-2xXeon6140");
    ASSERT_EQ(skylake.onlineCount(), 72);
    ASSERT_EQ(skylake.llcCpus(0).count() * 2, skylake.nodeCpus(skylake.cpus[0].node).count());
    const sim::ContentionParams p = sim::contentionParamsFor(skylake);
    EXPECT_EQ(p.origin.find("EPYC"), std::string::npos) << p.origin;
    EXPECT_DOUBLE_EQ(p.nodeGBs, 192.0);  // both sockets' 6 DDR4-2666 channels, as STREAM draws them
}

TEST(CacheSizes, WrittenAsLstopoWritesThem) {
    EXPECT_EQ(cacheSizeText(24576), "24 MB");
    EXPECT_EQ(cacheSizeText(1280), "1280 KB");
    EXPECT_EQ(cacheSizeText(28160), "27.5 MB");
}

// A machine without sizes models no shared cache, except the calibrated Kunpeng 920 shape
// (1 MB of L3 per core); a machine without clusters has no cluster cache
TEST(CacheSizes, UnknownSizes) {
    Shape kunpeng;  // a 24-core Kunpeng 920 node as makeTopology() builds it: caches without sizes
    kunpeng.clustersPerLlc = 6;
    kunpeng.coresPerCluster = 4;
    const Topology node = makeTopology("kunpeng-like", kunpeng);
    ASSERT_EQ(node.cpus[0].caches.back().sizeKB, 0);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(node).clusterCacheMB, 4.0);
    EXPECT_EQ(sim::contentionParamsFor(node).llcCacheMB, 0.0);
    Shape plain;
    plain.arch = Arch::X86_64;
    plain.coresPerCluster = 8;
    const Topology x86 = makeTopology("plain", plain);
    EXPECT_EQ(sim::contentionParamsFor(x86).clusterCacheMB, 0.0);
    EXPECT_EQ(sim::contentionParamsFor(x86).llcCacheMB, 0.0);
}

// Two tasks that only compute and hit a 3 MB footprint (cache_fraction 0.3), pinned to CPUs of
// one Kunpeng cluster (4 MB) or of two. Apart, each fits: slowness 0.7 + 0.3 = 1. Together the
// footprints make 6 MB, a third misses, and a miss costs 3 hits: 0.7 + 0.3 * (1 + 2/3) = 1.2.
double workRate(const Topology& topo, const std::string& cpusA, const std::string& cpusB, double cacheMB) {
    workload::Workload wl;
    for (const std::string& cpus : {cpusA, cpusB}) {
        workload::TaskSpec t;
        t.name = "hit" + cpus;
        t.affinity = *CpuSet::parseList(cpus);
        t.cacheFraction = 0.3;
        t.cacheMB = cacheMB;
        workload::Op run;
        run.kind = workload::OpKind::Run;
        run.amountNs = 1e9;
        workload::Op loop;
        loop.kind = workload::OpKind::Loop;
        t.script = {run, loop};
        wl.tasks.push_back(t);
    }
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.5;
    auto st = sim::simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok());
    if (!st.ok()) return 0;
    double work = 0;
    for (const auto& t : (*st)->tasks) work += t.workDone;
    return work / 2 / static_cast<double>((*st)->now);
}

TEST(CacheContention, FootprintsSharingAClusterCacheSlowEachOther) {
    const Topology topo = kunpeng920_24();
    EXPECT_NEAR(workRate(topo, "0", "4", 3.0), 1.0, 1e-6);
    EXPECT_NEAR(workRate(topo, "0", "1", 3.0), 1.0 / 1.2, 1e-6);
    // footprints that fit together: no slowdown in one cluster
    EXPECT_NEAR(workRate(topo, "0", "1", 2.0), 1.0, 1e-6);
}

// A hybrid CPU: two E-cores of one Atom module divide its 2 MB L2 (1.5 MB each: a third of the
// 3 MB misses, 0.7 + 0.3 * (1 + 2 / 3) = 1.2); E-cores of two modules, or two P-cores (each with
// an L2 of its own), keep their footprints; the module's L2 is no P-core's
TEST(CacheContention, OnlyTheClustersThatShareACacheDivideIt) {
    const Topology topo = snapshot("20em64t-hybrid-1p6c2t+2ca4co1t");
    ASSERT_EQ(topo.cpus[12].clusterCpus.toList(), "12-15");
    EXPECT_NEAR(workRate(topo, "12", "13", 1.5), 1.0 / 1.2, 1e-6);
    EXPECT_NEAR(workRate(topo, "12", "16", 1.5), 1.0, 1e-6);
    EXPECT_NEAR(workRate(topo, "0", "2", 1.5), 1.0, 1e-6);
    // a P-core's two threads share its core (0.7 * 1.6 + 0.3 = 1.42), not a cluster cache
    EXPECT_NEAR(workRate(topo, "0", "1", 1.5), 1.0 / 1.42, 1e-6);
}

}  // namespace
}  // namespace schedscope::test
