#include "commands.h"

#include <filesystem>
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
        for (auto group : {topologyCommands(), traceCommands(), simulateCommands(), replayCommands(), lessonCommands()})
            v.insert(v.end(), group.begin(), group.end());
        return v;
    }();
    return all;
}

const Command* findCommand(const std::vector<std::string>& words, size_t& used) {
    used = 0;
    if (words.empty()) return nullptr;
    for (const auto& c : commands())
        if (words.size() >= 2 && c.name == words[0] + " " + words[1]) {
            used = 2;
            return &c;
        }
    for (const auto& c : commands())
        if (c.name == words[0]) {
            used = 1;
            return &c;
        }
    return nullptr;
}

int runCommand(const Command& cmd, const std::vector<std::string>& rest) {
    auto args = Args::parse(rest, cmd.options);
    if (!args) return fail(cmd.name + ": " + args.error());
    // a word that is not an option is a mistake (a path without its --xml, say), not to be ignored
    if (args->positional().size() > static_cast<size_t>(cmd.positionals)) {
        const std::string& word = args->positional()[static_cast<size_t>(cmd.positionals)];
        std::error_code ec;
        std::string hint;
        if (std::filesystem::is_directory(word, ec)) hint = " (a sysfs snapshot? --sysfs-root " + word + ")";
        else if (word.ends_with(".xml")) hint = " (a topology? --xml " + word + ")";
        return fail(cmd.name + ": unexpected argument '" + word + "'" + hint);
    }
    try {
        return cmd.run(*args);
    } catch (const std::exception& e) {
        // Libraries report bad input as values; an exception here is a bug, not a user error.
        return failRuntime(cmd.name + ": internal error: " + e.what());
    }
}

}  // namespace schedscope::cli
