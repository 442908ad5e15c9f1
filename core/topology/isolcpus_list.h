#pragma once
// The isolcpus= boot parameter's value as a user pastes it from /proc/cmdline:
// "[flag,...,]cpulist" with the flags nohz, domain and managed_irq (housekeeping_isolcpus_setup()).
// Only "domain" (or no flag, which means domain) takes CPUs out of the sched domains.
#include <string>
#include <string_view>

#include "util/result.h"

namespace schedscope {

// The cpulist part of an isolcpus= value; an error for an unknown flag, or for flags without
// domain (those CPUs keep their sched domains: nothing to model).
Result<std::string> isolcpusCpuList(std::string_view value);

}  // namespace schedscope
