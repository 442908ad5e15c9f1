// ftrace text (tracefs `trace` and `trace-cmd report`) through parseFtraceText: a store whose
// merge is in time order, or a one-line error. The store's migrations, from its
// sched_migrate_task or inferred from its switches, never crash, and an inferred move goes from
// one CPU to another.
#include <cstdlib>
#include <string>
#include <string_view>

#include "migration_causes.h"
#include "switch_migrations.h"
#include "trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // A small line cap too, so the long-line path is fuzzed as well.
    for (size_t cap : {schedscope::tracing::kMaxTextLineBytes, size_t{64}}) {
        auto s = schedscope::tracing::parseFtraceText(text, "fuzz", cap);
        if (s.ok()) {
            size_t n = 0;
            uint64_t last = 0;
            s->forEach([&](const schedscope::tracing::SchedEvent& e) {
                if (e.ts < last) std::abort();
                last = e.ts;
                ++n;
                return true;
            });
            if (n != s->size()) std::abort();
            (void)schedscope::tracing::inferMigrations(*s);
            for (const auto& m : schedscope::tracing::migrationsFromSwitches(*s))
                if (m.src < 0 || m.dst < 0 || m.src == m.dst || !m.seenInSwitches) std::abort();
        } else if (s.error().find('\n') != std::string::npos) {
            std::abort();
        }
    }
    return 0;
}
