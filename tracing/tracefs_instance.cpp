#include "tracefs_instance.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>

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
        "sched:sched_swap_numa",    "sched:sched_stick_numa",   "power:cpu_idle",
        // what a wakeup in a softirq served (interrupt_context.h): a timer's or a disk's
        // wakeups are no task's, a loopback send's are the sender's. Softirqs do not nest, so
        // a wakeup flagged softirq serves its CPU's latest entry: no need for softirq_exit
        "irq:softirq_entry",
        // sched_setaffinity() calls (kernels with syscall tracepoints): a stopper's move inside
        // one is an affinity change, not sched_exec() (affinity_calls.h); a rare syscall
        "syscalls:sys_enter_sched_setaffinity", "syscalls:sys_exit_sched_setaffinity"};
    return events;
}

std::string tracefsUnavailableReason(const std::string& tracingDir) {
    if (geteuid() != 0) return "needs root (tracefs instances are root-only); run with sudo";
    if (access((tracingDir + "/instances").c_str(), W_OK) != 0)
        return "tracefs is not mounted at " + tracingDir + " (mount -t tracefs nodev " + tracingDir + ")";
    return {};
}

int removeStaleInstances(const std::string& tracingDir) {
    // The instances directory is listed here rather than with tracefs_instances(regex):
    // libtracefs 1.6 never frees that regex (LeakSanitizer reports it on every start).
    DIR* d = opendir((tracingDir + "/instances").c_str());
    if (!d) return 0;
    std::vector<std::string> stale;
    constexpr std::string_view kPrefix = "schedscope-";
    while (const dirent* e = readdir(d)) {
        const std::string_view name(e->d_name);
        if (!name.starts_with(kPrefix) || name.size() == kPrefix.size() || name.size() > kPrefix.size() + 7) continue;
        const std::string_view digits = name.substr(kPrefix.size());
        if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
        // Only names a pid could have: "schedscope-0" or one past PID_MAX_LIMIT is some other
        // tool's instance (kill(0) or kill(-1) would tell us nothing about it anyway).
        const long pid = std::strtol(std::string(digits).c_str(), nullptr, 10);
        if (pid <= 0 || pid > 4194304) continue;
        if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) stale.emplace_back(name);
    }
    closedir(d);
    if (stale.empty()) return 0;
    tracefs_set_tracing_dir(const_cast<char*>(tracingDir.c_str()));
    int removed = 0;
    for (const auto& name : stale) {
        if (tracefs_instance* inst = tracefs_instance_alloc(nullptr, name.c_str())) {
            tracefs_event_disable(inst, nullptr, nullptr);
            if (tracefs_instance_destroy(inst) == 0) ++removed;
            tracefs_instance_free(inst);
        }
    }
    return removed;
}

Result<std::unique_ptr<PrivateInstance>> PrivateInstance::create(const std::string& tracingDir) {
    if (auto why = tracefsUnavailableReason(tracingDir); !why.empty()) return Error{why};
    removeStaleInstances(tracingDir);
    // libtracefs picks the first tracefs in /proc/mounts, which need not be this one.
    tracefs_set_tracing_dir(const_cast<char*>(tracingDir.c_str()));
    std::unique_ptr<PrivateInstance> self(new PrivateInstance);
    self->name_ = "schedscope-" + std::to_string(getpid());
    const std::string dir = tracingDir + "/instances/" + self->name_;
    // tracefs_instance_create() hands back an instance that already exists; then it belongs to
    // someone else (a tool that happened to pick our name), and our destructor would remove it.
    if (access(dir.c_str(), F_OK) == 0)
        return Error{dir + ": already exists and is not ours; leaving it alone (remove it with rmdir if it is stale)"};
    self->inst_ = tracefs_instance_create(self->name_.c_str());
    if (!self->inst_) return Error{dir + ": cannot create: " + std::strerror(errno)};
    tracefs_trace_off(self->inst_);
    int enabled = 0;
    for (const auto& ev : captureEvents()) {
        const auto colon = ev.find(':');
        // Older kernels lack some (sched_waking < 4.3, numa events without NUMA balancing).
        if (tracefs_event_enable(self->inst_, ev.substr(0, colon).c_str(), ev.substr(colon + 1).c_str()) == 0) {
            ++enabled;
            self->enabled_.push_back(ev);
        }
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

void PrivateInstance::traceOn() {
    tracefs_trace_on(inst_);
    tracing_ = true;
}
void PrivateInstance::traceOff() {
    tracing_ = false;
    tracefs_trace_off(inst_);
}

std::vector<std::string> PrivateInstance::restoreTampered() {
    std::vector<std::string> notes;
    if (!tracing_) return notes;
    const std::string where = "tracefs instance " + name_ + ": ";
    const std::string after = " by another process; switched on again (events in between are missing)";
    for (const auto& ev : enabled_) {
        const auto colon = ev.find(':');
        const std::string sys = ev.substr(0, colon), name = ev.substr(colon + 1);
        // "0" off, "1" on; a "*" or "X" suffix marks soft/mixed states, which still record.
        char* text = tracefs_event_file_read(inst_, sys.c_str(), name.c_str(), "enable", nullptr);
        const bool off = text && text[0] == '0';
        std::free(text);
        if (!off) continue;
        tracefs_event_enable(inst_, sys.c_str(), name.c_str());
        std::string note = where;
        notes.push_back(note.append(ev).append(" was disabled").append(after));
    }
    if (tracefs_trace_is_on(inst_) == 0) {
        tracefs_trace_on(inst_);
        notes.push_back(where + "tracing_on was turned off" + after);
    }
    return notes;
}

Status PrivateInstance::setBufferKb(size_t kb) {
    if (tracefs_instance_set_buffer_size(inst_, kb, -1) < 0) {
        const int err = errno;
        std::string why = "cannot size the ring buffers of tracefs instance " + name_ + " to " + std::to_string(kb) +
                          " KB per CPU: " + std::strerror(err);
        // the kernel refuses a size larger than the memory it has available
        if (err == ENOMEM)
            why += " (" + std::to_string(cpus_) + " CPUs need " + std::to_string(kb * static_cast<size_t>(cpus_) / 1024) + " MB)";
        return Error{why};
    }
    return {};
}

size_t PrivateInstance::bufferKb() const {
    const ssize_t kb = tracefs_instance_get_buffer_size(inst_, 0);
    return kb > 0 ? static_cast<size_t>(kb) : 0;
}

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
