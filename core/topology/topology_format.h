#pragma once
// Renderings of a Topology: JSON and a compact lstopo-like text tree.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "util/result.h"

#include "topology/topology.h"

namespace schedscope {

nlohmann::json topologyToJson(const Topology& topology);
std::string topologyToText(const Topology& topology);

}  // namespace schedscope

namespace schedscope {
// Inverse of topologyToJson: the topology sidecar format of recorded traces. `what` names the
// input in errors.
Result<Topology> topologyFromJson(const nlohmann::json& j, const std::string& what);
}  // namespace schedscope
