#pragma once
// Small readers of text trace fields, shared by the line-column and payload parsers.
#include <charconv>
#include <string_view>
#include <system_error>

namespace schedscope::tracing {

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// The whole of `s` (trimmed, an optional '+') as a decimal integer.
template <typename T>
bool toInt(std::string_view s, T& out) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size();
}

}  // namespace schedscope::tracing
