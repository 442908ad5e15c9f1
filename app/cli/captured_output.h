#pragma once
// What a command prints while it runs, kept instead of shown: the lesson runner reruns a step
// with --json to check the text's claims against the document, and the reader has already seen
// the step's own output and notes.
#include <functional>
#include <string>

#include "util/result.h"

namespace schedscope::cli {

struct CapturedRun {
    int exitStatus = 0;
    std::string out;  // everything written to stdout (C stdio and std::cout) meanwhile
    std::string err;  // and to stderr: what to quote when the run went wrong
};

// Runs `fn` with stdout and stderr pointed at temporary files, then restores them. Fails only
// when the redirection cannot be set up (no temporary file, no descriptor left).
Result<CapturedRun> captureOutput(const std::function<int()>& fn);

}  // namespace schedscope::cli
