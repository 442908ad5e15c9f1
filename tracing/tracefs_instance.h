#pragma once
// A private tracefs instance ("schedscope-<pid>") with only the sched events enabled, so the
// top-level buffer and other tools' instances are left alone. Stale instances of dead
// schedscope processes are removed first. Destroyed on destruction.
#include <memory>
#include <string>
#include <vector>

#include "util/result.h"

struct tracefs_instance;

namespace schedscope::tracing {

constexpr const char* kTracingDir = "/sys/kernel/tracing";

// The events enabled in every capture, as "system:event".
const std::vector<std::string>& captureEvents();

class PrivateInstance {
public:
    // Errors are one line: no root, no tracefs, cannot create the instance, or an instance of
    // that name already exists (another tool's: it is left alone). `tracingDir` is the tracefs
    // mount point (tests point it at an empty directory).
    static Result<std::unique_ptr<PrivateInstance>> create(const std::string& tracingDir = kTracingDir);
    ~PrivateInstance();
    PrivateInstance(const PrivateInstance&) = delete;
    PrivateInstance& operator=(const PrivateInstance&) = delete;

    tracefs_instance* get() const { return inst_; }
    const std::string& name() const { return name_; }
    int cpuCount() const { return cpus_; }
    // The capture events the kernel had and create() enabled, as "system:event".
    const std::vector<std::string>& enabledEvents() const { return enabled_; }
    // Sum over CPUs of "overrun" in per_cpu/cpuN/stats: events the ring buffer overwrote.
    uint64_t overruns() const;
    // Sizes every CPU's ring buffer to `kb` kilobytes, as trace-cmd record -b does (before
    // tracing: resizing empties the buffers). The error says what the kernel refused.
    Status setBufferKb(size_t kb);
    // CPU 0's ring buffer size in kilobytes (every CPU's here): 0 when it cannot be read.
    size_t bufferKb() const;
    void traceOn();
    void traceOff();
    // While tracing: finds the events we enabled, or tracing_on, switched off under us (another
    // process writing to our instance's files), switches them on again and returns one line
    // per change for the user (the events in between are missing). Empty when nothing changed.
    std::vector<std::string> restoreTampered();

private:
    PrivateInstance() = default;
    tracefs_instance* inst_ = nullptr;
    std::string name_;
    int cpus_ = 0;
    bool tracing_ = false;
    std::vector<std::string> enabled_;  // "system:event" as enabled at create()
};

// Removes instances named schedscope-<pid> whose process is gone; returns how many.
int removeStaleInstances(const std::string& tracingDir = kTracingDir);
// "" when tracefs is usable, else the reason (one line).
std::string tracefsUnavailableReason(const std::string& tracingDir = kTracingDir);

}  // namespace schedscope::tracing
