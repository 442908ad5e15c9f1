// Traces the real 6.1 and 6.12 kernels recorded on QEMU machines (a 16-CPU, 4-node SMT one and a
// six-node NUMA ring)
// (tests/data/traces/qemu): every migration, as trace-cmd report reads it, gets the level of the
// lowest domain those kernels built (the oracle's kernel.json) spanning both CPUs, and the
// classifier, working from the builder's domains for the machine's sysfs, must give each the same.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <vector>

#include "domains/domain_builder.h"
#include "migration_classifier.h"
#include "support/fixtures.h"
#include "topology/sysfs_loader.h"
#include "trace_reader.h"

namespace schedscope::tracing {
namespace {

struct Recorded {
    const char* trace;       // under traces/qemu/
    const char* oracleCase;  // the machine's sysfs and the kernel's domains
    const char* profile;
    std::vector<std::string> levels;  // the machine's levels, each crossed by some migration
};

struct ReferenceMigration {
    int pid = -1, src = -1, dst = -1;
    std::string level;  // the kernel's own lowest domain spanning src and dst
};

// The level of the lowest of `src`'s domains (as the kernel built them) that spans `dst`.
std::string kernelLevel(const nlohmann::json& kernel, int src, int dst) {
    for (const auto& d : kernel["cpus"][std::to_string(src)]) {
        auto span = CpuSet::parseList(d["span"].get<std::string>());
        EXPECT_TRUE(span.ok());
        if (span->test(dst)) return d["level"].get<std::string>();
    }
    return "none";
}

// trace-cmd report -F sched_migrate_task's lines, with the kernel's level of each
std::vector<ReferenceMigration> reference(const std::string& reportPath, const nlohmann::json& kernel) {
    std::istringstream in(test::readFile(reportPath));
    const std::regex line(R"(sched_migrate_task:.* pid=(\d+) prio=-?\d+ orig_cpu=(\d+) dest_cpu=(\d+))");
    std::vector<ReferenceMigration> out;
    std::smatch m;
    for (std::string l; std::getline(in, l);) {
        if (!std::regex_search(l, m, line)) continue;
        ReferenceMigration r{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), {}};
        r.level = kernelLevel(kernel, r.src, r.dst);
        out.push_back(r);
    }
    return out;
}

class RealKernelTrace : public ::testing::TestWithParam<Recorded> {};

TEST_P(RealKernelTrace, EveryMigrationGetsTheLevelOfTheKernelsOwnDomains) {
    const Recorded& rec = GetParam();
    const std::string base = test::dataPath(std::string("traces/qemu/") + rec.trace);
    const auto kernel = nlohmann::json::parse(test::readFile(test::dataPath(std::string("oracle/") + rec.oracleCase + "/kernel.json")));
    const std::vector<ReferenceMigration> want = reference(base + ".migrations.txt", kernel);
    ASSERT_GT(want.size(), 100u);
    // the load crossed every level this machine has
    std::map<std::string, int> wantByLevel;
    for (const auto& r : want) ++wantByLevel[r.level];
    for (const std::string& level : rec.levels) EXPECT_GT(wantByLevel[level], 0) << level;
    EXPECT_EQ(wantByLevel.count("none"), 0u);

    auto store = readTraceDat(base + ".dat");
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store->cpuCount(), static_cast<int>(kernel["cpus"].size()));
    auto topo = loadSysfsTopology(test::extractFixture(std::string("oracle/") + rec.oracleCase + "/sysfs.tar.xz"), Arch::X86_64);
    ASSERT_TRUE(topo.ok()) << topo.error();
    DomainBuildOptions opt;
    opt.profile = findProfile(rec.profile);
    auto tree = buildDomains(*topo, opt);
    ASSERT_TRUE(tree.ok()) << tree.error();
    const MigrationClassifier classifier(*tree);
    const MigrationReport got = classifier.classify(*store);

    ASSERT_EQ(got.migrations.size(), want.size());
    std::map<std::string, uint64_t> gotByLevel;
    for (size_t i = 0; i < want.size(); ++i) {
        const Migration& m = got.migrations[i];
        EXPECT_EQ(m.pid, want[i].pid) << "migration " << i;
        EXPECT_EQ(m.src, want[i].src) << "migration " << i;
        EXPECT_EQ(m.dst, want[i].dst) << "migration " << i;
        ASSERT_GE(m.level, 0) << "migration " << i;
        EXPECT_EQ(got.levels[static_cast<size_t>(m.level)], want[i].level)
            << "migration " << i << ": " << m.src << " -> " << m.dst;
    }
    for (size_t l = 0; l < got.levels.size(); ++l)
        if (got.byLevel[l]) gotByLevel[got.levels[l]] = got.byLevel[l];
    for (const auto& [level, n] : wantByLevel) EXPECT_EQ(gotByLevel[level], static_cast<uint64_t>(n)) << level;
}

INSTANTIATE_TEST_SUITE_P(Qemu, RealKernelTrace,
                         ::testing::Values(Recorded{"x86-2s4n4c2t-linux-6.1", "x86-2s4n4c2t", "linux-6.1", {"SMT", "MC", "NUMA"}},
                                           Recorded{"x86-2s4n4c2t-linux-6.12", "linux-6.12-x86-2s4n4c2t", "linux-6.12",
                                                    {"SMT", "MC", "NUMA"}},
                                           // overlapping NUMA domains (a ring of six nodes, diameter 3)
                                           Recorded{"x86-numa-ring6-linux-6.1", "x86-numa-ring6", "linux-6.1", {"MC", "NUMA"}}),
                         [](const auto& info) {
                             std::string n = std::string(info.param.trace).substr(0, std::string(info.param.trace).find("-linux"));
                             n += std::string("_") + info.param.profile;
                             for (char& c : n)
                                 if (c == '-' || c == '.') c = '_';
                             return n;
                         });

}  // namespace
}  // namespace schedscope::tracing
