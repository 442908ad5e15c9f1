#include "sim/entity_tree.h"

namespace schedscope::sim {

namespace {
// splitmix64's finaliser: a well-mixed priority from the sequence number, the same every run
uint32_t priorityOf(uint64_t seq) {
    uint64_t z = seq + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
}

EntityNode& at(EntityTree::Pool& pool, int n) { return pool[static_cast<std::size_t>(n)]; }

bool lessVruntime(const EntityTree::Pool& pool, int a, int b) {
    const EntityNode& x = pool[static_cast<std::size_t>(a)];
    const EntityNode& y = pool[static_cast<std::size_t>(b)];
    return x.vruntime < y.vruntime || (x.vruntime == y.vruntime && x.seq < y.seq);
}
}  // namespace

void EntityTree::update(Pool& pool, int n) {
    EntityNode& node = at(pool, n);
    int best = n;
    if (node.left >= 0 && lessVruntime(pool, at(pool, node.left).minVruntime, best)) best = at(pool, node.left).minVruntime;
    if (node.right >= 0 && lessVruntime(pool, at(pool, node.right).minVruntime, best)) best = at(pool, node.right).minVruntime;
    node.minVruntime = best;
}

// n's child on `side` takes n's place, n becoming its child on the other side (a right
// rotation lifts the left child)
int EntityTree::rotateUp(Pool& pool, int n, int EntityNode::*side, int EntityNode::*other) {
    const int child = at(pool, n).*side;
    at(pool, n).*side = at(pool, child).*other;
    at(pool, child).*other = n;
    update(pool, n);
    update(pool, child);
    return child;
}

int EntityTree::rotateRight(Pool& pool, int n) { return rotateUp(pool, n, &EntityNode::left, &EntityNode::right); }
int EntityTree::rotateLeft(Pool& pool, int n) { return rotateUp(pool, n, &EntityNode::right, &EntityNode::left); }

int EntityTree::insertAt(Pool& pool, int n, int id) {
    if (n < 0) return id;
    if (before(at(pool, id), at(pool, n))) {
        at(pool, n).left = insertAt(pool, at(pool, n).left, id);
        if (at(pool, at(pool, n).left).priority > at(pool, n).priority) return rotateRight(pool, n);
    } else {
        at(pool, n).right = insertAt(pool, at(pool, n).right, id);
        if (at(pool, at(pool, n).right).priority > at(pool, n).priority) return rotateLeft(pool, n);
    }
    update(pool, n);
    return n;
}

int EntityTree::eraseAt(Pool& pool, int n, int id) {
    if (n == id) {
        EntityNode& node = at(pool, n);
        if (node.left < 0) return node.right;
        if (node.right < 0) return node.left;
        // rotate the child with the higher priority up, and go on removing below it
        if (at(pool, node.left).priority > at(pool, node.right).priority) {
            const int top = rotateRight(pool, n);
            at(pool, top).right = eraseAt(pool, at(pool, top).right, id);
            update(pool, top);
            return top;
        }
        const int top = rotateLeft(pool, n);
        at(pool, top).left = eraseAt(pool, at(pool, top).left, id);
        update(pool, top);
        return top;
    }
    if (before(at(pool, id), at(pool, n))) at(pool, n).left = eraseAt(pool, at(pool, n).left, id);
    else at(pool, n).right = eraseAt(pool, at(pool, n).right, id);
    update(pool, n);
    return n;
}

void EntityTree::insert(Pool& pool, int id, double key, double vruntime, uint64_t seq) {
    EntityNode& node = at(pool, id);
    node = EntityNode{};
    node.priority = priorityOf(seq);
    node.seq = seq;
    node.key = key;
    node.vruntime = vruntime;
    node.minVruntime = id;
    root_ = insertAt(pool, root_, id);
}

void EntityTree::erase(Pool& pool, int id) { root_ = eraseAt(pool, root_, id); }

}  // namespace schedscope::sim
