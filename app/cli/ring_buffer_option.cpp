#include "ring_buffer_option.h"

#include <algorithm>

namespace schedscope::cli {

OptionSpec bufferKbOption() {
    return {"buffer-kb", true, "N kilobytes of ring buffer per CPU, as trace-cmd record -b (default: the kernel's)"};
}

Result<size_t> bufferKbFrom(const Args& args) {
    auto kb = args.integer("buffer-kb", 0, 4, static_cast<long long>(kMaxBufferKb));
    if (!kb) return Error{kb.error()};
    return static_cast<size_t>(*kb);
}

std::string lostEventsAdvice(uint64_t lost, size_t bufferKb) {
    std::string text = std::to_string(lost) + " events lost: the ring buffers";
    if (bufferKb == 0) return text + " filled faster than they were read; a bigger --buffer-kb keeps more";
    text += " (" + std::to_string(bufferKb) + " KB per CPU) filled faster than they were read; ";
    if (bufferKb >= kMaxBufferKb) return text + "this is the largest --buffer-kb: fewer CPUs or a shorter capture keeps more";
    // four times the size: a burst that overflowed one buffer seldom needs less
    return text + "--buffer-kb " + std::to_string(std::min(bufferKb * 4, kMaxBufferKb)) + " keeps more";
}

}  // namespace schedscope::cli
