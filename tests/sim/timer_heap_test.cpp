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

TEST(TimerHeap, MatchesAnOrderedSet) {
    constexpr int kSlots = 37;
    TimerHeap heap(kSlots);
    std::set<std::tuple<int64_t, uint64_t, int>> ref;
    std::map<int, std::tuple<int64_t, uint64_t, int>> armed;
    std::mt19937_64 rng(5);
    uint64_t seq = 0;
    for (int step = 0; step < 200000; ++step) {
        const int op = static_cast<int>(rng() % 10);
        const int slot = static_cast<int>(rng() % kSlots);
        if (op < 6) {  // arm or re-arm, often at a tied time
            const int64_t t = static_cast<int64_t>(rng() % 50);
            if (auto it = armed.find(slot); it != armed.end()) ref.erase(it->second);
            armed[slot] = {t, seq, slot};
            ref.insert(armed[slot]);
            heap.arm(slot, t, seq++);
        } else if (op < 8) {
            if (auto it = armed.find(slot); it != armed.end()) {
                ref.erase(it->second);
                armed.erase(it);
            }
            heap.cancel(slot);
        } else if (!ref.empty()) {
            const auto want = *ref.begin();
            ref.erase(ref.begin());
            armed.erase(std::get<2>(want));
            const TimerHeap::Entry got = heap.pop();
            ASSERT_EQ(got.t, std::get<0>(want));
            ASSERT_EQ(got.seq, std::get<1>(want));
            ASSERT_EQ(got.slot, std::get<2>(want));
        }
        ASSERT_EQ(heap.size(), ref.size());
        ASSERT_EQ(heap.armed(slot), armed.count(slot) == 1);
        if (!ref.empty()) {
            ASSERT_EQ(heap.top().slot, std::get<2>(*ref.begin()));
        }
    }
}

// Batches of in-place changes (set / unset, then endBatch()) mixed with single arms, cancels
// and pops, as flushBursts() does when a whole node is re-timed at once.
TEST(TimerHeap, BatchesMatchAnOrderedSet) {
    constexpr int kSlots = 64;
    TimerHeap heap(kSlots);
    std::set<std::tuple<int64_t, uint64_t, int>> ref;
    std::map<int, std::tuple<int64_t, uint64_t, int>> armed;
    std::mt19937_64 rng(11);
    uint64_t seq = 0;
    auto arm = [&](int slot, int64_t t, bool batch) {
        if (auto it = armed.find(slot); it != armed.end()) ref.erase(it->second);
        armed[slot] = {t, seq, slot};
        ref.insert(armed[slot]);
        if (batch) heap.set(slot, t, seq++);
        else heap.arm(slot, t, seq++);
    };
    auto cancel = [&](int slot, bool batch) {
        if (auto it = armed.find(slot); it != armed.end()) {
            ref.erase(it->second);
            armed.erase(it);
        }
        if (batch) heap.unset(slot);
        else heap.cancel(slot);
    };
    for (int round = 0; round < 3000; ++round) {
        const bool batch = rng() % 2 == 0;
        const int changes = 1 + static_cast<int>(rng() % (batch ? kSlots : 4));
        for (int i = 0; i < changes; ++i) {
            const int slot = static_cast<int>(rng() % kSlots);
            if (rng() % 4 == 0) cancel(slot, batch);
            else arm(slot, static_cast<int64_t>(rng() % 100), batch);
        }
        if (batch) heap.endBatch();
        ASSERT_EQ(heap.size(), ref.size());
        for (int pops = static_cast<int>(rng() % 6); pops > 0 && !ref.empty(); --pops) {
            const auto want = *ref.begin();
            ref.erase(ref.begin());
            armed.erase(std::get<2>(want));
            const TimerHeap::Entry got = heap.pop();
            ASSERT_EQ(got.t, std::get<0>(want));
            ASSERT_EQ(got.seq, std::get<1>(want));
            ASSERT_EQ(got.slot, std::get<2>(want));
        }
        for (int slot = 0; slot < kSlots; ++slot) ASSERT_EQ(heap.armed(slot), armed.count(slot) == 1);
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
