#pragma once
// Helpers of the bad-input catalogue: scratch files, byte patches, running the CLI.
#include <cstdint>
#include <string>

#include "support/sanitizers.h"

namespace schedscope::hardening {

// True in the asan preset: a few scale rows shrink there (the release run keeps the full size).
inline constexpr bool kSanitized = test::kAddressSanitizer;

// A fresh path under the build tree's scratch directory (parent directories created).
std::string scratchPath(const std::string& name);
// Fails the current test (and goes on) when the file cannot be written.
void writeFile(const std::string& path, const std::string& bytes);
// Overwrites `bytes.size()` bytes at `offset` of `data` (little-endian values via the helpers).
void patch(std::string& data, size_t offset, const void* bytes, size_t n);
template <typename T>
void patchValue(std::string& data, size_t offset, T v) { patch(data, offset, &v, sizeof v); }
template <typename T>
T readValue(const std::string& data, size_t offset) {
    T v{};
    data.copy(reinterpret_cast<char*>(&v), sizeof v, offset);
    return v;
}

struct CliRun {
    int status = -1;  // exit code, -1 when killed
    std::string out, err;
};
// Runs schedscope-cli with `args` (shell words).
CliRun runCli(const std::string& args);

}  // namespace schedscope::hardening
