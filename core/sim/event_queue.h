#pragma once
// The simulator's pending events in one (time, seq) order, seq the push order, so ties resolve
// the same way on every run. Three stores behind one pop(), all numbered from one seq counter:
//  - ticks in a FIFO: a tick is always due at the first jiffy boundary after the time it is
//    pushed, so they come in (time, seq) order and a queue keeps them sorted at O(1) a push and
//    a pop (a sixth of all events are ticks);
//  - the end of each CPU's running burst in a TimerHeap, re-timed in place: contention re-times
//    a running burst on every context switch near it, and one event per re-timing left half of
//    all pops stale;
//  - every other event in a binary heap.
#include <cassert>
#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

#include "sim/timer_heap.h"

namespace schedscope::sim {

enum class Ev : uint8_t { BurstEnd, SleepEnd, Tick, Sample, ActiveBalance, IdleExit, BandwidthPeriod, BandwidthSlack, ReschedIpi, End };

struct Event {
    int64_t t;
    uint64_t seq;
    Ev type;
    int a;  // the event's CPU or task (the group of a bandwidth timer)
    bool before(const Event& o) const { return t != o.t ? t < o.t : seq < o.seq; }
};

class EventQueue {
public:
    explicit EventQueue(size_t cpus) : bursts_(cpus), pending_(cpus) { pendingCpus_.reserve(cpus); }

    // An event of `type` for `a` at `t`; a tick no earlier than the last tick pushed.
    void push(int64_t t, Ev type, int a) {
        if (type == Ev::Tick) {
            assert(ticks_.empty() || ticks_.back().t <= t);
            ticks_.push_back({t, seq_++, type, a});
            return;
        }
        others_.push({t, seq_++, type, a});
    }

    // The burst on `cpu` ends at `t` (Ev::BurstEnd), or not at all. The burst end takes a fresh
    // seq on every re-timing, as an event pushed then would. One event re-times a CPU several
    // times (a context switch next door is a switch to idle and one from idle): the heap only
    // sees the last re-timing, when the event is over (flushBursts()).
    void setBurstEnd(int cpu, int64_t t) { pendingBurst(cpu) = {t, seq_++, true}; }
    void cancelBurstEnd(int cpu) { pendingBurst(cpu).arm = false; }

    // The burst ends set and cancelled during the event, into their heap.
    void flushBursts() {
        // many re-timings at once (a node's memory demand changed): in place, then one heapify.
        // k sifts cost about k log2 n moves, a heapify about 2n: past a third of the timers
        // (log2 n is 7 or 8 on the 128-256 CPU machines where this happens) the heapify wins
        const bool batch = pendingCpus_.size() * 3 > bursts_.size() + 16;
        for (int cpu : pendingCpus_) {
            Pending& p = pending_[static_cast<size_t>(cpu)];
            if (p.burst.arm && batch) bursts_.set(cpu, p.burst.t, p.burst.seq);
            else if (p.burst.arm) bursts_.arm(cpu, p.burst.t, p.burst.seq);
            else if (batch) bursts_.unset(cpu);
            else bursts_.cancel(cpu);
            p = {};
        }
        if (batch) bursts_.endBatch();
        pendingCpus_.clear();
    }

    // Takes the earliest event into `e`; false when none is left. A burst end stays in its heap
    // while the event runs: the CPU's next burst usually re-arms it, and flushBursts() then moves
    // it down from the top in one pass instead of a pop and a push. Not re-armed, the pending
    // cancel removes it.
    bool pop(Event& e) {
        const bool tickFirst = !ticks_.empty() && (others_.empty() || ticks_.front().before(others_.top()));
        const Event* other = tickFirst ? &ticks_.front() : others_.empty() ? nullptr : &others_.top();
        if (!bursts_.empty() && (!other || burstBefore(*other))) {
            const TimerHeap::Entry& b = bursts_.top();
            e = {b.t, b.seq, Ev::BurstEnd, b.slot};
            cancelBurstEnd(b.slot);
        } else if (tickFirst) {
            e = ticks_.front();
            ticks_.pop_front();
        } else if (!others_.empty()) {
            e = others_.top();
            others_.pop();
        } else {
            return false;
        }
        return true;
    }

private:
    struct Later {
        bool operator()(const Event& a, const Event& b) const { return b.before(a); }
    };
    struct PendingBurst {
        int64_t t = 0;
        uint64_t seq = 0;
        bool arm = false;  // false: cancel
    };
    struct Pending {
        PendingBurst burst;
        bool listed = false;
    };

    bool burstBefore(const Event& e) const {
        const TimerHeap::Entry& b = bursts_.top();
        return b.t != e.t ? b.t < e.t : b.seq < e.seq;
    }
    PendingBurst& pendingBurst(int cpu) {
        const size_t c = static_cast<size_t>(cpu);
        if (!pending_[c].listed) {
            pending_[c].listed = true;
            pendingCpus_.push_back(cpu);
        }
        return pending_[c].burst;
    }

    std::priority_queue<Event, std::vector<Event>, Later> others_;
    std::deque<Event> ticks_;
    TimerHeap bursts_;  // per CPU: the end of the running task's burst
    std::vector<Pending> pending_;  // per CPU: this event's last re-timing, for flushBursts()
    std::vector<int> pendingCpus_;
    uint64_t seq_ = 0;
};

}  // namespace schedscope::sim
