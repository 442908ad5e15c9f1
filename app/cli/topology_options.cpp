#include "topology_options.h"

#include <cstdio>

#include "topology/isolcpus_list.h"
#include "topology/numa_distances.h"

namespace schedscope::cli {

std::vector<OptionSpec> topologyOptions() {
    return {
        {"local", false, "use this machine's topology (default)"},
        {"sysfs-root", true, "DIR|ARCHIVE a sysfs snapshot: the directory holding sys/devices/system/{cpu,node} (or one above it), or its .tar[.bz2|.gz|.xz] as hwloc-gather-topology saves it"},
        {"xml", true, "FILE an hwloc XML export (hwloc 2.x or 3.x format)"},
        {"synthetic", true, "STR an hwloc synthetic description, e.g. \"pack:2 numa:2 l3:2 core:4 pu:2\""},
        {"preset", true, "NAME a built-in topology (see 'topology --list')"},
        {"from-kernel-log", true, "FILE (- for standard input) the machine a kernel's sched_verbose log shows (a saved dmesg of a machine you do not have): its hardware as its domains tell it, rebuilt and checked against the log"},
        {"arch", true, "ARCH the kernel rules to apply: x86_64, arm64, ppc64, s390x or generic (default: the input's, else this machine's)"},
        {"isolate", true, "LIST CPUs to leave without sched domains, as isolcpus=domain or an isolated cpuset partition would (added to the input's)"},
        {"partition", true, "LIST a cpuset root partition: its CPUs get sched domains of their own (repeatable; replaces the input's partitions)", true},
        {"numa-distances", true, "TABLE a NUMA distance table (SLIT) in place of the input's, a row per node in node-id order: \"10,12,20,22;12,10,22,24;...\" (the domains above the LLC, and the simulator's remote memory cost, follow it)"},
    };
}



Result<TopologySpec> topologySpecFrom(const Args& args) {
    TopologySpec spec;
    int given = 0;
    if (args.has("local")) { spec.kind = TopologySpec::Kind::Local; ++given; }
    if (auto v = args.value("sysfs-root")) { spec = {TopologySpec::Kind::SysfsRoot, *v}; ++given; }
    if (auto v = args.value("xml")) { spec = {TopologySpec::Kind::HwlocXml, *v}; ++given; }
    if (auto v = args.value("synthetic")) { spec = {TopologySpec::Kind::Synthetic, *v}; ++given; }
    if (auto v = args.value("preset")) { spec = {TopologySpec::Kind::Preset, *v}; ++given; }
    if (auto v = args.value("from-kernel-log")) { spec = {TopologySpec::Kind::KernelLog, *v}; ++given; }
    if (given > 1) return Error{"give only one of --local, --sysfs-root, --xml, --synthetic, --preset, --from-kernel-log"};
    if (auto a = args.value("arch")) {
        auto arch = parseArch(*a);
        if (!arch) return Error{"--arch: " + arch.error()};
        spec.arch = *arch;
        spec.archGiven = true;
    }
    auto cpus = [](const std::string& option, const std::string& list) -> Result<CpuSet> {
        auto set = CpuSet::parseList(list);
        if (!set) return Error{"--" + option + " " + list + ": " + set.error()};
        if (set->empty()) return Error{"--" + option + " " + list + ": no CPU"};
        return set;
    };
    if (auto list = args.value("isolate")) {
        auto cpuList = isolcpusCpuList(*list);
        if (!cpuList) return Error{"--isolate " + *list + ": " + cpuList.error()};
        auto set = cpus("isolate", *cpuList);
        if (!set) return Error{set.error()};
        spec.isolate = *set;
    }
    if (auto table = args.value("numa-distances")) {
        auto parsed = parseNumaDistances(*table);
        if (!parsed) return Error{"--numa-distances " + escapeControl(*table) + ": " + parsed.error()};
        spec.numaDistances = std::move(*parsed);
    }
    for (const std::string& list : args.values("partition")) {
        auto set = cpus("partition", list);
        if (!set) return Error{set.error()};
        if (!spec.partitions) spec.partitions.emplace();
        spec.partitions->push_back(*set);
    }
    return spec;
}

bool topologyOptionGiven(const Args& args) {
    for (const char* o : {"local", "sysfs-root", "xml", "synthetic", "preset", "from-kernel-log"})
        if (args.has(o)) return true;
    return false;
}

std::string cpusetOptionsWithoutTopology(const Args& args) {
    if (topologyOptionGiven(args) || (!args.has("isolate") && !args.has("partition") && !args.has("numa-distances"))) return {};
    return "--isolate, --partition and --numa-distances change a topology: name it too (--local, --sysfs-root, --xml, --synthetic, --preset or --from-kernel-log)";
}

Result<Topology> topologyFrom(const Args& args) {
    auto spec = topologySpecFrom(args);
    if (!spec) return Error{spec.error()};
    auto topo = loadTopology(*spec);
    // what loading set aside (an invalid SLIT, a CPU two nodes list) is said once, on stderr, so
    // every command's output stays what it was
    if (topo) {
        for (const auto& w : topo->warnings) std::fprintf(stderr, "schedscope-cli: warning: %s: %s\n", spec->describe().c_str(), w.c_str());
        for (const auto& n : topo->notes) std::fprintf(stderr, "schedscope-cli: note: %s: %s\n", spec->describe().c_str(), n.c_str());
    }
    return topo;
}

void sayDomainWarnings(const std::vector<std::string>& warnings) {
    constexpr size_t kShown = 3;  // one per CPU is common: the first few say what it is
    for (size_t i = 0; i < warnings.size() && i < kShown; ++i) std::fprintf(stderr, "schedscope-cli: warning: %s\n", warnings[i].c_str());
    if (warnings.size() > kShown)
        std::fprintf(stderr, "schedscope-cli: warning: and %zu more (schedscope-cli domains lists them)\n", warnings.size() - kShown);
}

}  // namespace schedscope::cli
