// hwloc synthetic descriptions: our size guard and conversion.
#include <cstdlib>
#include <string>

#include "domains/domain_builder.h"
#include "topology/hwloc_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 256) return 0;
    std::string text(reinterpret_cast<const char*>(data), size);
    // Past 2500 CPUs only the size guard is fuzzed (a count over the limit is refused before
    // hwloc runs): hwloc's synthetic build is quadratic in a level's width ("6222", one level of
    // 6222 PUs, takes 3 s natively) and the sanitized domain build adds as much again, so such
    // an input is a slow unit, not a hang, and would fail the run as a timeout by chance.
    // (2500 keeps the regression "2222", one level of 2222 PUs, at about 2 s under ASan.)
    const long long cpus = schedscope::syntheticPuCount(text);
    if (cpus > 2500 && cpus <= schedscope::kMaxCpus) return 0;
    auto t = schedscope::loadHwlocSynthetic(text, schedscope::Arch::X86_64);
    // The NUMA levels give every CPU a group per node: CPUs x nodes groups, as in the kernel.
    // 1024 one-CPU nodes (the most check() lets through) take 1.2 s to build natively and ten
    // times that sanitized: a slow unit, not a hang. Past 2^18 groups only the loading is fuzzed.
    if (t.ok() && static_cast<long long>(t->onlineCount()) * static_cast<long long>(t->nodes.size()) > (1 << 18)) return 0;
    if (t.ok()) {
        auto tree = schedscope::buildDomains(*t, {});
        if (tree.ok() && tree->warnings.empty() && !schedscope::validateDomainTree(*tree).empty()) std::abort();
    }
    return 0;
}
