#include "prev_state_table.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <event-parse.h>

namespace schedscope::tracing {
namespace {

// An expression tree deeper than this is no sched_switch format: stop looking.
constexpr int kMaxDepth = 64;

bool namesPrevState(const tep_print_arg* a, int depth) {
    if (!a || depth > kMaxDepth) return false;
    switch (a->type) {
        case TEP_PRINT_FIELD: return a->field.name && std::strcmp(a->field.name, "prev_state") == 0;
        case TEP_PRINT_OP: return namesPrevState(a->op.left, depth + 1) || namesPrevState(a->op.right, depth + 1);
        case TEP_PRINT_TYPE: return namesPrevState(a->typecast.item, depth + 1);
        default: return false;
    }
}

// The __print_flags() over prev_state, wherever the print fmt nests it (the "? :" of
// "(prev_state & mask) ? __print_flags(...) : "R"" is an op tree).
const tep_print_arg* findPrevStateFlags(const tep_print_arg* a, int depth) {
    if (!a || depth > kMaxDepth) return nullptr;
    switch (a->type) {
        case TEP_PRINT_FLAGS: return namesPrevState(a->flags.field, depth + 1) ? a : nullptr;
        case TEP_PRINT_OP:
            if (const tep_print_arg* f = findPrevStateFlags(a->op.left, depth + 1)) return f;
            return findPrevStateFlags(a->op.right, depth + 1);
        case TEP_PRINT_TYPE: return findPrevStateFlags(a->typecast.item, depth + 1);
        default: return nullptr;
    }
}

}  // namespace

PrevStateTable::PrevStateTable() {
    constexpr char letters[] = {'S', 'D', 'T', 't', 'X', 'Z', 'P', 'I'};
    for (unsigned b = 0; b < 8; ++b) flags_.emplace_back(uint64_t{1} << b, letters[b]);
    fillDense();
}

void PrevStateTable::fillDense() {
    for (size_t v = 0; v < dense_.size(); ++v) dense_[v] = decodeLetters(static_cast<int64_t>(v));
}

PrevStateTable::PrevStateTable(const tep_event* switchEvent) {
    const tep_print_arg* flags = nullptr;
    if (switchEvent)
        for (const tep_print_arg* a = switchEvent->print_fmt.args; a && !flags; a = a->next)
            flags = findPrevStateFlags(a, 0);
    if (flags) {
        // libtraceevent keeps each value as the text of its evaluated expression
        for (const tep_print_flag_sym* f = flags->flags.flags; f; f = f->next) {
            if (!f->value || !f->str || std::strlen(f->str) != 1) continue;
            char* end = nullptr;
            errno = 0;
            const unsigned long long v = std::strtoull(f->value, &end, 0);
            if (errno || end == f->value || *end || v == 0) continue;
            flags_.emplace_back(v, f->str[0]);
        }
    }
    fromFormat_ = !flags_.empty();
    if (fromFormat_) fillDense();
    else *this = PrevStateTable();
}

std::string PrevStateTable::letters(int64_t value) const {
    // as libtraceevent prints __print_flags(): each listed value whose bits are all set, in list
    // order, its bits then cleared
    auto v = static_cast<uint64_t>(value);
    std::string out;
    for (const auto& [bits, letter] : flags_) {
        if ((v & bits) != bits) continue;
        if (!out.empty()) out += '|';
        out += letter;
        v &= ~bits;
    }
    return out.empty() ? "R" : out;
}

TaskState PrevStateTable::decode(int64_t value) const {
    if (value >= 0 && static_cast<uint64_t>(value) < dense_.size()) return dense_[static_cast<size_t>(value)];
    return decodeLetters(value);
}

}  // namespace schedscope::tracing
