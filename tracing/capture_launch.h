#pragma once
// How an unprivileged viewer starts schedscope-capture: where the helper is, and whether it
// runs directly (this process may load BPF itself, or the file carries capabilities) or
// through pkexec; and what a helper's early exit status means.
#include <string>
#include <vector>

#include "util/result.h"

namespace schedscope::tracing {

// $SCHEDSCOPE_CAPTURE when set, else schedscope-capture next to this executable (installed
// layout), else ../capture/schedscope-capture (build tree). Empty when not found.
std::string findCaptureHelper();
// Whether `path` carries file capabilities (security.capability), as after `setcap`.
bool hasFileCapabilities(const std::string& path);
// pkexec: $SCHEDSCOPE_PKEXEC when set (tests), else the first in PATH. Empty when missing.
std::string findPkexec();

struct HelperCommand {
    std::vector<std::string> argv;
    bool viaPkexec = false;
};
// The command that starts `helper` with `args`: directly when this process can load BPF or the
// file has capabilities, else `pkexec helper args...`; an error (one line, with the ways out)
// when pkexec is needed but missing.
Result<HelperCommand> helperCommand(const std::string& helper, const std::vector<std::string>& args);

// One line for a helper that ended before sending anything: pkexec's own statuses (126 the
// authentication was dismissed, 127 not authorized or the helper could not run), the
// helper's (1 runtime error, 2 bad arguments), anything else.
std::string helperExitText(int status, bool viaPkexec);

}  // namespace schedscope::tracing
