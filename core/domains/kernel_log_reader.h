#pragma once
// Reads the kernel's sched_verbose log (dmesg, journalctl -k or a serial console capture, with
// or without timestamps): the domains sched_domain_debug() printed as cpu_attach_domain()
// attached them, so a machine's real domains can be compared with the builder's without access
// to the machine. The log has levels, spans and groups (ids, balance masks, capacities) but no
// flags: a tree read from it has fromKernelLog set, and only its NUMA levels carry SD_NUMA (their
// name says it). A CPU's last block wins: a cpuset change or a hotplug rebuilds and prints again.
#include <cstddef>
#include <string>
#include <string_view>

#include "domains/domain_tree.h"

namespace schedscope {

// A flat 4096-CPU machine prints 4096 groups for each of its 4096 CPUs: a few hundred MiB.
inline constexpr size_t kMaxKernelLogBytes = size_t{512} << 20;

// `where` names the log in errors. Fails when the text has no sched_verbose domain lines, or
// when one of them does not parse (naming its line).
Result<DomainTree> parseKernelLog(std::string_view text, const std::string& where);
// `path` "-" reads standard input (`dmesg | schedscope-cli ... -`), named "standard input".
Result<DomainTree> readKernelLog(const std::string& path);
// How errors and sources name the log at `path`.
std::string kernelLogName(const std::string& path);
// Whether a file's first few MiB hold a sched_verbose attach line: a kernel log, not a trace's
// text (the GUI's recent files and drops tell them apart so).
bool looksLikeKernelLog(const std::string& path);

}  // namespace schedscope
