#pragma once
// A task's CPU time per CPU, kept sparse. A task runs on a few CPUs; a dense array per task was
// tasks x CPUs x 8 bytes, 1.8 GB for kernbench's 56,000 tasks on a 4,096-CPU machine.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace schedscope::sim {

class CpuTimes {
public:
    struct Entry {
        int cpu = 0;
        int64_t ns = 0;
    };

    // Adds `ns` of running on `cpu`; nothing is kept for a CPU until it has some time.
    void add(int cpu, int64_t ns) {
        if (ns <= 0) return;
        // a task mostly runs again where it last ran: its entry first, before a search whose
        // branches the CPU cannot predict
        if (last_ < entries_.size() && entries_[last_].cpu == cpu) {
            entries_[last_].ns += ns;
            return;
        }
        auto it = std::lower_bound(entries_.begin(), entries_.end(), cpu,
                                   [](const Entry& e, int c) { return e.cpu < c; });
        if (it != entries_.end() && it->cpu == cpu) it->ns += ns;
        else it = entries_.insert(it, Entry{cpu, ns});
        last_ = static_cast<size_t>(it - entries_.begin());
    }
    int64_t of(int cpu) const {
        for (const Entry& e : entries_)
            if (e.cpu == cpu) return e.ns;
        return 0;
    }
    int64_t total() const {
        int64_t sum = 0;
        for (const Entry& e : entries_) sum += e.ns;
        return sum;
    }
    // The CPU it ran on longest, the lowest of equals; -1 when it never ran.
    int mostUsed() const {
        const Entry* best = nullptr;
        for (const Entry& e : entries_)
            if (!best || e.ns > best->ns) best = &e;
        return best ? best->cpu : -1;
    }
    // by CPU, ascending
    std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
    std::vector<Entry>::const_iterator end() const { return entries_.end(); }

private:
    std::vector<Entry> entries_;
    size_t last_ = 0;  // the entry add() last added to
};

}  // namespace schedscope::sim
