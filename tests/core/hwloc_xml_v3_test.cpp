// hwloc 3.x XML (lstopo's default export from hwloc 3.0 on) read through hwloc 2.x: each
// fixture must give the same topology and sched domains as hwloc 3.0's own v2 export of the
// same machine, and the rewrite must undo each 3.0 format change it claims to.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <hwloc.h>
#include <nlohmann/json.hpp>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "support/fixtures.h"
#include "topology/hwloc_loader.h"
#include "topology/hwloc_xml_v3.h"
#include "topology/topology_format.h"

namespace schedscope {
namespace {
namespace fs = std::filesystem;

std::string paramName(const ::testing::TestParamInfo<std::string>& info) { return test::fileTestName(info.param); }

std::string scratch(const std::string& name) {
    const std::string dir = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/hwloc-xml-v3";
    fs::create_directories(dir);
    return dir + "/" + name;
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// topologyToJson() without what names the file
nlohmann::json machineOf(const Topology& t) {
    nlohmann::json j = topologyToJson(t);
    j.erase("name");
    j.erase("source");
    return j;
}

class Hwloc3Fixture : public ::testing::TestWithParam<std::string> {};
TEST_P(Hwloc3Fixture, ReadsAsTheV2ExportOfTheSameMachine) {
    const std::string v3Path = test::dataPath("topologies/xml-v3/" + GetParam());
    ASSERT_EQ(hwlocXmlMajorVersion(test::readFile(v3Path).substr(0, 512)), 3) << "not a 3.x fixture";
    auto v3 = loadHwlocXmlDetectArch(v3Path);
    auto v2 = loadHwlocXmlDetectArch(test::dataPath("topologies/xml/" + GetParam()));
    ASSERT_TRUE(v3.ok()) << v3.error();
    ASSERT_TRUE(v2.ok()) << v2.error();
    EXPECT_EQ(machineOf(*v3), machineOf(*v2));
    EXPECT_EQ(v3->source, "hwloc 3.x XML " + v3Path);
    EXPECT_EQ(v3->name, GetParam().substr(0, GetParam().size() - 4));
    for (bool cls : {true, false}) {
        DomainBuildOptions opt;
        opt.arch = v3->arch;
        opt.cls = cls;
        auto a = buildDomains(*v3, opt);
        auto b = buildDomains(*v2, opt);
        ASSERT_TRUE(a.ok() && b.ok());
        EXPECT_EQ(domainTreeToText(*a), domainTreeToText(*b)) << "cls=" << cls;
    }
}
INSTANTIATE_TEST_SUITE_P(Hwloc, Hwloc3Fixture, ::testing::ValuesIn(test::fixtureFiles("topologies/xml-v3", ".xml")), paramName);

// The root element written otherwise than lstopo writes it (single quotes, spaces), or after a
// long comment, is still found and read as the 3.x file it is.
TEST(Hwloc3Xml, TheRootElementIsFoundHoweverItIsWritten) {
    const std::string v3Path = test::dataPath("topologies/xml-v3/16amd64-4distances.xml");
    const std::string text = test::readFile(v3Path);
    auto reference = loadHwlocXmlDetectArch(v3Path);
    ASSERT_TRUE(reference.ok()) << reference.error();
    const size_t root = text.find("<topology version=\"3.0\">");
    ASSERT_NE(root, std::string::npos);
    const std::string tail = text.substr(root + 25);
    const std::vector<std::pair<std::string, std::string>> variants = {
        {"squote.xml", text.substr(0, root) + "<topology version='3.0'>" + tail},
        {"spaces.xml", text.substr(0, root) + "<topology  version = \"3.0\" >" + tail},
        {"comment.xml", text.substr(0, root) + "<!-- " + std::string(4000, 'x') + " -->\n<topology version=\"3.0\">" + tail},
    };
    for (const auto& [name, body] : variants) {
        const std::string path = scratch(name);
        writeFile(path, body);
        auto t = loadHwlocXmlDetectArch(path);
        ASSERT_TRUE(t.ok()) << name << ": " << t.error();
        EXPECT_EQ(t->source, "hwloc 3.x XML " + path);
        EXPECT_EQ(machineOf(*t)["cpus"], machineOf(*reference)["cpus"]) << name;
    }
}

TEST(Hwloc3Xml, ArchitectureComesFromTheTopologyWideInfos) {
    // hwloc 3.0 moved Architecture out of the root object: an aarch64 machine must not be read
    // as the host's arch
    auto t = loadHwlocXmlDetectArch(test::dataPath("topologies/xml-v3/nvidia-dgx-gb10.xml"));
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->arch, Arch::Arm64);
}

TEST(Hwloc3Xml, RewriteUndoesEachFormatChange) {
    const std::string path = scratch("changes.xml");
    writeFile(path, R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="3.0">
  <object type="Machine" os_index="0" cpuset="0x3" complete_cpuset="0x3" allowed_cpuset="0x3" nodeset="0x1" complete_nodeset="0x1" allowed_nodeset="0x1" gp_index="1">
    <info name="DMIBoardVendor" value="Acme"/>
    <object type="L3Cache" cpuset="0x3" complete_cpuset="0x3" nodeset="0x1" complete_nodeset="0x1" cache_size="1048576" depth="3" cache_linesize="64" cache_associativity="16" cache_type="0" cache_inclusive="1" gp_index="2"/>
  </object>
  <distances2 type="PCIDev" nbobjs="1" kind="37" name="XGMIHops" indexing="gp"><indexes length="2">9 </indexes><u64values length="2">0 </u64values></distances2>
  <distances2 type="NUMANode" nbobjs="1" kind="37" name="NUMALatency" indexing="os"><indexes length="2">0 </indexes><u64values length="3">10 </u64values></distances2>
  <info name="Architecture" value="aarch64"/>
  <info name="OSRelease" value="6.17.0"/>
</topology>
)");
    auto v2 = hwloc3XmlAsV2(path);
    ASSERT_TRUE(v2.ok()) << v2.error();
    const std::string& x = *v2;
    EXPECT_NE(x.find("<topology version=\"2.0\">"), std::string::npos) << x;
    // the topology-wide infos are in the root object, after its own, before its children
    const size_t vendor = x.find("DMIBoardVendor"), arch = x.find("\"Architecture\""), release = x.find("\"OSRelease\"");
    const size_t cache = x.find("L3Cache"), machineEnd = x.find("</object>\n  <distances2");
    ASSERT_NE(arch, std::string::npos);
    EXPECT_LT(vendor, arch);
    EXPECT_LT(arch, release);
    EXPECT_LT(release, cache);
    EXPECT_LT(release, machineEnd);
    // cache_inclusive is the Inclusive info again
    EXPECT_EQ(x.find("cache_inclusive"), std::string::npos);
    EXPECT_NE(x.find("<info name=\"Inclusive\" value=\"1\"/>"), std::string::npos) << x;
    // XGMIHops: FROM_OS | VALUE_HOPS (1 | 32) back to FROM_OS | VALUE_LATENCY (1 | 4); other
    // matrices keep their kind
    EXPECT_NE(x.find("kind=\"5\" name=\"XGMIHops\""), std::string::npos) << x;
    EXPECT_NE(x.find("kind=\"37\" name=\"NUMALatency\""), std::string::npos) << x;
}

TEST(Hwloc3Xml, MajorVersionOfTheHead) {
    EXPECT_EQ(hwlocXmlMajorVersion("<?xml version=\"1.0\"?>\n<topology version=\"3.0\">"), 3);
    EXPECT_EQ(hwlocXmlMajorVersion("<topology version=\"2.0\">"), 2);
    EXPECT_EQ(hwlocXmlMajorVersion("<topology version=\"12.1\">"), 12);
    EXPECT_EQ(hwlocXmlMajorVersion("<topology>"), 0);  // hwloc 1.x wrote no version
    EXPECT_EQ(hwlocXmlMajorVersion("<topology version=\"x\">"), 0);
    // as XML allows it written: either quote, spaces around '=', other attributes first
    EXPECT_EQ(hwlocXmlMajorVersion("<topology version='3.0'>"), 3);
    EXPECT_EQ(hwlocXmlMajorVersion("<topology  version = \"3.0\" >"), 3);
    EXPECT_EQ(hwlocXmlMajorVersion("<topology\n  xmlns:x=\"y\" version=\"3.1\">"), 3);
    EXPECT_EQ(hwlocXmlMajorVersion("<topologyinfo version=\"3.0\"/><topology version=\"2.0\">"), 2);
    EXPECT_EQ(hwlocXmlMajorVersion("<topology subversion=\"3\">"), 0);
}

TEST(Hwloc3Xml, BadDocumentsGetOneLineErrorsNamingTheFile) {
    const std::string whole = test::readFile(test::dataPath("topologies/xml-v3/16amd64-4distances.xml"));
    const std::string truncated = scratch("truncated.xml");
    writeFile(truncated, whole.substr(0, whole.size() / 3));
    auto a = loadHwlocXmlDetectArch(truncated);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().rfind(truncated + ": malformed hwloc XML (line ", 0), 0u) << a.error();
    EXPECT_EQ(a.error().find('\n'), std::string::npos);

    const std::string noObject = scratch("no-object.xml");
    writeFile(noObject, "<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n</topology>\n");
    auto b = loadHwlocXmlDetectArch(noObject);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error(), noObject + ": malformed hwloc XML (no root object)");

    // a format newer than 3.x: refused, with the export that older hwloc reads
    const std::string newer = scratch("v4.xml");
    std::string v4 = whole;
    v4.replace(v4.find("version=\"3.0\""), 13, "version=\"4.1\"");
    writeFile(newer, v4);
    auto c = loadHwlocXmlDetectArch(newer);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error(), newer + ": hwloc 4.x XML format, which hwloc " HWLOC_VERSION
                                 " cannot read; re-export it with 'lstopo --export-xml-flags v2 out.xml'");
}

}  // namespace
}  // namespace schedscope
