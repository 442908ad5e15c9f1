#include "trace_topology.h"


#include <algorithm>
#include <nlohmann/json.hpp>

#include "topology/hwloc_loader.h"
#include "topology/topology_format.h"
#include "sidecar_file.h"
#include "util/json_error.h"

namespace schedscope::tracing {

std::string sidecarPath(const std::string& tracePath) { return tracePath + ".topology.json"; }

Status writeTopologySidecar(const std::string& tracePath, const Topology& topology) {
    return writeSidecarText(sidecarPath(tracePath), "topology sidecar",
                            topologyToJson(topology).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

Result<std::optional<Topology>> readTopologySidecar(const std::string& tracePath) {
    const std::string path = sidecarPath(tracePath);
    auto found = readSidecarText(path, "topology sidecar");
    if (!found) return Error{found.error()};
    if (!*found) return std::optional<Topology>{};
    const std::string* text = &**found;
    // a sidecar that cannot be read stops nothing the user can name instead
    const std::string instead = "; name the recording machine with --local, --preset, --xml, --synthetic or --sysfs-root instead";
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::exception& e) {
        return Error{path + ": not valid JSON (" + jsonErrorText(e.what()) + ")" + instead};
    }
    auto topo = topologyFromJson(j, path);
    if (!topo) return Error{topo.error() + instead};
    return std::optional<Topology>{std::move(*topo)};
}

Result<Topology> flatTopologyForTrace(const EventStore& store) {
    const int cpus = std::max(1, store.cpusCovered());  // an untraced last CPU too
    auto topo = loadHwlocSynthetic("pu:" + std::to_string(cpus), Arch::Generic);
    if (!topo) return Error{"a flat " + std::to_string(cpus) + "-CPU topology: " + topo.error()};
    topo->name = std::to_string(cpus) + " CPUs, layout unknown";
    return topo;
}

std::string traceTopologyMismatch(const EventStore& store, const Topology& topology, const std::string& topologyName) {
    const int topoCpus = static_cast<int>(topology.cpus.size());
    if (store.cpuCount() > topoCpus)
        return "the trace has CPU " + std::to_string(store.cpuCount() - 1) + " but topology " + topologyName + " has only " +
               std::to_string(topoCpus) + " CPUs";
    // trace-cmd and record write the machine's CPU count, traced or not (-M), a text trace its
    // online CPUs (#P): a topology with more CPUs online is another machine, and its levels
    // would classify migrations that never crossed them there
    const int online = topology.onlineCpus().count();
    if (const int recorded = store.recordedCpus(); recorded > 0 && online > recorded)
        return "the trace was recorded on " + std::to_string(recorded) + " CPUs (its header) but topology " + topologyName +
               " has " + std::to_string(online) + (online == topoCpus ? "" : " online") + ": name the machine it was recorded on";
    return "";
}

Status checkTraceFitsTopology(const std::string& tracePath, const EventStore& store, const Topology& topology,
                              const std::string& topologyName) {
    if (std::string why = traceTopologyMismatch(store, topology, topologyName); !why.empty()) return Error{tracePath + ": " + why};
    return {};
}

Result<Topology> topologyForTrace(const std::string& tracePath, const EventStore& store,
                                  const std::optional<TopologySpec>& userChoice) {
    Topology topo;
    std::string name;
    if (userChoice) {
        auto t = loadTopology(*userChoice);
        if (!t) return Error{t.error()};
        topo = std::move(*t);
        name = userChoice->describe();
    } else {
        auto side = readTopologySidecar(tracePath);
        if (!side) return Error{side.error()};
        if (!*side)
            return Error{tracePath + ": no topology sidecar (" + sidecarPath(tracePath) +
                         "); name one with --local, --preset, --xml, --synthetic or --sysfs-root"};
        topo = std::move(**side);
        name = sidecarPath(tracePath);
    }
    if (auto fits = checkTraceFitsTopology(tracePath, store, topo, name); !fits) return Error{fits.error()};
    return topo;
}

}  // namespace schedscope::tracing
