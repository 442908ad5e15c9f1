// hwloc XML through our loader: hwloc parses, we convert what it returns. Any input must give a
// topology that passes check() and builds valid domains, or a one-line error.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "domains/domain_builder.h"
#include "topology/hwloc_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/schedscope-fuzz-" + std::to_string(getpid()) + ".xml";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    auto t = schedscope::loadHwlocXmlDetectArch(path);
    if (t.ok()) {
        auto tree = schedscope::buildDomains(*t, {});
        if (tree.ok() && tree->warnings.empty() && !schedscope::validateDomainTree(*tree).empty()) std::abort();
    } else if (t.error().find('\n') != std::string::npos) {
        std::abort();  // errors are one line
    }
    return 0;
}
