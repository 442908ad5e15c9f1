#include "lessons/lesson_claims.h"

#include <cmath>
#include <cstdio>

#include "util/json_error.h"

namespace schedscope {
namespace {

// four significant figures, but whole numbers of thousands and more in full (20570, not
// 2.057e+04), and rounding noise as 0 (a CPU time error of 8e-19)
std::string numberText(double v) {
    char buf[48];
    if (std::fabs(v) < 1e-12) return "0";
    if (std::fabs(v) >= 1000 && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// a JSON value as the reader sees it in the text: strings without their quotes
std::string valueText(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return numberText(v.get<double>());
    // an object or array (a whole domain where the text said there is none) in a line's room
    constexpr size_t kRoom = 80;
    std::string text = v.dump();
    if (text.size() > kRoom) {
        text.resize(kRoom);
        text.append("...");
    }
    return text;
}

std::string expectedText(const LessonClaim& c) {
    if (c.absent) return "nothing there";
    if (!c.equals.empty()) return valueText(nlohmann::json::parse(c.equals, nullptr, false));
    if (c.min && c.max) return numberText(*c.min) + " .. " + numberText(*c.max);
    if (c.min) return "at least " + numberText(*c.min);
    return "at most " + numberText(*c.max);
}

Result<LessonClaim> parseClaim(const nlohmann::json& j, size_t index) {
    const std::string where = "claim " + std::to_string(index + 1);
    if (!j.is_object()) return Error{where + " is not an object"};
    LessonClaim c;
    try {
        c.says = j.at("says").get<std::string>();
        c.pointer = j.at("json").get<std::string>();
        if (j.contains("min")) c.min = j.at("min").get<double>();
        if (j.contains("max")) c.max = j.at("max").get<double>();
        if (j.contains("equals") && !j.at("equals").is_null()) c.equals = j.at("equals").dump();
        if (j.contains("absent")) c.absent = j.at("absent").get<bool>();
    } catch (const std::exception& e) {
        return Error{where + ": " + jsonErrorText(e.what())};
    }
    try {
        (void)nlohmann::json::json_pointer(c.pointer);
    } catch (const std::exception& e) {
        return Error{where + " ('" + escapeControl(c.says) + "'): bad JSON pointer '" + escapeControl(c.pointer) + "' (" +
                     jsonErrorText(e.what()) + ")"};
    }
    const int kinds = (c.min || c.max ? 1 : 0) + (c.equals.empty() ? 0 : 1) + (c.absent ? 1 : 0);
    if (kinds != 1)
        return Error{where + " ('" + escapeControl(c.says) + "'): give one of min and/or max, equals, or absent: true"};
    if (c.min && c.max && *c.min > *c.max)
        return Error{where + " ('" + escapeControl(c.says) + "'): min " + numberText(*c.min) + " is above max " +
                     numberText(*c.max)};
    return c;
}

}  // namespace

Result<std::vector<LessonClaim>> parseLessonClaims(const nlohmann::json& expect) {
    std::vector<LessonClaim> claims;
    if (expect.is_null()) return claims;
    if (!expect.is_array()) return Error{"\"expect\" is not an array of claims"};
    for (size_t i = 0; i < expect.size(); ++i) {
        auto c = parseClaim(expect[i], i);
        if (!c) return Error{c.error()};
        claims.push_back(std::move(*c));
    }
    return claims;
}

ClaimCheck checkLessonClaim(const LessonClaim& claim, const nlohmann::json& doc) {
    ClaimCheck check;
    check.expected = expectedText(claim);
    const nlohmann::json::json_pointer at(claim.pointer);
    if (claim.absent) {
        check.holds = !doc.contains(at);
        check.value = check.holds ? "nothing there" : valueText(doc.at(at));
        return check;
    }
    if (!doc.contains(at)) return check;  // missing: does not hold, and says so with no value
    const nlohmann::json& v = doc.at(at);
    if (!claim.equals.empty()) {
        const nlohmann::json want = nlohmann::json::parse(claim.equals, nullptr, false);
        check.value = valueText(v);
        // numbers compare as numbers: 1 and 1.0 are the same value to the reader
        check.holds = v.is_number() && want.is_number() ? v.get<double>() == want.get<double>() : v == want;
        return check;
    }
    if (!v.is_number()) {
        check.value = valueText(v);
        return check;
    }
    const double x = v.get<double>();
    check.value = numberText(x);
    check.holds = std::isfinite(x) && (!claim.min || x >= *claim.min) && (!claim.max || x <= *claim.max);
    return check;
}

std::string claimValueText(const LessonClaim& claim, const ClaimCheck& check) {
    if (check.value.empty()) return "no " + claim.pointer + " in the output";
    if (claim.equals.empty()) return check.value;
    return claim.pointer.substr(claim.pointer.rfind('/') + 1) + " = " + check.value;
}

std::string claimCheckLine(const LessonClaim& claim, const ClaimCheck& check) {
    const bool showExpected = !check.holds || (claim.equals.empty() && !claim.absent);
    return std::string(check.holds ? "holds  " : "FAILS  ") + claim.says + ": " + claimValueText(claim, check) +
           (showExpected ? " (the text: " + check.expected + ")" : "");
}

}  // namespace schedscope
