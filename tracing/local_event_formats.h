#pragma once
// A libtraceevent handle for the running kernel's events of a few systems, read from tracefs.
// tracefs_local_events_system() does the same and then also parses /proc/kallsyms (megabytes;
// 15 s under AddressSanitizer on a 2-CPU VM) and the printk formats: sched and power events carry
// neither kernel addresses nor printk strings, so the live capture starts without them.
#include <memory>
#include <string>
#include <vector>

#include "util/result.h"

struct tep_handle;

namespace schedscope::tracing {

struct TepDeleter {
    void operator()(tep_handle* tep) const;
};
using TepPtr = std::unique_ptr<tep_handle, TepDeleter>;

// The header page and every event format of `systems` under `tracingDir`. An event whose format
// does not parse is left out (the caller checks for the events it needs), as libtracefs does.
Result<TepPtr> loadLocalEventFormats(const std::string& tracingDir, const std::vector<std::string>& systems);

}  // namespace schedscope::tracing
