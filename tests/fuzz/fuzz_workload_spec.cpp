// Workload generator specs ("stream:threads=4,cpus=0-3"): a bounded workload or a one-line error.
#include <cstdlib>
#include <string>

#include "workload/workload_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string spec(reinterpret_cast<const char*>(data), size);
    auto w = schedscope::workload::parseWorkloadSpec(spec, 24);
    if (!w.ok()) {
        if (w.error().find('\n') != std::string::npos) std::abort();
        return 0;
    }
    if (w->tasks.empty() || w->tasks.size() > schedscope::workload::kMaxWorkloadTasks) std::abort();
    for (const auto& t : w->tasks)
        if (!t.affinity.empty() && t.affinity.last() >= 24) std::abort();
    return 0;
}
