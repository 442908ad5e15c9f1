// What a lesson's text says a step shows, checked against the step's --json output.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "lessons/lesson_claims.h"

namespace {

using schedscope::checkLessonClaim;
using schedscope::LessonClaim;
using schedscope::parseLessonClaims;

// a compare's document, cut to what the claims below read
const nlohmann::json kCompare = nlohmann::json::parse(R"({
  "metrics": {"throughput": {"relative_pct": 13.14, "significant": true, "on": {"mean": 34.85}},
              "busy_clusters": {"on": {"mean": 3.96}}},
  "cpus": [{"cpu": 0, "domains": [{"level": "CLS", "span": "0-3", "min_interval": 4}]}]
})");

LessonClaim claimOf(const char* json) {
    auto claims = parseLessonClaims(nlohmann::json::array({nlohmann::json::parse(json)}));
    EXPECT_TRUE(claims.ok()) << (claims.ok() ? "" : claims.error());
    return claims.ok() && !claims->empty() ? claims->front() : LessonClaim{};
}

TEST(LessonClaims, ARangeHoldsInsideAndNotOutside) {
    auto inside = checkLessonClaim(claimOf(R"({"says": "s", "json": "/metrics/throughput/relative_pct", "min": 8, "max": 20})"), kCompare);
    EXPECT_TRUE(inside.holds);
    EXPECT_EQ(inside.value, "13.14");
    EXPECT_EQ(inside.expected, "8 .. 20");
    auto above = checkLessonClaim(claimOf(R"({"says": "s", "json": "/metrics/throughput/relative_pct", "max": 10})"), kCompare);
    EXPECT_FALSE(above.holds);
    EXPECT_EQ(above.expected, "at most 10");
    auto below = checkLessonClaim(claimOf(R"({"says": "s", "json": "/metrics/busy_clusters/on/mean", "min": 4})"), kCompare);
    EXPECT_FALSE(below.holds);
    EXPECT_EQ(below.value, "3.96");
    EXPECT_EQ(below.expected, "at least 4");
}

TEST(LessonClaims, AnExactValueComparesNumbersAsNumbers) {
    EXPECT_TRUE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/cpus/0/domains/0/min_interval", "equals": 4.0})"), kCompare).holds);
    EXPECT_TRUE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/cpus/0/domains/0/span", "equals": "0-3"})"), kCompare).holds);
    auto level = checkLessonClaim(claimOf(R"({"says": "s", "json": "/cpus/0/domains/0/level", "equals": "MC"})"), kCompare);
    EXPECT_FALSE(level.holds);
    EXPECT_EQ(level.value, "CLS");  // as the reader sees it, without JSON's quotes
    EXPECT_EQ(level.expected, "MC");
    EXPECT_TRUE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/metrics/throughput/significant", "equals": true})"), kCompare).holds);
    EXPECT_FALSE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/metrics/throughput/significant", "equals": 1})"), kCompare).holds)
        << "true is not the number 1";
}

TEST(LessonClaims, WhatIsMissingDoesNotHoldUnlessTheTextSaysSo) {
    auto missing = checkLessonClaim(claimOf(R"({"says": "s", "json": "/metrics/migrations_CLS/relative_pct", "min": 0})"), kCompare);
    EXPECT_FALSE(missing.holds);
    EXPECT_TRUE(missing.value.empty());
    EXPECT_TRUE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/cpus/0/domains/1", "absent": true})"), kCompare).holds);
    auto there = checkLessonClaim(claimOf(R"({"says": "s", "json": "/cpus/0/domains/0", "absent": true})"), kCompare);
    EXPECT_FALSE(there.holds);
    EXPECT_LE(there.value.size(), 83u) << "an object is cut to a line's room: " << there.value;
    EXPECT_EQ(there.expected, "nothing there");
    // a range over something that is no number (a level name) does not hold
    EXPECT_FALSE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/cpus/0/domains/0/level", "min": 0})"), kCompare).holds);
    // nor over a number that is not finite (the JSON writer's NaN is null, a literal NaN here)
    nlohmann::json nan = {{"x", std::nan("")}};
    EXPECT_FALSE(checkLessonClaim(claimOf(R"({"says": "s", "json": "/x", "max": 1})"), nan).holds);
}

TEST(LessonClaims, LargeAndTinyNumbersReadAsTheReaderWritesThem) {
    const nlohmann::json doc = {{"big", 20570.33}, {"tiny", 8.4e-19}};
    EXPECT_EQ(checkLessonClaim(claimOf(R"({"says": "s", "json": "/big", "min": 0})"), doc).value, "20570");
    EXPECT_EQ(checkLessonClaim(claimOf(R"({"says": "s", "json": "/tiny", "max": 0.01})"), doc).value, "0");
}

TEST(LessonClaims, AMalformedClaimIsAOneLineErrorNamingIt) {
    auto error = [](const char* expect) {
        auto r = parseLessonClaims(nlohmann::json::parse(expect));
        EXPECT_FALSE(r.ok()) << expect;
        return r.ok() ? std::string() : r.error();
    };
    EXPECT_NE(error(R"([{"says": "a", "json": "no-slash", "min": 1}])").find("claim 1 ('a'): bad JSON pointer 'no-slash'"),
              std::string::npos);
    EXPECT_NE(error(R"([{"says": "a", "json": "/x", "min": 1}, {"says": "b", "json": "/x"}])").find("claim 2 ('b'): give one of"),
              std::string::npos);
    EXPECT_NE(error(R"([{"says": "a", "json": "/x", "min": 1, "equals": 2}])").find("give one of"), std::string::npos);
    EXPECT_NE(error(R"([{"says": "a", "json": "/x", "min": 3, "max": 2}])").find("min 3 is above max 2"), std::string::npos);
    EXPECT_NE(error(R"([{"json": "/x", "min": 1}])").find("claim 1: "), std::string::npos) << "no 'says'";
    EXPECT_NE(error(R"({"says": "a"})").find("not an array"), std::string::npos);
    for (const char* bad : {R"([{"says": "a", "json": "/x", "min": 1}, {"says": "b\nc", "json": "x", "min": 1}])"}) {
        const std::string message = error(bad);
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
    }
    auto none = parseLessonClaims(nlohmann::json());
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty()) << "a step without \"expect\" claims nothing";
}

}  // namespace
