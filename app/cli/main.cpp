// schedscope-cli: the headless face of schedscope, for scripts and CI.
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "completion.h"

using namespace schedscope::cli;

static void printUsage(std::FILE* to) {
    std::fprintf(to, "usage: schedscope-cli COMMAND [OPTIONS]\n\ncommands:\n");
    for (const auto& c : commands()) std::fprintf(to, "  %-16s %s\n", c.name.c_str(), c.summary.c_str());
    std::fprintf(to, "  %-16s %s\n", "completion bash", "print a bash completion script");
    std::fprintf(to, "\n'schedscope-cli COMMAND --help' describes a command's options; --help-all describes them all.\n");
}

// "trace --help": the group's two-word commands
static void printGroupUsage(const std::string& group) {
    std::printf("usage: schedscope-cli %s SUBCOMMAND [OPTIONS]\n\nsubcommands:\n", group.c_str());
    for (const auto& c : commands())
        if (c.name.starts_with(group + " ")) std::printf("  %-16s %s\n", c.name.c_str(), c.summary.c_str());
    std::printf("\n'schedscope-cli %s SUBCOMMAND --help' describes its options.\n", group.c_str());
}

static void printCommandHelp(const Command& c) {
    std::printf("usage: schedscope-cli %s %s\n\n%s\n\noptions:\n%s", c.name.c_str(), c.usage.c_str(),
                c.summary.c_str(), formatOptionHelp(c.options).c_str());
}

// Every command with its options: the source of the man page (help2man) so it cannot drift.
static void printHelpAll() {
    std::printf("Usage: schedscope-cli COMMAND [OPTIONS]\n\n"
                "The headless face of schedscope: sched-domain trees, traces, live capture and\n"
                "simulation, for scripts and CI. Exit codes: 0 success, 1 runtime failure (e.g. no\n"
                "permission), 2 bad input or usage; errors are one line on stderr.\n\n");
    for (const auto& c : commands()) {
        std::printf("schedscope-cli %s %s\n  %s\n\n%s\n", c.name.c_str(), c.usage.c_str(), c.summary.c_str(),
                    formatOptionHelp(c.options).c_str());
    }
    std::printf("Other:\n  --help        list the commands\n  --help-all    this text\n"
                "  --version     print the version\n  completion bash   print a bash completion script\n");
}

int main(int argc, char** argv) {
    std::vector<std::string> words(argv + 1, argv + argc);
    if (words.empty()) {
        printUsage(stderr);
        return 2;
    }
    if (words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
        printUsage(stdout);
        return 0;
    }
    if (words[0] == "--help-all") {
        printHelpAll();
        return 0;
    }
    if (words[0] == "completion") {
        if (words.size() == 2 && words[1] == "bash") {
            std::fputs(bashCompletionScript(commands()).c_str(), stdout);
            return 0;
        }
        std::fprintf(stderr, "schedscope-cli: completion: usage: schedscope-cli completion bash\n");
        return 2;
    }
    if (words[0] == "--version") {
        std::printf("schedscope-cli %s\n", SCHEDSCOPE_VERSION);
        return 0;
    }
    size_t used = 0;
    const Command* cmd = findCommand(words, used);
    if (!cmd) {
        // "trace foo", "bench": the first word names a group of two-word commands
        std::string group;
        for (const auto& c : commands())
            if (c.name.starts_with(words[0] + " ")) group += (group.empty() ? "" : ", ") + c.name;
        if (!group.empty() && words.size() > 1 && (words[1] == "--help" || words[1] == "-h")) {
            printGroupUsage(words[0]);
            return 0;
        }
        if (!group.empty()) {
            const std::string sub = words.size() > 1 ? "unknown subcommand '" + words[1] + "'" : "a subcommand is missing";
            std::fprintf(stderr, "schedscope-cli: %s: %s (%s)\n", words[0].c_str(), sub.c_str(), group.c_str());
            return 2;
        }
        std::fprintf(stderr, "schedscope-cli: unknown command '%s'\n", words[0].c_str());
        printUsage(stderr);
        return 2;
    }
    std::vector<std::string> rest(words.begin() + static_cast<long>(used), words.end());
    for (const auto& w : rest) {
        if (w == "--") break;
        if (w == "--help" || w == "-h") {
            printCommandHelp(*cmd);
            return 0;
        }
    }
    return runCommand(*cmd, rest);
}
