// schedscope-capture's input side before it has a client: its argv (NUL-separated words). It
// runs with privileges, so every word must end in a value or a one-line error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "capture_args.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> argv(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0) argv.emplace_back();
        else argv.back() += static_cast<char>(data[i]);
    }
    auto args = schedscope::capture::parseCaptureArgs(argv);
    if (!args && args.error().find('\n') != std::string::npos) __builtin_trap();  // one line
    if (args && !args->socketPath.empty() && !schedscope::capture::checkSocketPathSyntax(args->socketPath)) __builtin_trap();
    return 0;
}
