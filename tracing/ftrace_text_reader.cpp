// ftrace text: the tracefs `trace` file (kernel print formats, key=value) and `trace-cmd report`
// output (libtraceevent's sched plugins print sched_switch/sched_wakeup as
// "comm:pid [prio] S ==> comm:pid [prio]" and "comm:pid [prio] CPU:001").
// The columns before the payload, in every shape read (tracefs, the trace-cmd report variants,
// perf script), are text_line_columns.h's; this file reads the payloads: the kernel's print
// formats, the sched plugins' and -R's raw fields.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <utility>
#include <vector>

#include "interrupt_context.h"
#include "prev_state_table.h"
#include "text_fields.h"
#include "text_line_columns.h"
#include "trace_reader.h"

namespace schedscope::tracing {
namespace {

// Value of `key=` in a key=value payload; comm values may hold spaces, so a value runs to the
// next " word=" rather than to the next space.
bool kv(std::string_view payload, std::string_view key, std::string_view& out) {
    size_t pos = 0;
    while (true) {
        pos = payload.find(key, pos);
        if (pos == std::string_view::npos) return false;
        if ((pos == 0 || payload[pos - 1] == ' ') && pos + key.size() < payload.size() + 1 &&
            payload.substr(pos + key.size(), 1) == "=")
            break;
        pos += key.size();
    }
    std::string_view rest = payload.substr(pos + key.size() + 1);
    size_t end = 0;
    size_t nextEq = 0;  // first '=' at or after sp; cached so the scan stays linear
    bool eqKnown = false;
    while (true) {
        size_t sp = rest.find(' ', end);
        if (sp == std::string_view::npos) { end = rest.size(); break; }
        if (!eqKnown || (nextEq != std::string_view::npos && nextEq < sp)) {
            nextEq = rest.find('=', sp);
            eqKnown = true;
        }
        size_t nextSp = rest.find(' ', sp + 1);
        if (nextEq != std::string_view::npos && (nextSp == std::string_view::npos || nextEq < nextSp)) { end = sp; break; }
        if (rest.substr(sp, 4) == " ==>") { end = sp; break; }
        end = sp + 1;
    }
    out = trim(rest.substr(0, end));
    return true;
}
template <typename T>
bool kvInt(std::string_view payload, std::string_view key, T& out) {
    std::string_view v;
    return kv(payload, key, v) && toInt(v, out);
}

// "comm:pid [prio]" as libtraceevent's sched plugins print a task.
bool pluginTask(std::string_view s, std::string_view& comm, int32_t& pid, int32_t& prio) {
    s = trim(s);
    const auto br = s.rfind(" [");
    if (br == std::string_view::npos || s.back() != ']') return false;
    if (!toInt(s.substr(br + 2, s.size() - br - 3), prio)) return false;
    std::string_view task = s.substr(0, br);
    const auto colon = task.rfind(':');
    if (colon == std::string_view::npos) return false;
    comm = task.substr(0, colon);
    return toInt(task.substr(colon + 1), pid);
}

// prev_state where the text has no format to say which kernel's bits it holds (a number in -R
// output, the plugin's letters): read as 4.14+ kernels report it, one TASK_REPORT bit
const PrevStateTable& reportTable() {
    static const PrevStateTable table;
    return table;
}

// prev_state as the kernel's own print fmt wrote it: its letters ("S", "R+", "D|K"), or a number
TaskState stateFromText(std::string_view s) {
    s = trim(s);
    if (s.empty()) return TaskState::Unknown;
    if (int64_t bits = 0; toInt(s, bits)) return reportTable().decode(bits);
    return taskStateFromLetters(s);
}

// prev_state as libtraceevent's sched_switch plugin writes it (`trace-cmd report` by default):
// one letter per bit from its own fixed table "SDTtZXxW", the TASK_* bits of 2.6, whatever the
// kernel, "R" when none. On a 4.14+ kernel its x is 64 (P), its W 128 (I, an idle kthread) and
// its Z and X are X and Z: the letters go back to bits, read with the 4.14+ table. (On older
// kernels x was TASK_DEAD: the tracker also ends a task at its first such switch after its
// sched_process_exit.)
TaskState pluginStateFromText(std::string_view s) {
    static constexpr std::string_view kPluginLetters = "SDTtZXxW";
    s = trim(s);
    int64_t bits = 0;
    for (char c : s) {
        if (c == '|' || c == '+' || c == 'R') continue;
        const auto bit = kPluginLetters.find(c);
        if (bit == std::string_view::npos) return taskStateFromLetters(s);  // not the plugin's
        bits |= int64_t{1} << bit;
    }
    return s.empty() ? TaskState::Unknown : reportTable().decode(bits);
}

// Decodes an event payload; returns false when the fields are not there.
bool parsePayload(EventKind kind, std::string_view p, SchedEvent& e, EventStore& store) {
    std::string_view comm, comm2;
    switch (kind) {
        case EventKind::Switch: {
            // trace-cmd report -w appends the wakeup latency of the next task
            if (const auto lat = p.rfind(" Latency: "); lat != std::string_view::npos && p.ends_with(" usecs"))
                p = trim(p.substr(0, lat));
            std::string_view st;
            if (kvInt(p, "prev_pid", e.pid)) {  // kernel format, or -R's raw fields (no "==>")
                if (!kvInt(p, "next_pid", e.pid2) || !kv(p, "prev_state", st)) return false;
                kvInt(p, "prev_prio", e.prio);
                kv(p, "prev_comm", comm);
                kv(p, "next_comm", comm2);
                e.state = stateFromText(st);
            } else {  // plugin: "prev:pid [prio] S ==> next:pid [prio]"
                const auto arrow = p.find(" ==> ");
                if (arrow == std::string_view::npos) return false;
                std::string_view left = trim(p.substr(0, arrow));
                const auto sp = left.rfind(' ');
                if (sp == std::string_view::npos) return false;
                e.state = pluginStateFromText(left.substr(sp + 1));
                int32_t nextPrio = 0;
                if (!pluginTask(left.substr(0, sp), comm, e.pid, e.prio) ||
                    !pluginTask(p.substr(arrow + 5), comm2, e.pid2, nextPrio))
                    return false;
            }
            store.noteComm(e.pid, e.ts, comm);
            store.noteComm(e.pid2, e.ts, comm2);
            return true;
        }
        case EventKind::Waking:
        case EventKind::Wakeup:
        case EventKind::WakeupNew: {
            if (kvInt(p, "pid", e.pid)) {
                kvInt(p, "prio", e.prio);
                if (!kvInt(p, "target_cpu", e.dstCpu)) return false;
                kv(p, "comm", comm);
            } else {  // plugin: "comm:pid [prio] CPU:001" (or "success=1 CPU:001" on old kernels)
                const auto cpuPos = p.rfind(" CPU:");
                if (cpuPos == std::string_view::npos || !toInt(p.substr(cpuPos + 5), e.dstCpu)) return false;
                std::string_view task = p.substr(0, cpuPos);
                if (auto s = task.find(" success="); s != std::string_view::npos) task = task.substr(0, s);
                if (!pluginTask(task, comm, e.pid, e.prio)) return false;
            }
            store.noteComm(e.pid, e.ts, comm);
            return true;
        }
        case EventKind::MigrateTask:
            kvInt(p, "prio", e.prio);
            return kvInt(p, "pid", e.pid) && kvInt(p, "orig_cpu", e.srcCpu) && kvInt(p, "dest_cpu", e.dstCpu);
        case EventKind::ProcessFork:
            // -R prints the fields by name: parent_pid, not the print fmt's pid
            if (!(kvInt(p, "pid", e.pid) || kvInt(p, "parent_pid", e.pid)) || !kvInt(p, "child_pid", e.pid2)) return false;
            if (kv(p, "child_comm", comm)) store.noteComm(e.pid2, e.ts, comm);
            return true;
        case EventKind::ProcessExec:
            return kvInt(p, "pid", e.pid) && kvInt(p, "old_pid", e.pid2);
        case EventKind::ProcessExit:
            kvInt(p, "prio", e.prio);
            return kvInt(p, "pid", e.pid);
        case EventKind::MoveNuma:
            return kvInt(p, "pid", e.pid) && kvInt(p, "src_cpu", e.srcCpu) && kvInt(p, "dst_cpu", e.dstCpu);
        case EventKind::SwapNuma:
        case EventKind::StickNuma:
            kvInt(p, "dst_pid", e.pid2);
            return kvInt(p, "src_pid", e.pid) && kvInt(p, "src_cpu", e.srcCpu) && kvInt(p, "dst_cpu", e.dstCpu);
        case EventKind::CpuIdle: {
            int64_t state = 0;
            if (!kvInt(p, "state", state) || !kvInt(p, "cpu_id", e.dstCpu)) return false;
            e.pid = static_cast<int32_t>(static_cast<uint32_t>(state));
            return true;
        }
        case EventKind::Count:
            break;
    }
    return false;
}

bool isHeader(std::string_view l) {
    return l.empty() || l.front() == '#' || l.starts_with("cpus=") || l.starts_with("version") ||
           (l.starts_with("CPU ") && l.ends_with(" is empty")) ||
           // the summary trace-cmd report -w ends with
           l.starts_with("Average wakeup latency: ") || l.starts_with("Maximum Latency: ") ||
           l.starts_with("Minimum Latency: ");
}

// "CPU:1 [LOST 42 EVENTS]" (tracefs), "CPU:1 [425 EVENTS DROPPED]" and "CPU:0 [EVENTS DROPPED]"
// (trace-cmd report: a page that lost events, with the count when the kernel stored it).
bool lostLine(std::string_view l, EventStore& store) {
    if (l.starts_with("CPU:") && l.ends_with("EVENTS DROPPED]")) {
        const auto open = l.find('[');
        uint64_t n = 0;
        const std::string_view inside = open == std::string_view::npos ? std::string_view() : l.substr(open + 1);
        const auto sp = inside.find(' ');
        if (sp != std::string_view::npos && toInt(inside.substr(0, sp), n)) store.addAnomaly(Anomaly::LostEvents, n);
        else store.addAnomaly(Anomaly::LostUnknown);
        return true;
    }
    const auto pos = l.find("[LOST ");
    if (pos == std::string_view::npos) return false;
    uint64_t n = 0;
    std::string_view rest = l.substr(pos + 6);
    const auto sp = rest.find(' ');
    if (sp != std::string_view::npos && toInt(rest.substr(0, sp), n)) store.addAnomaly(Anomaly::LostEvents, n);
    else store.addAnomaly(Anomaly::LostUnknown);
    return true;
}

// The CPU count a header line states: trace-cmd report's first line "cpus=2", tracefs's
// "# entries-in-buffer/entries-written: 16773/16773   #P:2" (and the latency header's "#P:2)");
// 0 for any other line.
int headerCpus(std::string_view l) {
    std::string_view digits;
    if (l.starts_with("cpus=")) {
        digits = l.substr(5);
    } else if (l.starts_with("#")) {
        const auto p = l.find("#P:", 1);
        if (p == std::string_view::npos) return 0;
        digits = l.substr(p + 3);
    } else {
        return 0;
    }
    const auto end = digits.find_first_not_of("0123456789");
    int32_t n = 0;
    if (!toInt(digits.substr(0, end), n) || n <= 0 || n > EventStore::kMaxCpus) return 0;
    return n;
}

// "sys_enter_sched_setaffinity: pid: 0x000012ee, len: 0x00000020, user_mask_ptr: 0x..." (trace-cmd
// report prints syscall arguments in hex; pid 0 is the caller) and its sys_exit: a
// sched_setaffinity() call's bounds (affinity_calls.h)
void noteAffinityCall(const TextLineColumns& c, bool exit, EventStore& store) {
    AffinityCallRecord r;
    r.ts = c.ts;
    r.caller = c.pid;
    r.exit = exit;
    if (!exit) {
        std::string_view p = c.payload;
        if (!p.starts_with("pid: ")) return;
        p.remove_prefix(5);
        p = p.substr(0, p.find(','));
        const int base = p.starts_with("0x") ? 16 : 10;
        if (base == 16) p.remove_prefix(2);
        uint32_t target = 0;
        if (std::from_chars(p.data(), p.data() + p.size(), target, base).ec != std::errc{}) return;
        r.target = target == 0 ? c.pid : static_cast<int32_t>(target);
    }
    store.noteAffinityCall(r);
}

// `recordedCpus`: the header's CPU count (0: none stated); an event on a CPU past it is no
// event of this recording (a damaged line) and is dropped as out of range.
bool parseLine(std::string_view line, EventStore& store, SoftirqTracker& softirqs, int recordedCpus) {
    TextLineColumns c;
    if (!parseTextLineColumns(line, c)) return false;
    if (recordedCpus > 0 && c.cpu >= recordedCpus) {
        store.addAnomaly(Anomaly::CpuOutOfRange);
        return true;
    }
    if (c.rawCount && store.clockCountsNs()) store.setTraceClock("", false);
    const std::string_view name = c.event, payload = c.payload;
    const int32_t cpu = c.cpu;
    auto kind = eventKindFromName(name);
    if (!kind) {
        // "softirq_entry: vec=1 [action=TIMER]": what a softirq-context wakeup on this CPU serves
        if (name == "softirq_entry" && payload.starts_with("vec=")) {
            int32_t vec = -1;
            const auto end = payload.find(' ');
            if (toInt(payload.substr(4, end == std::string_view::npos ? std::string_view::npos : end - 4), vec))
                softirqs.enter(cpu, vec);
        } else if (name == "softirq_exit") {
            softirqs.exit(cpu);
        } else if (name == "sys_enter_sched_setaffinity" || name == "sys_exit_sched_setaffinity") {
            noteAffinityCall(c, name == "sys_exit_sched_setaffinity", store);
        }
        store.countOther(name);
        return true;
    }
    SchedEvent e;
    e.ts = c.ts;
    e.cpu = cpu;
    e.kind = *kind;
    if (isWakeKind(e.kind)) {
        e.waker = c.pid;  // the task column: who ran the tracepoint
        e.byInterrupt = byInterrupt(c.hardirq, c.softirq, softirqs.vec(cpu));
        if (!c.irqFlags) store.setIrqContextKnown(false);
    }
    if (e.kind == EventKind::MigrateTask) e.inSchedSoftirq = inSchedSoftirq(c.hardirq, c.softirq, softirqs.vec(cpu));
    if (!parsePayload(*kind, payload, e, store)) {
        store.addAnomaly(Anomaly::Malformed);
        return true;
    }
    if (e.kind == EventKind::MigrateTask && recordedCpus > 0 && std::max(e.srcCpu, e.dstCpu) >= recordedCpus) {
        store.addAnomaly(Anomaly::CpuOutOfRange);  // a move to or from a CPU the recording does not have
        return true;
    }
    // -l cuts the task column's comm to 8 characters: the payloads' own comm fields name it whole
    if (!c.commCut) store.noteComm(c.pid, c.ts, c.comm);
    store.append(e);
    return true;
}

// "<name>: <comm>-<pid> [cpu] ...": trace-cmd report prefixes the events of an instance buffer
// (trace-cmd record -B NAME) with the buffer's name, at the start of the line, where a task column
// is right-aligned (leading spaces) or, when longer than its width, ends with "-<pid>". Returns
// the name ("" for the top-level buffer) and removes the prefix from `line`.
std::string_view takeBufferPrefix(std::string_view& line) {
    if (line.empty() || line.front() == ' ' || line.front() == '\t' || line.front() == '#') return {};
    const auto sp = line.find_first_of(" \t");
    if (sp == std::string_view::npos || sp < 2 || line[sp - 1] != ':') return {};
    const std::string_view name = line.substr(0, sp - 1);
    if (name.find(':') != std::string_view::npos) return {};
    line.remove_prefix(sp);
    return name;
}

// What a file with NUL bytes is, by its magic, and what to do with it.
std::string binaryFileProblem(std::string_view head, const std::string& path) {
    if (head.starts_with("PERFILE2"))
        return "a perf.data recording, not a trace: turn it into text with `perf script -i " + path +
               " > sched.txt` and open that";
    struct Compressed {
        std::string_view magic, name, tool;
    };
    static constexpr Compressed kCompressed[] = {{"\x1f\x8b", "gzip", "gunzip"},
                                                 {"\xfd" "7zXZ", "xz", "unxz"},
                                                 {"BZh", "bzip2", "bunzip2"},
                                                 {"\x28\xb5\x2f\xfd", "zstd", "unzstd"}};
    for (const auto& c : kCompressed)
        if (head.starts_with(c.magic))
            return std::string(c.name) + "-compressed: decompress it first (" + std::string(c.tool) + ")";
    return "binary data, not a text trace or trace.dat";
}

// A topology given where a trace goes (`schedscope local.xml`): what it is and how to open it,
// or "" when the text is no topology we know. Looked for near the start only, where the hwloc
// XML root element and the sidecar's first keys are.
std::string topologyFileHint(std::string_view text, const std::string& path) {
    const std::string_view head = text.substr(0, 4096);
    if (head.find("<topology") != std::string_view::npos)
        return ": hwloc XML, a topology rather than a trace: open it with --xml " + path;
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] == '{' && head.find("\"cpus\"") != std::string_view::npos &&
        head.find("\"arch\"") != std::string_view::npos) {
        const std::string suffix = ".topology.json";
        const bool sidecar = path.size() > suffix.size() && path.ends_with(suffix);
        return ": a topology JSON sidecar, not a trace: open the trace it belongs to" +
               (sidecar ? " (" + path.substr(0, path.size() - suffix.size()) + ")" : std::string()) +
               ", which finds it by name";
    }
    return {};
}

}  // namespace

Result<EventStore> parseFtraceText(std::string_view text, const std::string& what, size_t maxLineBytes,
                                   std::string_view buffer) {
    // one store per buffer, in the order they first appear; the top-level buffer's is first
    const std::string_view whole = text;
    std::vector<std::pair<std::string, EventStore>> stores(1);
    std::vector<SoftirqTracker> softirqs(1);  // per buffer, as stores: its CPUs' softirqs
    EventStore* store = &stores.front().second;
    size_t current = 0;
    std::string_view storeName;
    size_t lines = 0, garbage = 0;
    int recordedCpus = 0;  // the header's CPU count, for every buffer
    bool latencyFormat = false;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++lines;
        if (line.size() > maxLineBytes) {
            ++garbage;
            store->addAnomaly(Anomaly::GarbageLine);
            continue;
        }
        const std::string_view name = takeBufferPrefix(line);
        if (name != storeName) {
            auto it = std::find_if(stores.begin(), stores.end(), [&](const auto& b) { return b.first == name; });
            if (it == stores.end()) {
                stores.emplace_back(std::string(name), EventStore{});
                it = stores.end() - 1;
            }
            store = &it->second;
            storeName = it->first;
            current = static_cast<size_t>(it - stores.begin());
            softirqs.resize(stores.size());
        }
        if (isCallchainFrame(line)) continue;
        line = trim(line);
        if (const int n = headerCpus(line); n > 0 && recordedCpus == 0) recordedCpus = n;
        // "# nop latency trace v1.1.5 on 6.18.44": tracefs with options/latency-format on
        if (line.starts_with("#") && line.find(" latency trace v") != std::string_view::npos) latencyFormat = true;
        if (isHeader(line) || lostLine(line, *store)) continue;
        if (!parseLine(line, *store, softirqs[current], recordedCpus)) {
            ++garbage;
            store->addAnomaly(Anomaly::GarbageLine);
        }
    }
    std::string listed;
    for (const auto& [name, s] : stores) listed += (listed.empty() ? "" : ", ") + (name.empty() ? std::string("top") : name);
    EventStore* chosen = nullptr;
    for (auto& [name, s] : stores) {
        s.setRecordedCpus(recordedCpus);
        s.finish();
        const bool wanted = buffer.empty() ? s.size() > 0 : (buffer == "top" ? name.empty() : name == buffer);
        if (wanted && !chosen) {
            chosen = &s;
            chosen->setBuffer(name);
        }
    }
    if (!buffer.empty() && !chosen)
        return Error{what + ": no buffer '" + std::string(buffer) + "' in the trace (its buffers: " + listed + ")"};
    if (!chosen || chosen->size() == 0) {
        // its lines carry "608us" since the trace began instead of a timestamp
        if (latencyFormat)
            return Error{what + ": ftrace latency-format text (options/latency-format on), whose times are not "
                                "timestamps: save the trace with the option off (echo 0 > options/latency-format) or "
                                "record a trace.dat"};
        if (garbage == lines) {
            if (std::string hint = topologyFileHint(whole, what); !hint.empty()) return Error{what + hint};
            return Error{what + ": not an ftrace text trace (no line parses as an event)"};
        }
        if (!buffer.empty()) return Error{what + ": no sched events in its buffer '" + std::string(buffer) + "'"};
        if (stores.size() > 1) return Error{what + ": no sched events in any of its buffers (" + listed + ")"};
        return Error{what + ": no sched events in the trace"};
    }
    return std::move(*chosen);
}

Result<EventStore> readFtraceText(const std::string& path, const LoadOptions& options) {
    auto format = detectTraceFormat(path);
    if (!format) return Error{format.error()};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open: " + std::strerror(errno)};
    // One copy of the file in memory, not two (a stringstream's buffer plus str()).
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::streamoff>(in.tellg());
    in.seekg(0, std::ios::beg);
    std::string text(size > 0 ? static_cast<size_t>(size) : 0, '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
        return Error{path + ": read error: " + std::strerror(errno)};
    if (text.find('\0') != std::string::npos) return Error{path + ": " + binaryFileProblem(text, path)};
    if (options.cancel && options.cancel->load()) return Error{path + ": loading cancelled"};
    auto r = parseFtraceText(text, path, kMaxTextLineBytes, options.buffer);
    if (options.progress) options.progress(1.0);
    return r;
}

}  // namespace schedscope::tracing
