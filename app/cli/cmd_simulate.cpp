#include "commands.h"

namespace schedscope::cli {
std::vector<Command> simulateCommands() { return {}; }
}  // namespace schedscope::cli
