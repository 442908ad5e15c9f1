#include "tracefs_instance.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "trace_c_api.h"

namespace schedscope::tracing {

const std::vector<std::string>& captureEvents() {
    static const std::vector<std::string> events = {
        "sched:sched_switch",       "sched:sched_waking",       "sched:sched_wakeup",
        "sched:sched_wakeup_new",   "sched:sched_migrate_task", "sched:sched_process_fork",
        "sched:sched_process_exec", "sched:sched_process_exit", "sched:sched_move_numa",
        "sched:sched_swap_numa",    "sched:sched_stick_numa",   "power:cpu_idle"};
    return events;
}

std::string tracefsUnavailableReason() {
    if (geteuid() != 0) return "needs root (tracefs instances are root-only); run with sudo";
    if (access((std::string(kTracingDir) + "/instances").c_str(), W_OK) != 0)
        return std::string("tracefs is not mounted at ") + kTracingDir + " (mount -t tracefs nodev " + kTracingDir + ")";
    return {};
}

int removeStaleInstances() {
    tracefs_set_tracing_dir(const_cast<char*>(kTracingDir));
    char** list = tracefs_instances("^schedscope-[0-9]+$");
    int removed = 0;
    for (char** p = list; p && *p; ++p) {
        const long pid = std::strtol(*p + std::strlen("schedscope-"), nullptr, 10);
        if (pid <= 0 || (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
            if (tracefs_instance* inst = tracefs_instance_alloc(nullptr, *p)) {
                tracefs_event_disable(inst, nullptr, nullptr);
                if (tracefs_instance_destroy(inst) == 0) ++removed;
                tracefs_instance_free(inst);
            }
        }
    }
    tracefs_list_free(list);
    return removed;
}

Result<std::unique_ptr<PrivateInstance>> PrivateInstance::create() {
    if (auto why = tracefsUnavailableReason(); !why.empty()) return Error{why};
    // libtracefs picks the first tracefs in /proc/mounts, which need not be this one.
    tracefs_set_tracing_dir(const_cast<char*>(kTracingDir));
    removeStaleInstances();
    std::unique_ptr<PrivateInstance> self(new PrivateInstance);
    self->name_ = "schedscope-" + std::to_string(getpid());
    self->inst_ = tracefs_instance_create(self->name_.c_str());
    if (!self->inst_)
        return Error{std::string(kTracingDir) + "/instances/" + self->name_ + ": cannot create: " + std::strerror(errno)};
    tracefs_trace_off(self->inst_);
    int enabled = 0;
    for (const auto& ev : captureEvents()) {
        const auto colon = ev.find(':');
        // Older kernels lack some (sched_waking < 4.3, numa events without NUMA balancing).
        if (tracefs_event_enable(self->inst_, ev.substr(0, colon).c_str(), ev.substr(colon + 1).c_str()) == 0) ++enabled;
    }
    if (enabled == 0) return Error{self->name_ + ": no sched event could be enabled"};
    self->cpus_ = static_cast<int>(sysconf(_SC_NPROCESSORS_CONF));
    return self;
}

PrivateInstance::~PrivateInstance() {
    if (!inst_) return;
    tracefs_trace_off(inst_);
    tracefs_event_disable(inst_, nullptr, nullptr);
    tracefs_instance_destroy(inst_);
    tracefs_instance_free(inst_);
}

void PrivateInstance::traceOn() { tracefs_trace_on(inst_); }
void PrivateInstance::traceOff() { tracefs_trace_off(inst_); }

uint64_t PrivateInstance::overruns() const {
    uint64_t total = 0;
    for (int c = 0; c < cpus_; ++c) {
        const std::string file = "per_cpu/cpu" + std::to_string(c) + "/stats";
        int size = 0;
        char* text = tracefs_instance_file_read(inst_, file.c_str(), &size);
        if (!text) continue;
        std::string_view s(text, static_cast<size_t>(size));
        if (auto pos = s.find("overrun: "); pos != std::string_view::npos)
            total += std::strtoull(text + pos + 9, nullptr, 10);
        std::free(text);
    }
    return total;
}

}  // namespace schedscope::tracing
