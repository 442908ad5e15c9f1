// trace.dat through libtracecmd: open, then read each CPU's records in order (the store is
// partitioned by CPU, so no cross-CPU merge is needed while loading; tracecmd_iterate_events'
// merge re-reads compressed chunks and is several times slower on v7 files).
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "crash_guard.h"
#include "trace_c_api.h"
#include "trace_clock_units.h"

#include "sched_decoder.h"
#include "trace_reader.h"
#include "util/quiet_descriptor.h"

namespace schedscope::tracing {
namespace {

constexpr std::string_view kTopBuffer = "top";  // LoadOptions::buffer's name for the top-level buffer
constexpr char kMagic[] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

struct Closer {
    tracecmd_input* h;
    ~Closer() {
        if (h) tracecmd_close(h);
    }
};

// What the ring buffer's stats file of one CPU said when the recording ended.
struct CpuStat {
    uint64_t read = 0;  // "read events": records handed to the recorder
    uint64_t lost = 0;  // "overrun" + "dropped events": records the buffer overwrote or refused
};

// Each CPU's stats from the file's CPUSTAT options (trace-cmd record and ours save every CPU's
// stats file); empty when the file has none. The stats of all buffers come as one text, an
// instance's after a "Buffer: NAME" line: only `buffer`'s are read ("" for the top-level
// buffer's, which come first).
std::vector<CpuStat> statedStatsPerCpu(tracecmd_input* h, const std::string& buffer) {
    std::vector<CpuStat> out;
    const char* text = tracecmd_get_cpustats(h);
    if (!text) return out;
    std::string_view s(text);
    const std::string header = "Buffer: ";
    if (!buffer.empty()) {
        const std::string line = header + buffer + "\n";
        const size_t at = s.starts_with(line) ? 0 : s.find("\n" + line);
        if (at == std::string_view::npos) return out;
        s.remove_prefix(at == 0 ? line.size() : at + 1 + line.size());
    }
    s = s.substr(0, s.starts_with(header) ? 0 : s.find("\n" + header));  // up to the next buffer's
    // a field at the start of one of the block's lines ("overrun: " is also the end of
    // "commit overrun: "): 0 when absent
    auto field = [](std::string_view block, const std::string& name) -> uint64_t {
        const auto at = block.find("\n" + name + ": ");
        if (at == std::string_view::npos) return 0;
        return std::strtoull(std::string(block.substr(at + name.size() + 3, 24)).c_str(), nullptr, 10);
    };
    size_t pos = 0;
    while ((pos = s.find("CPU: ", pos)) != std::string_view::npos) {
        pos += 5;
        const auto end = s.find("CPU: ", pos);
        std::string_view block = s.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        unsigned long cpu = std::strtoul(std::string(block.substr(0, block.find('\n'))).c_str(), nullptr, 10);
        if (block.find("\nread events: ") == std::string_view::npos || cpu >= static_cast<unsigned long>(EventStore::kMaxCpus)) continue;
        if (out.size() <= cpu) out.resize(cpu + 1);
        out[cpu] = {field(block, "read events"), field(block, "overrun") + field(block, "dropped events")};
    }
    return out;
}

// libtracecmd 1.3.1's tracecmd_buffer_instance_handle() cleans up after a failed open (a corrupt
// or cut instance: bad chunk table, data past the end) with tracecmd_close() on a half-built
// handle, which walks per-CPU lists it never initialised: the process crashes, and nothing our
// side can check first without parsing trace.dat ourselves. So the open is tried in a child
// process first (with the default signal actions, so a crash there only ends the child) and
// repeated here only when it worked. Only traces whose top-level buffer has no sched event pay.
bool instanceOpensSafely(tracecmd_input* head, int index) {
    const pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) std::signal(sig, SIG_DFL);
        tracecmd_input* h = tracecmd_buffer_instance_handle(head, index);
        _exit(h ? 0 : 1);  // not exit(): no atexit handlers, no stdio flush of the parent's buffers
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The release from trace-cmd's uname option, "sysname nodename release machine" ("Linux vm
// 6.18.44 x86_64"); "" when the file has none (or not that shape).
std::string kernelReleaseOf(const char* uname) {
    if (!uname) return {};
    std::istringstream words(uname);
    std::string sysname, nodename, release;
    words >> sysname >> nodename >> release;
    return sysname == "Linux" ? release : std::string();
}

// One buffer's events and how many records it held in all.
struct BufferRead {
    EventStore events;
    uint64_t records = 0;
    size_t size() const { return events.size(); }
};

// One CPU's records, read surviving a crash of libtracecmd (crash_guard.h): a corrupt page
// header (a commit size past the page) sends kbuffer_load_subbuffer() reading off its buffer,
// and trace-cmd report crashes on the same file. No object with a destructor lives here.
struct CpuRead {
    tracecmd_input* h;
    int cpu;
    int cpus;
    SchedDecoder* decoder;
    EventStore* store;
    const LoadOptions* options;
    uint64_t* records;
    uint64_t onCpu = 0;
    bool cancelled = false;
};

void readCpuRecords(void* context) {
    auto* r = static_cast<CpuRead*>(context);
    for (tep_record* rec = tracecmd_read_cpu_first(r->h, r->cpu); rec; rec = tracecmd_read_data(r->h, r->cpu)) {
        ++r->onCpu;
        r->decoder->decode(rec, *r->store);
        tracecmd_free_record(rec);
        if ((++*r->records & 0xffff) == 0) {
            if (r->options->cancel && r->options->cancel->load()) {
                r->cancelled = true;
                return;
            }
            if (r->options->progress) r->options->progress((r->cpu + 0.5) / r->cpus);
        }
    }
}

// Reads every record of one buffer (the top-level one or an instance's handle), CPU by CPU.
Result<BufferRead> readBuffer(const std::string& path, tracecmd_input* h, const std::string& buffer, SchedDecoder& decoder,
                              const LoadOptions& options, bool& crashed) {
    BufferRead out;
    EventStore& store = out.events;
    // an instance's handle shares the file's tep, whose CPU count is the last handle's opened
    const int cpus = tep_get_cpus(tracecmd_get_tep(h));
    store.setRecordedCpus(cpus);  // before the records: a migration to a CPU past it is damage
    const std::vector<CpuStat> stated = statedStatsPerCpu(h, buffer);
    for (int cpu = 0; cpu < cpus; ++cpu) {
        CpuRead read{h, cpu, cpus, &decoder, &store, &options, &out.records};
        if (!callSurvivingCrashes(readCpuRecords, &read)) {
            crashed = true;
            return Error{path + ": libtracecmd crashes reading CPU " + std::to_string(cpu) +
                         "'s events (a corrupt page in the event data)"};
        }
        if (read.cancelled) return Error{path + ": loading cancelled"};
        const uint64_t onCpu = read.onCpu;
        if (options.progress) options.progress(static_cast<double>(cpu + 1) / cpus);
        // libtracecmd skips a chunk it cannot decompress without telling: compare with the
        // file's own count so the user sees that part of the trace is missing. The count is the
        // kernel's "read events" when the recording ended, which can include a record or two
        // the recorder's last read did not keep (1 healthy trace-cmd recording in about 20
        // here: 140 counted, 139 in the file, as trace-cmd report reads it); a lost chunk
        // holds a page of records or more.
        constexpr uint64_t kRecorderSlack = 2;
        if (static_cast<size_t>(cpu) < stated.size() && stated[static_cast<size_t>(cpu)].read > onCpu + kRecorderSlack)
            store.addAnomaly(Anomaly::Unreadable, stated[static_cast<size_t>(cpu)].read - onCpu);
    }
    // The pages only say how many were lost where there was room to say it ("drops of unknown
    // size" elsewhere); the stats count every overwritten record: their total, when larger,
    // is the loss (a trace-cmd recording said "at least 11880 lost events and 27 drops", its
    // stats 19912).
    uint64_t statedLost = 0;
    for (const CpuStat& c : stated) statedLost += c.lost;
    if (statedLost > store.anomaly(Anomaly::LostEvents)) {
        store.setAnomaly(Anomaly::LostEvents, statedLost);
        store.setAnomaly(Anomaly::LostUnknown, 0);
    }
    decoder.flushCounts(store);
    store.finish();
    return out;
}

}  // namespace

Result<TraceFormat> detectTraceFormat(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return Error{path + ": " + std::strerror(errno)};
    if (S_ISDIR(st.st_mode)) return Error{path + ": is a directory, not a trace"};
    // a FIFO or a device has no size to check and would block or never end (/dev/zero)
    if (!S_ISREG(st.st_mode)) return Error{path + ": not a regular file"};
    if (st.st_size == 0) return Error{path + ": empty file"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open: " + std::strerror(errno)};
    char head[sizeof kMagic] = {};
    in.read(head, sizeof head);
    if (in.gcount() == sizeof head && std::memcmp(head, kMagic, sizeof head) == 0) return TraceFormat::TraceDat;
    // the magic's first bytes and then the end: a trace.dat cut short, not text (whose lines
    // never start with 0x17)
    if (const auto got = static_cast<size_t>(in.gcount()); got > 0 && got < sizeof head && std::memcmp(head, kMagic, got) == 0)
        return Error{path + ": a trace.dat cut short: its " + std::to_string(got) + (got == 1 ? " byte ends" : " bytes end") +
                     " inside the file's magic"};
    return TraceFormat::Text;
}

Result<EventStore> readTraceDat(const std::string& path, const LoadOptions& options) {
    auto format = detectTraceFormat(path);
    if (!format) return Error{format.error()};
    if (*format != TraceFormat::TraceDat) return Error{path + ": not a trace.dat file (wrong magic)"};

    tracecmd_set_loglevel(TEP_LOG_CRITICAL);
    // No plugins: we decode fields by offset and never print, and loading them costs ~10 ms.
    // tracecmd_open() = open_head + init_data, but when init_data fails (a v6 file cut inside its
    // CPU data) its cleanup, tracecmd_close(), crashes in libtracecmd 1.3.1. So we call the two
    // halves and, on that failure only, leak the half-initialised handle instead of crashing.
    // Both halves run surviving a crash of the libraries (crash_guard.h: libtraceevent's format
    // parser on a corrupt format section).
    struct Open {
        const char* path;
        tracecmd_input* head = nullptr;
        int init = -1;
    } open{path.c_str()};
    const QuietDescriptor quiet(STDOUT_FILENO);  // libtracecmd printf()s "File possibly truncated" where --json goes
    const bool survived = callSurvivingCrashes(
        [](void* context) {
            auto* o = static_cast<Open*>(context);
            o->head = tracecmd_open_head(o->path, SCHEDSCOPE_TRACECMD_FL_LOAD_NO_PLUGINS);
            if (o->head) o->init = tracecmd_init_data(o->head);
        },
        &open);
    if (!survived) return Error{path + ": libtraceevent crashes reading its headers (corrupt event formats or sections)"};
    tracecmd_input* head = open.head;
    if (!head) return Error{path + ": libtracecmd cannot read its headers (truncated or corrupt trace.dat)"};
    if (open.init < 0) return Error{path + ": libtracecmd cannot read its CPU data (truncated or corrupt trace.dat)"};
    Closer handle{head};
    tep_handle* tep = tracecmd_get_tep(handle.h);
    if (!tep) return Error{path + ": no event formats in the file"};
    SchedDecoder decoder(tep);
    if (!decoder.hasSchedEvents()) return Error{path + ": no sched events recorded (record with -e sched)"};

    // The top-level buffer, then the instances `trace-cmd record -B NAME` recorded into.
    std::vector<std::string> buffers = {std::string(kTopBuffer)};
    const int instances = std::max(0, tracecmd_buffer_instances(handle.h));
    for (int i = 0; i < instances; ++i) {
        const char* name = tracecmd_buffer_instance_name(handle.h, i);
        buffers.emplace_back(name ? name : "");
    }
    std::string listed;
    for (const auto& b : buffers) listed += (listed.empty() ? "" : ", ") + (b.empty() ? std::string("(unnamed)") : b);

    size_t first = 0, last = buffers.size();  // the buffers to try, in order, until one has sched events
    if (!options.buffer.empty()) {
        const auto it = std::find(buffers.begin(), buffers.end(), options.buffer);
        if (it == buffers.end())
            return Error{path + ": no buffer '" + options.buffer + "' in the trace (its buffers: " + listed + ")"};
        first = static_cast<size_t>(it - buffers.begin());
        last = first + 1;
    }
    uint64_t otherRecords = 0;
    for (size_t b = first; b < last; ++b) {
        tracecmd_input* h = handle.h;
        Closer instance{nullptr};
        if (b > 0) {
            if (instanceOpensSafely(handle.h, static_cast<int>(b - 1)))
                instance.h = tracecmd_buffer_instance_handle(handle.h, static_cast<int>(b - 1));
            if (!instance.h)
                return Error{path + ": libtracecmd cannot read its buffer '" + buffers[b] + "' (truncated or corrupt trace.dat)"};
            h = instance.h;
        }
        bool crashed = false;
        auto store = readBuffer(path, h, b == 0 ? std::string() : buffers[b], decoder, options, crashed);
        if (crashed) {  // closing what the crash left half-done would crash again: leak it
            handle.h = nullptr;
            instance.h = nullptr;
        }
        if (!store) return Error{store.error()};
        if (store->size() == 0) {
            otherRecords += store->records;
            continue;
        }
        // the file holds the formats of the events recorded, but of all its buffers at once
        if (buffers.size() == 1) decoder.noteFormatsRecorded(store->events);
        store->events.setBuffer(b == 0 ? std::string() : buffers[b]);
        store->events.setFileBuffers(buffers);
        store->events.setKernelRelease(kernelReleaseOf(tracecmd_get_uname(handle.h)));
        const char* clock = tracecmd_get_trace_clock(handle.h);
        const bool libraryInNs = (tracecmd_get_flags(handle.h) & SCHEDSCOPE_TRACECMD_FL_IN_USECS) != 0;
        store->events.setTraceClock(clock ? clock : "", traceClockCountsNs(clock ? clock : "", libraryInNs));
        return std::move(store->events);
    }
    const std::string counted = std::to_string(otherRecords) + " other records";
    if (!options.buffer.empty())
        return Error{path + ": no sched events in its buffer '" + options.buffer + "' (" + counted + "; its buffers: " + listed + ")"};
    if (buffers.size() > 1)
        return Error{path + ": no sched events in any of its buffers (" + listed + "; " + counted + ")"};
    return Error{path + ": no sched events in the trace (" + counted + ")"};
}

Result<EventStore> readTraceFile(const std::string& path, const LoadOptions& options) {
    auto format = detectTraceFormat(path);
    if (!format) return Error{format.error()};
    return *format == TraceFormat::TraceDat ? readTraceDat(path, options) : readFtraceText(path, options);
}

}  // namespace schedscope::tracing
