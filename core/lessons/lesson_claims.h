#pragma once
// What a lesson's text says a step shows, written down so that running the lesson checks it.
//
// A lesson quotes figures ("stream gains about 13% with CLS", "8 tasks end one per node"). The
// simulator's model moves on; a quoted figure that no longer comes out of the step would teach
// something the tool does not show. Each claim names a value in the step's --json output (a
// JSON pointer) and the range or value the text gives it; `schedscope-cli lesson` reruns the
// step with --json after showing its text and says for every claim whether it holds.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace schedscope {

struct LessonClaim {
    std::string says;            // the claim in the text's words, shown with the check
    std::string pointer;         // where the value is in the step's --json document (RFC 6901)
    std::optional<double> min;   // a number: at least this
    std::optional<double> max;   // a number: at most this
    // or exactly this value, as JSON text ("20", "\"MC\"", "false"); empty: not used. Text, not
    // a json member: a claim is copied and moved with its lesson, and json's members may throw.
    std::string equals;
    bool absent = false;         // or: the output has nothing there (a tree that ends, a level not built)
};

struct ClaimCheck {
    bool holds = false;
    std::string value;     // what the step gave, as text ("13.1", "false"); empty when missing
    std::string expected;  // what the text says ("8 .. 20", "at least 1", "false")
};

// Reads one step's "expect" array (lesson.json). Errors name the claim and what is wrong with it.
Result<std::vector<LessonClaim>> parseLessonClaims(const nlohmann::json& expect);

// Whether `doc` (the step's --json output) has the value the claim says.
ClaimCheck checkLessonClaim(const LessonClaim& claim, const nlohmann::json& doc);

// What the step gave, for the reader: the value, with its key when the claim is an exact value
// ("significant = false": alone it reads as a verdict), or that the output has nothing there.
std::string claimValueText(const LessonClaim& claim, const ClaimCheck& check);
// The check as one line for the reader: "holds  SAYS: VALUE (the text: EXPECTED)" or "FAILS ...".
// What the text allows is shown for a range, and for a claim that failed.
std::string claimCheckLine(const LessonClaim& claim, const ClaimCheck& check);

}  // namespace schedscope
