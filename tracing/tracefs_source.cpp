#include "tracefs_source.h"

#include <event-parse.h>

#include <chrono>
#include <utility>

#include "local_event_formats.h"
#include "sched_decoder.h"
#include "trace_c_api.h"
#include "tracefs_instance.h"

namespace schedscope::tracing {

struct TracefsSource::Impl {
    std::unique_ptr<PrivateInstance> instance;
    TepPtr tep;
    std::unique_ptr<SchedDecoder> decoder;  // declared after tep: destroyed before the formats it reads
    EventStore* target = nullptr;
    uint64_t read = 0;
    std::chrono::steady_clock::time_point pollDeadline;
    std::chrono::steady_clock::time_point nextTamperCheck;
    std::vector<std::string> warnings;
};

TracefsSource::TracefsSource(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TracefsSource::~TracefsSource() = default;

Result<std::unique_ptr<TracefsSource>> TracefsSource::start(size_t bufferKb) {
    auto inst = PrivateInstance::create();
    if (!inst) return Error{inst.error()};
    if (bufferKb > 0)
        if (auto sized = (*inst)->setBufferKb(bufferKb); !sized) return Error{"--buffer-kb: " + sized.error()};
    auto impl = std::make_unique<Impl>();
    impl->instance = std::move(*inst);
    auto tep = loadLocalEventFormats(kTracingDir, {"sched", "power", "irq"});
    if (!tep) return Error{tep.error()};
    impl->tep = std::move(*tep);
    impl->decoder = std::make_unique<SchedDecoder>(impl->tep.get());
    if (!impl->decoder->hasSchedEvents()) return Error{std::string(kTracingDir) + ": no sched event formats"};
    impl->instance->traceOn();
    return std::unique_ptr<TracefsSource>(new TracefsSource(std::move(impl)));
}

Result<uint64_t> TracefsSource::poll(EventStore& store) {
    impl_->target = &store;
    impl_->decoder->noteFormatsRecorded(store);  // the instance enables every event it has a format for
    const uint64_t before = impl_->read;
    // Reading a dozen enable files costs far less than a second of capture; a tool that
    // switched our events off would otherwise leave the user watching a silent machine.
    if (const auto now = std::chrono::steady_clock::now(); now >= impl_->nextTamperCheck) {
        impl_->nextTamperCheck = now + std::chrono::seconds(1);
        for (auto& w : impl_->instance->restoreTampered()) impl_->warnings.push_back(std::move(w));
    }
    // A poll drains what is buffered, but under a storm the kernel refills the buffers as fast
    // as we read: stop after a time budget so the caller keeps reporting and sees its deadline
    // (what we leave behind is overwritten and shows up as lost events).
    impl_->pollDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
    auto cb = [](tep_event*, tep_record* rec, int cpu, void* ctx) -> int {
        auto* impl = static_cast<Impl*>(ctx);
        rec->cpu = cpu;
        impl->decoder->decode(rec, *impl->target);
        if ((++impl->read & 1023) == 0 && std::chrono::steady_clock::now() > impl->pollDeadline) return 1;
        return 0;
    };
    if (tracefs_iterate_raw_events(impl_->tep.get(), impl_->instance->get(), nullptr, 0, cb, impl_.get()) < 0)
        return Error{impl_->instance->name() + ": reading the raw buffers failed"};
    return impl_->read - before;
}

uint64_t TracefsSource::overruns() const { return impl_->instance->overruns(); }
size_t TracefsSource::bufferKb() const { return impl_->instance->bufferKb(); }

void TracefsSource::flushCounts(EventStore& store) { impl_->decoder->flushCounts(store); }

std::vector<std::string> TracefsSource::takeWarnings() { return std::exchange(impl_->warnings, {}); }

}  // namespace schedscope::tracing
