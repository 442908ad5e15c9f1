// Kernel cpulist and hex-mask parsing: must never crash, and what parses must round-trip.
#include <cstdlib>
#include <string>

#include "util/cpuset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    if (auto s = schedscope::CpuSet::parseList(text); s.ok()) {
        auto again = schedscope::CpuSet::parseList(s->toList());
        if (!again.ok() || !(*again == *s)) std::abort();
    }
    (void)schedscope::CpuSet::parseMask(text);
    return 0;
}
