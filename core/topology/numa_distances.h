#pragma once
// A what-if NUMA distance table (--numa-distances): the SLIT a machine's firmware could have
// reported instead of its own. The domains above the LLC follow the table alone
// (sched_init_numa() makes a level per distinct distance), so a mis-set or hand-tuned SLIT can
// be tried on any topology without editing its export.
//
// Written as rows of the node-to-node matrix in node-id order, ';' between rows and ',' between
// entries: "10,12,20,22;12,10,22,24;20,22,10,12;22,24,12,10", as `topology` prints it.
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology.h"
#include "util/result.h"

namespace schedscope {

using DistanceTable = std::vector<std::vector<int>>;

// The square matrix `text` writes; an error says what is wrong with it (not a number, rows of
// different lengths, not square).
Result<DistanceTable> parseNumaDistances(std::string_view text);

// `table` as parseNumaDistances() reads it back.
std::string numaDistancesText(const DistanceTable& table);

// `t` with `table` as its distances, row i and column j the i-th and j-th nodes by id. The
// table must have a row per node of `t` and keep the rules the kernel applies to a SLIT (10 on
// the diagonal, 11..255 elsewhere): a what-if the kernel would throw away is refused, where a
// machine's own invalid table is replaced by 10 and 20 with a warning (ignoreInvalidSlit()).
// An error names `where` (the input) and the option.
Result<Topology> withNumaDistances(Topology t, const DistanceTable& table, const std::string& where);

}  // namespace schedscope
