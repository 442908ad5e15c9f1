#pragma once
// The files a recording writes beside its trace (FILE.dat.topology.json, FILE.dat.groups.json):
// written whole or said, read back when there, and "none" when the trace has none.
#include <optional>
#include <string>

#include "util/result.h"

namespace schedscope::tracing {

// Writes `text` to `path`; errors name the path and `what` ("topology sidecar").
Status writeSidecarText(const std::string& path, const std::string& what, const std::string& text);
// The text at `path`, std::nullopt when there is no file there; an Error naming it when it
// cannot be read (a directory, too large, no permission).
Result<std::optional<std::string>> readSidecarText(const std::string& path, const std::string& what);

}  // namespace schedscope::tracing
