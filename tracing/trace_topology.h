#pragma once
// The topology a trace was recorded on: the sidecar "<trace>.topology.json" written by
// `schedscope-cli record`, else one the user names; checked against the CPUs the trace uses.
#include <optional>
#include <string>

#include "event_store.h"
#include "topology/topology.h"
#include "topology/topology_source.h"
#include "util/result.h"

namespace schedscope::tracing {

std::string sidecarPath(const std::string& tracePath);  // "<trace>.topology.json"
Status writeTopologySidecar(const std::string& tracePath, const Topology& topology);
// The sidecar's topology, or std::nullopt when there is none; an Error when it is unreadable.
Result<std::optional<Topology>> readTopologySidecar(const std::string& tracePath);

// The user's choice wins; else the sidecar; else an error asking for topology options.
// A trace that does not fit the topology (traceTopologyMismatch()) is an error naming both.
Result<Topology> topologyForTrace(const std::string& tracePath, const EventStore& store,
                                  const std::optional<TopologySpec>& userChoice);
// A stand-in for a trace with no sidecar and no topology named: its CPUs as one flat package
// ("N CPUs, layout unknown"), so its events, tasks, migrations and their causes can be shown.
// Migrations on it say nothing about sched-domain levels.
Result<Topology> flatTopologyForTrace(const EventStore& store);
// Why the trace cannot have been recorded on `topology` (one line, without the trace's path), or
// "": a CPU past the topology's, or a topology with more CPUs than the trace's header says the
// recording machine had.
std::string traceTopologyMismatch(const EventStore& store, const Topology& topology, const std::string& topologyName);
Status checkTraceFitsTopology(const std::string& tracePath, const EventStore& store, const Topology& topology,
                              const std::string& topologyName);

}  // namespace schedscope::tracing
