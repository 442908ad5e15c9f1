#pragma once
// The schedscope-cli command table. Each command lives in its own cmd_*.cpp and registers here;
// exit codes: 0 success, 1 runtime failure, 2 bad input or usage.
#include <string>
#include <vector>

#include "args.h"

namespace schedscope::cli {

struct Command {
    std::string name;     // "domains", or "trace stats" for a two-word command
    std::string summary;  // one line for the command list
    std::string usage;    // "[topology options] [--json]"
    std::vector<OptionSpec> options;
    int (*run)(const Args& args);
};

const std::vector<Command>& commands();

// Prints "schedscope-cli: <message>" to stderr and returns 2 (bad input).
int fail(const std::string& message);
// Same, exit code 1 (a runtime failure, e.g. no permission).
int failRuntime(const std::string& message);

// The per-command registrations, defined in the cmd_*.cpp files.
std::vector<Command> topologyCommands();  // topology, domains
std::vector<Command> traceCommands();     // trace stats, record, live, bench load
std::vector<Command> simulateCommands();  // simulate, bench sim
std::vector<Command> replayCommands();    // replay

}  // namespace schedscope::cli
