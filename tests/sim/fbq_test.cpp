// find_busiest_queue()'s NUMA classes (fbq_classify_group(), fbq_classify_rq(), CONFIG_NUMA_
// BALANCING): at a NUMA domain the busiest group's class bounds the runqueues a balance may take
// from, so tasks that run at their preferred node stay while a runqueue holds tasks that have
// none (`regular`) or run away from theirs (`remote`). On two nodes of two cores, CPU 0 (node 0)
// balances at the NUMA domain against node 1, whose CPU 2 runs the most load.
#include <gtest/gtest.h>

#include "balance_fixture.h"
#include "sim/load_balance.h"
#include "sim/numa_balancing.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

// Tasks 0 and 1 keep node 0's CPUs busy; tasks 2-4 run on CPU 2 with their memory on node 1,
// tasks 5 and 6 on CPU 3 with memory on node 0 when `cpu3Remote`, else none (CPU bound).
// Every task has run a scan delay (1 s) when `scanned`, so NUMA balancing knows its memory.
struct NodeOneBusy {
    Fixture f{twoNodesOfTwoCores(), "linux-6.12", true, 7};
    LbEnv env;
    SdLbStats sds;
    NodeOneBusy(bool cpu3Remote, bool scanned) {
        const std::vector<int> cpuOf{0, 1, 2, 2, 2, 3, 3};
        for (int id = 0; id < 7; ++id) {
            const bool memory = (id >= 2 && id <= 4) || (cpu3Remote && id >= 5);
            f.wl.tasks[static_cast<size_t>(id)].memFraction = memory ? 0.5 : 0;
            Task& t = f.s->tasks[static_cast<size_t>(id)];
            t.homeNode = f.s->info[id >= 5 ? 0 : 2].node;
            t.sumExec = scanned ? 1e9 : 0.5e9;
            f.place(id, cpuOf[static_cast<size_t>(id)]);
        }
        env.sd = domainIndex(f.tree, 0, "NUMA");
        env.dstCpu = 0;
        env.idle = BalanceIdle::NotIdle;
        env.span = &f.tree.domainsOf(0)[static_cast<size_t>(env.sd)].span;
        env.cpusWhole = true;
    }
    // find_busiest_group() then find_busiest_queue(): the CPU a balance would take from
    int source() {
        const int g = findBusiestGroup(*f.s, env, sds);
        if (g < 0) return -1;
        return findBusiestQueue(*f.s, env, g);
    }
};

TEST(FbqClassify, ABalanceLeavesTasksAtTheirMemoryWhileAnotherQueueHasTasksWithoutAPreferredNode) {
    NodeOneBusy b(false, true);
    ASSERT_GE(b.env.sd, 0);
    EXPECT_EQ(b.source(), 3);
    EXPECT_EQ(b.env.type, MigrationType::Load);
    EXPECT_EQ(b.env.fbqType, FbqType::Regular) << "5 tasks in node 1, 3 of them with a preferred node";
    EXPECT_EQ(fbqClassifyRq(*b.f.s, 2), FbqType::All) << "all at their preferred node";
    EXPECT_EQ(fbqClassifyRq(*b.f.s, 3), FbqType::Regular);
}

// --explain says which runqueues the balance looked at: CPU 0's balance at the NUMA domain in the
// first situation
TEST(FbqClassify, TheDecisionLogSaysWhichRunqueuesTheBalanceLookedAt) {
    NodeOneBusy b(false, true);
    std::vector<Decision> log;
    b.f.s->decisions = &log;
    NullOps ops;
    loadBalance(*b.f.s, ops, 0, b.env.sd, BalanceIdle::NotIdle, MigrationCause::LbPeriodic, true);
    ASSERT_FALSE(log.empty());
    EXPECT_NE(log.back().rule.find("find_busiest_queue: cpu 3 (1 busy runqueue(s) passed over: every task on them has a "
                                   "preferred node, and the group has tasks without one)"),
              std::string::npos)
        << log.back().rule;
}

TEST(FbqClassify, ARemoteQueueGoesBeforeOneWhoseTasksAreAllAtTheirMemory) {
    NodeOneBusy b(true, true);
    EXPECT_EQ(b.source(), 3);
    EXPECT_EQ(b.env.fbqType, FbqType::Remote) << "every task has a preferred node, 2 of 5 not here";
    EXPECT_EQ(fbqClassifyRq(*b.f.s, 3), FbqType::Remote);
}

// find_busiest_queue() reads back the runqueue classes find_busiest_group() counted for the
// busiest group; asked of another pass's group, or with none counted, it counts them itself
TEST(FbqClassify, FindBusiestQueueCountsTheClassesItselfWithoutTheGroupsOwn) {
    NodeOneBusy b(false, true);
    const int g = findBusiestGroup(*b.f.s, b.env, b.sds);
    ASSERT_GE(g, 0);
    EXPECT_EQ(b.env.fbqClassesOfGroup, g);
    EXPECT_EQ(b.f.s->fbqRqClass[2], static_cast<uint8_t>(FbqType::All));
    EXPECT_EQ(b.f.s->fbqRqClass[3], static_cast<uint8_t>(FbqType::Regular));
    b.f.s->fbqRqClass[2] = static_cast<uint8_t>(FbqType::Regular);  // as another pass may leave it
    EXPECT_EQ(findBusiestQueue(*b.f.s, b.env, g), 2) << "the counted classes are what it reads: CPU 2 is the busiest";
    b.env.fbqClassesOfGroup = -1;
    EXPECT_EQ(findBusiestQueue(*b.f.s, b.env, g), 3) << "none counted: by its own count CPU 2's tasks are all at their memory";
}

// The busiest load is taken, as without the classes, when no task has a preferred node yet
// (their memory not scanned) or NUMA balancing is off
TEST(FbqClassify, NoPreferredNodesLeaveTheBusiestQueue) {
    {
        NodeOneBusy b(false, false);
        EXPECT_EQ(b.source(), 2);
        EXPECT_EQ(b.env.fbqType, FbqType::Regular);
        EXPECT_EQ(fbqClassifyRq(*b.f.s, 2), FbqType::Regular);
    }
    {
        NodeOneBusy b(true, true);
        b.f.s->opt.numaMemoryFollowsS = 0;  // numa_balancing=0
        EXPECT_EQ(b.source(), 2);
    }
}

// Below NUMA the class stays `all` (the kernel's lb_env starts with fbq_type = all): MC of node
// 1's CPU 3 takes from CPU 2 though its tasks are all at their memory
TEST(FbqClassify, OnlyNumaDomainsClassify) {
    NodeOneBusy b(false, true);
    LbEnv env;
    env.sd = domainIndex(b.f.tree, 3, "MC");
    ASSERT_GE(env.sd, 0);
    env.dstCpu = 3;
    env.idle = BalanceIdle::NotIdle;
    env.span = &b.f.tree.domainsOf(3)[static_cast<size_t>(env.sd)].span;
    env.cpusWhole = true;
    SdLbStats sds;
    const int g = findBusiestGroup(*b.f.s, env, sds);
    ASSERT_GE(g, 0);
    EXPECT_EQ(env.fbqType, FbqType::All);
    EXPECT_EQ(findBusiestQueue(*b.f.s, env, g), 2);
}

}  // namespace
}  // namespace schedscope::test
