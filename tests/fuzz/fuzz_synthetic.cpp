// hwloc synthetic descriptions: our size guard and conversion.
#include <cstdlib>
#include <string>

#include "domains/domain_builder.h"
#include "topology/hwloc_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 256) return 0;
    std::string text(reinterpret_cast<const char*>(data), size);
    auto t = schedscope::loadHwlocSynthetic(text, schedscope::Arch::X86_64);
    if (t.ok()) {
        auto tree = schedscope::buildDomains(*t, {});
        if (tree.ok() && tree->warnings.empty() && !schedscope::validateDomainTree(*tree).empty()) std::abort();
    }
    return 0;
}
