#include "text_line_columns.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>

#include "text_fields.h"

namespace schedscope::tracing {
namespace {

// "<s>.<us or ns>" for the nanosecond clocks; a plain count ("1182856670255253") where the
// trace clock does not count ns (counter, uptime, x86-tsc): `rawCount` says which it was.
bool parseTimestamp(std::string_view s, uint64_t& ns, bool& rawCount) {
    const auto dot = s.find('.');
    uint64_t secs = 0, frac = 0;
    rawCount = dot == std::string_view::npos;
    if (rawCount) return toInt(s, ns);
    if (!toInt(s.substr(0, dot), secs)) return false;
    std::string_view f = s.substr(dot + 1);
    if (f.empty() || f.size() > 9 || !toInt(f, frac)) return false;
    for (size_t i = f.size(); i < 9; ++i) frac *= 10;
    // past 2^64 ns (584 years) the product would wrap to a plausible-looking stamp
    constexpr uint64_t kNsPerSec = 1000000000ull;
    if (secs > (UINT64_MAX - frac) / kNsPerSec) return false;
    ns = secs * kNsPerSec + frac;
    return true;
}

// The irq-flags column ("d.s4.", as tracefs and trace-cmd report -l print it): its third
// letter is h (hardirq), H (hardirq in a softirq), z (NMI), Z (NMI in a hardirq) or s (softirq).
// `trace-cmd report -R -l` prints the record's common_flags instead, "-0x<hex>" after the CPU:
// TRACE_FLAG_HARDIRQ 0x08, TRACE_FLAG_SOFTIRQ 0x10 and TRACE_FLAG_NMI 0x40 (since 2.6).
void readIrqFlags(std::string_view flags, bool& hardirq, bool& softirq) {
    if (flags.starts_with("-0x")) {
        unsigned bits = 0;
        const auto [p, ec] = std::from_chars(flags.data() + 3, flags.data() + flags.size(), bits, 16);
        if (ec != std::errc{} || p != flags.data() + flags.size()) bits = 0;
        hardirq = (bits & (0x08u | 0x40u)) != 0;
        softirq = (bits & 0x10u) != 0;
        return;
    }
    hardirq = flags.size() >= 3 && std::string_view("hHzZ").find(flags[2]) != std::string_view::npos;
    softirq = flags.size() >= 3 && flags[2] == 's';
}

bool isTimestampToken(std::string_view tok) {
    if (!tok.ends_with(':') || tok.size() < 2) return false;
    tok.remove_suffix(1);
    return std::all_of(tok.begin(), tok.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// trace-cmd report -l: "<comm, 8 chars>-<pid> <cpu><flags> <ts>: ...": the CPU's digits run into
// the flags. `head` is the line up to its timestamp.
bool latencyPrefix(std::string_view head, int32_t& cpu, std::string_view& task, std::string_view& flags) {
    const std::string_view before = trim(head);
    const auto cut = before.find_last_of(" \t");
    if (cut == std::string_view::npos) return false;
    const std::string_view cpuFlags = before.substr(cut + 1);
    size_t digits = 0;
    while (digits < cpuFlags.size() && cpuFlags[digits] >= '0' && cpuFlags[digits] <= '9') ++digits;
    if (digits == 0 || digits == cpuFlags.size() || !toInt(cpuFlags.substr(0, digits), cpu)) return false;
    flags = cpuFlags.substr(digits);
    task = trim(before.substr(0, cut));
    return true;
}

// The task column: "<comm>-<pid>" (ftrace, trace-cmd), or "<comm> <pid>" and "<comm> <pid>/<tid>"
// (perf script: perf sched record's tracepoints print as "perf 20457 [000] 33524.729119:
// sched:sched_waking: comm=...", the same kernel print formats). A comm may hold '-' and spaces.
bool splitTask(std::string_view task, std::string_view& comm, int32_t& pid) {
    if (const auto dash = task.rfind('-'); dash != std::string_view::npos && toInt(task.substr(dash + 1), pid)) {
        comm = task.substr(0, dash);
        return true;
    }
    const auto sp = task.find_last_of(" \t");
    if (sp == std::string_view::npos) return false;
    std::string_view id = task.substr(sp + 1);
    if (const auto slash = id.find('/'); slash != std::string_view::npos) id.remove_prefix(slash + 1);  // the tid
    if (!toInt(id, pid)) return false;
    comm = trim(task.substr(0, sp));
    return !comm.empty();
}

// Where the "<ts>:" token starts: the first token that reads as a timestamp and is followed by a
// space; npos when none. trace-cmd report pads the timestamp to a width, and a raw count of 13
// digits or more (an x86-tsc clock) fills it: "[001]1184092722685551:", no space after the CPU.
size_t timestampStart(std::string_view line) {
    for (size_t pos = line.find(": "); pos != std::string_view::npos; pos = line.find(": ", pos + 1)) {
        const auto sp = line.find_last_of(" \t", pos);
        const size_t start = sp == std::string_view::npos ? 0 : sp + 1;
        const std::string_view token = line.substr(start, pos + 1 - start);
        if (isTimestampToken(token)) return start;
        if (token.starts_with('[')) {
            const auto close = token.find(']');
            if (close != std::string_view::npos && isTimestampToken(token.substr(close + 1))) return start + close + 1;
        }
    }
    return std::string_view::npos;
}

}  // namespace

// A frame of the call chain perf script prints under an event recorded with -g: an indented
// "<hex address> <symbol>+0x<offset> (<object>)", with no timestamp (an event line's task
// column can be all hex letters too: "      dd  1234 [000] 5.000001: ...").
bool isCallchainFrame(std::string_view raw) {
    if (raw.empty() || (raw.front() != '\t' && raw.front() != ' ')) return false;
    const std::string_view l = trim(raw);
    const auto sp = l.find(' ');
    if (sp == std::string_view::npos || sp == 0 || !l.ends_with(')')) return false;
    return std::all_of(l.begin(), l.begin() + static_cast<std::ptrdiff_t>(sp),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }) &&
           timestampStart(l) == std::string_view::npos;
}


bool parseTextLineColumns(std::string_view line, TextLineColumns& out) {
    // CPU column: the first " [digits]" token before the timestamp (a sched plugin's payload
    // has "[prio]" after it; -l output has no bracketed CPU at all)
    const size_t tsStart = timestampStart(line);
    if (tsStart == std::string_view::npos) return false;
    const std::string_view head = line.substr(0, tsStart);
    size_t open = 0, close = 0;
    int32_t cpu = -1;
    for (size_t pos = head.find('['); pos != std::string_view::npos; pos = head.find('[', pos + 1)) {
        // Reuse the last ']' while it is still ahead: "[[[[...]" stays linear.
        if (close <= pos) close = head.find(']', pos);
        if (close == std::string_view::npos) break;
        if (toInt(head.substr(pos + 1, close - pos - 1), cpu)) { open = pos; break; }
        cpu = -1;
    }
    std::string_view task, rest;
    out.hardirq = out.softirq = out.irqFlags = false;
    const bool latency = cpu < 0;
    if (!latency) {
        task = trim(line.substr(0, open));
        rest = trim(line.substr(close + 1));
        // Optional irq-flags column ("d..2."), then "<ts>:".
        const auto sp = rest.find(' ');
        if (!rest.substr(0, sp).ends_with(':')) {
            if (sp == std::string_view::npos) return false;
            readIrqFlags(rest.substr(0, sp), out.hardirq, out.softirq);
            out.irqFlags = true;
            rest = trim(rest.substr(sp + 1));
        }
    } else {
        std::string_view flags;
        if (!latencyPrefix(head, cpu, task, flags)) return false;
        readIrqFlags(flags, out.hardirq, out.softirq);
        out.irqFlags = true;
        rest = line.substr(tsStart);
    }
    if (task.ends_with(')')) {  // "(tgid)" column of the record-tgid option
        const auto paren = task.rfind('(');
        if (paren == std::string_view::npos) return false;
        task = trim(task.substr(0, paren));
    }
    if (!splitTask(task, out.comm, out.pid)) return false;
    out.commCut = latency && out.comm.size() >= 8;
    out.cpu = cpu;

    auto sp = rest.find(' ');
    const std::string_view tok = rest.substr(0, sp);
    if (!tok.ends_with(':') || !parseTimestamp(tok.substr(0, tok.size() - 1), out.ts, out.rawCount)) return false;
    if (sp == std::string_view::npos) return false;
    rest = trim(rest.substr(sp + 1));
    if (rest.starts_with("(+")) {  // --ts-diff: "(+<ns since the previous event>)"
        const auto end = rest.find(')');
        if (end == std::string_view::npos) return false;
        rest = trim(rest.substr(end + 1));
    }
    const auto colon = rest.find(": ");
    std::string_view name = colon == std::string_view::npos ? rest : rest.substr(0, colon);
    if (name.ends_with(':')) name.remove_suffix(1);
    if (name.empty() || name.find(' ') != std::string_view::npos) return false;
    if (const auto sys = name.find(':'); sys != std::string_view::npos) name.remove_prefix(sys + 1);  // perf: "sched:"
    out.event = name;
    out.payload = colon == std::string_view::npos ? std::string_view{} : trim(rest.substr(colon + 2));
    return true;
}

}  // namespace schedscope::tracing
