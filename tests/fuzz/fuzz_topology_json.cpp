// The trace topology sidecar (JSON): malformed documents give errors, never crashes.
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "domains/domain_builder.h"
#include "topology/topology_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto j = nlohmann::json::parse(data, data + size, nullptr, false);
    if (j.is_discarded()) return 0;
    auto t = schedscope::topologyFromJson(j, "fuzz.topology.json");
    if (t.ok()) {
        if (!t->check().ok()) std::abort();
        (void)schedscope::buildDomains(*t, {});
    }
    return 0;
}
