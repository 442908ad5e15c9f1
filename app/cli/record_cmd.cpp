#include "commands.h"
#include "trace_cmds.h"
namespace schedscope::cli {
int runRecord(const Args&) { return failRuntime("record: not implemented yet"); }
int runLive(const Args&) { return failRuntime("live: not implemented yet"); }
}  // namespace schedscope::cli
