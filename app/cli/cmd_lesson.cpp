// schedscope-cli lesson: the teaching lessons, headless. Prints the text and runs each step
// through the same command table the user would type.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "captured_output.h"
#include "commands.h"
#include "lessons/lesson.h"

namespace schedscope::cli {
namespace {

bool takesJson(const Command& cmd) {
    for (const auto& o : cmd.options)
        if (o.name == "json") return true;
    return false;
}

// Reruns a step with --json (its text output was shown already) and checks each claim the
// lesson's text makes about it; the number of claims that do not hold, or -1 when the step
// could not be checked at all (said on stderr).
int checkClaims(const Lesson& lesson, size_t index, const Command& cmd, std::vector<std::string> rest) {
    const LessonStep& step = lesson.steps[index];
    const std::string where = "lesson " + lesson.id + ": step " + std::to_string(index + 1);
    if (!takesJson(cmd)) {
        std::cerr << "schedscope-cli: " << where << ": its claims cannot be checked: '" << cmd.name << "' has no --json\n";
        return -1;
    }
    if (std::find(rest.begin(), rest.end(), "--json") == rest.end()) rest.push_back("--json");
    auto run = captureOutput([&] { return runCommand(cmd, rest); });
    if (!run) {
        std::cerr << "schedscope-cli: " << where << ": " << run.error() << "\n";
        return -1;
    }
    const auto doc = nlohmann::json::parse(run->out, nullptr, false);
    if (doc.is_discarded()) {
        // what the rerun said on stderr is why (its notes were shown with the step already)
        const std::string said = run->err.substr(0, run->err.find('\n'));
        std::cerr << "schedscope-cli: " << where << ": its --json output is not JSON (exit " << run->exitStatus << ")"
                  << (said.empty() ? "" : ": " + said) << "\n";
        return -1;
    }
    int failed = 0;
    std::cout << "\nWhat the text says this step shows:\n";
    for (const LessonClaim& claim : step.claims) {
        const ClaimCheck c = checkLessonClaim(claim, doc);
        std::cout << "  " << claimCheckLine(claim, c) << "\n";
        if (c.holds) continue;
        ++failed;
        std::cerr << "schedscope-cli: " << where << ": '" << claim.says << "' does not hold: " << claimValueText(claim, c)
                  << ", the text says "
                  << c.expected << "\n";
    }
    return failed;
}

int runLesson(const Args& args) {
    if (args.positional().empty() || args.has("list")) {
        const std::vector<std::string> ids = listLessons();
        if (args.has("json")) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& id : ids) {
                auto l = loadLesson(id);
                nlohmann::json entry = {{"id", id}};
                if (l) entry.update({{"title", l->title}, {"summary", l->summary}});
                else entry["error"] = l.error();
                list.push_back(std::move(entry));
            }
            std::cout << list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            return 0;
        }
        size_t width = 0;  // the longest id, so that every summary starts in one column
        for (const auto& id : ids) width = std::max(width, id.size());
        for (const auto& id : ids) {
            auto l = loadLesson(id);
            std::printf("%-*s  %s\n", static_cast<int>(width), id.c_str(), l ? l->summary.c_str() : l.error().c_str());
        }
        return 0;
    }
    if (args.positional().size() > 1) return fail("lesson: give one lesson name");
    auto lesson = loadLesson(args.positional()[0]);
    if (!lesson) return fail("lesson: " + lesson.error());
    if (args.has("json")) {
        nlohmann::json steps = nlohmann::json::array();
        for (const auto& s : lesson->steps) {
            nlohmann::json step = {{"title", s.title}, {"run", s.run}};
            if (s.exitStatus != 0) step["exit"] = s.exitStatus;
            if (!s.claims.empty()) {
                nlohmann::json expect = nlohmann::json::array();
                for (const LessonClaim& c : s.claims) {
                    nlohmann::json claim = {{"says", c.says}, {"json", c.pointer}};
                    if (c.min) claim["min"] = *c.min;
                    if (c.max) claim["max"] = *c.max;
                    if (!c.equals.empty()) claim["equals"] = nlohmann::json::parse(c.equals, nullptr, false);
                    if (c.absent) claim["absent"] = true;
                    expect.push_back(std::move(claim));
                }
                step["expect"] = std::move(expect);
            }
            steps.push_back(std::move(step));
        }
        nlohmann::json figs = nlohmann::json::array();
        for (const auto& f : lesson->figures) figs.push_back({{"file", f.file}, {"view", f.view}, {"size", f.size}, {"args", f.args}});
        std::cout << nlohmann::json{{"id", lesson->id}, {"title", lesson->title}, {"summary", lesson->summary},
                                    {"scenario", lesson->scenario}, {"steps", steps}, {"figures", figs}}
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
        return 0;
    }
    std::cout << lesson->text << "\n";
    if (args.has("no-run")) return 0;
    int worst = 0;
    for (size_t i = 0; i < lesson->steps.size(); ++i) {
        const auto& step = lesson->steps[i];
        const std::vector<std::string> words = stepWords(step);
        std::cout << "\n## Step " << i + 1 << ": " << step.title << "\n$ " << stepCommandLine(step) << "\n" << std::flush;
        size_t used = 0;
        const Command* cmd = findCommand(words, used);
        if (!cmd) return fail("lesson " + lesson->id + ": step " + std::to_string(i + 1) + " names no command");
        int rc = runCommand(*cmd, {words.begin() + static_cast<long>(used), words.end()});
        std::cout << std::flush;
        if (rc != step.exitStatus) {
            std::cerr << "schedscope-cli: lesson " << lesson->id << ": step " << i + 1 << " failed (exit " << rc << ")\n";
            worst = std::max(worst, rc == 0 ? 1 : rc);
            continue;  // a step that failed shows nothing its claims could be checked against
        }
        if (step.claims.empty()) continue;
        const int failed = checkClaims(*lesson, i, *cmd, {words.begin() + static_cast<long>(used), words.end()});
        if (failed != 0) worst = std::max(worst, 1);
    }
    return worst;
}

}  // namespace

std::vector<Command> lessonCommands() {
    return {{"lesson", "list the lessons, or show one, run its steps headless and check what its text says they show", "[NAME] [--list] [--json] [--no-run]",
             {{"list", false, "list the lessons (with --json: their ids, titles and summaries)"},
              {"json", false, "print the lesson's steps and figures as JSON instead of running it"},
              {"no-run", false, "print the text only"}},
             runLesson, 1}};
}

}  // namespace schedscope::cli
