#pragma once
// AvgVruntime: a runqueue's weighted average vruntime kept as running sums, as EEVDF keeps it
// (kernel/sched/fair.c since v6.6: cfs_rq->avg_vruntime = sum of (v_i - v0) * w_i and
// cfs_rq->avg_load = sum of w_i over the queued entities, updated on enqueue and dequeue, curr
// added when the average is read). The keys are integers, as in the kernel, so a dequeue takes
// out exactly what its enqueue put in: the sums never drift, whatever the order. The simulator's
// vruntime is a double; a key is round(v * 16) - v0, i.e. vruntime to 1/16 ns.
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace schedscope::sim {

class AvgVruntime {
public:
    static constexpr double kScale = 16;  // key units per ns of vruntime

    // round half away from zero, as llround() (a libm call here: 1% of a run) but one truncation
    static int64_t fixed(double vruntime) {
        const double x = vruntime * kScale;
        return static_cast<int64_t>(x + (x < 0 ? -0.5 : 0.5));
    }

    // mirrors avg_vruntime_add() in kernel/sched/fair.c (v6.6)
    void add(double vruntime, int64_t weight) {
        const int64_t v = fixed(vruntime);
        if (load_ == 0) zero_ = v;  // an empty queue: the origin is free to move
        else if (std::llabs(v - zero_) > kRebase) update(v);
        sum_ += (v - zero_) * weight;
        load_ += weight;
    }
    // mirrors avg_vruntime_sub()
    void sub(double vruntime, int64_t weight) {
        sum_ -= (fixed(vruntime) - zero_) * weight;
        load_ -= weight;
    }
    // mirrors avg_vruntime(): the average over the queued entities and `curr` (weight 0: none);
    // `empty` when nothing is queued or running. As the kernel does, the division floors, so the
    // average is a key (1/16 ns) at or below the true one and an entity placed there with no lag
    // is eligible (its key times the load does not exceed the sum).
    double avg(double currVruntime, int64_t currWeight, double empty) const {
        int64_t sum = sum_, load = load_;
        if (currWeight > 0) {
            sum += (fixed(currVruntime) - zero_) * currWeight;
            load += currWeight;
        }
        if (load == 0) return empty;
        const int64_t floored = (sum < 0 ? sum - (load - 1) : sum) / load;  // "sign flips effective floor / ceil"
        return static_cast<double>(zero_ + floored) / kScale;
    }
    // mirrors vruntime_eligible() for a scan: the sums with `curr` (weight 0: none) taken once,
    // then each vruntime compared as the kernel does, without dividing:
    // sum of (v_i - v0) w_i >= (vruntime - v0) x sum of w_i
    class EligibleTest {
    public:
        EligibleTest(int64_t sum, int64_t load, int64_t zero) : sum_(sum), load_(load), zero_(zero) {}
        bool operator()(double vruntime) const { return load_ == 0 || sum_ >= (fixed(vruntime) - zero_) * load_; }

    private:
        int64_t sum_, load_, zero_;
    };
    EligibleTest eligibleTest(double currVruntime, int64_t currWeight) const {
        int64_t sum = sum_, load = load_;
        if (currWeight > 0) {
            sum += (fixed(currVruntime) - zero_) * currWeight;
            load += currWeight;
        }
        return {sum, load, zero_};
    }
    // `vruntime` is not past the average over the queued entities and `curr`
    bool eligible(double vruntime, double currVruntime, int64_t currWeight) const {
        return eligibleTest(currVruntime, currWeight)(vruntime);
    }
    int64_t load() const { return load_; }

private:
    // Keys stay within 2^32 of the origin (about 0.27 s of vruntime) so that key x weight x
    // queue length stays far from overflow on long runs; when an enqueue lands farther, the
    // origin moves to it (the kernel moves it with min_vruntime).
    static constexpr int64_t kRebase = int64_t{1} << 32;

    // mirrors avg_vruntime_update(): the origin moves by delta, every key by -delta
    void update(int64_t newZero) {
        sum_ -= load_ * (newZero - zero_);
        zero_ = newZero;
    }

    int64_t zero_ = 0;  // v0, in key units (the kernel's cfs_rq->min_vruntime)
    int64_t sum_ = 0;   // cfs_rq->avg_vruntime
    int64_t load_ = 0;  // cfs_rq->avg_load
};

}  // namespace schedscope::sim
