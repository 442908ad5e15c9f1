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
    int positionals = 0;  // words it takes besides its options (a trace FILE, a lesson NAME)
};

const std::vector<Command>& commands();
// The command named by the first one or two words ("trace stats" wins over "trace");
// nullptr when none. `used` receives the number of words the name took.
const Command* findCommand(const std::vector<std::string>& words, size_t& used);
// Parses `rest` against the command's options and runs it; errors print one line, exit 2.
// The lesson runner drives commands through this too.
int runCommand(const Command& cmd, const std::vector<std::string>& rest);

// Prints "schedscope-cli: <message>" to stderr and returns 2 (bad input).
int fail(const std::string& message);
// Same, exit code 1 (a runtime failure, e.g. no permission).
int failRuntime(const std::string& message);

// The per-command registrations, defined in the cmd_*.cpp files.
std::vector<Command> topologyCommands();  // topology, domains
std::vector<Command> traceCommands();     // trace stats, record, live, bench load
std::vector<Command> simulateCommands();  // simulate, bench sim
std::vector<Command> replayCommands();    // replay
std::vector<Command> lessonCommands();    // lesson

}  // namespace schedscope::cli
