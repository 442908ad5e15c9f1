// TimerHeap against a plain ordered set: random arms, re-arms, cancels and pops must come out in
// the same (time, seq) order.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "sim/timer_heap.h"

namespace schedscope::test {
namespace {

using sim::TimerHeap;

// The timers a TimerHeap should hold, in a plain ordered set.
struct ReferenceTimers {
    std::set<std::tuple<int64_t, uint64_t, int>> ordered;
    std::map<int, std::tuple<int64_t, uint64_t, int>> armed;
    void arm(int slot, int64_t t, uint64_t seq) {
        cancel(slot);
        armed[slot] = {t, seq, slot};
        ordered.insert(armed[slot]);
    }
    void cancel(int slot) {
        if (auto it = armed.find(slot); it != armed.end()) {
            ordered.erase(it->second);
            armed.erase(it);
        }
    }
    // pops the earliest from both and checks they agree
    void expectPop(TimerHeap& heap) {
        const auto want = *ordered.begin();
        ordered.erase(ordered.begin());
        armed.erase(std::get<2>(want));
        const TimerHeap::Entry got = heap.pop();
        ASSERT_EQ(got.t, std::get<0>(want));
        ASSERT_EQ(got.seq, std::get<1>(want));
        ASSERT_EQ(got.slot, std::get<2>(want));
    }
};

TEST(TimerHeap, MatchesAnOrderedSet) {
    constexpr int kSlots = 37;
    TimerHeap heap(kSlots);
    ReferenceTimers ref;
    std::mt19937_64 rng(5);
    uint64_t seq = 0;
    for (int step = 0; step < 200000; ++step) {
        const int op = static_cast<int>(rng() % 10);
        const int slot = static_cast<int>(rng() % kSlots);
        if (op < 6) {  // arm or re-arm, often at a tied time
            const int64_t t = static_cast<int64_t>(rng() % 50);
            ref.arm(slot, t, seq);
            heap.arm(slot, t, seq++);
        } else if (op < 8) {
            ref.cancel(slot);
            heap.cancel(slot);
        } else if (!ref.ordered.empty()) {
            ASSERT_NO_FATAL_FAILURE(ref.expectPop(heap));
        }
        ASSERT_EQ(heap.size(), ref.ordered.size());
        ASSERT_EQ(heap.armed(slot), ref.armed.count(slot) == 1);
        if (!ref.ordered.empty()) {
            ASSERT_EQ(heap.top().slot, std::get<2>(*ref.ordered.begin()));
        }
    }
}

// Batches of in-place changes (set / unset, then endBatch()) mixed with single arms, cancels
// and pops, as flushBursts() does when a whole node is re-timed at once.
TEST(TimerHeap, BatchesMatchAnOrderedSet) {
    constexpr int kSlots = 64;
    TimerHeap heap(kSlots);
    ReferenceTimers ref;
    std::mt19937_64 rng(11);
    uint64_t seq = 0;
    for (int round = 0; round < 3000; ++round) {
        const bool batch = rng() % 2 == 0;
        const int changes = 1 + static_cast<int>(rng() % (batch ? kSlots : 4));
        for (int i = 0; i < changes; ++i) {
            const int slot = static_cast<int>(rng() % kSlots);
            if (rng() % 4 == 0) {
                ref.cancel(slot);
                if (batch) heap.unset(slot);
                else heap.cancel(slot);
            } else {
                const int64_t t = static_cast<int64_t>(rng() % 100);
                ref.arm(slot, t, seq);
                if (batch) heap.set(slot, t, seq++);
                else heap.arm(slot, t, seq++);
            }
        }
        if (batch) heap.endBatch();
        ASSERT_EQ(heap.size(), ref.ordered.size());
        for (int pops = static_cast<int>(rng() % 6); pops > 0 && !ref.ordered.empty(); --pops)
            ASSERT_NO_FATAL_FAILURE(ref.expectPop(heap));
        for (int slot = 0; slot < kSlots; ++slot) ASSERT_EQ(heap.armed(slot), ref.armed.count(slot) == 1);
    }
}

TEST(TimerHeap, ReArmLaterAndEarlier) {
    TimerHeap heap(3);
    heap.arm(0, 10, 0);
    heap.arm(1, 20, 1);
    heap.arm(2, 30, 2);
    heap.arm(0, 40, 3);  // later: moves down
    EXPECT_EQ(heap.top().slot, 1);
    heap.arm(2, 5, 4);  // earlier: moves up
    EXPECT_EQ(heap.pop().slot, 2);
    EXPECT_EQ(heap.pop().slot, 1);
    EXPECT_EQ(heap.pop().slot, 0);
    EXPECT_TRUE(heap.empty());
    EXPECT_FALSE(heap.armed(0));
}

}  // namespace
}  // namespace schedscope::test
