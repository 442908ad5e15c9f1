// Lessons check what their text says: `schedscope-cli lesson` reruns each step that has claims
// with --json and says whether each holds; a claim that no longer holds fails the lesson.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fixtures.h"

namespace {
namespace fs = std::filesystem;

struct LessonRun {
    int status = -1;
    std::string out, err;
};

// schedscope-cli with `args`, and `env` ("NAME=value ...") before it
LessonRun runLessonCli(const std::string& env, const std::string& args) {
    const std::string errFile = std::string(SCHEDSCOPE_TEST_SCRATCH) + "/lesson-claims-stderr-" + std::to_string(::getpid());
    const std::string cmd = env + " " + SCHEDSCOPE_CLI + " " + args + " 2>" + errFile;
    LessonRun r;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 65536> buf{};
    for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.err = schedscope::test::readFile(errFile);
    return r;
}

size_t countLines(const std::string& text, const std::string& prefix) {
    size_t n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
    return n;
}

// A resources directory holding one lesson, 01-fake, whose lesson.json is `json`.
std::string fakeResources(const std::string& name, const std::string& json) {
    const fs::path dir = fs::path(SCHEDSCOPE_TEST_SCRATCH) / ("lesson-claims-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "lessons/01-fake");
    std::ofstream(dir / "lessons/index.json") << R"(["01-fake"])";
    std::ofstream(dir / "lessons/01-fake/lesson.json") << json;
    std::ofstream(dir / "lessons/01-fake/lesson.md") << "# A fake lesson\n\nIts CPU 0 has an SMT pair.\n";
    return dir.string();
}

// Every built-in lesson's claims hold under today's model, and every one of them was checked:
// as many "holds" lines as the lesson's steps have claims. A model change that moves a quoted
// figure out of its text's range fails here, and the text gets updated with it.
TEST(LessonClaimsCli, EveryBuiltInLessonsClaimsHold) {
    const auto ids = nlohmann::json::parse(schedscope::test::readFile(std::string(SCHEDSCOPE_RESOURCES) + "/lessons/index.json"));
    size_t total = 0;
    for (const auto& idJson : ids) {
        const std::string id = idJson.get<std::string>();
        const auto lesson = nlohmann::json::parse(
            schedscope::test::readFile(std::string(SCHEDSCOPE_RESOURCES) + "/lessons/" + id + "/lesson.json"));
        size_t claims = 0;
        for (const auto& step : lesson["steps"]) claims += step.value("expect", nlohmann::json::array()).size();
        total += claims;
        const LessonRun r = runLessonCli("", "lesson " + id);
        EXPECT_EQ(r.status, 0) << id << ": " << r.err;
        EXPECT_EQ(countLines(r.out, "  holds  "), claims) << id << ":\n" << r.out;
        EXPECT_EQ(countLines(r.out, "  FAILS  "), 0u) << id << ":\n" << r.err;
        // the command lines shown run as printed: data paths expanded
        EXPECT_EQ(r.out.find("@data/"), std::string::npos) << id;
    }
    EXPECT_GE(total, 100u) << "the lessons' texts lost their claims";
}

// The step lines a reader copies name the real files.
TEST(LessonClaimsCli, AStepsCommandLineNamesTheFileItReads) {
    const LessonRun run = runLessonCli("", "lesson 06");
    const auto at = run.out.find("$ schedscope-cli trace stats ");
    ASSERT_NE(at, std::string::npos) << run.out;
    const std::string rest = run.out.substr(at + 29);
    const std::string path = rest.substr(0, rest.find('\n'));
    EXPECT_TRUE(fs::exists(path)) << path;
}

TEST(LessonClaimsCli, AClaimThatNoLongerHoldsFailsTheLesson) {
    const std::string dir = fakeResources("fails", R"({
      "title": "Fake", "summary": "s",
      "steps": [{"title": "CPU 0", "run": ["domains", "--synthetic", "pack:1 core:1 pu:2", "--cpu", "0"],
                 "expect": [{"says": "its lowest level is SMT", "json": "/cpus/0/domains/0/level", "equals": "SMT"},
                            {"says": "its SMT pair spans 0-2", "json": "/cpus/0/domains/0/span", "equals": "0-2"},
                            {"says": "it has a level above", "json": "/cpus/0/domains/1/level", "equals": "MC"},
                            {"says": "two groups", "json": "/cpus/0/domains/0/groups/1/span", "equals": "1"}]}]})");
    const LessonRun r = runLessonCli("SCHEDSCOPE_DATA_DIR=" + dir, "lesson 01");
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(countLines(r.out, "  holds  "), 2u) << r.out;
    EXPECT_NE(r.out.find("  FAILS  its SMT pair spans 0-2: span = 0-1 (the text: 0-2)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  FAILS  it has a level above: no /cpus/0/domains/1/level in the output"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("lesson 01-fake: step 1: 'its SMT pair spans 0-2' does not hold: span = 0-1, the text says 0-2"),
              std::string::npos)
        << r.err;
    fs::remove_all(dir);
}

// A step whose claims cannot be read (its command gives no JSON in that form) fails the
// lesson with the command's own reason, once: its text output was shown, and holds nothing to check.
TEST(LessonClaimsCli, ClaimsOnAStepWithoutJsonSayWhy) {
    const std::string dir = fakeResources("nojson", R"({"title": "Fake",
      "steps": [{"title": "as the kernel prints it", "run": ["domains", "--synthetic", "pack:1 core:1 pu:2", "--format", "kernel"],
                 "expect": [{"says": "SMT", "json": "/cpus/0/domains/0/level", "equals": "SMT"}]}]})");
    const LessonRun r = runLessonCli("SCHEDSCOPE_DATA_DIR=" + dir, "lesson 01");
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("CPU0 attaching sched-domain(s):"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("lesson 01-fake: step 1: its --json output is not JSON (exit 2): schedscope-cli: domains: --json and "
                         "--format kernel ask for two formats"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(countLines(r.err, ""), 1u) << r.err;
    fs::remove_all(dir);
}

TEST(LessonClaimsCli, AMalformedLessonIsAOneLineErrorNamingTheFile) {
    const std::string truncated = fakeResources("cut", R"({"title": "Fake", "steps": [{"title": "x", "run": ["domains")");
    LessonRun r = runLessonCli("SCHEDSCOPE_DATA_DIR=" + truncated, "lesson 01");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("01-fake/lesson.json: not JSON ("), std::string::npos) << r.err;
    EXPECT_EQ(countLines(r.err, ""), 1u) << r.err;
    const std::string badClaim = fakeResources("claim", R"({"title": "Fake", "steps": [{"title": "x", "run": ["domains"],
      "expect": [{"says": "a", "json": "cpus", "min": 1}]}]})");
    r = runLessonCli("SCHEDSCOPE_DATA_DIR=" + badClaim, "lesson 01");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("01-fake/lesson.json: step 1 ('x'): claim 1 ('a'): bad JSON pointer 'cpus'"), std::string::npos) << r.err;
    fs::remove_all(truncated);
    fs::remove_all(badClaim);
}

}  // namespace
