#pragma once
// One entry point for every way a user names a topology (CLI flags, GUI dialogs, lesson files).
#include <optional>
#include <string>
#include <vector>

#include "topology/numa_distances.h"
#include "topology/topology.h"

namespace schedscope {

struct TopologySpec {
    // KernelLog: the machine a sched_verbose log shows (domains/topology_from_log.h)
    enum class Kind { Local, SysfsRoot, HwlocXml, Synthetic, Preset, KernelLog };
    Kind kind = Kind::Local;
    std::string value;  // directory, file, synthetic string, preset name or log file
    // The architecture whose kernel rules apply; defaults to the machine's for Local/SysfsRoot,
    // the preset's own for presets, and this machine's otherwise.
    bool archGiven = false;
    Arch arch = hostArch();
    // A cpuset set-up to build the domains for (what-if): CPUs left without domains on top of
    // the input's isolated ones, and root partitions in place of the input's (unset: kept).
    CpuSet isolate;
    std::optional<std::vector<CpuSet>> partitions;
    // A NUMA distance table in place of the input's (what-if; numa_distances.h)
    std::optional<DistanceTable> numaDistances;

    std::string describe() const;  // "--preset kunpeng920-24"
    bool hasWhatIfs() const { return !isolate.empty() || partitions || numaDistances; }
    // the what-ifs alone, as describe() appends them: " --isolate 2-3"
    std::string describeWhatIfs() const;
};

// Loads any topology; errors are one line naming the input and the problem.
Result<Topology> loadTopology(const TopologySpec& spec);

// `t` with `spec`'s what-ifs (its NUMA distances, CPUs to isolate and root partitions), as
// loadTopology() applies them to its input: for a machine that came another way (a trace's
// topology sidecar). An error names `where`.
Result<Topology> withWhatIfsOf(Topology t, const TopologySpec& spec, const std::string& where);

// `t` with a what-if cpuset set-up: `isolate` added to its isolated CPUs, `partitions` (when set)
// in place of its root partitions. The CPUs must be online in `t` and partitions disjoint; an
// error names `where` (the input) and the option.
Result<Topology> withCpusets(Topology t, const CpuSet& isolate, const std::optional<std::vector<CpuSet>>& partitions,
                             const std::string& where);

struct PresetInfo {
    std::string name;         // "kunpeng920-24"
    std::string description;  // one line
    std::string file;         // absolute path of its hwloc XML
};
// Presets shipped in resources/topologies (installed or in the source tree).
std::vector<PresetInfo> listPresets();
// The directory holding schedscope's data (topologies, lessons, sample traces).
std::string resourcesDir();

}  // namespace schedscope
