// The CLI option parser over every command's option table: NUL-separated words as argv.
#include <string>
#include <vector>

#include "commands.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> argv(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0) argv.emplace_back();
        else argv.back() += static_cast<char>(data[i]);
    }
    for (const auto& cmd : schedscope::cli::commands()) {
        auto args = schedscope::cli::Args::parse(argv, cmd.options);
        if (args.ok()) {
            (void)args->integer("seed", 0, 0, 1000);
            (void)args->number("duration", 1.0);
        }
    }
    return 0;
}
