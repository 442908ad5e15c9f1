#include "args.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace schedscope::cli {
namespace {
// How the user spells an option: a one-letter one (record's -o) with one dash.
std::string spelled(const std::string& name) { return (name.size() == 1 ? "-" : "--") + name; }
}  // namespace

Result<Args> Args::parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs) {
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& w = argv[i];
        if (w == "--") {
            a.trailing_.assign(argv.begin() + static_cast<long>(i) + 1, argv.end());
            break;
        }
        const bool shortOption = w.size() == 2 && w[0] == '-' && w[1] != '-' &&
                                 std::any_of(specs.begin(), specs.end(),
                                             [&](const OptionSpec& s) { return s.name == w.substr(1); });
        if (!shortOption && (w.size() < 3 || w.rfind("--", 0) != 0)) {
            if (w.size() > 1 && w[0] == '-' && !(w[1] >= '0' && w[1] <= '9'))
                return Error{"unknown option '" + w + "' (options are spelled --name)"};
            a.positional_.push_back(w);
            continue;
        }
        // A one-letter spec (record's -o) is also spelled with one dash.
        std::string name = w.substr(shortOption ? 1 : 2), value;
        bool inlineValue = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        const OptionSpec* spec = nullptr;
        for (const auto& s : specs)
            if (s.name == name) spec = &s;
        if (!spec) return Error{"unknown option '" + spelled(name) + "'"};
        if (spec->takesValue && !inlineValue) {
            if (i + 1 >= argv.size()) return Error{"option '" + spelled(name) + "' needs a value"};
            value = argv[++i];
        } else if (!spec->takesValue && inlineValue) {
            return Error{"option '" + spelled(name) + "' takes no value"};
        }
        auto& slot = a.values_[name];
        if (!slot.empty() && !spec->repeatable) return Error{"option '" + spelled(name) + "' given twice"};
        slot.push_back(value);
    }
    return a;
}

bool Args::has(const std::string& name) const { return values_.count(name) > 0; }

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

std::string Args::valueOr(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

Result<double> Args::number(const std::string& name, double fallback) const {
    auto v = value(name);
    if (!v) return fallback;
    try {
        size_t used = 0;
        // decimal only: std::stod also reads hexadecimal ("0x10" as 16), which no one means
        if (v->find_first_of("xX") != std::string::npos) throw std::invalid_argument("x");
        double d = std::stod(*v, &used);
        if (used != v->size() || !std::isfinite(d)) throw std::invalid_argument("x");
        return d;
    } catch (...) {
        return Error{"option '--" + name + "': '" + *v + "' is not a number"};
    }
}

Result<long long> Args::integer(const std::string& name, long long fallback, long long min, long long max) const {
    auto v = value(name);
    if (!v) return fallback;
    const std::string& text = *v;
    long long x = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec != std::errc() || p != text.data() + text.size()) return Error{"option '--" + name + "': '" + *v + "' is not an integer"};
    if (x < min || x > max)
        return Error{"option '--" + name + "': " + *v + " is outside " + std::to_string(min) + ".." + std::to_string(max)};
    return x;
}

Result<double> Args::numberIn(const std::string& name, double fallback, double min, double max,
                              const std::string& unit) const {
    auto x = number(name, fallback);
    if (!x) return x;
    if (!(*x >= min) || *x > max) {
        auto text = [](double v) {  // 1000000, not 1e+06
            std::ostringstream o;
            if (v == std::floor(v) && std::fabs(v) < 1e15) o << static_cast<long long>(v);
            else o << v;
            return o.str();
        };
        return Error{"--" + name + " must be in [" + text(min) + ", " + text(max) + "]" + (unit.empty() ? "" : " " + unit)};
    }
    return x;
}

Result<bool> Args::onOff(const std::string& name, bool fallback) const {
    auto v = value(name);
    if (!v) return fallback;
    if (*v == "on") return true;
    if (*v == "off") return false;
    return Error{"--" + name + " must be on or off, not '" + *v + "'"};
}

std::string formatOptionHelp(const std::vector<OptionSpec>& specs) {
    std::ostringstream out;
    for (const auto& s : specs) {
        std::string left = "  " + spelled(s.name);
        std::string help = s.help;
        if (s.takesValue) {
            auto sp = help.find(' ');
            left += " " + help.substr(0, sp);
            help = sp == std::string::npos ? "" : help.substr(sp + 1);
        }
        if (left.size() < 28) left.resize(28, ' ');
        else left += "  ";
        out << left << help << "\n";
    }
    return out.str();
}

}  // namespace schedscope::cli
