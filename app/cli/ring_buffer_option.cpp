#include "ring_buffer_option.h"

namespace schedscope::cli {

OptionSpec bufferKbOption() {
    return {"buffer-kb", true, "N kilobytes of ring buffer per CPU, as trace-cmd record -b (default: the kernel's)"};
}

Result<size_t> bufferKbFrom(const Args& args) {
    auto kb = args.integer("buffer-kb", 0, static_cast<long long>(tracing::kMinBufferKb), static_cast<long long>(kMaxBufferKb));
    if (!kb) return Error{kb.error()};
    return static_cast<size_t>(*kb);
}

}  // namespace schedscope::cli
