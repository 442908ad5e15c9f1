#include "lessons/lesson.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "topology/topology_source.h"
#include "util/json_error.h"

namespace schedscope {
namespace fs = std::filesystem;

std::vector<std::string> listLessons() {
    std::ifstream in(fs::path(resourcesDir()) / "lessons/index.json");
    auto j = nlohmann::json::parse(in, nullptr, false);
    std::vector<std::string> ids;
    if (j.is_array())
        for (const auto& id : j)
            if (id.is_string()) ids.push_back(id.get<std::string>());
    return ids;
}

std::string expandDataPath(const std::string& word) {
    const std::string prefix = "@data/";
    return word.rfind(prefix, 0) == 0 ? resourcesDir() + "/" + word.substr(prefix.size()) : word;
}

std::vector<std::string> stepWords(const LessonStep& step) {
    std::vector<std::string> words;
    for (const auto& w : step.run) words.push_back(expandDataPath(w));
    return words;
}

namespace {
// `word` as a shell reads it back: single-quoted when it holds anything but plain path characters
std::string shellWord(const std::string& word) {
    const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                                                               "_./:=,@+-%") == std::string::npos;
    if (plain) return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}
}  // namespace

std::string stepCommandLine(const LessonStep& step) {
    std::string line = "schedscope-cli";
    for (const auto& w : stepWords(step)) line += " " + shellWord(w);
    return line;
}

Result<Lesson> loadLesson(const std::string& name) {
    std::string id;
    for (const auto& candidate : listLessons()) {
        auto dash = candidate.find('-');
        // the whole id, its name without the number ("reading-a-trace"), or its number ("06", "6")
        const bool number = !name.empty() && name.size() <= 4 && name.find_first_not_of("0123456789") == std::string::npos &&
                            dash != std::string::npos && dash > 0 && dash <= 4 && candidate.substr(0, dash).find_first_not_of("0123456789") == std::string::npos &&
                            std::stoi(candidate.substr(0, dash)) == std::stoi(name);
        if (candidate == name || number || (dash != std::string::npos && candidate.substr(dash + 1) == name)) id = candidate;
    }
    if (id.empty()) {
        std::string known;
        for (const auto& c : listLessons()) known += (known.empty() ? "" : ", ") + c;
        return Error{"unknown lesson '" + name + "' (known: " + (known.empty() ? "none found in " + resourcesDir() : known) + ")"};
    }
    Lesson l;
    l.id = id;
    l.dir = (fs::path(resourcesDir()) / "lessons" / id).string();
    const std::string jsonPath = l.dir + "/lesson.json";
    std::ifstream in(jsonPath);
    if (!in) return Error{jsonPath + ": cannot open"};
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
    } catch (const std::exception& e) {  // where the file stops being JSON: a lesson is edited by hand
        return Error{jsonPath + ": not JSON (" + jsonErrorText(e.what()) + ")"};
    }
    if (!j.is_object()) return Error{jsonPath + ": not a JSON object"};
    try {
        l.title = j.at("title").get<std::string>();
        l.summary = j.value("summary", "");
        l.scenario = j.value("scenario", nlohmann::json::object());
        for (const auto& s : j.value("steps", nlohmann::json::array())) {
            LessonStep step{s.at("title").get<std::string>(), s.at("run").get<std::vector<std::string>>(), s.value("exit", 0), {}};
            auto claims = parseLessonClaims(s.value("expect", nlohmann::json()));
            if (!claims)
                return Error{jsonPath + ": step " + std::to_string(l.steps.size() + 1) + " ('" + escapeControl(step.title) +
                             "'): " + claims.error()};
            step.claims = std::move(*claims);
            l.steps.push_back(std::move(step));
        }
        for (const auto& f : j.value("figures", nlohmann::json::array()))
            l.figures.push_back({f.at("file").get<std::string>(), f.value("view", "topology"), f.value("size", "900x600"),
                                 f.value("args", std::vector<std::string>{})});
    } catch (const std::exception& e) {
        return Error{jsonPath + ": malformed lesson (" + jsonErrorText(e.what()) + ")"};
    }
    std::ifstream md(l.dir + "/lesson.md");
    std::ostringstream text;
    text << md.rdbuf();
    l.text = text.str();
    return l;
}

}  // namespace schedscope
