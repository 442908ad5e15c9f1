// EventStore's append/finish/trim path with arbitrary event sequences, as any source (a corrupt
// trace, a live ring buffer, later BPF) could deliver them. Checks the store's own invariants:
// per-CPU partitions in time order after finish(), forEach in global time order and complete,
// every event read back as appended (modulo the documented encoding).
#include <cstdlib>
#include <cstring>
#include <string>

#include "event_store.h"

using namespace schedscope::tracing;

namespace {
struct Reader {
    const uint8_t* p;
    size_t n;
    template <typename T>
    T get() {
        T v{};
        const size_t k = std::min(sizeof v, n);
        std::memcpy(&v, p, k);
        p += k;
        n -= k;
        return v;
    }
};

void check(const EventStore& s) {
    size_t n = 0;
    uint64_t last = 0;
    s.forEach([&](const SchedEvent& e) {
        if (e.ts < last || e.ts < s.firstTs() || e.ts > s.lastTs()) std::abort();
        last = e.ts;
        ++n;
        return true;
    });
    if (n != s.size()) std::abort();
    size_t perCpu = 0;
    for (int c = 0; c < s.cpuCount(); ++c) {
        perCpu += s.cpuSize(c);
        for (size_t i = 1; i < s.cpuSize(c); ++i)
            if (s.tsAt(c, i) < s.tsAt(c, i - 1)) std::abort();
    }
    if (perCpu != s.size()) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader r{data, size};
    EventStore s;
    uint64_t base = r.get<uint64_t>();
    while (r.n > 0) {
        const uint8_t op = r.get<uint8_t>();
        switch (op % 8) {
            case 0: case 1: case 2: case 3: {  // append (timestamps near a base, sometimes far)
                SchedEvent e;
                const auto delta = r.get<int32_t>();
                e.ts = op & 0x80 ? r.get<uint64_t>() : base + static_cast<uint64_t>(static_cast<int64_t>(delta));
                base = e.ts;
                e.cpu = r.get<int16_t>() % 70;
                if (op & 0x40) e.cpu = r.get<int32_t>();
                e.kind = static_cast<EventKind>(r.get<uint8_t>() % (kEventKindCount + 1));
                e.pid = r.get<int32_t>();
                e.pid2 = r.get<int32_t>();
                e.prio = r.get<int16_t>();
                e.state = static_cast<TaskState>(r.get<uint8_t>() % 9);
                e.srcCpu = r.get<int16_t>();
                e.dstCpu = r.get<int16_t>();
                const size_t before = s.size();
                s.append(e);
                if (s.size() == before + 1 && e.cpu >= 0) {
                    const SchedEvent back = s.at(e.cpu, s.cpuSize(e.cpu) - 1);
                    if (back.ts != e.ts || back.kind != e.kind || back.pid != e.pid) std::abort();
                }
                break;
            }
            case 4: {
                const auto len = static_cast<size_t>(r.get<uint8_t>() % 24);
                std::string comm(reinterpret_cast<const char*>(r.p), std::min(len, r.n));
                r.p += comm.size();
                r.n -= comm.size();
                const auto pid = r.get<int32_t>();
                s.noteComm(pid, base, comm);
                (void)s.commAt(pid, base);
                break;
            }
            case 5:
                s.finish();
                check(s);
                break;
            case 6:
                s.trim(base - static_cast<uint64_t>(r.get<uint16_t>()) * 1000);
                break;
            case 7:
                s.addAnomaly(static_cast<Anomaly>(r.get<uint8_t>() % static_cast<uint8_t>(Anomaly::Count)), r.get<uint8_t>());
                s.countOther("other");
                break;
        }
    }
    s.finish();
    check(s);
    (void)s.residentBytes();
    (void)s.taskCount();
    return 0;
}
