#include "sched_decoder.h"

#include <cstring>
#include <string_view>

#include <event-parse.h>

namespace schedscope::tracing {
namespace {

constexpr const char* kFieldNames[] = {
    "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio",
    "comm", "pid", "prio", "target_cpu", "orig_cpu", "dest_cpu",
    "parent_comm", "parent_pid", "child_comm", "child_pid", "old_pid",
    "src_pid", "dst_pid", "src_cpu", "dst_cpu",
    "state", "cpu_id"};

// The record's common_flags (negative when the format has none): TRACE_FLAG_NMI is 0x40 in the
// kernel, which libtraceevent's enum does not name.
constexpr int kTraceFlagNmi = 0x40;
bool hardirqFlags(int flags) { return flags > 0 && (flags & (TRACE_FLAG_HARDIRQ | kTraceFlagNmi)) != 0; }
bool softirqFlags(int flags) { return flags > 0 && (flags & TRACE_FLAG_SOFTIRQ) != 0; }

std::string_view charField(const tep_format_field* f, const void* data, int size) {
    if (!f || f->offset + f->size > size) return {};
    const char* p = static_cast<const char*>(data) + f->offset;
    return {p, strnlen(p, static_cast<size_t>(f->size))};
}

}  // namespace

SchedDecoder::SchedDecoder(tep_handle* tep)
    : tep_(tep), prevStates_(tep_find_event_by_name(tep, "sched", "sched_switch")) {
    for (int k = 0; k < kEventKindCount; ++k) {
        const auto kind = static_cast<EventKind>(k);
        const std::string name(eventKindName(kind));
        tep_event* ev = tep_find_event_by_name(tep, kind == EventKind::CpuIdle ? "power" : "sched", name.c_str());
        if (!ev) continue;
        Slot s{kind, {}};
        for (int f = 0; f < FieldCount; ++f) s.f[static_cast<size_t>(f)] = tep_find_field(ev, kFieldNames[f]);
        if (ev->id < 0 || ev->id > 32767) continue;
        if (static_cast<size_t>(ev->id) >= slotOfId_.size()) slotOfId_.resize(static_cast<size_t>(ev->id) + 1, -1);
        slotOfId_[static_cast<size_t>(ev->id)] = static_cast<int16_t>(slots_.size());
        slots_.push_back(s);
        ++known_;
    }
    // irq:softirq_entry/exit, when the trace has them: what a softirq-context wakeup served
    if (tep_event* ev = tep_find_event_by_name(tep, "irq", "softirq_entry")) {
        softirqEntryId_ = ev->id;
        softirqEntryVec_ = tep_find_field(ev, "vec");
    }
    if (tep_event* ev = tep_find_event_by_name(tep, "irq", "softirq_exit")) softirqExitId_ = ev->id;
    // sched_setaffinity() calls, when the trace has them: tell an affinity change's stopper move
    // from sched_exec()'s (affinity_calls.h)
    if (tep_event* ev = tep_find_event_by_name(tep, "syscalls", "sys_enter_sched_setaffinity")) {
        setaffinityEnterId_ = ev->id;
        setaffinityPid_ = tep_find_field(ev, "pid");
    }
    if (tep_event* ev = tep_find_event_by_name(tep, "syscalls", "sys_exit_sched_setaffinity")) setaffinityExitId_ = ev->id;
}

void SchedDecoder::noteAffinityCall(bool exit, tep_record* rec, EventStore& store) const {
    AffinityCallRecord r;
    r.ts = rec->ts;
    r.caller = tep_data_pid(tep_, rec);
    r.exit = exit;
    if (!exit) {
        unsigned long long pid = 0;
        if (!setaffinityPid_ || tep_read_number_field(setaffinityPid_, rec->data, &pid) != 0) return;
        const auto target = static_cast<int32_t>(static_cast<uint32_t>(pid));  // pid_t; 0: the caller
        r.target = target == 0 ? r.caller : target;
    }
    store.noteAffinityCall(r);
}

void SchedDecoder::noteFormatsRecorded(EventStore& store) const {
    for (const Slot& s : slots_) store.noteRecorded(s.kind);
}

bool SchedDecoder::read(const Slot& s, F f, const void* data, int64_t& out) const {
    tep_format_field* field = s.f[f];
    unsigned long long v = 0;
    if (!field || tep_read_number_field(field, data, &v) != 0) return false;
    // Sign-extend signed fields narrower than 64 bits (pids, cpus, prio: int; state: long).
    if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8) {
        const unsigned shift = 64u - 8u * static_cast<unsigned>(field->size);
        out = static_cast<int64_t>(v << shift) >> shift;
    } else {
        out = static_cast<int64_t>(v);
    }
    return true;
}

void SchedDecoder::decode(tep_record* rec, EventStore& store) {
    if (rec->missed_events > 0) store.addAnomaly(Anomaly::LostEvents, static_cast<uint64_t>(rec->missed_events));
    else if (rec->missed_events < 0) store.addAnomaly(Anomaly::LostUnknown);

    const int id = tep_data_type(tep_, rec);
    const int16_t slot = id >= 0 && static_cast<size_t>(id) < slotOfId_.size() ? slotOfId_[static_cast<size_t>(id)] : -1;
    if (slot < 0) {
        if (id < 0 || id > (1 << 20)) {
            store.addAnomaly(Anomaly::UnknownEvent);
            return;
        }
        if (static_cast<size_t>(id) >= otherById_.size()) otherById_.resize(static_cast<size_t>(id) + 1, 0);
        ++otherById_[static_cast<size_t>(id)];
        unsigned long long vec = 0;
        if (id == softirqEntryId_ && softirqEntryVec_ && tep_read_number_field(softirqEntryVec_, rec->data, &vec) == 0)
            softirqs_.enter(rec->cpu, static_cast<int64_t>(vec));
        else if (id == softirqExitId_)
            softirqs_.exit(rec->cpu);
        else if (id == setaffinityEnterId_ || id == setaffinityExitId_)
            noteAffinityCall(id == setaffinityExitId_, rec, store);
        return;
    }
    const Slot& s = slots_[static_cast<size_t>(slot)];
    const void* d = rec->data;
    SchedEvent e;
    e.ts = rec->ts;
    e.cpu = rec->cpu;
    e.kind = s.kind;
    int64_t a = -1, b = -1, c = -1, x = 0;
    bool ok = true;
    switch (s.kind) {
        case EventKind::Switch:
            ok = read(s, PrevPid, d, a) && read(s, NextPid, d, b) && read(s, PrevState, d, x);
            read(s, PrevPrio, d, c);
            e.pid = static_cast<int32_t>(a);
            e.pid2 = static_cast<int32_t>(b);
            e.prio = static_cast<int32_t>(c);
            e.state = prevStates_.decode(x);
            if (ok) {
                store.noteComm(e.pid, e.ts, charField(s.f[PrevComm], d, rec->size));
                store.noteComm(e.pid2, e.ts, charField(s.f[NextComm], d, rec->size));
            }
            break;
        case EventKind::Waking:
        case EventKind::Wakeup:
        case EventKind::WakeupNew:
            ok = read(s, Pid, d, a) && read(s, TargetCpu, d, b);
            read(s, Prio, d, c);
            e.pid = static_cast<int32_t>(a);
            e.dstCpu = static_cast<int32_t>(b);
            e.prio = static_cast<int32_t>(c);
            e.waker = tep_data_pid(tep_, rec);  // common_pid: who ran the tracepoint
            if (const int flags = tep_data_flags(tep_, rec); flags > 0)
                e.byInterrupt = byInterrupt(hardirqFlags(flags), softirqFlags(flags), softirqs_.vec(rec->cpu));
            if (ok) store.noteComm(e.pid, e.ts, charField(s.f[Comm], d, rec->size));
            break;
        case EventKind::MigrateTask:
            ok = read(s, Pid, d, a) && read(s, OrigCpu, d, b) && read(s, DestCpu, d, x);
            read(s, Prio, d, c);
            e.pid = static_cast<int32_t>(a);
            e.srcCpu = static_cast<int32_t>(b);
            e.dstCpu = static_cast<int32_t>(x);
            e.prio = static_cast<int32_t>(c);
            if (const int flags = tep_data_flags(tep_, rec); flags > 0)
                e.inSchedSoftirq = inSchedSoftirq(hardirqFlags(flags), softirqFlags(flags), softirqs_.vec(rec->cpu));
            break;
        case EventKind::ProcessFork:
            ok = read(s, ParentPid, d, a) && read(s, ChildPid, d, b);
            e.pid = static_cast<int32_t>(a);
            e.pid2 = static_cast<int32_t>(b);
            if (ok) store.noteComm(e.pid2, e.ts, charField(s.f[ChildComm], d, rec->size));
            break;
        case EventKind::ProcessExec:
            ok = read(s, Pid, d, a) && read(s, OldPid, d, b);
            e.pid = static_cast<int32_t>(a);
            e.pid2 = static_cast<int32_t>(b);
            break;
        case EventKind::ProcessExit:
            ok = read(s, Pid, d, a);
            read(s, Prio, d, c);
            e.pid = static_cast<int32_t>(a);
            e.prio = static_cast<int32_t>(c);
            break;
        case EventKind::MoveNuma:
            ok = read(s, Pid, d, a) && read(s, SrcCpu, d, b) && read(s, DstCpu, d, x);
            e.pid = static_cast<int32_t>(a);
            e.srcCpu = static_cast<int32_t>(b);
            e.dstCpu = static_cast<int32_t>(x);
            break;
        case EventKind::SwapNuma:
        case EventKind::StickNuma:
            ok = read(s, SrcPid, d, a) && read(s, SrcCpu, d, b);
            read(s, DstPid, d, c);
            read(s, DstCpu, d, x);
            e.pid = static_cast<int32_t>(a);
            e.pid2 = static_cast<int32_t>(c);
            e.srcCpu = static_cast<int32_t>(b);
            e.dstCpu = static_cast<int32_t>(x);
            break;
        case EventKind::CpuIdle:
            ok = read(s, State, d, a) && read(s, CpuId, d, b);
            e.pid = static_cast<int32_t>(a);  // 4294967295 (PWR_EVENT_EXIT) wraps to -1
            e.dstCpu = static_cast<int32_t>(b);
            break;
        case EventKind::Count:
            ok = false;
            break;
    }
    if (!ok) {
        store.addAnomaly(Anomaly::Malformed);
        return;
    }
    store.append(e);
}

void SchedDecoder::flushCounts(EventStore& store) {
    for (size_t id = 0; id < otherById_.size(); ++id) {
        if (!otherById_[id]) continue;
        tep_event* ev = tep_find_event(tep_, static_cast<int>(id));
        if (ev && ev->name) store.countOther(ev->name, otherById_[id]);
        else store.addAnomaly(Anomaly::UnknownEvent, otherById_[id]);
        otherById_[id] = 0;
    }
}

}  // namespace schedscope::tracing
