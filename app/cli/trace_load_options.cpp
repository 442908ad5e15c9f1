#include "trace_load_options.h"

namespace schedscope::cli {

OptionSpec bufferOption() {
    return {"buffer", true,
            "NAME trace.dat buffer to read: an instance recorded with trace-cmd record -B NAME, or top (default: "
            "top, or the first instance with sched events when top has none)"};
}

tracing::LoadOptions loadOptionsFrom(const Args& args) {
    tracing::LoadOptions lo;
    lo.buffer = args.valueOr("buffer", "");
    return lo;
}

const KernelProfile* recordingKernelProfile(const tracing::EventStore& store, const std::optional<TopologySpec>& topology,
                                            bool* fromRunningKernel) {
    if (fromRunningKernel) *fromRunningKernel = false;
    if (const KernelProfile* named = profileForKernelRelease(store.kernelRelease())) return named;
    if (!store.kernelRelease().empty() || !topology || topology->kind != TopologySpec::Kind::Local) return nullptr;
    const KernelProfile* running = runningKernelProfile();
    if (fromRunningKernel) *fromRunningKernel = running != nullptr;
    return running;
}

}  // namespace schedscope::cli
