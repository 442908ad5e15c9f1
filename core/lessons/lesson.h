#pragma once
// Lessons: a short text plus runnable steps (schedscope-cli command lines) and figures rendered
// by schedscope itself, stored in resources/lessons/<id>/{lesson.json,lesson.md}.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lessons/lesson_claims.h"
#include "util/result.h"

namespace schedscope {

struct LessonStep {
    std::string title;
    std::vector<std::string> run;  // schedscope-cli words; "@data/" expands to resourcesDir()
    // what the command exits with when all is as the lesson says: 0, or 1 for a --diff that
    // shows a difference on purpose
    int exitStatus = 0;
    std::vector<LessonClaim> claims;  // what the text says the step shows ("expect")
};

struct LessonFigure {
    std::string file;               // PNG name, referenced from lesson.md
    std::string view;               // GUI view to render ("topology", "domains", ...)
    std::string size;               // "WxH"
    std::vector<std::string> args;  // GUI inputs (e.g. --preset NAME --select-cpu 0)
};

struct Lesson {
    std::string id;     // directory name, e.g. "02-cluster-scheduling"
    std::string dir;    // absolute directory
    std::string title;
    std::string summary;
    std::string text;   // lesson.md (markdown)
    nlohmann::json scenario;  // what the app loads in one click (topology, view, workload ...)
    std::vector<LessonStep> steps;
    std::vector<LessonFigure> figures;
};

// Lesson ids in teaching order (resources/lessons/index.json).
std::vector<std::string> listLessons();
// By id, or by the id without its number prefix ("cluster-scheduling").
Result<Lesson> loadLesson(const std::string& name);
// Replaces a leading "@data/" with the resources directory.
std::string expandDataPath(const std::string& word);
// The step's words as run: data paths expanded.
std::vector<std::string> stepWords(const LessonStep& step);
// "schedscope-cli WORDS...", quoted where a shell needs it: the line runs pasted into one.
std::string stepCommandLine(const LessonStep& step);

}  // namespace schedscope
