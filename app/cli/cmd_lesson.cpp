// schedscope-cli lesson: the teaching lessons, headless. Prints the text and runs each step
// through the same command table the user would type.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "lessons/lesson.h"

namespace schedscope::cli {
namespace {

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
        std::vector<std::string> words;
        for (const auto& w : step.run) words.push_back(expandDataPath(w));
        std::string line = "schedscope-cli";
        for (const auto& w : step.run) line += " " + w;
        std::cout << "\n## Step " << i + 1 << ": " << step.title << "\n$ " << line << "\n" << std::flush;
        size_t used = 0;
        const Command* cmd = findCommand(words, used);
        if (!cmd) return fail("lesson " + lesson->id + ": step " + std::to_string(i + 1) + " names no command");
        int rc = runCommand(*cmd, {words.begin() + static_cast<long>(used), words.end()});
        std::cout << std::flush;
        if (rc != step.exitStatus) {
            std::cerr << "schedscope-cli: lesson " << lesson->id << ": step " << i + 1 << " failed (exit " << rc << ")\n";
            worst = std::max(worst, rc == 0 ? 1 : rc);
        }
    }
    return worst;
}

}  // namespace

std::vector<Command> lessonCommands() {
    return {{"lesson", "list the lessons, or show one and run its steps headless", "[NAME] [--list] [--json] [--no-run]",
             {{"list", false, "list the lessons (with --json: their ids, titles and summaries)"},
              {"json", false, "print the lesson's steps and figures as JSON instead of running it"},
              {"no-run", false, "print the text only"}},
             runLesson, 1}};
}

}  // namespace schedscope::cli
