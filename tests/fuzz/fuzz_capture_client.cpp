// The capture client's frame parser (bytes from schedscope-capture, a privileged process, or
// from whatever sits on the other end of a FIFO): bad framing must be an error, never a crash.
// The first byte picks the chunk size, so frames split at every position are exercised.
#include <cstddef>
#include <cstdint>
#include <span>

#include "capture_client.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const size_t chunk = 1 + data[0] % 64;
    schedscope::tracing::CaptureClient client(-1);
    schedscope::tracing::EventStore store;
    std::span<const uint8_t> rest(data + 1, size - 1);
    while (!rest.empty()) {
        const size_t n = rest.size() < chunk ? rest.size() : chunk;
        if (!client.feed(rest.first(n), store)) break;
        rest = rest.subspan(n);
    }
    client.flushCounts(store);
    store.finish();
    (void)schedscope::tracing::decodeAggregate({data, size});
    return 0;
}
