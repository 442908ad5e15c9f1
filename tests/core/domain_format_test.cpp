// The streaming JSON writer prints the very document domainTreeToJson() builds, one CPU at a time.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "domains/domain_builder.h"
#include "domains/domain_format.h"
#include "topology/hwloc_loader.h"
#include "topology/topology_source.h"

namespace schedscope {
namespace {

void expectStreamEqualsDom(const Topology& t, const DomainBuildOptions& o) {
    auto tree = buildDomains(t, o);
    ASSERT_TRUE(tree.ok()) << tree.error();
    std::ostringstream streamed;
    writeDomainTreeJson(streamed, *tree);
    EXPECT_EQ(streamed.str(), domainTreeToJson(*tree).dump(2));
}

TEST(DomainJson, StreamedEqualsTheDocumentOnRealAndOddTopologies) {
    for (const char* preset : {"kunpeng920-24", "epyc7601-2s"}) {
        auto t = loadTopology({TopologySpec::Kind::Preset, preset});
        ASSERT_TRUE(t.ok()) << t.error();
        expectStreamEqualsDom(*t, {});
        DomainBuildOptions off;
        off.cls = off.node = false;
        expectStreamEqualsDom(*t, off);
    }
    // with kernel warnings (a broken cluster mask) and a single CPU (no domains at all)
    for (const char* synthetic : {"core:3 pu:2(indexes=0,5,1,3,2,4)", "pu:1"}) {
        auto t = loadHwlocSynthetic(synthetic, Arch::X86_64);
        ASSERT_TRUE(t.ok()) << t.error();
        expectStreamEqualsDom(*t, {});
    }
}

TEST(DomainJson, EmptyTreeIsStillOneDocument) {
    DomainTree empty;
    std::ostringstream streamed;
    writeDomainTreeJson(streamed, empty);
    EXPECT_EQ(streamed.str(), domainTreeToJson(empty).dump(2));
    EXPECT_TRUE(nlohmann::json::accept(streamed.str()));
}

}  // namespace
}  // namespace schedscope
