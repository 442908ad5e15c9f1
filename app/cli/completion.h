#pragma once
// Shell completion generated from the command table, so it cannot drift from the options.
#include <string>
#include <vector>

#include "commands.h"

namespace schedscope::cli {

std::string bashCompletionScript(const std::vector<Command>& commands);

}  // namespace schedscope::cli
