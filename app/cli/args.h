#pragma once
// A small, strict command-line parser: every command declares the options it takes, so unknown
// or malformed options are reported (exit code 2) instead of silently ignored.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/result.h"

namespace schedscope::cli {

struct OptionSpec {
    std::string name;      // without dashes: "preset"
    bool takesValue;       // --preset NAME vs --json
    std::string help;      // one line; the value name comes first for options with values
    bool repeatable = false;
};

class Args {
public:
    // Parses `argv` (the words after the command name). Everything after "--" is kept as trailing
    // words (e.g. the command to record).
    static Result<Args> parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs);

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string valueOr(const std::string& name, const std::string& fallback) const;
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positional() const { return positional_; }
    const std::vector<std::string>& trailing() const { return trailing_; }

    // Typed accessors: an error names the option and the bad value.
    Result<double> number(const std::string& name, double fallback) const;
    Result<long long> integer(const std::string& name, long long fallback, long long min, long long max) const;
    // A number that must lie in [min, max] ("must be in [min, max] UNIT" otherwise).
    Result<double> numberIn(const std::string& name, double fallback, double min, double max,
                            const std::string& unit = {}) const;
    // --NAME on|off.
    Result<bool> onOff(const std::string& name, bool fallback) const;

private:
    std::map<std::string, std::vector<std::string>> values_;
    std::vector<std::string> positional_;
    std::vector<std::string> trailing_;
};

std::string formatOptionHelp(const std::vector<OptionSpec>& specs);

}  // namespace schedscope::cli
