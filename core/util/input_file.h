#pragma once
// Whole-file reads of inputs other people made (workload files, topology sidecars). Such a
// file is parsed into a DOM several times its size, so one that is far larger than any real
// input, or not a regular file at all (a FIFO, /dev/zero), is refused with its name instead of
// being read without bound.
#include <cstddef>
#include <string>

#include "util/result.h"

namespace schedscope {

// 64 MiB: a workload of 10^5 tasks or the sidecar of a 4096-CPU machine is a few MiB.
inline constexpr size_t kMaxInputFileBytes = size_t{64} << 20;

// The bytes of `path`, a regular file of at most `maxBytes`; `what` names it in errors
// ("workload file": "x.json: cannot open workload file (No such file or directory)").
Result<std::string> readInputFile(const std::string& path, const std::string& what, size_t maxBytes = kMaxInputFileBytes);

// Standard input to its end, at most `maxBytes` (`dmesg | schedscope-cli ... -`); errors name
// it "standard input".
Result<std::string> readStandardInput(const std::string& what, size_t maxBytes = kMaxInputFileBytes);
// For an input also read from standard input (a kernel log): a pipe named by its path, as
// `<(zcat kern.log.1.gz)` gives, read to its end within the same bound (it blocks while its
// writer keeps it open, as standard input does).
bool isPipe(const std::string& path);
Result<std::string> readPipe(const std::string& path, const std::string& what, size_t maxBytes = kMaxInputFileBytes);

}  // namespace schedscope
