// `simulate --compare`: each side's migrations by level and by cause, beside their total.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace {

nlohmann::json compareJson(const std::string& args) {
    const std::string cmd = std::string(SCHEDSCOPE_CLI) + " " + args + " --json 2>/dev/null";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 65536> buf{};
    for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
    const int st = pclose(p);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << args;
    return nlohmann::json::parse(out, nullptr, false);
}

double sideMean(const nlohmann::json& metrics, const std::string& name, const char* side) {
    return metrics.at(name).at(side).at("mean").get<double>();
}

// Under 6.12 the cluster-first scan pulls pgbench's wakees into their wakers' clusters: the
// wakeup migrations appear with CLS on only, at CLS and MC, and the rows add up to the total.
TEST(CompareBreakdown, MigrationsByLevelAndCauseAddUpToTheTotal) {
    const auto doc = compareJson("simulate --preset kunpeng920-24 --workload pgbench:clients=8,cpus=0-23 --duration 0.2 "
                                 "--profile linux-6.12 --compare cls --seeds 2");
    ASSERT_FALSE(doc.is_discarded());
    const auto& m = doc.at("metrics");
    for (const char* side : {"off", "on"}) {
        double byLevel = 0, byCause = 0;
        for (const auto& [name, value] : m.items()) {
            if (name.rfind("migrations_by_", 0) == 0) byCause += value.at(side).at("mean").get<double>();
            else if (name.rfind("migrations_", 0) == 0) byLevel += value.at(side).at("mean").get<double>();
        }
        const double total = sideMean(m, "migrations", side);
        EXPECT_DOUBLE_EQ(byLevel, total) << side;
        EXPECT_DOUBLE_EQ(byCause + sideMean(m, "numa_migrations", side), total) << side;
    }
    // the CLS row is there for both sides: the off side's tree has no CLS level, so none there
    EXPECT_EQ(sideMean(m, "migrations_CLS", "off"), 0.0);
    EXPECT_GT(sideMean(m, "migrations_CLS", "on"), 0.0);
    EXPECT_GT(sideMean(m, "migrations_MC", "on"), 100 * sideMean(m, "migrations_MC", "off"));
    EXPECT_EQ(sideMean(m, "migrations_by_wakeup", "off"), 0.0);
    EXPECT_GT(sideMean(m, "migrations_by_wakeup", "on"), 1000.0);
    EXPECT_FALSE(m.contains("migrations_by_numa")) << "NUMA balancing's are numa_migrations";
    EXPECT_FALSE(m.contains("migrations_by_fork")) << "a cause no run has gets no row";
}

}  // namespace
