#pragma once
// TimerHeap: one re-armable timer per slot (the simulator's per-CPU burst end), a binary min-heap
// ordered by (time, seq) with the heap position of every slot, so re-arming or cancelling a timer
// moves it in place. Contention re-times a running burst on every context switch near it; with
// one event per re-timing in the main queue, half of all pops were stale entries.
#include <cstdint>
#include <vector>

namespace schedscope::sim {

class TimerHeap {
public:
    struct Entry {
        int64_t t = 0;
        uint64_t seq = 0;
        int slot = -1;
        bool before(const Entry& o) const { return t != o.t ? t < o.t : seq < o.seq; }
    };

    explicit TimerHeap(size_t slots = 0) { resize(slots); }
    void resize(size_t slots) {
        pos_.assign(slots, -1);
        heap_.clear();
        heap_.reserve(slots);
    }

    bool empty() const { return heap_.empty(); }
    size_t size() const { return heap_.size(); }
    bool armed(int slot) const { return pos_[static_cast<size_t>(slot)] >= 0; }
    const Entry& top() const { return heap_.front(); }

    // Arms `slot` at (t, seq), replacing its previous time if it had one.
    void arm(int slot, int64_t t, uint64_t seq) {
        int& p = pos_[static_cast<size_t>(slot)];
        const Entry e{t, seq, slot};
        if (p < 0) {
            p = static_cast<int>(heap_.size());
            heap_.emplace_back();
            siftUp(static_cast<size_t>(p), e);
            return;
        }
        if (e.before(heap_[static_cast<size_t>(p)])) siftUp(static_cast<size_t>(p), e);
        else siftDown(static_cast<size_t>(p), e);
    }

    void cancel(int slot) {
        const int p = pos_[static_cast<size_t>(slot)];
        if (p >= 0) removeAt(static_cast<size_t>(p));
    }

    // Removes and returns the earliest timer.
    Entry pop() {
        const Entry e = heap_.front();
        removeAt(0);
        return e;
    }

    // A batch of re-armings and cancellations: set() and unset() change entries in place,
    // heap order aside, and endBatch() restores it with one bottom-up heapify, O(n). When
    // a context switch changes the memory demand of a whole NUMA node, every burst running
    // there is re-timed at once, and n sifts of log n each cost more. The pop order is the
    // same either way: (t, seq) orders all timers.
    void set(int slot, int64_t t, uint64_t seq) {
        int& p = pos_[static_cast<size_t>(slot)];
        if (p < 0) {
            p = static_cast<int>(heap_.size());
            heap_.emplace_back();
        }
        place(static_cast<size_t>(p), Entry{t, seq, slot});
    }
    void unset(int slot) {
        int& p = pos_[static_cast<size_t>(slot)];
        if (p < 0) return;
        const size_t i = static_cast<size_t>(p);
        p = -1;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (i < heap_.size()) place(i, last);
    }
    void endBatch() {
        for (size_t i = heap_.size() / 2; i-- > 0;) siftDown(i, heap_[i]);
    }

private:
    std::vector<Entry> heap_;
    std::vector<int> pos_;  // per slot: index into heap_, -1 when not armed

    void place(size_t i, const Entry& e) {
        // field by field: a whole-struct copy became a 16-byte load of the entry the caller had
        // just built with 8-byte stores, which cannot be forwarded
        Entry& h = heap_[i];
        h.t = e.t;
        h.seq = e.seq;
        h.slot = e.slot;
        pos_[static_cast<size_t>(e.slot)] = static_cast<int>(i);
    }
    void removeAt(size_t i) {
        pos_[static_cast<size_t>(heap_[i].slot)] = -1;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (i == heap_.size()) return;
        if (last.before(heap_[i])) siftUp(i, last);
        else siftDown(i, last);
    }
    // The sifts move `e` into hole `i` and take it by value: re-reading an entry just written
    // field by field into the hole stalled on store forwarding (a 16-byte load over two 8-byte
    // stores), a fifth of flushBursts()'s time in perf.
    void siftUp(size_t i, const Entry e) {
        while (i > 0) {
            const size_t parent = (i - 1) / 2;
            if (!e.before(heap_[parent])) break;
            place(i, heap_[parent]);
            i = parent;
        }
        place(i, e);
    }
    void siftDown(size_t i, const Entry e) {
        const size_t n = heap_.size();
        for (;;) {
            size_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && heap_[child + 1].before(heap_[child])) ++child;
            if (!heap_[child].before(e)) break;
            place(i, heap_[child]);
            i = child;
        }
        place(i, e);
    }
};

}  // namespace schedscope::sim
