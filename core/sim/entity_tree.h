#pragma once
// EntityTree: a runqueue's queued entities in the order the fair class picks them, as the
// kernel keeps them in cfs_rq->tasks_timeline, an augmented rbtree (kernel/sched/fair.c):
// sorted by virtual deadline under EEVDF (since "sched/eevdf: Sort the rbtree by virtual
// deadline", 6.8; 6.6 sorted by vruntime and augmented the deadline, which finds the same
// entity) with each subtree's minimum vruntime kept at its root, so pick_eevdf() finds the
// earliest eligible deadline in O(log n); sorted by vruntime under CFS.
//
// Here it is a treap: nodes are tasks (one pool indexed by task id, shared by every runqueue,
// since a task is queued on one runqueue at a time) and priorities are a hash of the enqueue
// sequence number, so the shape, and with it every result, is the same on every run. Ties in
// the sort key go to the earlier enqueue, as the kernel's rb_add_cached() puts an equal key
// after those already there; the sequence number is that order.
//
// A queue of hackbench's 250 tasks per CPU was scanned whole on every pick and every wakeup
// preemption check: 58% and 15% of such a run.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedscope::sim {

struct EntityNode {
    int left = -1, right = -1;
    uint32_t priority = 0;  // heap order: a parent's is not below its children's
    uint64_t seq = 0;       // enqueue order: the tie-break
    double key = 0;         // deadline (EEVDF) or vruntime (CFS) at enqueue
    double vruntime = 0;    // at enqueue (a queued entity's vruntime does not change)
    int minVruntime = -1;   // the subtree's entity with the least (vruntime, seq)
    int slot = -1;          // where the task is in Cpu::queued (set by queueEntity())
};

class EntityTree {
public:
    using Pool = std::vector<EntityNode>;

    bool empty() const { return root_ < 0; }
    // `id` joins with sort key `key`; `seq` must grow with every insert into any tree
    void insert(Pool& pool, int id, double key, double vruntime, uint64_t seq);
    // `id`, which is in this tree, leaves it
    void erase(Pool& pool, int id);
    // the entity with the least (vruntime, seq), -1 if empty: CFS's leftmost, min_vruntime's
    // candidate, and pick_eevdf()'s answer when no entity is eligible
    int leastVruntime(const Pool& pool) const { return root_ < 0 ? -1 : pool[static_cast<std::size_t>(root_)].minVruntime; }
    // the first entity in key order whose vruntime passes `eligible`, -1 if none; `eligible`
    // must hold for every vruntime at or below one that passes (entity_eligible() does: the
    // average is a bound). The kernel's pick_eevdf() walk: left while the left subtree holds an
    // eligible entity, else this one when it is eligible, else right.
    template <typename Eligible>
    int firstEligible(const Pool& pool, Eligible eligible) const {
        int n = root_;
        if (n < 0 || !eligible(minVruntimeOf(pool, n))) return -1;
        for (;;) {
            const EntityNode& node = pool[static_cast<std::size_t>(n)];
            if (node.left >= 0 && eligible(minVruntimeOf(pool, node.left))) n = node.left;
            else if (eligible(node.vruntime)) return n;
            else n = node.right;  // holds one: the subtree did and neither of the above
        }
    }

private:
    static double minVruntimeOf(const Pool& pool, int n) {
        return pool[static_cast<std::size_t>(pool[static_cast<std::size_t>(n)].minVruntime)].vruntime;
    }
    static bool before(const EntityNode& a, const EntityNode& b) {
        return a.key < b.key || (a.key == b.key && a.seq < b.seq);
    }
    static void update(Pool& pool, int n);
    static int insertAt(Pool& pool, int n, int id);
    static int eraseAt(Pool& pool, int n, int id);
    static int rotateUp(Pool& pool, int n, int EntityNode::*side, int EntityNode::*other);
    static int rotateRight(Pool& pool, int n);
    static int rotateLeft(Pool& pool, int n);

    int root_ = -1;
};

}  // namespace schedscope::sim
