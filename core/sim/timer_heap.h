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
        if (p < 0) {
            p = static_cast<int>(heap_.size());
            heap_.push_back({t, seq, slot});
            siftUp(static_cast<size_t>(p));
            return;
        }
        Entry& e = heap_[static_cast<size_t>(p)];
        const bool earlier = Entry{t, seq, slot}.before(e);
        e.t = t;
        e.seq = seq;
        if (earlier) siftUp(static_cast<size_t>(p));
        else siftDown(static_cast<size_t>(p));
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

private:
    std::vector<Entry> heap_;
    std::vector<int> pos_;  // per slot: index into heap_, -1 when not armed

    void place(size_t i, const Entry& e) {
        heap_[i] = e;
        pos_[static_cast<size_t>(e.slot)] = static_cast<int>(i);
    }
    void removeAt(size_t i) {
        pos_[static_cast<size_t>(heap_[i].slot)] = -1;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (i == heap_.size()) return;
        const bool earlier = last.before(heap_[i]);
        place(i, last);
        if (earlier) siftUp(i);
        else siftDown(i);
    }
    void siftUp(size_t i) {
        const Entry e = heap_[i];
        while (i > 0) {
            const size_t parent = (i - 1) / 2;
            if (!e.before(heap_[parent])) break;
            place(i, heap_[parent]);
            i = parent;
        }
        place(i, e);
    }
    void siftDown(size_t i) {
        const Entry e = heap_[i];
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
