// A node's memory bandwidth from its socket's memory channels: the platform found from the CPU's
// model name or x86 family and model number, and the share of a socket one node holds.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/contention.h"
#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "sim/socket_bandwidth.h"
#include "sim_topologies.h"
#include "support/fixtures.h"
#include "topology/topology_source.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

Topology exportedMachine(const std::string& name) {
    auto t = loadTopology({TopologySpec::Kind::HwlocXml, dataPath("topologies/xml/" + name + ".xml")});
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error());
    return t.ok() ? *t : Topology{};
}

// the platform the table gives a CPU of this identity ("" for none)
std::string platformOf(const std::string& vendor, int family, int model, const std::string& name) {
    Topology t;
    t.arch = Arch::X86_64;
    t.cpuVendor = vendor;
    t.cpuFamily = family;
    t.cpuModelNumber = model;
    t.cpuModel = name;
    const auto memory = sim::socketMemoryOf(t);
    return memory ? memory->platform : "";
}

TEST(SocketMemory, ChannelsGiveThePeak) {
    const Topology milan = preset("epyc7763-2s");
    const auto memory = sim::socketMemoryOf(milan);
    ASSERT_TRUE(memory.has_value());
    EXPECT_EQ(memory->channels, 8);
    EXPECT_EQ(memory->megaTransfers, 3200);
    EXPECT_DOUBLE_EQ(memory->peakGBs(), 204.8);  // 8 channels x 8 bytes x 3200 MT/s
    EXPECT_DOUBLE_EQ(memory->streamGBs(), 204.8 * sim::kStreamShareOfPeak);
}

// The model name tells apart what one family and model number covers.
TEST(SocketMemory, TheNameDecidesWithinAModelNumber) {
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz"), "Xeon Scalable 1st gen Skylake-SP");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"), "Xeon Scalable 2nd gen Cascade Lake");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Platinum 9242 CPU"), "Xeon Platinum 9200 Cascade Lake-AP");
    EXPECT_EQ(platformOf("AuthenticAMD", 0x19, 0xA0, "AMD EPYC 8534P 64-Core Processor"), "EPYC 8004 Siena");
    EXPECT_EQ(platformOf("AuthenticAMD", 0x19, 0xA0, "AMD EPYC 9754 128-Core Processor"), "EPYC 9004 Genoa/Bergamo");
    EXPECT_EQ(platformOf("AuthenticAMD", 0x17, 0x31, "AMD EPYC 7H12 64-Core Processor"), "EPYC 7002 Rome");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0xAD, "Intel(R) Xeon(R) 6980P"), "Xeon 6 6900 (Granite Rapids-AP / Sierra Forest-AP)");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0x4F, "Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz"), "Xeon E5 v4 Broadwell-EP");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0x2D, "Intel(R) Xeon(R) CPU E5-2650 0 @ 2.00GHz"), "Xeon E5 Sandy Bridge-EP");
}

// Without a name (a sysfs snapshot of an engineering sample) the number alone decides; a client
// part with a server's number (Ryzen 1000 is Naples' die, family 0x17 model 1) has none.
TEST(SocketMemory, NumbersWithoutANameAndClientParts) {
    EXPECT_EQ(platformOf("AuthenticAMD", 0x19, 0x01, ""), "EPYC 7003 Milan");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0x8F, "Genuine Intel(R) CPU 0000%@"), "Xeon Scalable 4th gen Sapphire Rapids");
    EXPECT_EQ(platformOf("AuthenticAMD", 0x17, 0x01, "AMD Ryzen 7 1800X Eight-Core Processor"), "");
    EXPECT_EQ(platformOf("GenuineIntel", 6, 0xBA, "13th Gen Intel(R) Core(TM) i7-1370P"), "");
    EXPECT_EQ(platformOf("AuthenticAMD", 0x19, 0x21, ""), "");  // Vermeer: Ryzen 5000
    Topology arm;
    arm.arch = Arch::Arm64;
    arm.cpuModel = "AMD EPYC 7763";  // a name does not make an arm64 machine an EPYC
    EXPECT_FALSE(sim::socketMemoryOf(arm).has_value());
}

// Real machines: a node holds its package's memory, a share of it (Haswell's cluster-on-die,
// a Xeon Phi in SNC4) or several packages' (exports that show no NUMA nodes).
TEST(NodeBandwidth, FromTheSocketsANodeHolds) {
    const Topology cod = exportedMachine("28intel64-2p2g7c-CoDgroups");  // E5-2683 v3, two nodes per socket
    EXPECT_DOUBLE_EQ(sim::socketsPerNode(cod), 0.5);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(cod).nodeGBs, 25.6);  // 4 x DDR4-2133 x 0.75 / 2
    const Topology phi = exportedMachine("64intel64-heteromem");  // a Xeon Phi x200 (family 6, model 0x57) in SNC4: 4 nodes with CPUs a socket
    EXPECT_DOUBLE_EQ(sim::socketsPerNode(phi), 0.25);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(phi).nodeGBs, 21.6);
    EXPECT_EQ(sim::contentionParamsFor(phi).origin.find("EPYC 7601"), std::string::npos)
        << "a Xeon Phi in SNC mode has the shape of a Naples node, not its memory";
    const Topology genoa = exportedMachine("AMD-19h-Zen4-2xEpyc-9654");  // one node for both sockets
    EXPECT_DOUBLE_EQ(sim::socketsPerNode(genoa), 2.0);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(genoa).nodeGBs, 691.2);  // 2 x 12 x DDR5-4800 x 0.75
    const Topology skylake = preset("xeon6140-2s");  // a node per socket
    EXPECT_DOUBLE_EQ(sim::socketsPerNode(skylake), 1.0);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(skylake).nodeGBs, 96.0);
}

// The calibrated machines keep their fits, and a client CPU keeps the generic rule.
TEST(NodeBandwidth, CalibratedAndClientMachines) {
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(preset("kunpeng920-24")).nodeGBs, 56.0);
    EXPECT_DOUBLE_EQ(sim::contentionParamsFor(preset("epyc7601-2s")).nodeGBs, 30.0);
    const sim::ContentionParams laptop = sim::contentionParamsFor(preset("laptop-i7-1370p"));
    EXPECT_EQ(laptop.origin.rfind("generic", 0), 0u) << laptop.origin;
}

// 256 stream threads on a 2-socket EPYC 7763 draw what its 16 DDR4-3200 channels can give, not
// the 640 GB/s the CPU count once gave it.
TEST(NodeBandwidth, StreamOnMilanDrawsWhatItsChannelsGive) {
    const Topology topo = preset("epyc7763-2s");
    auto wl = workload::parseWorkloadSpec("stream:threads=256", static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(wl.ok()) << wl.error();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.2;
    auto st = sim::simulate(topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const nlohmann::json json = sim::simResultToJson(**st, *wl, {topo.name, "linux-6.12", true, true, "stream:threads=256"});
    const double drawn = json["metrics"]["throughput"]["total"].get<double>();  // stream's work is GB
    std::printf("stream 256t on 2 x EPYC 7763: %.1f GB/s\n", drawn);
    EXPECT_GT(drawn, 2 * 153.6 * 0.9);
    EXPECT_LE(drawn, 2 * 153.6 * 1.001);
}

}  // namespace
}  // namespace schedscope::test
