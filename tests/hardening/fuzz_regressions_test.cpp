// Every input a fuzz campaign found crashing is kept in tests/data/fuzz-regressions/<target>/
// and replayed here through the very same target body (the fuzz sources are compiled into this
// test with LLVMFuzzerTestOneInput renamed), so a regression fails a normal ctest run, under
// g++ and under the asan preset, without clang or libFuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "support/fixtures.h"

#define SCHEDSCOPE_FUZZ_TARGET(name) extern "C" int fuzz_##name(const uint8_t*, size_t);
SCHEDSCOPE_FUZZ_TARGET(trace_dat)
SCHEDSCOPE_FUZZ_TARGET(ftrace_text)
SCHEDSCOPE_FUZZ_TARGET(event_store)
SCHEDSCOPE_FUZZ_TARGET(workload_json)
SCHEDSCOPE_FUZZ_TARGET(workload_spec)
SCHEDSCOPE_FUZZ_TARGET(groups_sidecar)
SCHEDSCOPE_FUZZ_TARGET(cpulist)
SCHEDSCOPE_FUZZ_TARGET(hwloc_xml)
SCHEDSCOPE_FUZZ_TARGET(synthetic)
SCHEDSCOPE_FUZZ_TARGET(sysfs)
SCHEDSCOPE_FUZZ_TARGET(topology_json)
SCHEDSCOPE_FUZZ_TARGET(cli_args)
SCHEDSCOPE_FUZZ_TARGET(capture_client)
SCHEDSCOPE_FUZZ_TARGET(kernel_log)
SCHEDSCOPE_FUZZ_TARGET(numa_distances)

namespace {
namespace fs = std::filesystem;
using Target = int (*)(const uint8_t*, size_t);

const std::map<std::string, Target>& targets() {
    static const std::map<std::string, Target> t = {
        {"fuzz_trace_dat", fuzz_trace_dat},         {"fuzz_ftrace_text", fuzz_ftrace_text},
        {"fuzz_event_store", fuzz_event_store},     {"fuzz_workload_json", fuzz_workload_json},
        {"fuzz_workload_spec", fuzz_workload_spec}, {"fuzz_cpulist", fuzz_cpulist},
        {"fuzz_hwloc_xml", fuzz_hwloc_xml},         {"fuzz_synthetic", fuzz_synthetic},
        {"fuzz_sysfs", fuzz_sysfs},                 {"fuzz_topology_json", fuzz_topology_json},
        {"fuzz_cli_args", fuzz_cli_args},           {"fuzz_capture_client", fuzz_capture_client},
        {"fuzz_kernel_log", fuzz_kernel_log},       {"fuzz_groups_sidecar", fuzz_groups_sidecar},
        {"fuzz_numa_distances", fuzz_numa_distances}};
    return t;
}

std::vector<std::string> regressionFiles() {
    std::vector<std::string> out;
    const fs::path root = schedscope::test::dataPath("fuzz-regressions");
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(root, ec))
        if (e.is_regular_file() && e.path().filename() != "README.md")
            out.push_back(fs::relative(e.path(), root).string());
    std::sort(out.begin(), out.end());
    return out;
}

class FuzzRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzRegression, NoLongerCrashes) {
    const fs::path rel = GetParam();
    const std::string target = rel.begin()->string();
    auto it = targets().find(target);
    ASSERT_NE(it, targets().end()) << "no fuzz target named " << target;
    const std::string bytes = schedscope::test::readFile(schedscope::test::dataPath("fuzz-regressions/" + rel.string()));
    EXPECT_EQ(it->second(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzRegression);
INSTANTIATE_TEST_SUITE_P(Corpus, FuzzRegression, ::testing::ValuesIn(regressionFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

TEST(FuzzRegression, EveryTargetHasADirectoryOrNoneIsNeeded) {
    for (const auto& f : regressionFiles()) EXPECT_TRUE(targets().count(fs::path(f).begin()->string())) << f;
}

}  // namespace
