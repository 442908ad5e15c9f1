#pragma once
// Linux capabilities of this process through the raw capget/capset/prctl syscalls (libcap is
// not a dependency). Used to decide whether BPF can be loaded directly and by the capture
// helper to drop everything it no longer needs.
#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace schedscope::tracing {

// Capability numbers (linux/capability.h), named here so older headers do not matter.
enum Cap : int { kCapSetgid = 6, kCapSetuid = 7, kCapSetpcap = 8, kCapSysAdmin = 21, kCapSysResource = 24, kCapPerfmon = 38, kCapBpf = 39 };

// Whether `cap` is in this process's effective set.
bool hasEffectiveCap(int cap);
// Root, or CAP_BPF + CAP_PERFMON (CAP_SYS_ADMIN also covers both, as on kernels before 5.8).
bool canLoadBpf();
// Empties the bounding, ambient, inheritable, permitted and effective sets except `keep`
// (which stays permitted and effective), and sets no_new_privs. Errors name the failing call.
Status dropCapabilities(const std::vector<int>& keep = {});
// Effective capability numbers as "cap_bpf,cap_perfmon" style text (for diagnostics).
std::string effectiveCapsText();

}  // namespace schedscope::tracing
