// --numa-distances' table parser: must never crash, and what parses must read back the same from
// the text it is written as (TopologySpec::describe() prints it for a command line to redo).
#include <cstdlib>
#include <string>

#include "topology/numa_distances.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (auto table = schedscope::parseNumaDistances(text); table.ok()) {
        auto again = schedscope::parseNumaDistances(schedscope::numaDistancesText(*table));
        if (!again.ok() || *again != *table) std::abort();
    }
    return 0;
}
