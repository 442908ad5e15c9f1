// A saved dmesg through parseKernelLog: a tree that renders (a log cut short leaves a domain
// without groups, which the renderings and the validator must take), or a one-line error. The
// machine read from the tree (topologyFromKernelLog) is built again: a topology that passes its
// check, or a one-line error.
#include <cstdlib>
#include <string>
#include <string_view>

#include "domains/domain_format.h"
#include "domains/kernel_log_reader.h"
#include "domains/topology_from_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto tree = schedscope::parseKernelLog(text, "fuzz");
    if (!tree.ok()) {
        if (tree.error().find('\n') != std::string::npos) std::abort();
        return 0;
    }
    (void)schedscope::domainTreeToKernelLog(*tree);
    (void)schedscope::domainTreeToText(*tree);
    auto machine = schedscope::topologyFromKernelLog(*tree, "fuzz");
    if (!machine.ok()) {
        if (machine.error().find('\n') != std::string::npos) std::abort();
        return 0;
    }
    if (!machine->topology.check().ok()) std::abort();
    return 0;
}
