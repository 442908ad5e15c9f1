#pragma once
// Decodes raw ring-buffer records of the sched events into an EventStore. Each event's fields
// are resolved once from the source's own formats (tep_format_field), then read by offset per
// record. Shared by the trace.dat reader and the live tracefs source.
#include <array>
#include <cstdint>
#include <vector>

#include "event_store.h"
#include "interrupt_context.h"
#include "prev_state_table.h"

struct tep_handle;
struct tep_record;
struct tep_format_field;

namespace schedscope::tracing {

class SchedDecoder {
public:
    explicit SchedDecoder(tep_handle* tep);
    // True when the formats have at least one of the event kinds the store keeps.
    bool hasSchedEvents() const { return known_ > 0; }
    // Decodes one record (cpu from the record) into `store`; other events are counted by id.
    void decode(tep_record* rec, EventStore& store);
    // Moves the per-id counts of skipped events into the store by name (unknown ids become
    // anomalies). Call once at the end; decode may continue afterwards.
    void flushCounts(EventStore& store);
    // Marks every kind the formats hold as recorded (EventStore::noteRecorded()): true when the
    // formats are those of the recorded events, as in a trace.dat of one buffer or a live
    // instance that enables them all.
    void noteFormatsRecorded(EventStore& store) const;

private:
    enum F : uint8_t {
        PrevComm, PrevPid, PrevPrio, PrevState, NextComm, NextPid, NextPrio,  // sched_switch
        Comm, Pid, Prio, TargetCpu, OrigCpu, DestCpu,                         // wakeups, migrate
        ParentComm, ParentPid, ChildComm, ChildPid, OldPid,                    // fork, exec
        SrcPid, DstPid, SrcCpu, DstCpu,                                        // numa
        State, CpuId,                                                          // cpu_idle
        FieldCount
    };
    struct Slot {
        EventKind kind;
        std::array<tep_format_field*, FieldCount> f{};
    };

    bool read(const Slot& s, F f, const void* data, int64_t& out) const;
    // a sys_enter/sys_exit_sched_setaffinity record into the store's side table
    void noteAffinityCall(bool exit, tep_record* rec, EventStore& store) const;

    tep_handle* tep_;
    std::vector<int16_t> slotOfId_;   // event id -> index into slots_, -1 other
    std::vector<Slot> slots_;
    std::vector<uint64_t> otherById_;
    int known_ = 0;
    int softirqEntryId_ = -1, softirqExitId_ = -1;
    tep_format_field* softirqEntryVec_ = nullptr;
    int setaffinityEnterId_ = -1, setaffinityExitId_ = -1;
    tep_format_field* setaffinityPid_ = nullptr;
    SoftirqTracker softirqs_;
    PrevStateTable prevStates_;  // sched_switch's prev_state letters, from its format
};

}  // namespace schedscope::tracing
