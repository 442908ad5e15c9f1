// The README's figures that carry a check: an HTML comment beside the figure,
//   <!-- check {"run": ["simulate", ...], "cwd": "tests/data/...", "expect": [claims]} -->
// invisible where the README is rendered, names the command that gives it (run with --json from
// the source tree, or from `cwd` in it) and what the text says of its output, in the lessons'
// claim format (core/lessons/lesson_claims.h). A model change that moves such a figure fails
// here until the README says what the tool shows.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "lessons/lesson_claims.h"
#include "support/fixtures.h"

namespace {

struct ReadmeCheck {
    size_t line = 0;  // where the comment starts in README.md
    nlohmann::json spec;
};

std::vector<ReadmeCheck> readmeChecks() {
    const std::string text = schedscope::test::readFile(std::string(SCHEDSCOPE_SOURCE_DIR) + "/README.md");
    static const std::regex comment(R"(<!-- check\s+(\{[\s\S]*?\})\s*-->)");
    std::vector<ReadmeCheck> checks;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), comment); it != std::sregex_iterator(); ++it) {
        const size_t at = static_cast<size_t>(it->position(0));
        if (at > 0 && text[at - 1] != '\n') continue;  // one quoted in the text, as this format's example
        checks.push_back({static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) + 1,
                          nlohmann::json::parse((*it)[1].str(), nullptr, false)});
    }
    return checks;
}

// the CLI's stdout for `words` with --json, run from `cwd` (relative to the source tree)
std::string runJson(const std::vector<std::string>& words, const std::string& cwd, int& status) {
    std::string cmd = "cd '" + std::string(SCHEDSCOPE_SOURCE_DIR) + "/" + cwd + "' && " + SCHEDSCOPE_CLI;
    for (const auto& w : words) cmd += " '" + w + "'";
    cmd += " --json 2>/dev/null";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 65536> buf{};
    for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
    const int st = pclose(p);
    status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

TEST(ReadmeChecks, EveryCheckedFigureHolds) {
    const auto checks = readmeChecks();
    ASSERT_GE(checks.size(), 10u) << "the README lost its checked figures";
    size_t claims = 0;
    for (const ReadmeCheck& c : checks) {
        SCOPED_TRACE("README.md:" + std::to_string(c.line));
        ASSERT_TRUE(c.spec.is_object() && c.spec.contains("run") && c.spec.contains("expect")) << "not a check: " << c.spec.dump();
        const auto parsed = schedscope::parseLessonClaims(c.spec.at("expect"));
        ASSERT_TRUE(parsed.ok()) << parsed.error();
        int status = -1;
        const std::string out = runJson(c.spec.at("run").get<std::vector<std::string>>(), c.spec.value("cwd", "."), status);
        const auto doc = nlohmann::json::parse(out, nullptr, false);
        ASSERT_FALSE(doc.is_discarded()) << "no JSON from " << c.spec.at("run").dump() << " (exit " << status << ")";
        EXPECT_EQ(status, c.spec.value("exit", 0)) << c.spec.at("run").dump();
        for (const auto& claim : *parsed) {
            const auto check = schedscope::checkLessonClaim(claim, doc);
            EXPECT_TRUE(check.holds) << schedscope::claimCheckLine(claim, check);
            ++claims;
        }
    }
    std::printf("%zu checks of the README, %zu claims checked\n", checks.size(), claims);
}

}  // namespace
