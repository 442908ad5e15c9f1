// sched_switch's prev_state under each kernel's own table (prev_state_table.h). Before 4.14 the
// field was the raw p->state: 64 was TASK_DEAD ("x", an exiting task's final switch), 512
// TASK_PARKED, 1024 TASK_NOLOAD ("D|N": an idle kthread); a fixed 4.14+ table read them as
// parked, runnable and in I/O. The checks compare the decoder's letters with what libtraceevent
// itself prints for the same record under the same format, for every bit and the kernels'
// usual combinations, then follow an exiting task through the decoder and the tracker.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <event-parse.h>
#include <trace-seq.h>

#include "event_store.h"
#include "prev_state_table.h"
#include "sched_decoder.h"
#include "sched_tracker.h"
#include "support/fixtures.h"
#include "trace_reader.h"

using namespace schedscope::tracing;

namespace {

struct TepDeleter {
    void operator()(tep_handle* t) const { tep_free(t); }
};
using Tep = std::unique_ptr<tep_handle, TepDeleter>;

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One kernel's sched_switch format, parsed by libtraceevent.
struct Format {
    Tep tep{tep_alloc()};
    tep_event* event = nullptr;
    explicit Format(const std::string& file) {
        const std::string text = slurp(schedscope::test::dataPath(file));
        EXPECT_FALSE(text.empty()) << file;
        EXPECT_EQ(tep_parse_format(tep.get(), &event, text.data(), text.size(), "sched"), TEP_ERRNO__SUCCESS) << file;
    }
    // a sched_switch record of `prev` leaving in `state` for `next`, laid out by the format
    std::vector<unsigned char> record(int prev, int64_t state, int next) const {
        std::vector<unsigned char> d(static_cast<size_t>(event->format.fields ? 64 : 0), 0);
        auto put = [&](const char* name, const void* v, size_t n) {
            tep_format_field* f = tep_find_any_field(event, name);
            EXPECT_NE(f, nullptr) << name;
            if (f) std::memcpy(d.data() + f->offset, v, std::min(n, static_cast<size_t>(f->size)));
        };
        const auto type = static_cast<uint16_t>(event->id);
        put("common_type", &type, sizeof type);
        put("common_pid", &prev, sizeof prev);
        put("prev_comm", "prev", 5);
        put("prev_pid", &prev, sizeof prev);
        put("prev_state", &state, sizeof state);
        put("next_comm", "next", 5);
        put("next_pid", &next, sizeof next);
        return d;
    }
    // what libtraceevent prints for prev_state= (without the preemption "+")
    std::string printed(int64_t state) const {
        auto data = record(1, state, 2);
        tep_record rec{};
        rec.data = data.data();
        rec.size = static_cast<int>(data.size());
        trace_seq seq{};
        trace_seq_init(&seq);
        tep_print_event(tep.get(), &seq, &rec, "%s", TEP_PRINT_INFO);
        trace_seq_terminate(&seq);
        std::string info(seq.buffer, seq.len);
        trace_seq_destroy(&seq);
        const auto at = info.find("prev_state=");
        if (at == std::string::npos) return "(no prev_state in: " + info + ")";
        std::string s = info.substr(at + 11, info.find(' ', at) - at - 11);
        if (!s.empty() && s.back() == '+') s.pop_back();
        return s;
    }
};

// every single bit of the field's low 12, and what kernels combine
std::vector<int64_t> probeValues() {
    std::vector<int64_t> v{0, 0x82, 0x402, 0x102, 0x801, 0x900};
    for (int b = 0; b < 12; ++b) v.push_back(int64_t{1} << b);
    return v;
}

struct Case {
    const char* file;
    const char* name;
};
class PrevStateFormats : public testing::TestWithParam<Case> {};

TEST_P(PrevStateFormats, TheDecoderPrintsWhatLibtraceeventPrintsForEveryBit) {
    Format f(GetParam().file);
    ASSERT_NE(f.event, nullptr);
    const PrevStateTable table(f.event);
    EXPECT_TRUE(table.fromFormat());
    for (int64_t v : probeValues()) EXPECT_EQ(table.letters(v), f.printed(v)) << GetParam().name << " prev_state " << v;
}

INSTANTIATE_TEST_SUITE_P(Kernels, PrevStateFormats,
                         testing::Values(Case{"tracefs-formats/events/sched/sched_switch/format", "linux_6_18"},
                                         Case{"old-kernel-formats/sched_switch-linux-4.4.format", "linux_4_4"},
                                         Case{"old-kernel-formats/sched_switch-linux-3.10.format", "linux_3_10"}),
                         [](const testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

TEST(PrevStateTable, SinceFourFourteenOneReportBitNamesTheState) {
    Format f("tracefs-formats/events/sched/sched_switch/format");
    const PrevStateTable t(f.event);
    EXPECT_EQ(t.decode(0), TaskState::Runnable);
    EXPECT_EQ(t.decode(0x100), TaskState::Runnable);  // TASK_REPORT_MAX: preempted, "R+"
    EXPECT_EQ(t.decode(0x01), TaskState::Sleeping);
    EXPECT_EQ(t.decode(0x02), TaskState::DiskSleep);
    EXPECT_EQ(t.decode(0x10), TaskState::Dead);
    EXPECT_EQ(t.decode(0x20), TaskState::Dead);
    EXPECT_EQ(t.decode(0x40), TaskState::Parked);
    EXPECT_EQ(t.decode(0x80), TaskState::Idle);
}

TEST(PrevStateTable, BeforeFourFourteenTheRawTaskStateBitsMeanOtherStates) {
    Format f("old-kernel-formats/sched_switch-linux-4.4.format");
    const PrevStateTable t(f.event);
    EXPECT_EQ(t.letters(64), "x");
    EXPECT_EQ(t.decode(64), TaskState::Dead);        // TASK_DEAD: the exiting task's last switch
    EXPECT_EQ(t.decode(16), TaskState::Dead);        // EXIT_DEAD/EXIT_ZOMBIE (printed Z and X)
    EXPECT_EQ(t.decode(512), TaskState::Parked);     // TASK_PARKED (4.14+'s P is 64)
    EXPECT_EQ(t.decode(0x402), TaskState::Idle);     // TASK_IDLE = D|N, 4.14+'s I
    EXPECT_EQ(t.decode(0x82), TaskState::DiskSleep); // TASK_KILLABLE = D|K
    EXPECT_EQ(t.decode(0x80), TaskState::Unknown);   // K alone is no state
    EXPECT_EQ(t.decode(2048), TaskState::Runnable);  // TASK_STATE_MAX: preempted, "R+"
    EXPECT_EQ(t.decode(1), TaskState::Sleeping);

    Format g("old-kernel-formats/sched_switch-linux-3.10.format");
    const PrevStateTable u(g.event);
    EXPECT_EQ(u.decode(64), TaskState::Dead);
    EXPECT_EQ(u.decode(512), TaskState::Parked);
    EXPECT_EQ(u.decode(1024), TaskState::Runnable);  // TASK_STATE_MAX of 3.10
}

TEST(PrevStateTable, AFormatWithoutAFlagListForPrevStateGetsTheReportTable) {
    // a print fmt that prints the number: nothing to read, the 4.14+ table stands in
    std::string text = slurp(schedscope::test::dataPath("old-kernel-formats/sched_switch-linux-4.4.format"));
    text = text.substr(0, text.find("print fmt:")) +
           "print fmt: \"prev_pid=%d prev_state=%ld next_pid=%d\", REC->prev_pid, REC->prev_state, REC->next_pid\n";
    Tep tep(tep_alloc());
    tep_event* ev = nullptr;
    ASSERT_EQ(tep_parse_format(tep.get(), &ev, text.data(), text.size(), "sched"), TEP_ERRNO__SUCCESS);
    const PrevStateTable t(ev);
    EXPECT_FALSE(t.fromFormat());
    EXPECT_EQ(t.decode(0x40), TaskState::Parked);
    EXPECT_EQ(t.decode(0x80), TaskState::Idle);
    EXPECT_FALSE(PrevStateTable(nullptr).fromFormat());
}

TEST(PrevStateTable, AnExitingTaskOfAFourFourKernelEndsAtItsFinalSwitch) {
    Format f("old-kernel-formats/sched_switch-linux-4.4.format");
    SchedDecoder decoder(f.tep.get());
    EventStore store;
    // pid 100 runs from 1 ms, exits at 2 ms (TASK_DEAD); pid 200 idles in D|N at 3 ms, then
    // pid 300 is preempted (TASK_STATE_MAX) at 4 ms
    const struct {
        uint64_t ts;
        int prev;
        int64_t state;
        int next;
    } switches[] = {{1000000, 0, 0, 100}, {2000000, 100, 64, 200}, {3000000, 200, 0x402, 300}, {4000000, 300, 2048, 0}};
    for (const auto& s : switches) {
        auto data = f.record(s.prev, s.state, s.next);
        tep_record rec{};
        rec.ts = s.ts;
        rec.cpu = 0;
        rec.data = data.data();
        rec.size = static_cast<int>(data.size());
        decoder.decode(&rec, store);
    }
    store.finish();
    ASSERT_EQ(store.size(), 4u);
    EXPECT_EQ(store.at(0, 1).state, TaskState::Dead);
    EXPECT_EQ(store.at(0, 2).state, TaskState::Idle);
    EXPECT_EQ(store.at(0, 3).state, TaskState::Runnable);
    int ends = 0;
    for (const TaskInterval& iv : computeTaskIntervals(store)) {
        if (iv.pid != 100) continue;
        // it ran from 1 to 2 ms and nothing follows: an exit, not a sleep until the trace ends
        EXPECT_EQ(iv.phase, TaskPhase::Running);
        EXPECT_EQ(iv.end, 2000000u);
        ++ends;
    }
    EXPECT_EQ(ends, 1);
}

TEST(PrevStateTable, FtraceTextOfAnOldKernelReadsItsLetters) {
    // `cat trace` of a 4.4 kernel: the exiting task leaves in "x", an idle kthread in "D|N"
    const std::string text =
        "# tracer: nop\n"
        "#\n"
        "            true-100   [000] d..3    1.000000: sched_switch: prev_comm=true prev_pid=100 prev_prio=120 "
        "prev_state=x ==> next_comm=kworker/0:1 next_pid=200 next_prio=120\n"
        "     kworker/0:1-200   [000] d..3    1.000100: sched_switch: prev_comm=kworker/0:1 prev_pid=200 prev_prio=120 "
        "prev_state=D|N ==> next_comm=sh next_pid=300 next_prio=120\n"
        "              sh-300   [000] d..3    1.000200: sched_switch: prev_comm=sh prev_pid=300 prev_prio=120 "
        "prev_state=D|K ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
    auto store = parseFtraceText(text, "old.txt");
    ASSERT_TRUE(store.ok()) << store.error();
    ASSERT_EQ(store->size(), 3u);
    EXPECT_EQ(store->at(0, 0).state, TaskState::Dead);
    EXPECT_EQ(store->at(0, 1).state, TaskState::Idle);
    EXPECT_EQ(store->at(0, 2).state, TaskState::DiskSleep);
}

}  // namespace
