#pragma once
// sched_switch's prev_state, decoded with the table its own kernel prints it with. The bits
// changed meaning in 4.14: before, prev_state was the raw p->state (64 was TASK_DEAD, the final
// switch of an exiting task, printed "x"; 512 TASK_PARKED; 1024 TASK_NOLOAD, "D|N" being an
// idle kthread), since then one TASK_REPORT bit (64 is P, 128 is I). The event's print fmt
// carries its kernel's {value, letter} list in __print_flags(prev_state ...), so the decoder
// reads that list once instead of assuming one kernel's bits.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "event_schema.h"

struct tep_event;

namespace schedscope::tracing {

class PrevStateTable {
public:
    // The TASK_REPORT table of 4.14+ kernels (S D T t X Z P I by bit): for a format whose print
    // fmt has no readable flag list for prev_state.
    PrevStateTable();
    // The list of `switchEvent`'s __print_flags() for prev_state, else the 4.14+ table.
    explicit PrevStateTable(const tep_event* switchEvent);

    // The state the kernel printed for `value`: the letters of every listed value whose bits are
    // all set, combined by taskStateFromLetters(); no letter is the "R" branch (preempted).
    TaskState decode(int64_t value) const;
    // The letters the kernel prints for `value` ("D|K", "R" when none), as its print fmt would.
    std::string letters(int64_t value) const;
    // False when the built-in 4.14+ table is in use.
    bool fromFormat() const { return fromFormat_; }

private:
    TaskState decodeLetters(int64_t value) const { return taskStateFromLetters(letters(value)); }
    void fillDense();

    std::vector<std::pair<uint64_t, char>> flags_;
    bool fromFormat_ = false;
    // every value below 4096 (all the bits any kernel's table and preemption flag use) decoded
    // once at construction: decode() is a load, and the table is read-only, so threads share it
    std::array<TaskState, 4096> dense_{};
};

}  // namespace schedscope::tracing
