#include "bpf_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "process_caps.h"

#ifdef SCHEDSCOPE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sched.skel.h"
#endif

namespace schedscope::tracing {

#ifndef SCHEDSCOPE_HAVE_BPF

struct BpfSource::Impl {};
BpfSource::BpfSource(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BpfSource::~BpfSource() = default;
bool BpfSource::builtWithBpf() { return false; }
std::string BpfSource::unavailableReason() { return "built without BPF support"; }
Result<std::unique_ptr<BpfSource>> BpfSource::start(const BpfOptions&) { return Error{unavailableReason()}; }
BpfMode BpfSource::mode() const { return BpfMode::Stream; }
const char* BpfSource::attachKind() const { return ""; }
Result<uint64_t> BpfSource::poll(EventStore&, int) { return Error{unavailableReason()}; }
Result<uint64_t> BpfSource::pollRaw(const RecordSink&, int) { return Error{unavailableReason()}; }
uint64_t BpfSource::lost() const { return 0; }
Status BpfSource::checkReadable() const { return Error{unavailableReason()}; }
void BpfSource::flushCounts(EventStore&) {}
AggregateSnapshot BpfSource::snapshot() const { return {}; }

#else

namespace {

constexpr const char* kVmlinuxBtf = "/sys/kernel/btf/vmlinux";

// libbpf's messages: kept (the last warning ends up in our one-line error), never printed.
thread_local std::string g_lastLibbpfMessage;
// SCHEDSCOPE_LIBBPF_DEBUG=1 prints everything libbpf says (verifier logs included) to stderr.
int libbpfPrint(enum libbpf_print_level level, const char* fmt, va_list args) {
    static const bool debug = std::getenv("SCHEDSCOPE_LIBBPF_DEBUG") != nullptr;
    if (debug) {
        va_list copy;
        va_copy(copy, args);
        std::vfprintf(stderr, fmt, copy);
        va_end(copy);
    }
    if (level == LIBBPF_DEBUG) return 0;
    char buf[512];
    const int n = std::vsnprintf(buf, sizeof buf, fmt, args);
    std::string msg(buf, static_cast<size_t>(std::clamp(n, 0, static_cast<int>(sizeof buf) - 1)));
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    if (!msg.empty()) g_lastLibbpfMessage = msg;
    return 0;
}

std::string withLibbpf(const std::string& what, int err) {
    std::string out = what + ": " + std::strerror(err < 0 ? -err : err);
    if (!g_lastLibbpfMessage.empty()) out += " (libbpf: " + g_lastLibbpfMessage + ")";
    return out;
}

}  // namespace

struct BpfSource::Impl {
    sched_bpf* skel = nullptr;
    ring_buffer* rb = nullptr;
    BpfMode mode = BpfMode::Stream;
    bool rawTp = false;
    int ncpus = 1;
    uint64_t lostReported = 0;
    const RecordSink* sink = nullptr;
    uint64_t read = 0;
    ~Impl() {
        if (rb) ring_buffer__free(rb);
        if (skel) sched_bpf__destroy(skel);
    }
    static int onRecord(void* ctx, void* data, size_t size) {
        auto* self = static_cast<Impl*>(ctx);
        (*self->sink)(data, size);
        ++self->read;
        return 0;
    }
};

BpfSource::BpfSource(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BpfSource::~BpfSource() = default;
bool BpfSource::builtWithBpf() { return true; }

std::string BpfSource::unavailableReason() {
    struct stat st {};
    if (stat(kVmlinuxBtf, &st) != 0) {
        std::string reason = "no kernel BTF (";  // appended, not a + b + c: GCC 12 -Warray-bounds false positive
        return reason.append(kVmlinuxBtf).append(" is missing)");
    }
    if (!canLoadBpf()) return "needs root or CAP_BPF+CAP_PERFMON (have: " + effectiveCapsText() + ")";
    return "";
}

Result<std::unique_ptr<BpfSource>> BpfSource::start(const BpfOptions& options) {
    libbpf_set_print(libbpfPrint);
    if (options.ringBytes < 4096 || (options.ringBytes & (options.ringBytes - 1)) != 0)
        return Error{"BPF ring buffer size must be a power of two >= 4096, not " + std::to_string(options.ringBytes)};
    auto impl = std::make_unique<Impl>();
    impl->mode = options.mode;
    const int ncpus = libbpf_num_possible_cpus();
    if (ncpus <= 0) return Error{"cannot count the possible CPUs"};
    impl->ncpus = ncpus;

    std::string firstError;
    for (bool rawTp : {false, true}) {
        if (!rawTp && options.rawTpOnly) continue;
        g_lastLibbpfMessage.clear();
        sched_bpf* skel = sched_bpf__open();
        if (!skel) return Error{withLibbpf("opening the BPF program", errno)};
        const bool stream = options.mode == BpfMode::Stream;
        skel->rodata->do_stream = stream;
        skel->rodata->do_aggregate = !stream;
        skel->rodata->ignore_tgid[0] = stream && options.ignoreSelf ? static_cast<__u32>(getpid()) : 0;
        skel->rodata->ignore_tgid[1] = stream ? static_cast<__u32>(std::max(options.ignoreTgid, 0)) : 0;
        skel->rodata->wakeup_bytes = std::min<uint64_t>(options.wakeupBytes, options.ringBytes / 2);
        bpf_map__set_max_entries(skel->maps.events, stream ? options.ringBytes : 4096);
        bpf_program* prog = nullptr;
        bpf_object__for_each_program(prog, skel->obj) {
            const bool isRaw = std::strncmp(bpf_program__section_name(prog), "raw_tp/", 7) == 0;
            // The interrupt programs give the stream's wake records their interrupt bit; the
            // aggregate mode's cause rules need only the softirq ones (when SCHED_SOFTIRQ runs).
            const char* section = bpf_program__section_name(prog);
            const bool hardirq = std::strstr(section, "/irq_handler_") != nullptr || std::strstr(section, "/hrtimer_") != nullptr;
            bpf_program__set_autoload(prog, isRaw == rawTp && (stream || !hardirq));
        }
        int err = sched_bpf__load(skel);
        if (!err) err = sched_bpf__attach(skel);
        if (err) {
            const std::string msg = withLibbpf(rawTp ? "loading the raw_tp BPF program" : "loading the tp_btf BPF program", err);
            sched_bpf__destroy(skel);
            if (firstError.empty()) firstError = msg;
            continue;
        }
        impl->skel = skel;
        impl->rawTp = rawTp;
        break;
    }
    if (!impl->skel) return Error{firstError};
    if (options.mode == BpfMode::Stream) {
        impl->rb = ring_buffer__new(bpf_map__fd(impl->skel->maps.events), &Impl::onRecord, impl.get(), nullptr);
        if (!impl->rb) return Error{withLibbpf("creating the ring buffer consumer", errno)};
    }
    return std::unique_ptr<BpfSource>(new BpfSource(std::move(impl)));
}

BpfMode BpfSource::mode() const { return impl_->mode; }
const char* BpfSource::attachKind() const { return impl_->rawTp ? "raw_tp" : "tp_btf"; }

Result<uint64_t> BpfSource::pollRaw(const RecordSink& sink, int timeoutMs) {
    if (!impl_->rb) return uint64_t{0};
    impl_->sink = &sink;
    const uint64_t before = impl_->read;
    // poll() returns on the kernel's wakeup (threshold) or the timeout; consume() always
    // drains, since records below the threshold never wake anybody.
    if (timeoutMs > 0) {
        const int r = ring_buffer__poll(impl_->rb, timeoutMs);
        if (r < 0 && r != -EINTR) return Error{withLibbpf("polling the BPF ring buffer", r)};
    }
    const int r = ring_buffer__consume(impl_->rb);
    impl_->sink = nullptr;
    if (r < 0 && r != -EINTR) return Error{withLibbpf("reading the BPF ring buffer", r)};
    return impl_->read - before;
}

Result<uint64_t> BpfSource::poll(EventStore& store, int timeoutMs) {
    noteRecordKinds(store);
    RecordSink sink = [&store](const void* data, size_t size) { applyRecord(data, size, store); };
    return pollRaw(sink, timeoutMs);
}

uint64_t BpfSource::lost() const { return snapshot().lost; }

Status BpfSource::checkReadable() const {
    std::vector<ssc_cpu_stats> per(static_cast<size_t>(impl_->ncpus));
    const __u32 zero = 0;
    const int err = bpf_map__lookup_elem(impl_->skel->maps.stats, &zero, sizeof zero, per.data(),
                                         per.size() * sizeof(ssc_cpu_stats), 0);
    if (err) return Error{withLibbpf("reading the BPF counters", err)};
    return {};
}

void BpfSource::flushCounts(EventStore& store) {
    const uint64_t now = lost();
    if (now > impl_->lostReported) store.addAnomaly(Anomaly::LostEvents, now - impl_->lostReported);
    impl_->lostReported = std::max(now, impl_->lostReported);
}

AggregateSnapshot BpfSource::snapshot() const {
    AggregateSnapshot s;
    std::vector<ssc_cpu_stats> per(static_cast<size_t>(impl_->ncpus));
    const __u32 zero = 0;
    if (bpf_map__lookup_elem(impl_->skel->maps.stats, &zero, sizeof zero, per.data(), per.size() * sizeof(ssc_cpu_stats),
                             0) == 0) {
        const bool agg = impl_->mode == BpfMode::Aggregate;
        if (agg) {
            s.runHist.resize(per.size());
            s.waitHist.resize(per.size());
        }
        for (size_t c = 0; c < per.size(); ++c) {
            for (uint8_t k = 0; k < SSC_KIND_COUNT; ++k)
                if (auto ek = eventKindOfRecord(k)) s.eventsByKind[static_cast<size_t>(*ek)] += per[c].events[k];
            s.lost += per[c].lost;
            if (agg) {
                std::copy(std::begin(per[c].run_hist), std::end(per[c].run_hist), s.runHist[c].begin());
                std::copy(std::begin(per[c].wait_hist), std::end(per[c].wait_hist), s.waitHist[c].begin());
            }
        }
    }
    if (impl_->mode == BpfMode::Aggregate) {
        const int fd = bpf_map__fd(impl_->skel->maps.migrations);
        ssc_mig_key key{}, next{};
        const void* prev = nullptr;
        while (bpf_map_get_next_key(fd, prev, &next) == 0) {
            __u64 n = 0;
            if (bpf_map_lookup_elem(fd, &next, &n) == 0 && next.cause < SSC_CAUSE_COUNT)
                s.migrations.push_back({next.src, next.dst, static_cast<MigrationCause>(next.cause), n});
            key = next;
            prev = &key;
        }
        std::sort(s.migrations.begin(), s.migrations.end(), [](const MigrationCount& a, const MigrationCount& b) {
            return std::tie(a.src, a.dst, a.cause) < std::tie(b.src, b.dst, b.cause);
        });
    }
    return s;
}

#endif

}  // namespace schedscope::tracing
