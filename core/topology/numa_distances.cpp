#include "topology/numa_distances.h"

#include <charconv>

namespace schedscope {
namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// the parts of `s` between `sep`s (an empty string gives one empty part)
std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    for (size_t at; (at = s.find(sep)) != std::string_view::npos; s.remove_prefix(at + 1)) parts.push_back(s.substr(0, at));
    parts.push_back(s);
    return parts;
}

}  // namespace

Result<DistanceTable> parseNumaDistances(std::string_view text) {
    std::vector<std::string_view> rows = split(text, ';');
    // a trailing ';' ends the last row rather than adding an empty one
    if (rows.size() > 1 && trimmed(rows.back()).empty()) rows.pop_back();
    DistanceTable table;
    for (size_t r = 0; r < rows.size(); ++r) {
        if (trimmed(rows[r]).empty()) return Error{"row " + std::to_string(r + 1) + " is empty"};
        std::vector<int>& row = table.emplace_back();
        for (std::string_view entry : split(rows[r], ',')) {
            entry = trimmed(entry);
            int value = 0;
            const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), value);
            if (entry.empty() || ec != std::errc{} || end != entry.data() + entry.size())
                return Error{"row " + std::to_string(r + 1) + ": '" + escapeControl(std::string(entry)) + "' is not a distance (a whole number)"};
            row.push_back(value);
        }
        if (row.size() != table.front().size())
            return Error{"row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) + " distances, row 1 " +
                         std::to_string(table.front().size())};
    }
    if (table.size() != table.front().size())
        return Error{std::to_string(table.size()) + " rows of " + std::to_string(table.front().size()) +
                     " distances: the table is node by node, as many rows as columns"};
    return table;
}

std::string numaDistancesText(const DistanceTable& table) {
    std::string out;
    for (size_t i = 0; i < table.size(); ++i) {
        if (i) out += ';';
        for (size_t j = 0; j < table[i].size(); ++j) {
            if (j) out += ',';
            out += std::to_string(table[i][j]);
        }
    }
    return out;
}

Result<Topology> withNumaDistances(Topology t, const DistanceTable& table, const std::string& where) {
    const std::string option = where + ": --numa-distances: ";
    if (table.size() != t.nodes.size()) {
        std::string ids;
        for (const NumaNode& n : t.nodes) ids += (ids.empty() ? "" : ",") + std::to_string(n.id);
        return Error{option + std::to_string(table.size()) + " rows for " + std::to_string(t.nodes.size()) +
                     " NUMA node(s) (" + ids + "): a row per node, in node-id order"};
    }
    if (const std::string invalid = firstInvalidSlitEntry(t, table); !invalid.empty())
        return Error{option + invalid + ": the kernel would ignore the table"};
    // said with the domains, so a what-if is never taken for the machine
    t.notes.push_back("NUMA distances from --numa-distances, in place of " +
                      (t.distance.empty() ? std::string("the kernel's 10 local and 20 remote (the input has no table)")
                                          : "the input's " + numaDistancesText(t.distance)));
    t.distance = table;
    return t;
}

}  // namespace schedscope
