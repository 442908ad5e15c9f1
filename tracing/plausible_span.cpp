#include "plausible_span.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>

namespace schedscope::tracing {

namespace {

// The index of CPU c's first event stamped at or after `t` (after it, with `strictly`): its
// events are in time order, so a binary search, with no copy of the timestamps.
size_t firstIndexFrom(const EventStore& s, int c, uint64_t t, bool strictly) {
    size_t lo = 0, hi = s.cpuSize(c);
    while (lo < hi) {
        const size_t m = lo + (hi - lo) / 2;
        const uint64_t ts = s.tsAt(c, m);
        if (ts < t || (strictly && ts == t)) lo = m + 1;
        else hi = m;
    }
    return lo;
}

// Events with a timestamp below `t`, over every CPU's events.
uint64_t countBelow(const EventStore& s, uint64_t t) {
    uint64_t n = 0;
    for (int c = 0; c < s.cpuCount(); ++c) n += firstIndexFrom(s, c, t, false);
    return n;
}

// The timestamp of the event of rank `k` (0-based) in time order: a binary search over time,
// so no copy of the timestamps is made (a trace may hold tens of millions).
uint64_t tsOfRank(const EventStore& s, uint64_t k) {
    uint64_t lo = s.firstTs(), hi = s.lastTs();
    while (lo < hi) {  // the least t with more than k events at or below it
        const uint64_t m = lo + (hi - lo) / 2;
        if (countBelow(s, m + 1) > k) hi = m;
        else lo = m + 1;
    }
    return lo;
}

// The latest timestamp below `t` (or `t` itself when none) and the earliest above it.
uint64_t latestBelow(const EventStore& s, uint64_t t) {
    uint64_t best = t;
    bool any = false;
    for (int c = 0; c < s.cpuCount(); ++c) {
        if (const size_t at = firstIndexFrom(s, c, t, false); at > 0) {
            const uint64_t v = s.tsAt(c, at - 1);
            best = any ? std::max(best, v) : v;
            any = true;
        }
    }
    return best;
}

uint64_t earliestAbove(const EventStore& s, uint64_t t) {
    uint64_t best = t;
    bool any = false;
    for (int c = 0; c < s.cpuCount(); ++c) {
        if (const size_t at = firstIndexFrom(s, c, t, true); at < s.cpuSize(c)) {
            const uint64_t v = s.tsAt(c, at);
            best = any ? std::min(best, v) : v;
            any = true;
        }
    }
    return best;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) { return b > std::numeric_limits<uint64_t>::max() - a ? std::numeric_limits<uint64_t>::max() : a + b; }
uint64_t saturatingSub(uint64_t a, uint64_t b) { return b > a ? 0 : a - b; }

}  // namespace

PlausibleSpan plausibleSpan(const EventStore& store) {
    PlausibleSpan span;
    span.first = store.size() ? store.firstTs() : 0;
    span.last = store.size() ? store.lastTs() : 0;
    if (store.size() < 2) return span;
    const uint64_t n = store.size();
    const uint64_t lo = tsOfRank(store, (n - 1) / 100), hi = tsOfRank(store, (n - 1) - (n - 1) / 100);
    const uint64_t core = std::max<uint64_t>(hi - lo, 1'000'000'000);
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    const uint64_t allowed = core > kMax / kImplausibleFactor ? kMax : core * kImplausibleFactor;
    const uint64_t from = saturatingSub(lo, allowed), to = saturatingAdd(hi, allowed);
    span.before = countBelow(store, from);
    span.after = to == std::numeric_limits<uint64_t>::max() ? 0 : n - countBelow(store, to + 1);
    if (span.before) {
        span.first = earliestAbove(store, from - 1);
        span.gapBefore = span.first - latestBelow(store, from);
    }
    if (span.after) {
        span.last = latestBelow(store, to + 1);
        span.gapAfter = earliestAbove(store, to) - span.last;
    }
    return span;
}

std::string roughDuration(uint64_t ns) {
    struct Unit {
        double ns;
        const char* name;
    };
    static constexpr std::array<Unit, 8> kUnits{{{1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}, {60e9, "minutes"},
                                                 {3600e9, "hours"}, {86400e9, "days"}, {365.25 * 86400e9, "years"}}};
    // seconds up to two minutes, minutes up to two hours, ...: "90 s", not "1.5 minutes"
    const auto v = static_cast<double>(ns);
    size_t u = 0;
    while (u + 1 < kUnits.size() && v >= kUnits[u + 1].ns * (kUnits[u + 1].ns >= 60e9 ? 2 : 1)) ++u;
    char text[64];
    std::snprintf(text, sizeof text, "%.3g %s", v / kUnits[u].ns, kUnits[u].name);
    return text;
}

std::string describeImplausibleTimestamps(const EventStore& store, const PlausibleSpan& span) {
    if (span.whole()) return "";
    auto stamped = [](uint64_t n, uint64_t gap, const char* side) {
        return std::to_string(n) + (n == 1 ? " is" : " are") + " stamped " + roughDuration(gap) + " " + side + " the rest";
    };
    std::string which;
    if (span.before) which = stamped(span.before, span.gapBefore, "before");
    if (span.after) which += (which.empty() ? "" : " and ") + stamped(span.after, span.gapAfter, "after");
    const std::string kept = roughDuration(span.last - span.first);
    return "broken timestamps: of the " + std::to_string(store.size()) + " events, " + which + ", which spans " + kept +
           " (a corrupt file?): the views show only those " + kept;
}

}  // namespace schedscope::tracing
