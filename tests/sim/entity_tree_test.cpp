// The runqueue's timeline (sim/entity_tree.h) against a scan of the whole queue: pick_eevdf(),
// CFS's leftmost and the wakeup preemption check give the entity the definitions give, on
// queues of up to 700 tasks with many equal deadlines and vruntimes (where only the enqueue
// order decides), through thousands of random enqueues and dequeues.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "sim/fair_rq.h"
#include "sim/simulator.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

struct Definition {
    const SimState& s;
    const Cpu& rq;
    bool earlier(int a, int b) const { return enqueueOrder(s, a) < enqueueOrder(s, b); }
    const Task& task(int id) const { return s.tasks[static_cast<size_t>(id)]; }
    int leftmost() const {
        int best = -1;
        for (int id : rq.queued) {
            if (best < 0 || task(id).vruntime < task(best).vruntime ||
                (task(id).vruntime == task(best).vruntime && earlier(id, best)))
                best = id;
        }
        return best;
    }
    int earliestEligible() const {
        int best = -1;
        for (int id : rq.queued) {
            if (!entityEligible(s, rq, task(id))) continue;
            if (best < 0 || task(id).deadline < task(best).deadline ||
                (task(id).deadline == task(best).deadline && earlier(id, best)))
                best = id;
        }
        return best;
    }
    // check_preempt_wakeup_fair() without RUN_TO_PARITY, as a scan
    bool preempts(const Task& wakee) const {
        const Task& c = task(rq.curr);
        if (!entityEligible(s, rq, wakee)) return false;
        for (int id : rq.queued)
            if (id != wakee.id && task(id).deadline < wakee.deadline && entityEligible(s, rq, task(id))) return false;
        return !entityEligible(s, rq, c) || !(c.deadline < wakee.deadline);
    }
};

void churn(FairClass fairClass, unsigned seed) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    constexpr int kTasks = 700;
    workload::Workload wl;
    wl.tasks.resize(kTasks);
    auto st = makeSimState(topo, tree, wl, SimOptions{});
    ASSERT_TRUE(st.ok()) << st.error();
    SimState& s = **st;
    s.feat.fairClass = fairClass;
    s.feat.runToParity = false;
    Cpu& rq = s.cpus[0];
    std::mt19937_64 rng(seed);
    const double weights[] = {1024, 335, 3121, 110, 9548};
    // few distinct values: ties in deadline and vruntime are common
    auto coarse = [&](double span) { return static_cast<double>(rng() % 64) * span / 64; };
    Task& curr = s.tasks[0];
    curr.state = TaskState::Running;
    curr.vruntime = 10e6;
    curr.deadline = 12e6;
    rq.curr = 0;
    std::vector<int> out;  // not queued
    for (int id = 1; id < kTasks; ++id) out.push_back(id);
    size_t picks = 0, eligiblePicks = 0, most = 0;
    for (int step = 0; step < 6000; ++step) {
        const bool grow = rq.queued.empty() || (!out.empty() && rng() % 100 < (step < 3000 ? 70u : 40u));
        if (grow) {
            const size_t i = rng() % out.size();
            Task& t = s.tasks[static_cast<size_t>(out[i])];
            out[i] = out.back();
            out.pop_back();
            t.weight = weights[rng() % 5];
            t.vruntime = 5e6 + coarse(10e6);
            t.deadline = t.vruntime + coarse(4e6);
            queueEntity(s, rq, t);
            if (fairClass == FairClass::Eevdf) {
                ASSERT_EQ(checkPreemptWakeup(s, rq, t), (Definition{s, rq}.preempts(t))) << "step " << step;
            }
        } else {
            const int id = rq.queued[rng() % rq.queued.size()];
            unqueueEntity(s, rq, s.tasks[static_cast<size_t>(id)]);
            out.push_back(id);
        }
        most = std::max(most, rq.queued.size());
        if (rq.queued.empty()) continue;
        const Definition def{s, rq};
        const int eligible = fairClass == FairClass::Eevdf ? def.earliestEligible() : -1;
        const int expected = eligible >= 0 ? eligible : def.leftmost();
        ASSERT_EQ(pickNextEntity(s, rq), expected) << "step " << step << ", " << rq.queued.size() << " queued";
        ++picks;
        eligiblePicks += eligible >= 0 && eligible != def.leftmost();
    }
    EXPECT_GT(picks, 5000u);
    if (fairClass == FairClass::Eevdf) {
        EXPECT_GT(eligiblePicks, picks / 4) << "the deadline order mattered";
    }
    EXPECT_GT(most, 300u) << "the queue grew large";
}

TEST(EntityTree, EevdfPicksAndPreemptsAsAScanOfTheQueueWould) {
    for (unsigned seed : {1u, 2u, 3u}) churn(FairClass::Eevdf, seed);
}

TEST(EntityTree, CfsPicksTheLeftmostVruntimeAsAScanWould) {
    for (unsigned seed : {4u, 5u}) churn(FairClass::Cfs, seed);
}

}  // namespace
}  // namespace schedscope::test
