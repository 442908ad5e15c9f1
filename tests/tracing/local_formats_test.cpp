// The live capture's event formats, read from a tracefs directory without /proc/kallsyms: a copy
// of this VM's (Linux 6.18) sched and power formats, and the running kernel's when tracefs is here.
#include <gtest/gtest.h>

#include <event-parse.h>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "local_event_formats.h"
#include "sched_decoder.h"
#include "support/fixtures.h"
#include "tracefs_instance.h"

using namespace schedscope;
using namespace schedscope::tracing;
namespace fs = std::filesystem;

namespace {

int formatFiles(const fs::path& events, const std::string& system) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(events / system))
        if (fs::exists(e.path() / "format")) ++n;
    return n;
}

int parsedEvents(tep_handle* tep, const std::string& system) {
    int n = 0;
    tep_event** all = tep_list_events(tep, TEP_EVENT_SORT_ID);
    for (tep_event** e = all; e && *e; ++e) n += system == (*e)->system;
    return n;
}

fs::path scratchCopyOfFixture(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("schedscope-formats-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(test::dataPath("tracefs-formats"), dir, fs::copy_options::recursive);
    return dir;
}

}  // namespace

TEST(LocalEventFormats, EverySchedAndPowerFormatOfARecordedTracefsParses) {
    const fs::path dir = test::dataPath("tracefs-formats");
    auto tep = loadLocalEventFormats(dir.string(), {"sched", "power"});
    ASSERT_TRUE(tep) << tep.error();
    EXPECT_EQ(parsedEvents(tep->get(), "sched"), formatFiles(dir / "events", "sched"));
    EXPECT_EQ(parsedEvents(tep->get(), "power"), formatFiles(dir / "events", "power"));
    tep_event* sw = tep_find_event_by_name(tep->get(), "sched", "sched_switch");
    ASSERT_NE(sw, nullptr);
    for (const char* field : {"prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid"})
        EXPECT_NE(tep_find_field(sw, field), nullptr) << field;
    EXPECT_TRUE(SchedDecoder(tep->get()).hasSchedEvents());
    // the header page gives the kernel's long size, as libtracefs sets it
    EXPECT_EQ(tep_get_long_size(tep->get()), static_cast<int>(sizeof(long)));
}

TEST(LocalEventFormats, ATruncatedFormatLosesItsFieldsAndTheRestLoad) {
    const fs::path dir = scratchCopyOfFixture("bad");
    const fs::path wakeup = dir / "events/sched/sched_wakeup/format";
    const std::string text = test::readFile(wakeup.string());
    std::ofstream(wakeup, std::ios::trunc) << text.substr(0, text.find("field:pid_t pid"));
    auto tep = loadLocalEventFormats(dir.string(), {"sched"});
    ASSERT_TRUE(tep) << tep.error();
    // libtraceevent keeps an event whose format breaks off, without the fields it did not reach
    tep_event* broken = tep_find_event_by_name(tep->get(), "sched", "sched_wakeup");
    EXPECT_TRUE(broken == nullptr || tep_find_field(broken, "pid") == nullptr);
    tep_event* sw = tep_find_event_by_name(tep->get(), "sched", "sched_switch");
    ASSERT_NE(sw, nullptr);
    EXPECT_NE(tep_find_field(sw, "next_pid"), nullptr);
    EXPECT_TRUE(SchedDecoder(tep->get()).hasSchedEvents());
    fs::remove_all(dir);
}

TEST(LocalEventFormats, NoPageFormatIsAnErrorNamingTheFile) {
    const fs::path dir = scratchCopyOfFixture("nopage");
    fs::remove(dir / "events/header_page");
    auto tep = loadLocalEventFormats(dir.string(), {"sched"});
    ASSERT_FALSE(tep);
    EXPECT_NE(tep.error().find((dir / "events/header_page").string()), std::string::npos) << tep.error();
    EXPECT_EQ(tep.error().find('\n'), std::string::npos);
    fs::remove_all(dir);
}

// The running kernel's formats: the events the capture decodes parse, with the fields it reads
// (another kernel may add an event libtraceevent cannot read; that one is not ours to need).
TEST(LocalEventFormats, TheRunningKernelsSchedFormatsParseWithTheirFields) {
    if (auto why = tracefsUnavailableReason(); !why.empty()) GTEST_SKIP() << "tracefs unavailable: " << why;
    const fs::path events = fs::path(kTracingDir) / "events";
    auto tep = loadLocalEventFormats(kTracingDir, {"sched", "power"});
    ASSERT_TRUE(tep) << tep.error();
    EXPECT_TRUE(SchedDecoder(tep->get()).hasSchedEvents());
    const std::pair<const char*, std::vector<const char*>> needed[] = {
        {"sched_switch", {"prev_pid", "prev_state", "next_pid", "next_comm"}},
        {"sched_wakeup", {"pid", "target_cpu"}},
        {"sched_migrate_task", {"pid", "orig_cpu", "dest_cpu"}},
        {"sched_process_fork", {"parent_pid", "child_pid"}},
    };
    for (const auto& [name, fields] : needed) {
        if (!fs::exists(events / "sched" / name)) continue;
        tep_event* e = tep_find_event_by_name(tep->get(), "sched", name);
        ASSERT_NE(e, nullptr) << name;
        for (const char* f : fields) EXPECT_NE(tep_find_field(e, f), nullptr) << name << "." << f;
    }
    // and at least nine in ten of all sched formats: a loader that read none would show here
    EXPECT_GE(10 * parsedEvents(tep->get(), "sched"), 9 * formatFiles(events, "sched"));
}
