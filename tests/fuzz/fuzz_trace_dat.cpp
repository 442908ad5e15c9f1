// trace.dat through our reader: libtracecmd parses the file, we decode what it returns. Any
// input must give a store or a one-line error naming the file.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/schedscope-fuzz-" + std::to_string(getpid()) + ".dat";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    auto s = schedscope::tracing::readTraceDat(path);
    if (s.ok()) {
        size_t n = 0;
        uint64_t last = 0;
        s->forEach([&](const schedscope::tracing::SchedEvent& e) {
            if (e.ts < last) std::abort();  // forEach is in time order
            last = e.ts;
            ++n;
            return true;
        });
        if (n != s->size()) std::abort();
    } else if (s.error().find('\n') != std::string::npos || s.error().rfind(path, 0) != 0) {
        std::abort();  // errors are one line and name the file
    }
    return 0;
}
