#include "commands.h"

#include <iostream>

namespace schedscope::cli {

int fail(const std::string& message) {
    std::cerr << "schedscope-cli: " << message << "\n";
    return 2;
}

int failRuntime(const std::string& message) {
    std::cerr << "schedscope-cli: " << message << "\n";
    return 1;
}

const std::vector<Command>& commands() {
    static const std::vector<Command> all = [] {
        std::vector<Command> v;
        for (auto group : {topologyCommands(), traceCommands(), simulateCommands(), replayCommands()})
            v.insert(v.end(), group.begin(), group.end());
        return v;
    }();
    return all;
}

}  // namespace schedscope::cli
