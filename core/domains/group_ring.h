#pragma once
// The groups of one sched domain as the kernel links them: one circular list of sched_group per
// domain span, shared by every CPU of that span, each CPU's sd->groups pointing at its own group.
// Sharing matters beyond fidelity: a flat domain of N single-CPU groups would otherwise cost
// N*N groups (4096 CPUs: 16M groups, gigabytes) where the kernel, and this, keep N.
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "util/cpuset.h"

namespace schedscope {

struct SchedGroup {
    CpuSet span;
    CpuSet balanceMask;  // group_balance_mask: differs from span only for some overlapping NUMA groups
    unsigned capacity = 0;  // sum of CPU capacities (SCHED_CAPACITY_SCALE per full CPU)
};

// A read-only view of a shared ring, starting at one CPU's own group: index 0 is that group and
// the rest follow the ring's links, as for (sg = sd->groups; ; sg = sg->next) walks them.
class GroupRing {
public:
    GroupRing() = default;
    // A ring of its own, first group first (parsed kernel output, hand-built test trees).
    GroupRing(std::vector<SchedGroup> groups)  // NOLINT(google-explicit-constructor): a list is a ring
        : ring_(std::make_shared<const std::vector<SchedGroup>>(std::move(groups))) {}
    GroupRing(std::shared_ptr<const std::vector<SchedGroup>> ring, size_t first)
        : ring_(std::move(ring)), first_(first) {}

    size_t size() const { return ring_ ? ring_->size() : 0; }
    bool empty() const { return size() == 0; }
    const SchedGroup& operator[](size_t i) const {
        const size_t n = ring_->size();
        const size_t at = first_ + i;
        return (*ring_)[at < n ? at : at - n];
    }
    const SchedGroup& front() const { return (*this)[0]; }
    // Identity of the shared ring: CPUs whose views share it see the same groups.
    const void* ringId() const { return ring_.get(); }
    // Where this view starts in the shared ring: (*this)[i] is the ring's group (first() + i) mod size().
    size_t first() const { return first_; }

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = SchedGroup;
        using difference_type = std::ptrdiff_t;
        using pointer = const SchedGroup*;
        using reference = const SchedGroup&;
        const_iterator(const GroupRing* r, size_t i) : r_(r), i_(i) {}
        reference operator*() const { return (*r_)[i_]; }
        pointer operator->() const { return &(*r_)[i_]; }
        const_iterator& operator++() { ++i_; return *this; }
        const_iterator operator++(int) { const_iterator old = *this; ++i_; return old; }
        bool operator==(const const_iterator& o) const { return i_ == o.i_; }
        bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
    private:
        const GroupRing* r_;
        size_t i_;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

private:
    std::shared_ptr<const std::vector<SchedGroup>> ring_;
    size_t first_ = 0;
};

}  // namespace schedscope
