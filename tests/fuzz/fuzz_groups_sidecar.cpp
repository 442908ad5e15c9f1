// The task groups sidecar (FILE.dat.groups.json): groups by pid, their shares and bandwidth limits, or a
// one-line error naming the file.
#include <cstdlib>
#include <string>

#include "task_groups.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto snap = schedscope::tracing::parseGroupsSidecar(text, "fuzz.groups.json");
    if (!snap.ok()) {
        if (snap.error().find('\n') != std::string::npos || !snap.error().starts_with("fuzz.groups.json: ")) std::abort();
        return 0;
    }
    for (const auto& [pid, group] : snap->groupOf)
        if (pid < 0) std::abort();
    for (const auto& [group, shares] : snap->sharesOf)
        if (shares < 2 || shares > (1 << 18)) std::abort();
    // limits the kernel could hold: what the simulator's groups take without a further check
    for (const auto& [group, l] : snap->limitOf)
        if (l.quotaUs < 1000 || l.quotaUs >= (1LL << 44) || l.periodUs < 1000 || l.periodUs > 1000000 || l.burstUs < 0 ||
            l.burstUs > l.quotaUs)
            std::abort();
    return 0;
}
